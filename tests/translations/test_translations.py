"""Translations, part A: catalogs made and refreshed as msgmerge does (`rulesmith translate
update`), counted (`translate status`), checked (the check's `translations`), asked text by text
(translations/freshness.py), and known to errata, rulings and the diff.

Every test works on a copy of tests/fixtures/translations (the game `tale` and its German
catalog); nothing here writes to the repository. Catalogs are filled with polib, as a translator's
tool (Poedit) would fill them.
"""

from __future__ import annotations

import datetime
import json
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import polib
import pytest
from conftest import disk_full_after, rulesmith_here, run_rulesmith

from rulesmith.checks.check import translation_problems
from rulesmith.content.game import load_game
from rulesmith.problems import Problems
from rulesmith.translations import freshness
from rulesmith.translations.english import english

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "translations"
CATALOG = Path("tale/translations/de.po")  # inside the content folder
FAQ = ["--source", "publisher-faq", "--description", "Publisher FAQ v2", "--url", "https://example.org/faq"]
UPDATE_HINT = "run `rulesmith translate update tale de`: it makes entries of texts that are gone obsolete (#~)"
NUMBER_HINT = ('keep every number of the English, written in digits as the English writes it ("3 cards": "3 cartas"); '
               "when the English changed, translate the current English")
# Every text of the fixture game, in reading order: what a catalog of it holds.
ADDRESSES = [
    "game:tale.name", "game:tale.description", "module:base.name",
    "kind:card.name", "kind:card.plural", "kind:card.fields.power.name", "kind:card.fields.effect.name",
    "kind:card.fields.colour.name",
    "card:dragon.name", "card:dragon.fields.colour", "card:dragon.text", "card:dragon.fields.effect",
    "card:knight.name", "card:knight.fields.colour", "card:knight.text", "card:knight.fields.power.note",
    "rule:setup.title", "rule:setup.body",
    "table:turns.title", "table:turns.columns.turn.title", "table:turns.columns.does.title",
    "table:turns.rows.1.does", "table:turns.rows.2.does",
    "procedure:bot.title", "procedure:bot.nodes.ask.branches.play.when", "procedure:bot.nodes.ask.branches.done.when",
    "procedure:bot.nodes.ask.text", "procedure:bot.nodes.play.text", "procedure:bot.nodes.done.text",
    "term:hero.term", "term:hero.aliases.0", "term:hero.definition",
]


@pytest.fixture
def content(tmp_path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(FIXTURE, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def run(content: Path, *args: str):
    return rulesmith_here(*args, cwd=content)


def catalog(content: Path) -> polib.POFile:
    return polib.pofile(str(content / CATALOG))


def entry(po: polib.POFile, address: str) -> polib.POEntry:
    return next(e for e in po if e.msgctxt == address)


def game(content: Path):
    loaded = load_game(content / "tale", Problems(), content)
    assert loaded is not None
    return loaded


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems_of(content: Path) -> list[str]:
    done = run(content, "check", "--no-cache")
    assert done.returncode == 1, done.stdout + done.stderr
    return [line for line in done.stderr.splitlines() if ": warning: " not in line][:-1]  # less "n problems found"


# ---------------------------------------------------------------- update: created, refreshed, obsolete

@pytest.mark.unit
def test_update_creates_a_catalog_of_every_text(content):
    (content / CATALOG).unlink()
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{CATALOG}: created with 32 text(s) to translate",
        f"{CATALOG}: 0 translated, 0 outdated, 32 missing (of 32)"]
    po = catalog(content)
    assert [e.msgctxt for e in po] == ADDRESSES
    assert all(e.msgstr == "" and not e.obsolete for e in po)
    assert po.metadata["Language"] == "de"
    dragon = entry(po, "card:dragon.text")
    assert (dragon.msgid, dragon.occurrences) == ("Fights the [[card:knight]].", [("content.yaml", "7")])
    assert dragon.comment.splitlines() == ["Card Dragon", "Markdown: keep every [[…]] reference as written."]
    # Nothing to translate in a number, nor in what cites the English rulebook.
    assert not any(e.msgid in ("1", "2", "Cards", "Tale Rulebook") and e.msgctxt.endswith(("turn", "section")) for e in po)


@pytest.mark.unit
def test_the_fixture_catalog_is_up_to_date_and_update_leaves_it_byte_for_byte(content):
    before = (content / CATALOG).read_bytes()
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{CATALOG}: already up to date with the English",
                                        f"{CATALOG}: 11 translated, 0 outdated, 21 missing (of 32)"]
    assert (content / CATALOG).read_bytes() == before


@pytest.mark.unit
def test_a_changed_english_keeps_the_translation_marked_fuzzy_with_the_previous_english(content):
    edit(content / "tale/content.yaml", 'text: "Fights the [[card:knight]]."', 'text: "Fights the [[card:knight]] twice."')
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{CATALOG}: refreshed: 0 new, 1 made outdated (fuzzy), 0 obsolete, 0 back from obsolete",
        "  outdated: card:dragon.text",
        "tale/translations/tale.pot: written",
        f"{CATALOG}: 10 translated, 1 outdated, 21 missing (of 32)"]
    dragon = entry(catalog(content), "card:dragon.text")
    assert dragon.fuzzy
    assert (dragon.previous_msgid, dragon.msgid, dragon.msgstr) == (
        "Fights the [[card:knight]].", "Fights the [[card:knight]] twice.", "Kämpft gegen den [[card:knight]].")
    assert "current since" not in dragon.comment  # no longer current
    assert '#| msgid "Fights the [[card:knight]]."' in (content / CATALOG).read_text(encoding="utf-8")
    # A second change before the translator came: still held to the English it was made from.
    edit(content / "tale/content.yaml", "twice.", "three times.")
    assert run(content, "translate", "update", "tale", "de").returncode == 0
    assert entry(catalog(content), "card:dragon.text").previous_msgid == "Fights the [[card:knight]]."


@pytest.mark.unit
def test_a_text_that_is_gone_becomes_obsolete_and_comes_back_with_its_translation(content):
    edit(content / "tale/content.yaml", "aliases: [Heroes], ", "")
    done = run(content, "translate", "update", "tale", "de")
    assert done.stdout.splitlines()[0] == f"{CATALOG}: refreshed: 0 new, 0 made outdated (fuzzy), 1 obsolete, 0 back from obsolete"
    text = (content / CATALOG).read_text(encoding="utf-8")
    assert '#~ msgctxt "term:hero.aliases.0"\n#~ msgid "Heroes"\n#~ msgstr "Helden"' in text
    assert run(content, "check", "--no-cache").returncode == 0  # an obsolete entry names nothing, and may
    edit(content / "tale/content.yaml", "term: Hero, ", "term: Hero, aliases: [Heroes], ")
    done = run(content, "translate", "update", "tale", "de")
    assert done.stdout.splitlines()[0] == f"{CATALOG}: refreshed: 0 new, 0 made outdated (fuzzy), 0 obsolete, 1 back from obsolete"
    alias = entry(catalog(content), "term:hero.aliases.0")
    assert (alias.obsolete, alias.fuzzy, alias.msgstr) == (0, False, "Helden")


@pytest.mark.unit
def test_a_translation_made_once_is_suggested_for_the_same_english_as_fuzzy_never_as_translated(content):
    edit(content / "tale/content.yaml", 'effect: "Burn one card."', 'effect: "Draw a card."')  # translated in a table
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        f"{CATALOG}: refreshed: 0 new, 0 made outdated (fuzzy), 0 obsolete, 0 back from obsolete, "
        "1 suggested (fuzzy) from the same English elsewhere")
    suggested = entry(catalog(content), "card:dragon.fields.effect")
    assert (suggested.msgstr, suggested.fuzzy, suggested.previous_msgid) == ("Zieht eine Karte.", True, None)
    assert suggested.comment.splitlines()[-1] == "suggested: the same English is translated elsewhere"
    shown = freshness.translation(game(content), "de").text("card:dragon.fields.effect")
    assert (shown.state, shown.text) == (freshness.MISSING, "Draw a card.")  # shown in English, marked missing
    assert run(content, "check", "--no-cache").returncode == 0
    assert run(content, "translate", "update", "tale", "de").stdout.splitlines()[0] == \
        f"{CATALOG}: already up to date with the English"  # proposed once, kept as it is
    po = catalog(content)  # the translator accepts it
    entry(po, "card:dragon.fields.effect").flags.remove("fuzzy")
    po.save()
    assert freshness.translation(game(content), "de").text("card:dragon.fields.effect").state == freshness.TRANSLATED
    run(content, "translate", "update", "tale", "de")
    assert "suggested" not in entry(catalog(content), "card:dragon.fields.effect").comment


@pytest.mark.unit
def test_status_counts_per_game_and_language(content):
    (content / "tale/translations/fr.po").write_text("", encoding="utf-8")  # a catalog begun, nothing in it
    done = run(content, "translate", "status")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "tale de: 11 translated (34.4%), 0 outdated (0.0%), 21 missing (65.6%) of 32; not reviewed (0 of 32 entries "
        "reviewed); last review by Fixture Reviewer on 2026-02-25",
        "  words: 27 translated (37.0%), 0 outdated (0.0%), 46 missing (63.0%) of 73",
        "tale fr: 0 translated (0.0%), 0 outdated (0.0%), 32 missing (100.0%) of 32; not reviewed (0 of 32 entries "
        "reviewed)",
        "  words: 0 translated (0.0%), 0 outdated (0.0%), 73 missing (100.0%) of 73"]
    edit(content / "tale/content.yaml", "Burn one card.", "Burn two cards.")  # untranslated: still missing
    edit(content / "tale/content.yaml", "name: Knight", "name: Sir Knight")  # translated: now outdated
    assert run(content, "translate", "status", "tale").stdout.splitlines()[:2] == [
        "tale de: 10 translated (31.2%), 1 outdated (3.1%), 21 missing (65.6%) of 32; not reviewed (0 of 32 entries "
        "reviewed); last review by Fixture Reviewer on 2026-02-25",
        "  words: 26 translated (35.1%), 2 outdated (2.7%), 46 missing (62.2%) of 74"]


@pytest.mark.unit
def test_status_as_json_gives_entries_words_and_review(content):
    done = run(content, "translate", "status", "tale", "--json")
    assert done.returncode == 0, done.stderr
    (figures,) = json.loads(done.stdout)
    assert figures == {
        "game": "tale", "language": "de", "catalog": str(CATALOG),
        "entries": {"translated": 11, "outdated": 0, "missing": 21, "total": 32,
                    "percent": {"translated": 34.4, "outdated": 0.0, "missing": 65.6}},
        "words": {"translated": 27, "outdated": 0, "missing": 46, "total": 73,
                  "percent": {"translated": 37.0, "outdated": 0.0, "missing": 63.0}},
        "reviewed_entries": 0, "reviewed": False, "last_review": {"by": "Fixture Reviewer", "date": "2026-02-25"}}


@pytest.mark.unit
def test_review_is_per_entry_and_the_catalog_is_reviewed_only_when_every_entry_is(content):
    done = run(content, "translate", "review", "tale", "de", "card:dragon.name", "card:dragon.text", "--by", "Ana Ruiz")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{CATALOG}: 2 entries recorded as reviewed by Ana Ruiz; 2 of 32 entries reviewed\n"
    po = catalog(content)  # a translator's tool keeps the review: it is a translator comment
    assert entry(po, "card:dragon.name").tcomment.startswith(f"reviewed by Ana Ruiz on {datetime.date.today()} (")
    po.save()
    assert run(content, "translate", "update", "tale", "de").returncode == 0
    shown = freshness.translation(game(content), "de")
    assert [t.address for t in shown.texts() if t.reviewed] == ["card:dragon.name", "card:dragon.text"]
    assert not shown.reviewed
    # A changed translation (or English) is no longer the one reviewed.
    po = catalog(content)
    entry(po, "card:dragon.name").msgstr = "Lindwurm"
    po.save()
    assert [t.address for t in freshness.translation(game(content), "de").texts() if t.reviewed] == ["card:dragon.text"]
    # --all reviews what is translated; the catalog is reviewed only when every text is translated too.
    assert run(content, "translate", "review", "tale", "de", "--all", "--by", "Ana Ruiz").stdout == \
        f"{CATALOG}: 11 entries recorded as reviewed by Ana Ruiz; 11 of 32 entries reviewed\n"
    po = catalog(content)
    for found in po:
        found.msgstr = found.msgstr or found.msgid  # every text translated
    po.save()
    assert not freshness.translation(game(content), "de").reviewed  # translated, not yet reviewed
    done = run(content, "translate", "review", "tale", "de", "--all", "--by", "Ana Ruiz")
    assert done.stdout == f"{CATALOG}: 32 entries recorded as reviewed by Ana Ruiz; the translation is reviewed\n"
    shown = freshness.translation(game(content), "de")
    assert shown.reviewed and shown.review == freshness.catalogs.Review("Ana Ruiz", datetime.date.today())
    assert run(content, "translate", "status", "tale").stdout.splitlines()[0].endswith(
        f"of 32; reviewed; last review by Ana Ruiz on {datetime.date.today()}")
    edit(content / "tale/content.yaml", "name: Knight", "name: Sir Knight")  # the English moved on
    assert not freshness.translation(game(content), "de").reviewed


@pytest.mark.unit
@pytest.mark.parametrize(("args", "lines"), [
    (("card:dragon.fields.effect",), ["error: nothing was recorded: 'card:dragon.fields.effect' is missing: only a "
                                      "translation of the current English can be reviewed"]),
    (("card:drake.name",), ["error: nothing was recorded: 'card:drake.name' names no text of game 'tale'"]),
    ((), ["error: say which entries were reviewed: their addresses, or --all"]),
])
def test_review_refuses_what_cannot_be_reviewed_and_changes_nothing(content, args, lines):
    before = (content / CATALOG).read_bytes()
    done = run(content, "translate", "review", "tale", "de", *args, "--by", "Ana")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == lines[0]
    assert (content / CATALOG).read_bytes() == before


@pytest.mark.unit
def test_a_game_without_catalogs_says_how_to_make_one(content):
    (content / CATALOG).unlink()
    assert run(content, "translate", "status").stdout == \
        "tale: no translations (`rulesmith translate update tale <lang>` makes one)\n"


# ---------------------------------------------------------------- as a translator works

@pytest.mark.unit
def test_a_translator_updates_fills_the_catalog_in_a_po_tool_checks_and_counts(content):
    (content / CATALOG).unlink()
    assert run(content, "translate", "update", "tale", "fr").returncode == 0
    path = content / "tale/translations/fr.po"
    po = polib.pofile(str(path))  # as Poedit opens, edits and saves it
    po.find("card:dragon.name", by="msgctxt").msgstr = "Dragon"
    po.find("card:dragon.text", by="msgctxt").msgstr = "Combat le [[card:knight|chevalier]]."
    po.find("rule:setup.body", by="msgctxt").msgstr = "Mélangez les cartes ; voir [[table:turns]]."
    po.metadata["PO-Revision-Date"] = "2026-02-10 09:30+0100"
    po.save()
    assert run(content, "check", "--no-cache").returncode == 0
    assert run(content, "translate", "status", "tale").stdout.splitlines() == \
        ["tale fr: 3 translated (9.4%), 0 outdated (0.0%), 29 missing (90.6%) of 32; not reviewed (0 of 32 entries "
         "reviewed)", "  words: 7 translated (9.6%), 0 outdated (0.0%), 66 missing (90.4%) of 73"]
    # Before `update` runs again, the day is the catalog's last save; after, each entry keeps it.
    shown = freshness.translation(game(content), "fr")
    assert shown.text("card:dragon.text").current_since == datetime.date(2026, 2, 10)
    run(content, "translate", "update", "tale", "fr")
    assert "current since 2026-02-10" in polib.pofile(str(path)).find("card:dragon.text", by="msgctxt").comment


# ---------------------------------------------------------------- what a translation says, text by text

@pytest.mark.unit
def test_each_text_is_translated_outdated_or_missing_never_english_passed_off(content):
    shown = freshness.translation(game(content), "de")
    dragon = shown.text("card:dragon.text")
    assert (dragon.state, dragon.text, dragon.english, dragon.markdown) == (
        freshness.TRANSLATED, "Kämpft gegen den [[card:knight]].", "Fights the [[card:knight]].", True)
    assert dragon.current_since == datetime.date(2026, 2, 20)
    missing = shown.text("card:dragon.fields.effect")
    assert (missing.state, missing.text) == (freshness.MISSING, "Burn one card.")
    assert shown.get("table:turns.rows.1.turn") is None  # a number: nothing to translate
    assert shown.counts() == freshness.Counts(11, 0, 21)
    # A review recorded in the header is not a review of the whole: 21 texts are not even translated.
    assert not shown.reviewed and shown.review == freshness.catalogs.Review("Fixture Reviewer", datetime.date(2026, 2, 25))
    assert shown.brought_up_to_date("card:dragon") == datetime.date(2026, 2, 20)
    assert shown.brought_up_to_date("kind:card") is None  # nothing of it translated
    assert [t.address for t in shown.of_item("term:hero")] == ["term:hero.term", "term:hero.aliases.0",
                                                               "term:hero.definition"]
    with pytest.raises(KeyError):
        shown.text("card:unicorn.name")


@pytest.mark.unit
def test_a_language_without_a_catalog_is_all_english_marked_missing(content):
    shown = freshness.translation(game(content), "it")
    assert not shown.reviewed
    assert {t.state for t in shown.texts()} == {freshness.MISSING}
    assert [t.text for t in shown.texts()] == [t.text for t in english(game(content)).values()]


# ---------------------------------------------------------------- the check of catalogs

BAD_CATALOGS = {
    "syntax": (lambda t: t.replace('msgctxt "game:tale.name"', 'msgctxt "game:tale.name"\nmsgtxt "oops"'),
               [f"{CATALOG}:22:1: PO syntax error (each entry is msgctxt, msgid and msgstr lines of quoted text, "
                "comments start with '#' (see `rulesmith format translations`))"]),
    "string not closed": (lambda t: t.replace('msgstr "Märchen"', 'msgstr "Märchen'),
                          [f'{CATALOG}:23:16: a string is not closed (end the line with an unescaped " '
                           '(write \\" for a quote inside the text))']),
    "names nothing": (lambda t: t.replace('msgctxt "card:dragon.name"', 'msgctxt "card:drake.name"'),
                      [f"{CATALOG}:74:1: 'card:drake.name' names no text of game 'tale' (did you mean card:dragon.name or "
                       "card:knight.name or card:dragon.text?)"]),
    "no context": (lambda t: t.replace('msgctxt "card:dragon.name"\n', ""),
                   [f"{CATALOG}:74:1: an entry without a context names no text ({UPDATE_HINT})"]),
    "twice": (lambda t: t + '\nmsgctxt "card:dragon.name"\nmsgid "Dragon"\nmsgstr "Lindwurm"\n',
              [f"{CATALOG}:{{end}}:1: 'card:dragon.name' is translated twice (first at line 74) (keep one entry per text)"]),
    "reference left out": (lambda t: t.replace('"Kämpft gegen den [[card:knight]]."', '"Kämpft gegen den Ritter."'),
                           [f"{CATALOG}:{{line:Kämpft gegen den Ritter}}:1: the translation leaves out the reference "
                            "[[card:knight]] (keep every [[kind:id]] of the English as written (its label after | may "
                            "be translated))"]),
    "reference added": (lambda t: t.replace('"Aufbau"', '"Aufbau [[card:dragon]]"'),
                        [f"{CATALOG}:{{line:Aufbau}}:16: the translation has the reference [[card:dragon]], which the "
                         "English does not (keep the references of the English, no others)"]),
    "raw HTML": (lambda t: t.replace('"Mischt die Karten; ', '"<b>Mischt</b> die Karten; '),
                 [f"{CATALOG}:{{line:Mischt}}:{column}: raw HTML is not allowed in content text (write Markdown; "
                  "for a literal '<' add a space after it)" for column in (9, 18)]),
    "markup in plain text": (lambda t: t.replace('"Drache"', '"<i>Drache</i>"'),
                             [f"{CATALOG}:{{line:Drache</i>}}:9: plain text may not contain the tag opener '<i': names "
                              "and titles are shown as written, never as markup (write it out ('less than', 'and'); "
                              "plain text is never read as markup)"]),
    "language": (lambda t: t.replace('"Language: de\\n"', '"Language: fr\\n"'),
                 [f"{CATALOG}:10:1: the catalog says its language is 'fr', its name says 'de' (write `Language: de` "
                  "in its header, or rename the file)"]),
    "review without a date": (lambda t: t.replace('"X-Review-Date: 2026-02-25\\n"\n', ""),
                              [f"{CATALOG}:14:1: a review is recorded without `X-Review-Date` (write `X-Reviewed-By: "
                               "<name>` and `X-Review-Date: YYYY-MM-DD` (on or before {today}) in the catalog's "
                               "header, or neither)"]),
    "review in the future": (lambda t: t.replace("X-Review-Date: 2026-02-25", "X-Review-Date: 2999-01-01"),
                             [f"{CATALOG}:14:1: a review needs who reviewed it and the day, not in the future (write "
                              "`X-Reviewed-By: <name>` and `X-Review-Date: YYYY-MM-DD` (on or before {today}) in the "
                              "catalog's header, or neither)"]),
    "number changed": (lambda t: t.replace('"Kämpft gegen den [[card:knight]]."', '"Kämpft 2 gegen den [[card:knight]]."')
                       .replace('"Aufbau"', '"Aufbau 3"'),
                       [f"{CATALOG}:{{line:Kämpft 2}}:16: the translation has the number 2, which the English does not "
                        f"({NUMBER_HINT})",
                        f"{CATALOG}:{{line:Aufbau 3}}:16: the translation has the number 3, which the English does not "
                        f"({NUMBER_HINT})"]),
    "plural": (lambda t: t.replace('msgid "Dragon"\nmsgstr "Drache"',
                                   'msgid "Dragon"\nmsgid_plural "Dragons"\nmsgstr[0] "Drache"\nmsgstr[1] "Drachen"'),
               [f"{CATALOG}:74:1: a plural entry for a text that says no count: only a text with a number filled in "
                "({value}) has plural forms (translate it with msgstr alone)"]),
}


def _expected(lines: list[str], text: str) -> list[str]:
    rows = text.splitlines()
    found = []
    for line in lines:
        line = line.replace("{end}", str(len(rows) - 2)).replace("{today}", str(datetime.date.today()))
        if "{line:" in line:
            part = line.split("{line:", 1)[1].split("}", 1)[0]
            number = next(n for n, row in enumerate(rows, start=1) if part in row and row.startswith("msgstr"))
            line = line.replace("{line:" + part + "}", str(number))
        found.append(line)
    return found


@pytest.mark.unit
@pytest.mark.parametrize("case", list(BAD_CATALOGS))
def test_each_kind_of_bad_catalog_is_located(content, case):
    change, expected = BAD_CATALOGS[case]
    path = content / CATALOG
    text = change(path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    assert problems_of(content) == _expected(expected, text)


@pytest.mark.unit
def test_a_catalog_that_is_not_utf8_is_located(content):
    path = content / CATALOG
    path.write_bytes(path.read_bytes().replace("Märchen".encode(), "Märchen".encode("latin-1")))
    assert problems_of(content) == [f"{CATALOG}:23:10: the catalog is not UTF-8 text (save it as UTF-8 (and say "
                                    "`charset=UTF-8` in its Content-Type))"]


@pytest.mark.unit
@pytest.mark.parametrize(("name", "why"), [("DE.po", "'DE' is not a lower-case ISO 639 language code, with a "
                                            "region or script after '-' if needed"),
                                           ("en.po", "'en' is the content's own language")])
def test_a_catalog_named_for_no_other_language_is_refused(content, name, why):
    shutil.copy(content / CATALOG, content / "tale/translations" / name)
    assert problems_of(content) == [
        f"tale/translations/{name}:1:1: '{name}' is not a catalog of another language: {why} (name it for the "
        "language it translates into, e.g. translations/de.po or pt_BR.po)"]


@pytest.mark.unit
@pytest.mark.parametrize(("name", "header", "code"), [("es_ES.po", "es_ES", "es-es"), ("es-es.po", "es_ES", "es-es"),
                                                      ("pt_BR.po", "pt_BR", "pt-br"), ("pt-br.po", "pt-BR", "pt-br"),
                                                      ("zh_Hant.po", "zh_Hant", "zh-hant")])
def test_a_language_is_accepted_as_gettext_or_the_web_spells_it(content, name, header, code):
    (content / CATALOG).rename(content / "tale/translations" / name)
    path = content / "tale/translations" / name
    edit(path, '"Language: de\\n"', f'"Language: {header}\\n"')
    assert run(content, "check", "--no-cache").returncode == 0
    assert run(content, "translate", "status", "tale").stdout.startswith(f"tale {code}: 11 translated")
    before = path.read_bytes()
    for spelled in (code, name.removesuffix(".po")):  # the command finds the catalog by either spelling
        done = run(content, "translate", "update", "tale", spelled)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[0] == f"tale/translations/{name}: already up to date with the English"
    assert path.read_bytes() == before
    assert freshness.languages(game(content)) == [code]
    assert freshness.translation(game(content), code).counts() == freshness.Counts(11, 0, 21)


@pytest.mark.unit
def test_two_catalogs_of_one_language_are_refused_once(content):
    shutil.copy(content / CATALOG, content / "tale/translations/es_ES.po")
    shutil.copy(content / CATALOG, content / "tale/translations/es-es.po")
    for name in ("es_ES.po", "es-es.po"):
        edit(content / "tale/translations" / name, '"Language: de\\n"', '"Language: es_ES\\n"')
    assert problems_of(content) == [
        "tale/translations/es_ES.po:1:1: 'es_ES.po' is a second catalog of 'es-es' (the first is 'es-es.po') (keep one "
        "catalog per language: merge them (`msgcat`) and remove one)"]


@pytest.mark.unit
def test_a_translation_keeps_references_with_their_labels_translated_and_placeholders(content):
    assert translation_problems("See [[card:dragon]].", "Siehe [[card:dragon|den Drachen]].", True) == []
    assert translation_problems("The bot takes {value}.", "Der Bot nimmt {value}.", False) == []
    assert translation_problems("The bot takes {value}.", "Der Bot nimmt.", False) == [
        ("the translation leaves out the placeholder {value}", "", "keep every {name} of the English as written, no others")]
    assert translation_problems("See [[card:dragon]].", "Siehe [[card:dragon.", True)[-1][0] == "unclosed reference '[['"


@pytest.mark.unit
def test_a_translation_says_the_numbers_of_its_english(content):
    assert translation_problems("Draw 3 cards.", "Roba 3 cartas.", False) == []
    assert translation_problems("Draw 3 cards.", "Roba 2 cartas.", False) == [
        ("the translation says 2 where the English says 3", "2", NUMBER_HINT)]
    assert translation_problems("Draw 3 cards, then 2.", "Roba 3 cartas.", False) == [
        ("the translation leaves out the number 2 of the English", "", NUMBER_HINT)]
    assert translation_problems("Costs 2.5 gold; see [[table:stage-2|stage 2]].",
                                "Cuesta 2,5 oro; ver [[table:stage-2|etapa 2]].", True) == []
    assert translation_problems("See [[table:stage-2]].", "Ver [[table:stage-2|etapa]].", True) == []


@pytest.mark.unit
def test_a_fuzzy_mark_removed_without_editing_is_held_to_the_current_english(content):
    edit(content / "tale/content.yaml", "on a 6.", "on a 5.")
    assert run(content, "translate", "update", "tale", "de").returncode == 0
    assert run(content, "check", "--no-cache").returncode == 0  # fuzzy: held to the English it was made from
    path = content / CATALOG
    po = polib.pofile(str(path))
    knight = po.find("card:knight.text", by="msgctxt")
    assert knight.fuzzy and "6" in knight.msgstr
    knight.flags.remove("fuzzy")  # as a translator's tool does with "mark as translated"
    po.save()
    text = path.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if "bei einer 6" in row)
    column = text.splitlines()[line - 1].index("6") + 1
    assert problems_of(content) == [
        f"{CATALOG}:{line}:{column}: the translation says 6 where the English says 5 ({NUMBER_HINT})"]


@pytest.mark.unit
def test_a_fuzzy_entry_is_held_to_the_english_it_was_made_from(content):
    edit(content / "tale/content.yaml", 'text: "Fights the [[card:knight]]."', 'text: "Fights the [[card:knight]] and the [[card:dragon]]."')
    assert run(content, "translate", "update", "tale", "de").returncode == 0
    assert run(content, "check", "--no-cache").returncode == 0  # its translation lacks the new reference: outdated, not wrong


# ---------------------------------------------------------------- the commands refuse, change nothing

@pytest.mark.unit
@pytest.mark.parametrize(("args", "lines"), [
    (("update", "tael", "de"), ["error: no game 'tael' in .", "hint: did you mean tale?"]),
    (("update", "tale", "DE"), ["error: 'DE' is not a lower-case ISO 639 language code, with a region or script "
                                "after '-' if needed", "hint: did you mean 'de'?"]),
    (("update", "tale", "en"), ["error: 'en' is the language of game 'tale' itself",
                                "hint: translate into another language: its catalog holds that language's texts"]),
])
def test_update_refuses_bad_arguments(content, args, lines):
    before = (content / CATALOG).read_bytes()
    done = run(content, "translate", *args)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == lines
    assert (content / CATALOG).read_bytes() == before


@pytest.mark.unit
def test_update_of_an_unreadable_catalog_says_where_and_writes_nothing(content):
    path = content / CATALOG
    path.write_text(path.read_text(encoding="utf-8").replace('msgstr "Drache"', 'msgstr "Drache'), encoding="utf-8")
    before = path.read_bytes()
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f'{CATALOG}:80:15: a string is not closed (end the line with an unescaped " (write \\" for a quote inside the text))',
        f"error: {CATALOG} cannot be read; nothing was changed",
        "hint: fix the catalog where the problem says, then run the command again"]
    assert path.read_bytes() == before


@pytest.mark.unit
def test_update_of_a_game_that_does_not_load_writes_nothing(content):
    edit(content / "tale/content.yaml", "[[table:turns]]", "[[table:turn]]")
    before = (content / CATALOG).read_bytes()
    done = run(content, "translate", "update", "tale", "de")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-2:] == ["error: game 'tale' does not load cleanly; its English cannot be read",
                                             "hint: fix these first (`rulesmith check`), then run the command again"]
    assert (content / CATALOG).read_bytes() == before


@pytest.mark.unit
def test_a_full_disk_leaves_the_catalog_as_it_was(content, monkeypatch):
    edit(content / "tale/content.yaml", "name: Knight", "name: Sir Knight")
    before = (content / CATALOG).read_bytes()
    disk_full_after(monkeypatch, 100)
    done = run(content, "translate", "update", "tale", "de")
    monkeypatch.undo()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == f"error: cannot write {CATALOG}: No space left on device; nothing was changed"
    assert (content / CATALOG).read_bytes() == before
    assert sorted(p.name for p in (content / "tale/translations").iterdir()) == ["de.po", "tale.pot"]


# ---------------------------------------------------------------- errata, rulings and the diff know translations

@pytest.mark.unit
def test_errata_add_says_which_translations_it_made_outdated(content):
    done = run(content, "errata", "add", "tale", "card:knight", "name", "Sir Knight", *FAQ, "--note", "Renamed.",
               "--date", "2026-03-02")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2:] == [
        f"{CATALOG}: 1 translation(s) made outdated by erratum e1: card:knight.name (`rulesmith translate update "
        "tale de` marks them fuzzy with the old English)",
        f"{CATALOG}: not yet translated: erratum:e1.note",
        "check: tale ok"]
    shown = freshness.translation(game(content), "de").text("card:knight.name")
    assert (shown.state, shown.text, shown.english, shown.previous_english, shown.english_changed) == (
        freshness.OUTDATED, "Ritter", "Sir Knight", "Knight", datetime.date(2026, 3, 2))
    assert run(content, "translate", "status", "tale").stdout.splitlines()[0].startswith("tale de: 10 translated (30.3%), 1 outdated (3.0%)")
    run(content, "translate", "update", "tale", "de")  # fuzzy now: the date the English changed is still known
    again = freshness.translation(game(content), "de").text("card:knight.name")
    assert (again.state, again.previous_english, again.english_changed) == (
        freshness.OUTDATED, "Knight", datetime.date(2026, 3, 2))


@pytest.mark.unit
def test_an_erratum_to_an_untranslated_text_makes_nothing_outdated(content):
    done = run(content, "errata", "add", "tale", "card:dragon", "effect", "Burn two cards.", *FAQ, "--note", "More.")
    assert done.returncode == 0, done.stderr
    assert "made outdated" not in done.stdout


@pytest.mark.unit
def test_ruling_add_says_its_texts_are_not_yet_translated(content):
    done = run(content, "ruling", "add", "tale", "card:dragon", "--question", "May the Dragon fight twice?",
               "--answer", "No.", *FAQ)
    assert done.returncode == 0, done.stderr
    assert f"{CATALOG}: not yet translated: ruling:r1.question, ruling:r1.answer" in done.stdout.splitlines()


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=Rulesmith tests", "-c", "user.email=tests@example.org", *args],
                          cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.mark.unit
def test_diff_lists_translation_changes(content):
    assert shutil.which("git"), "git is not installed (rulesmith diff needs it)"
    git(content, "init", "-q")
    git(content, "add", "-A")
    git(content, "commit", "-q", "-m", "fixture")
    po = catalog(content)
    po.find("card:dragon.fields.effect", by="msgctxt").msgstr = "Verbrennt eine Karte."
    po.find("rule:setup.title", by="msgctxt").msgstr = "Spielaufbau"
    po.find("term:hero.aliases.0", by="msgctxt").msgstr = ""
    po.save()
    edit(content / "tale/content.yaml", "name: Knight", "name: Sir Knight")
    assert run(content, "translate", "update", "tale", "de").returncode == 0
    (content / "tale/translations/fr.po").write_text(
        'msgctxt "card:dragon.name"\nmsgid "Dragon"\nmsgstr "Dragon"\n', encoding="utf-8")
    done = run(content, "diff", "HEAD")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[lines.index("  translations:"):] == [
        "  translations:",
        "    fr: new catalog, 1 text(s) translated",
        "    de added: card:dragon.fields.effect: \"Verbrennt eine Karte.\"",
        "    de made outdated: card:knight.name",
        "    de changed: rule:setup.title: \"Aufbau\" → \"Spielaufbau\"",
        "    de removed: term:hero.aliases.0"]
    markdown = run(content, "diff", "HEAD", "--format", "markdown").stdout
    assert "### Translations" in markdown and "- de, made outdated: <code>card:knight.name</code>" in markdown


# ---------------------------------------------------------------- bounded work on hostile catalogs (issue 46)

@pytest.mark.unit
def test_a_catalog_of_unknown_addresses_is_located_entry_by_entry_with_few_guesses(content, monkeypatch):
    """20,000 entries naming no text (2,000 took 13 s when each asked difflib twice over every text
    of the game): each is located at its own line; 'did you mean' is guessed for the first few
    only, from one index made once for the catalog."""
    import difflib

    calls = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    path = content / CATALOG
    text = path.read_text(encoding="utf-8")
    start = len(text.splitlines()) + 2
    path.write_text(text + "".join(f'\nmsgctxt "card:unknown{i}.name"\nmsgid "X{i}"\nmsgstr "Y{i}"\n'
                                   for i in range(20_000)), encoding="utf-8")
    lines = problems_of(content)
    assert len(lines) == 20_000
    assert lines[0].startswith(f"{CATALOG}:{start}:1: 'card:unknown0.name' names no text of game 'tale' (did you mean")
    assert lines[-1] == (f"{CATALOG}:{start + 4 * 19_999}:1: 'card:unknown19999.name' names no text of game 'tale' "
                         f"({UPDATE_HINT})")
    from rulesmith.problems import Suggestions

    assert 0 < len(calls) <= 2 * Suggestions.LIMIT  # the kind's own choices, then all: never once per entry


@pytest.mark.unit
def test_a_translation_of_16000_paragraphs_is_located_in_one_pass(content):
    """One msgstr of 16,000 paragraphs each holding raw HTML took 152 s when the file was split
    again for each of its problems: now a bounded run (the child's 60 s of CPU), each problem at
    its own line and column, the second of a kind after the first."""
    po = catalog(content)
    entry(po, "rule:setup.body").msgstr = "\n\n".join(f"Absatz {i} <b>x</b>" for i in range(16_000)) + " [[table:turns]]"
    po.save()
    text = (content / CATALOG).read_text(encoding="utf-8")
    rows = text.splitlines()
    done = run_rulesmith("check", "--no-cache", cwd=content)
    assert done.returncode == 1, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if "raw HTML" in line]
    assert len(lines) == 32_000
    located = [tuple(int(n) for n in line.split(":")[1:3]) for line in lines]
    assert len(set(located)) == 32_000  # no two problems at one place
    for line, column in located[:50] + located[-50:]:
        assert rows[line - 1][column - 1:].startswith(("<b>", "</b>")), (line, column, rows[line - 1])


# ---------------------------------------------------------------- what a catalog's edit builds again (issue 47)

@pytest.mark.pdf
def test_a_catalog_edit_lays_out_no_aid_and_renders_no_page_of_the_games_own_language(content, tmp_path, caplog):
    """The aids and the pages in the game's own language do not read its catalogs: a translator's
    edit made all of a game's PDFs be laid out again (28.9 s instead of 1.5 s). The edit lays out
    that language's aids again, and those only; the English PDFs are the same bytes."""
    import logging

    from rulesmith.commands.build import build

    site, work = tmp_path / "site", tmp_path / "work"
    build(content, site, quiet=True, work=work)
    english = {p: p.read_bytes() for p in (site / "downloads").rglob("*.pdf")}
    german = {p: p.read_bytes() for p in (site / "de" / "downloads").rglob("*-de.pdf")}
    assert english and german and all(not p.name.endswith("-de.pdf") for p in english)
    # The German downloads page and the game's home name the aids and what each holds in German
    # (the tool's words: templates/pdf/aids.yaml), the English ones in English.
    for page in ("downloads.html", "tale/index.html"):
        german_text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", (site / "de" / page).read_text(encoding="utf-8"))))
        english_text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", (site / page).read_text(encoding="utf-8"))))
        assert "Kartenreferenz" in german_text and "Card reference" not in german_text, page
        assert "Card reference" in english_text and "Kartenreferenz" not in english_text, page
    german_downloads = (site / "de" / "downloads.html").read_text(encoding="utf-8")
    assert "Jede Karten- und Materialliste und jede Tabelle" in unescape(german_downloads)
    assert "Every card and component list" not in unescape(german_downloads)
    po = catalog(content)
    edited = next(e for e in po if e.msgstr and not e.obsolete)
    edited.msgstr += " (neu)"
    po.save()
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="rulesmith"):
        build(content, site, quiet=True, work=work)
    said = [r.getMessage() for r in caplog.records]
    aids = [line for line in said if line.startswith("aid ") and "-de.pdf" not in line]
    assert aids and all(": from the cache" in line for line in aids), aids
    german_aids = [line for line in said if line.startswith("aid ") and "-de.pdf" in line]
    assert german_aids and all(": laid out" in line for line in german_aids), german_aids  # the catalog's own
    assert {p: p.read_bytes() for p in (site / "downloads").rglob("*.pdf")} == english
    assert any(p.read_bytes() != before for p, before in german.items())
    pages = [line for line in said if line.startswith("pages of tale:")]  # the game's own language
    assert pages and all(": from the cache" in line for line in pages), pages
    assert any(line.startswith("pages of tale (de): rendered") for line in said), said  # the catalog's own
    # and it could fail: an edit of the game's own text does lay them out again
    text = (content / "tale" / "game.yaml").read_text(encoding="utf-8")
    (content / "tale" / "game.yaml").write_text(text + "\n# edited\n", encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="rulesmith"):
        build(content, site, quiet=True, work=work)
    said = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("pages of tale:") and ": rendered" in line for line in said)

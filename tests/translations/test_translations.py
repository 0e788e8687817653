"""Translations, part A: catalogs made and refreshed as msgmerge does (`rulesmith translate
update`), counted (`translate status`), checked (the check's `translations`), asked text by text
(translations/freshness.py), and known to errata, rulings and the diff.

Every test works on a copy of tests/fixtures/translations (the game `tale` and its German
catalog); nothing here writes to the repository. Catalogs are filled with polib, as a translator's
tool (Poedit) would fill them.
"""

from __future__ import annotations

import datetime
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import disk_full_after, rulesmith_here

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
    assert (dragon.msgid, dragon.occurrences) == ("Fights the [[card:knight]].", [("content.yaml", "")])
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
def test_status_counts_per_game_and_language(content):
    (content / "tale/translations/fr.po").write_text("", encoding="utf-8")  # a catalog begun, nothing in it
    done = run(content, "translate", "status")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "tale de: 11 translated, 0 outdated, 21 missing (of 32); reviewed by Fixture Reviewer on 2026-02-25",
        "tale fr: 0 translated, 0 outdated, 32 missing (of 32); not reviewed"]
    edit(content / "tale/content.yaml", "Burn one card.", "Burn two cards.")  # untranslated: still missing
    edit(content / "tale/content.yaml", "name: Knight", "name: Sir Knight")  # translated: now outdated
    assert run(content, "translate", "status", "tale").stdout.splitlines()[0] == \
        "tale de: 10 translated, 1 outdated, 21 missing (of 32); reviewed by Fixture Reviewer on 2026-02-25"


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
        ["tale fr: 3 translated, 0 outdated, 29 missing (of 32); not reviewed"]
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
    assert shown.reviewed and shown.review == freshness.catalogs.Review("Fixture Reviewer", datetime.date(2026, 2, 25))
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
    "plural": (lambda t: t.replace('msgid "Dragon"\nmsgstr "Drache"',
                                   'msgid "Dragon"\nmsgid_plural "Dragons"\nmsgstr[0] "Drache"\nmsgstr[1] "Drachen"'),
               [f"{CATALOG}:74:1: a content text has no plural forms (translate it with msgstr alone)"]),
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
@pytest.mark.parametrize(("name", "why"), [("de_DE.po", "'de_DE' is not a lower-case ISO 639 language code, with a "
                                            "region or script after '-' if needed"),
                                           ("en.po", "'en' is the content's own language")])
def test_a_catalog_named_for_no_other_language_is_refused(content, name, why):
    shutil.copy(content / CATALOG, content / "tale/translations" / name)
    assert problems_of(content) == [
        f"tale/translations/{name}:1:1: '{name}' is not a catalog of another language: {why} (name it for the "
        "language it translates into, e.g. translations/de.po (language codes are a lower-case ISO 639 language "
        "code, with a region or script after '-' if needed, e.g. 'de' or 'pt-br'))"]


@pytest.mark.unit
def test_a_translation_keeps_references_with_their_labels_translated_and_placeholders(content):
    assert translation_problems("See [[card:dragon]].", "Siehe [[card:dragon|den Drachen]].", True) == []
    assert translation_problems("The bot takes {value}.", "Der Bot nimmt {value}.", False) == []
    assert translation_problems("The bot takes {value}.", "Der Bot nimmt.", False) == [
        ("the translation leaves out the placeholder {value}", "", "keep every {name} of the English as written, no others")]
    assert translation_problems("See [[card:dragon]].", "Siehe [[card:dragon.", True)[-1][0] == "unclosed reference '[['"


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
    assert sorted(p.name for p in (content / "tale/translations").iterdir()) == ["de.po"]


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
    assert run(content, "translate", "status", "tale").stdout.splitlines()[0].startswith("tale de: 10 translated, 1 outdated")
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

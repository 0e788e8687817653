"""Plural forms: a text that says a count ("The Automa performs {value} Actions", D.E.I.'s bot) may
be translated in the plural forms of the language's `Plural-Forms` (msgid_plural, msgstr[n]); the
reader's side chooses a form for the count (`Text.for_count`). Every wrong plural entry is a
located problem. Works on a copy of D.E.I. with a German catalog made by `translate update`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import rulesmith_here

from rulesmith.content.game import load_game
from rulesmith.problems import Problems
from rulesmith.translations import freshness

ROOT = Path(__file__).resolve().parents[2]
GAME = "dei"
CATALOG = Path(GAME) / "translations" / "de.po"
COUNT = "procedure:automa-action-phase.nodes.count.reads.says"  # "The Automa performs {value} Actions …"
PLURAL = "nplurals=2; plural=(n != 1);"
FORMS = {"0": "Der Automa führt {value} Aktion in dieser Aktionsphase aus",
         "1": "Der Automa führt {value} Aktionen in dieser Aktionsphase aus"}
HINT = ("write the language's rule in the header as msginit does, e.g. `Plural-Forms: nplurals=2; plural=(n != 1);` "
        "(German, Spanish) or `nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);` "
        "(Polish)")


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    content = tmp_path_factory.mktemp("plural") / "content"
    shutil.copytree(ROOT / "content" / GAME, content / GAME, ignore=shutil.ignore_patterns("translations"))
    assert rulesmith_here("translate", "update", GAME, "de", cwd=content).returncode == 0
    return content


@pytest.fixture
def content(made, tmp_path) -> Path:
    copy = tmp_path / "content"
    shutil.copytree(made, copy)
    return copy


def plural(content: Path, forms: dict[str, str] | None = None, rule: str | None = PLURAL,
           msgid_plural: str | None = None, address: str = COUNT) -> polib.POFile:
    po = polib.pofile(str(content / CATALOG))
    if rule is not None:
        po.metadata["Plural-Forms"] = rule
    found = po.find(address, by="msgctxt")
    found.msgid_plural = msgid_plural or found.msgid
    found.msgstr_plural = dict(FORMS if forms is None else forms)
    po.save()
    return po


def problems(content: Path) -> list[str]:
    done = rulesmith_here("check", "--no-cache", cwd=content)
    assert "Traceback" not in done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith(str(CATALOG))]


def start_of(content: Path, address: str) -> int:
    """The line an entry starts on: its first comment."""
    lines = (content / CATALOG).read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgctxt "{address}"')
    while at > 0 and lines[at - 1].startswith("#"):
        at -= 1
    return at + 1


@pytest.mark.unit
def test_a_count_is_said_in_the_forms_of_the_languages_plural_rule(content):
    plural(content)
    assert problems(content) == []
    game = load_game(content / GAME, Problems(), content)
    assert game is not None
    shown = freshness.translation(game, "de").text(COUNT)
    assert shown.state == freshness.TRANSLATED
    assert [shown.for_count(n) for n in (1, 3)] == [FORMS["0"], FORMS["1"]]
    # A PO tool's save and `translate update` keep it, laid out as gettext writes it.
    done = rulesmith_here("translate", "update", GAME, "de", cwd=content)
    assert done.returncode == 0, done.stderr
    before = (content / CATALOG).read_text(encoding="utf-8")
    assert f'msgid_plural "The Automa performs {{value}} Actions in this Action Phase"\nmsgstr[0] "{FORMS["0"]}"' in before
    out = content / "out.po"
    subprocess.run(["msgcat", str(content / CATALOG), "-o", str(out)], check=True)
    assert out.read_text(encoding="utf-8") == before


@pytest.mark.unit
def test_a_changed_english_keeps_the_forms_marked_fuzzy(content):
    plural(content)
    path = content / GAME / "rules" / "07-automa.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("performs {value} Actions in this", "performs {value} "
                                                             "Actions in this very"), encoding="utf-8")
    assert rulesmith_here("translate", "update", GAME, "de", cwd=content).returncode == 0
    found = polib.pofile(str(content / CATALOG)).find(COUNT, by="msgctxt")
    assert found.fuzzy and found.msgid_plural == found.msgid and {str(n): form for n, form in found.msgstr_plural.items()} == FORMS
    assert found.previous_msgid == "The Automa performs {value} Actions in this Action Phase"
    assert problems(content) == []


CASES = {
    "no Plural-Forms": ({"rule": None}, "a plural entry in a catalog without Plural-Forms ({hint})"),
    "forms and rule differ": ({"forms": {**FORMS, "2": FORMS["1"]}},
                              "the entry has 3 plural form(s), the catalog's Plural-Forms says 2 (write msgstr[0] to "
                              "msgstr[1], one per form of the language's rule)"),
    "a form empty": ({"forms": {"0": FORMS["0"], "1": ""}}, "plural form(s) 1 of the entry are empty (translate "
                     "every form, or none (an untranslated entry shows the English))"),
    "msgid_plural not the English": ({"msgid_plural": "The Automa performs Actions"},
                                     "a plural entry's msgid_plural is not its English (write the msgid again as its "
                                     "msgid_plural: the content has one English text for every count)"),
    "no count": ({"address": "game:dei.name", "forms": {"0": "D.E.I.", "1": "D.E.I."}},
                 "a plural entry for a text that says no count: only a text with a number filled in ({value}) has "
                 "plural forms (translate it with msgstr alone)"),
}


@pytest.mark.unit
@pytest.mark.parametrize("case", list(CASES))
def test_each_kind_of_wrong_plural_entry_is_located(content, case):
    given, message = CASES[case]
    address = given.get("address", COUNT)
    given = {**given, "msgid_plural": given.get("msgid_plural")}
    plural(content, **given)
    assert problems(content) == [f"{CATALOG}:{start_of(content, address)}:1: {message.replace('{hint}', HINT)}"]


@pytest.mark.unit
def test_a_form_is_held_to_the_english_as_a_translation_is(content):
    plural(content, forms={"0": FORMS["0"], "1": "Der Automa führt Aktionen aus"})
    line = next(n for n, row in enumerate((content / CATALOG).read_text(encoding="utf-8").splitlines(), start=1)
                if row.startswith('msgstr[1] "Der Automa führt Aktionen'))
    assert problems(content) == [f"{CATALOG}:{line}:12: the translation leaves out the placeholder {{value}} (keep "
                                 "every {name} of the English as written, no others)"]


@pytest.mark.unit
def test_a_plural_rule_gettext_cannot_read_is_located_in_the_header(content):
    plural(content, rule="nplurals=2; plural=(n !!= 1);")
    text = (content / CATALOG).read_text(encoding="utf-8").splitlines()
    line = next(n for n, row in enumerate(text, start=1) if row.startswith('"Plural-Forms:'))
    assert problems(content) == [f"{CATALOG}:{line}:1: the catalog's Plural-Forms cannot be read: '(n !!= 1)' is not "
                                 f"a plural expression gettext reads ({HINT})"]

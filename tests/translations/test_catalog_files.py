"""Translator-grade catalog files, on a real game's catalog (Deep State, over a thousand texts):
laid out as gettext's own tools lay them out, so a save by polib (Poedit, Weblate) followed by
`rulesmith translate update`, or `msgcat`, changes nothing; `#: path:line` references a
translator's tool opens; a template (.pot) beside the catalogs.

The game is copied once for the module; its catalog is made and filled once (`real`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import rulesmith_here

ROOT = Path(__file__).resolve().parents[2]
GAME = "deep-state"
CATALOG = Path(GAME) / "translations" / "es.po"
TEMPLATE = Path(GAME) / "translations" / f"{GAME}.pot"


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """A copy of Deep State with a Spanish catalog made by `translate update`, filled by polib as a
    translator's tool fills it (long and short texts, quotes, accents, fuzzy entries), saved by
    polib (its own wrapping), then refreshed by `translate update` again."""
    content = tmp_path_factory.mktemp("real") / "content"
    shutil.copytree(ROOT / "content" / GAME, content / GAME, ignore=shutil.ignore_patterns("translations"))
    assert rulesmith_here("translate", "update", GAME, "es", cwd=content).returncode == 0
    po = polib.pofile(str(content / CATALOG))
    for n, entry in enumerate(po):
        if n % 4 == 3:
            continue  # some left missing
        entry.msgstr = entry.msgid.replace(" the ", " la ") + (" «sí», ñandú" if n % 3 else "")
        if n % 11 == 0:
            entry.flags.append("fuzzy")
    po.save()
    done = rulesmith_here("translate", "update", GAME, "es", cwd=content)
    assert done.returncode == 0, done.stderr
    return content


@pytest.mark.unit
def test_a_polib_save_then_update_changes_nothing(real, tmp_path):
    path = real / CATALOG
    before = path.read_bytes()
    polib.pofile(str(path)).save()  # as a translator's tool saves it: polib wraps its own way
    assert path.read_bytes() != before, "polib's own layout should differ, or this test proves nothing"
    done = rulesmith_here("translate", "update", GAME, "es", cwd=real)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == \
        f"{CATALOG}: refreshed: no text changed; laid out again as gettext's tools write it"
    assert path.read_bytes() == before


@pytest.mark.unit
@pytest.mark.parametrize("name", [CATALOG, TEMPLATE])
def test_msgcat_changes_nothing(real, tmp_path, name):
    out = tmp_path / "out.po"
    subprocess.run(["msgcat", str(real / name), "-o", str(out)], check=True)
    assert out.read_text(encoding="utf-8") == (real / name).read_text(encoding="utf-8")
    text = (real / name).read_text(encoding="utf-8")
    assert max(len(line) for line in text.splitlines() if line.startswith('"')) == 79  # wrapped, to the width


@pytest.mark.unit
def test_every_reference_opens_the_file_at_the_line_of_its_text(real):
    po = polib.pofile(str(real / CATALOG))
    files = set()
    for entry in po:
        if entry.obsolete:
            continue
        ((file, line),) = entry.occurrences
        files.add(file)
        lines = (real / GAME / file).read_text(encoding="utf-8").splitlines()
        first = entry.msgid.split("\n", 1)[0][:12]
        assert first in lines[int(line) - 1] or first.replace('"', '\\"') in lines[int(line) - 1], \
            (entry.msgctxt, file, line)
    assert "rules/05-solo.yaml" in files and "glossary.yaml" in files


@pytest.mark.unit
def test_the_template_holds_every_text_untranslated_and_a_language_starts_from_it(real, tmp_path):
    template = polib.pofile(str(real / TEMPLATE))
    catalog = polib.pofile(str(real / CATALOG))
    assert [e.msgctxt for e in template] == [e.msgctxt for e in catalog if not e.obsolete]
    assert all(e.msgstr == "" and not e.fuzzy for e in template)
    assert "current since" not in (real / TEMPLATE).read_text(encoding="utf-8")
    made = tmp_path / "it.po"  # as a translator starts a language with gettext's own tool
    subprocess.run(["msginit", "--no-translator", "-l", "it", "-i", str(real / TEMPLATE), "-o", str(made)],
                   check=True, capture_output=True)
    shutil.copy(made, real / GAME / "translations" / "it.po")
    assert rulesmith_here("check", "--no-cache", cwd=real).returncode == 0
    done = rulesmith_here("translate", "template", GAME, cwd=real)
    assert done.stdout == f"{TEMPLATE}: already up to date with the English\n"

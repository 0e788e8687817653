"""Hostile translations: a catalog's msgstr reaches readers as the content's text does, so the check
holds it to the same rules: its Markdown judged as the content's (no javascript: or other non-https
link, no raw HTML, no image), its plain text by the plain-text rule. Each refusal is located in
the catalog, at the part that is refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest
from conftest import rulesmith_here

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "translations"
CATALOG = "tale/translations/de.po"
HOSTILE = {
    "javascript link": ("rule:setup.body", "Mischt die [Karten](javascript:alert(1)); siehe [[table:turns]].",
                        "link target 'javascript:alert(1)' is not allowed (only https:// links are allowed) (links in "
                        "content must be https:// URLs; use [[kind:id]] for references)", "javascript:alert(1)"),
    "data link": ("card:dragon.text", "Kämpft gegen den [[card:knight]]: [hier](data:text/html,x).",
                  "link target 'data:text/html,x' is not allowed (only https:// links are allowed) (links in content "
                  "must be https:// URLs; use [[kind:id]] for references)", "data:text/html,x"),
    "image": ("card:knight.text", "**Tapfer.** Besiegt den [[card:dragon]] bei einer 6 ![x](https://example.org/t.png).",
              "the text shows an image ('https://example.org/t.png'): content text has no images (a reader's browser "
              "would fetch it from another site: say what it shows in words, or use an icon ([[icon:name]]))",
              "https://example.org/t.png"),
    "script": ("procedure:bot.nodes.ask.text", "Hat der Bot den [[card:dragon]]?<script>alert(1)</script>",
               "raw HTML is not allowed in content text (write Markdown; for a literal '<' add a space after it)",
               "<script>"),
    "invisible in a name": ("card:dragon.name", "Dra\u202eche",
                            "plain text may not contain the invisible character U+202E: names and titles are shown as "
                            "written, never as markup (write it out ('less than', 'and'); plain text is never read as "
                            "markup)", "\u202e"),
}


@pytest.mark.unit
@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_translation_is_refused_where_it_is(tmp_path, case):
    address, translated, message, part = HOSTILE[case]
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content, ignore=shutil.ignore_patterns("README.md"))
    po = polib.pofile(str(content / CATALOG))
    po.find(address, by="msgctxt").msgstr = translated
    po.save()
    done = rulesmith_here("check", "--no-cache", cwd=content)
    assert done.returncode == 1
    lines = (content / CATALOG).read_text(encoding="utf-8").splitlines()
    escaped = polib.escape(part)
    line = next(n for n, text in enumerate(lines, start=1) if escaped in text and not text.startswith(("msgid", "#")))
    column = lines[line - 1].find(escaped) + 1
    problems = [p for p in done.stderr.splitlines() if p.startswith(CATALOG)]
    assert problems[0] == f"{CATALOG}:{line}:{column}: {message}"

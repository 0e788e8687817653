"""Counts and labels the site derives come from the data, for every game and every kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesmith.pipeline import check_content
from rulesmith.render.markup import escape_inline
from rulesmith.render import layout
from rulesmith.render.site import render_site

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site():
    checked = check_content(ROOT / "content")
    return checked, {p.path: p.text for p in render_site(checked, []).pages}


def test_kind_pages_say_the_count_and_the_plural_as_the_data_gives_them(site):
    checked, pages = site
    wrong = []
    for c in checked:
        for kind in c.game.kinds:
            page = pages[layout.kind_page(c.game.id, kind.id)]
            assert page.startswith(f"# {escape_inline(kind.plural)}\n")
            if kind.count is not None and f"The game has **{kind.count}** {escape_inline(kind.plural)}: " not in page:
                wrong.append(f"{c.game.id}/{kind.id}")
            words = kind.plural.lower().split()
            if any(a == b for a, b in zip(words, words[1:])):
                wrong.append(f"{c.game.id}/{kind.id}: repeated word in '{kind.plural}'")
    assert wrong == []


def test_overview_counts_only_what_the_source_gives(site):
    """A reconstructed card is not in the source: "6 of 7 in the source, 1 reconstructed" (issue 29)."""
    checked, pages = site
    wrong = []
    for c in checked:
        overview = pages[f"{c.game.id}/index.md"]
        for kind in c.game.kinds:
            entities = c.game.entities_of(kind.id)
            known = len([e for e in entities if e.status not in ("missing", "reconstructed")])
            rebuilt = len([e for e in entities if e.status == "reconstructed"])
            line = f"]: {known} of {kind.count} in the source" if kind.count is not None else f"]: {known} in the source"
            line += f", {rebuilt} reconstructed" if rebuilt else ""
            entry = next(l for l in overview.splitlines()
                         if l.startswith(f"- [{escape_inline(kind.plural)}](kinds/{kind.id}.md)"))
            if not entry.endswith(line.removeprefix("]")):
                wrong.append(f"{c.game.id}/{kind.id}: {entry}")
    assert wrong == []


def test_no_title_repeats_its_prefix(site):
    checked, _ = site
    repeated = []
    for c in checked:
        for item in [*c.game.procedures, *c.game.tables, *c.game.examples]:
            head, sep, rest = item.title.partition(": ")
            if sep and rest.startswith(head + ":"):
                repeated.append(item.title)
    assert repeated == []

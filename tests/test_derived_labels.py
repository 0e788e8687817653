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
def real_pages():
    """Every page of the shipped games, rendered (site tier: conftest.FIXTURE_TIERS)."""
    checked = check_content(ROOT / "content")
    return checked, {p.path: p.text for p in render_site(checked, []).pages}


def test_kind_pages_say_the_count_and_the_plural_as_the_data_gives_them(real_pages):
    checked, pages = real_pages
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


def test_overview_counts_only_what_the_source_gives(real_pages):
    """A reconstructed card is not in the source: "6 of 7 in the source, 1 reconstructed" (issue 29)."""
    checked, pages = real_pages
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


def test_no_title_repeats_its_prefix(real_pages):
    checked, _ = real_pages
    repeated = []
    for c in checked:
        for item in [*c.game.procedures, *c.game.tables, *c.game.examples]:
            head, sep, rest = item.title.partition(": ")
            if sep and rest.startswith(head + ":"):
                repeated.append(item.title)
    assert repeated == []


def test_a_reference_that_repeats_the_words_beside_it_is_said_once(real_pages):
    """Issue 29: "a conflict (Conflict)", "the Weather cards cards", "which Supplies?."."""
    from rulesmith.render.markup import fold_echoes

    checked, _ = real_pages
    index = {c.game.id: c.index for c in checked}
    assert fold_echoes("If in a conflict ([[rule:conflict]]) the bot", index["statecraft"]) == \
        "If in a [[rule:conflict|conflict]] the bot"
    assert fold_echoes("**Place a demonstrator in a rival country** ([[symbol:rival-demonstrator]]), then",
                       index["statecraft"]) == \
        "**Place a [[symbol:rival-demonstrator|demonstrator in a rival country]]**, then"
    assert fold_echoes("the [[module:weather]] cards and", index["dei"]) == "the [[module:weather]] and"
    assert fold_echoes("see [[gap:automa-mission-phase-supplies]].", index["dei"]) == "see [[gap:automa-mission-phase-supplies]]"
    kept = "the bonus ([[rule:annex-1|effects]]) and the Press ([[rule:governance-phase]])."
    assert fold_echoes(kept, index["statecraft"]) == kept


def test_an_enum_value_written_as_a_key_reads_as_words():
    from rulesmith.render.site import enum_label

    assert [enum_label(v) for v in ("influence-and-demonstrator", "faction-skill", "Scrapper", "2 or more")] == \
        ["Influence and demonstrator", "Faction skill", "Scrapper", "2 or more"]


def test_an_inline_flowchart_has_no_node_id_for_a_tooltip():
    from rulesmith.render.flowchart import inline_svg

    svg = (b'<?xml version="1.0"?>\n<svg width="1pt">\n<g id="graph0" class="graph">\n<title>bot&#45;imf</title>\n'
           b'<g id="node1" class="node rs&#45;step">\n<title>has&#45;imf</title>\n<text>1. Has the IMF?</text>\n</g>\n'
           b'<g id="edge1" class="edge">\n<title>has&#45;imf&#45;&gt;done</title>\n<path d="M0,0"/>\n</g>\n</g>\n</svg>\n')
    body = inline_svg(svg, "Bot: IMF")
    assert "<title>Bot: IMF</title>" in body and 'data-chart-node="has-imf"' in body
    assert "has&#45;imf" not in body and "&gt;done" not in body and body.count("<title>") == 1

"""Counts and labels the site derives come from the data, for every game and every kind."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rulesmith.site import layout
from rulesmith.site.pages import render_site
from rulesmith.text.escape import markdown_inline as escape_inline
from rulesmith.text.placed import unplaced

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def real_pages(shipped_games):
    """Every page of the shipped games, rendered (site tier: conftest.FIXTURE_TIERS), with the HTML
    of content texts in place (text/placed.py)."""
    checked = list(shipped_games.values())
    return checked, {p.path: unplaced(p.text) for p in render_site(checked, []).pages}


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
            if any(a == b for a, b in itertools.pairwise(words)):
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
            entry = next(row for row in overview.splitlines()
                         if row.startswith(f"- [{escape_inline(kind.plural)}](kinds/{kind.id}.md)"))
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
    from rulesmith.text.references import fold_echoes

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
    from rulesmith.values.fieldtypes import field_type

    assert [field_type("enum").shown(v) for v in ("influence-and-demonstrator", "faction-skill", "Scrapper", "2 or more")] == \
        ["Influence and demonstrator", "Faction skill", "Scrapper", "2 or more"]


def test_an_inline_flowchart_has_no_node_id_for_a_tooltip():
    from rulesmith.flowchart.chart import inline_svg

    svg = (b'<?xml version="1.0"?>\n<svg width="1pt">\n<g id="graph0" class="graph">\n<title>bot&#45;imf</title>\n'
           b'<g id="node1" class="node rs&#45;step">\n<title>has&#45;imf</title>\n<text>1. Has the IMF?</text>\n</g>\n'
           b'<g id="edge1" class="edge">\n<title>has&#45;imf&#45;&gt;done</title>\n<path d="M0,0"/>\n</g>\n</g>\n</svg>\n')
    body = inline_svg(svg, "Bot: IMF")
    assert "<title>Bot: IMF</title>" in body and 'data-chart-node="has-imf"' in body
    assert "has&#45;imf" not in body and "&gt;done" not in body and body.count("<title>") == 1


def test_a_charts_own_file_has_the_readers_title_and_no_node_id_for_a_tooltip():
    """The Whole chart file a page links to, opened on its own: an SVG document with the same
    reader's text as the inline chart (its alternative text promises no text below it)."""
    import xml.dom.minidom

    from rulesmith.flowchart.chart import standalone_svg

    svg = (b'<?xml version="1.0"?>\n<!-- Title: bot&#45;imf -->\n<svg width="1pt" xmlns="http://www.w3.org/2000/svg">\n'
           b'<g id="graph0" class="graph">\n<title>bot&#45;imf</title>\n'
           b'<g id="node1" class="node rs&#45;step">\n<title>has&#45;imf</title>\n<text>1. Has the IMF?</text>\n</g>\n'
           b'<g id="edge1" class="edge">\n<title>has&#45;imf&#45;&gt;done</title>\n<path d="M0,0"/>\n</g>\n</g>\n</svg>\n')
    document = xml.dom.minidom.parseString(standalone_svg(svg, "Bot: IMF"))
    assert [t.firstChild.data for t in document.getElementsByTagName("title")] == ["Bot: IMF"]
    assert document.documentElement.getAttribute("aria-label") == "Flowchart: Bot: IMF."
    assert [g.getAttribute("data-chart-node") for g in document.getElementsByTagName("g")] == ["", "has-imf", ""]


def test_a_call_line_quotes_the_title_it_runs(real_pages):
    """'Run: Automa: which Units are Free Units?, then go on' was a title's "?" before a comma."""
    from rulesmith.flowchart.chart import _called

    checked, _pages = real_pages
    dei = next(c for c in checked if c.game.id == "dei")
    lines = {_called(n.call, dei.index) for p in dei.game.procedures for n in p.nodes if n.call}
    assert "If needed, run “Automa: which Units are Free Units?”, then go on" in lines
    assert all(line.count("“") == 1 and line.endswith("”, then go on") for line in lines), lines


def test_the_bot_turn_names_each_phase_once_above_its_parts(real_pages):
    checked, pages = real_pages
    for c in checked:
        if c.game.bot is None:
            continue
        page = pages[f"{c.game.id}/bot-turn.md"]
        phases = [p.phase for p in c.game.bot.turn.parts if p.phase]
        for phase in dict.fromkeys(phases):
            assert page.count(f"\n**{escape_inline(phase)}**\n\n1. ") == 1, (c.game.id, phase)
        assert f"*{escape_inline(phases[0])}:*" not in page


def test_a_gap_the_text_links_is_not_marked_again_after_it(real_pages):
    """A step or a field whose own text links a gap ("… ([[gap:module-marks]])") shows that link
    once, not the link and then the same gap's marker."""
    checked, pages = real_pages
    deep_state = next(c for c in checked if c.game.id == "deep-state")
    alliances = pages[layout.kind_page("deep-state", "alliance")]
    fields = [line for line in alliances.splitlines() if line.startswith("- **Mark on the card:**")]
    assert fields and all(line.count("gaps.html#module-marks") == 1 for line in fields)
    from rulesmith.flowchart.chart import numbering

    procedure = next(p for p in deep_state.game.procedures if p.id == "falcon-secret-operation-choice")
    assert "[[gap:falcon-secret-operation-order]]" in next(n for n in procedure.nodes if n.id == "try-blackout").text
    number = numbering(procedure)["try-blackout"]
    choice = pages[layout.procedure_page("deep-state", procedure.id)]
    steps = [line for line in choice.splitlines() if line.startswith(f"{number}. ")]
    assert len(steps) == 1 and steps[0].count("gaps.html#falcon-secret-operation-order") == 1


def test_a_search_excerpt_ends_a_boxs_title_as_a_sentence():
    """"check the printed card Card text not reproduced" was an admonition's title run into its text."""
    from rulesmith.site.search import page_entries

    page = ('<title>Alliances - Rulesmith</title><article><h2 id="x">X</h2><div class="admonition warning">'
            '<p class="admonition-title">Not in the source: check the printed card</p><p>Card text not reproduced.</p>'
            '</div><details><summary>Why?</summary><p>Too small.</p></details>'
            '<div class="admonition"><p class="admonition-title">Works out to 5:</p><p>10 − 5.</p></div></article>')
    _title, entries = page_entries(page)
    assert " ".join("".join(entries[0].text).split()) == \
        "Not in the source: check the printed card. Card text not reproduced. Why? Too small. Works out to 5: 10 − 5."

"""Aids as data: every game's plan (content/<game>/aids.yaml) holds, whatever the games are.

Condensed wording stays faithful: every number a condensed text prints occurs in the full item
it names. Read here independently of rulesmith/checks/condensed.py (which the check uses): from the
plain text the site would show, so the two must agree for a game to pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesmith.aids import kinds as aidkinds
from rulesmith.text.references import plain_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
DIGITS = re.compile(r"\d+(?:[.,]\d+)?")


@pytest.fixture(scope="module")
def checked(shipped_games):
    return shipped_games


def _all_text(item, index) -> str:
    """Every text of an item and of its subsections, rows and steps, as plain text."""
    texts = []

    def walk(value):
        if isinstance(value, str):
            texts.append(plain_text(value, index) if "[[" in value else value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            texts.append(str(value))
        elif hasattr(value, "model_dump"):
            walk(value.model_dump())
    walk(item)
    return "\n".join(texts)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_number_of_a_condensed_text_occurs_in_the_item_it_condenses(checked, game_id):
    item = checked[game_id]
    wrong = []
    for plan in item.game.aids:
        for entry in plan.sequence + plan.setup + plan.body:
            if not entry.condensed:
                continue
            full = set(DIGITS.findall(_all_text(item.index.targets[entry.show].item, item.index)))
            wrong += [f"{entry.show}: {n}" for n in DIGITS.findall(plain_text(entry.condensed, item.index))
                      if n not in full]
    assert not wrong, wrong


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_plans_its_rules_summary_with_page_one_and_a_body(checked, game_id):
    game = checked[game_id].game
    required = [k for k in aidkinds.kinds() if k.plan == "required"]
    for kind in required:
        plan = game.aid_plan(kind.key)
        assert plan is not None and plan.setup and plan.body, f"{game_id}: plan the {kind.title.lower()}"
        assert plan.sequence or plan.covers, f"{game_id}: page 1 needs the sequence or says why not"


def test_aid_kinds_and_geometry_are_data_the_css_reads():
    geometry = aidkinds.geometry()
    css = (ROOT / "templates" / "pdf" / "print.css.j2").read_text()
    assert "g.body_pt" in css and "g.small_pt" in css and "paper.margin" in css
    assert not re.search(r"font-size:\s*[1-9]", css), "type sizes come from the geometry, not the stylesheet"
    assert geometry.small_pt >= geometry.min_text_pt and geometry.chart.min_font_pt >= geometry.min_text_pt
    assert {k.key for k in aidkinds.kinds()} >= {"rules-summary", "solo-aid", "card-reference"}


def test_a_reference_to_a_subsection_of_a_condensed_section_gets_that_sections_page(checked):
    from rulesmith.aids import contents
    from rulesmith.aids.context import AidContext

    kind = next(k for k in aidkinds.kinds() if k.key == "rules-summary")
    seen = 0
    for item in checked.values():
        if item.game.aid_plan(kind.key) is None:
            continue
        covered = contents.condensed_cover(item.game, item.index, kind)
        ctx = AidContext(item.game, item.index, contents.shown_keys(item.game, item.index, kind), "", covered)
        for sub, section in covered.items():
            assert sub not in contents.shown_keys(item.game, item.index, kind)
            assert ctx.href(sub) == ctx.href(section) is not None, sub
            seen += 1
    assert seen, "no game condenses a section with subsections: the test checks nothing"

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


@pytest.mark.parametrize("game_id", GAMES)
def test_the_solo_aid_holds_every_section_of_the_solo_rules(checked, game_id):
    """Every section of the module the solo aid holds is on it (as the aid's contents give its
    keys, read apart from checks/holds.py) or listed as left out with why."""
    from rulesmith.aids import contents

    game, index = checked[game_id].game, checked[game_id].index
    if game.bot is None:
        return
    plan = game.aid_plan("solo-aid")
    assert plan is not None and plan.holds, f"{game_id}: a bot, and no solo aid that holds its solo rules"
    kind = next(k for k in aidkinds.kinds() if k.key == "solo-aid")
    on_aid = contents.shown_keys(game, index, kind) | set(contents.condensed_cover(game, index, kind))
    left = {item.show for item in plan.leaves_out}
    held = [f"rule:{s.id}" for s, page in game.all_sections() if (s.module or page.module) == plan.holds]
    assert held, f"{game_id}: the solo aid holds module '{plan.holds}', which has no sections"
    assert [key for key in held if key not in on_aid and key not in left] == []
    assert all(item.why for item in plan.leaves_out)


def test_falcons_and_the_automas_named_rules_are_on_their_solo_aids(checked):
    """Issue 37: the solo aid left out GC 509, 608, 613 (Falcon) and L451-455, L497 (the Automa)."""
    from rulesmith.aids import contents

    kind = next(k for k in aidkinds.kinds() if k.key == "solo-aid")
    for game_id, keys in (("deep-state", {"rule:solo-doctrine", "rule:solo-reptilian-cards", "rule:high-society-solo"}),
                          ("dei", {"rule:playing-with-the-automa", "rule:automa-action-phase"})):
        game, index = checked[game_id].game, checked[game_id].index
        assert keys <= contents.shown_keys(game, index, kind), game_id


# ---------------------------------------------------------------- nothing planned is dropped

PLAN_GAME = {
    "game.yaml": """\
game: {id: demo, name: Demo, description: "A demo.", data_version: "1.0",
       sources: [{id: core, file: rules.txt, title: Rulebook}]}
modules:
  - {id: base, name: Base game}
""",
    "rules.yaml": """\
defaults: {module: base}
sections:
  - {id: play, title: Play, body: "Roll 2 dice; on a 6 you win."}
  - {id: storms, title: Storms, body: "The game ends after the ninth storm."}
procedures:
  - id: bot
    title: The bot
    start: roll
    nodes:
      - {id: roll, type: step, text: "The bot rolls.", next: done}
      - {id: done, type: end, text: "Done."}
""",
}


@pytest.mark.unit
@pytest.mark.parametrize("aid", [k.key for k in aidkinds.kinds() if k.plan != "none"])
@pytest.mark.parametrize("part", ["covers", "sequence", "setup", "body"])
def test_each_plan_part_is_printed_or_refused_at_its_line(tmp_path, aid, part):
    """A plan part the aid prints is on the aid; one it would not print is a problem at its line."""
    from rulesmith.aids.document import render_html
    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError

    kind = aidkinds.kind(aid)
    assert kind is not None
    game = tmp_path / "content" / "demo"
    game.mkdir(parents=True)
    for name, text in PLAN_GAME.items():
        (game / name).write_text(text)
    value = '"Covers the ninth storm."' if part == "covers" else '[{show: "rule:storms"}]'
    (game / "aids.yaml").write_text(f"aids:\n  - aid: {aid}\n    {part}: {value}\n")
    if part not in kind.parts:
        with pytest.raises(ContentError) as refused:
            check_content(tmp_path / "content")
        [problem] = refused.value.problems
        assert (problem.line, problem.message) == (3, f"the {kind.title.lower()} does not print `{part}`")
        return
    [checked] = check_content(tmp_path / "content")
    html = render_html(checked, kind, aidkinds.geometry().papers[0], tmp_path / "charts")
    assert "ninth storm" in html, f"{aid}: the plan's {part} is not printed"

"""Condensed wording keeps every condition of its full text, or says where the rest is.

The check (rulesmith/checks/condensed.py, run by `rulesmith check`) compares each condensed block with
the item it condenses for the condition words of templates/condition-words.yaml; `rulesmith
review` prints every block beside its full text with what it drops.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import GAMES, rulesmith_here
from gamekit import write_game

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError

ROOT = Path(__file__).resolve().parents[2]

RULE = """\
sections:
  - id: trade
    title: Trade
    body: |
      You may trade one card with another player, but only if both of you agree.
    sections:
      - id: trade-limit
        title: Timing
        body: "Trades happen after the draw."
"""


def _aids(condensed: str, in_full: str = "") -> str:
    return ("aids:\n  - aid: rules-summary\n    setup: [{show: \"rule:goal\"}]\n    body:\n"
            "      - show: \"rule:trade\"\n        condensed: \"" + condensed + "\"\n" + in_full)


def _problems(tmp_path, aids: str) -> list[str]:
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"trade.yaml": RULE, "aids.yaml": aids}))
    return [str(p).split("content/mini/")[1] for p in error.value.problems]


def test_a_block_that_drops_may_and_only_is_refused_at_its_place(tmp_path):
    found = _problems(tmp_path, _aids("Trade one card with another player when both agree."))
    dropped = [p for p in found if "drops" in p]
    assert {p.split(": condensed text")[0] for p in dropped} == {"aids.yaml:6:20"}
    assert any("drops 'may' (a permission" in p and '"You may trade one card' in p for p in dropped)
    assert any("drops 'only' (a restriction)" in p for p in dropped)
    assert any("in_full: [{part: rule:trade, drops: [may]}]" in p for p in dropped), dropped
    # 'before-after' is dropped too ("after the draw" is not in the block), each with its own problem
    assert any("drops 'before-after'" in p and "in_full: [{part: rule:trade-limit, drops: [before-after]}]" in p
               for p in found)


def test_a_block_that_keeps_its_conditions_passes(tmp_path):
    aids = _aids("You may trade one card with another player, only if both agree; trades happen after the draw.")
    assert len(check_content(write_game(tmp_path, **{"trade.yaml": RULE, "aids.yaml": aids}))) == 1


def test_a_block_that_says_where_the_rest_is_passes_and_the_aid_data_carries_the_pointer(tmp_path):
    aids = _aids("You may trade one card with another player if both agree.",
                 "        in_full:\n"
                 "          - {part: \"rule:trade\", drops: [only]}\n"
                 "          - {part: \"rule:trade-limit\", drops: [before-after]}\n")
    [checked] = check_content(write_game(tmp_path, **{"trade.yaml": RULE, "aids.yaml": aids}))
    entry = checked.game.aid_plan("rules-summary").body[0]
    assert [(p.part, p.drops) for p in entry.in_full] == [("rule:trade", ["only"]), ("rule:trade-limit", ["before-after"])]


def test_a_pointer_must_point_to_a_part_that_keeps_the_dropped_word(tmp_path):
    aids = _aids("You may trade one card with another player if both agree.",
                 "        in_full:\n"
                 "          - {part: \"rule:trade-limit\", drops: [only, mays, may]}\n"
                 "          - {part: \"rule:goal\", drops: [only]}\n")
    found = _problems(tmp_path, aids)
    assert any(p.startswith("aids.yaml:8:48: ") and "rule:trade-limit does not use 'only'" in p
               and "name the part that does: rule:trade" in p for p in found), found
    assert any(p.startswith("aids.yaml:8:54: ") and "unknown condition word 'mays' (did you mean may" in p for p in found)
    assert any(p.startswith("aids.yaml:8:60: ") and "rule:trade-limit does not use 'may'" in p for p in found)
    assert any(p.startswith("aids.yaml:9:20: ") and "in_full names rule:goal, which is not part of" in p for p in found)
    # still refused: 'only' and 'before-after' are dropped and no valid pointer covers them
    assert sum("drops '" in p for p in found) == 2


def test_a_pointer_for_a_word_the_block_keeps_is_refused(tmp_path):
    aids = _aids("You may trade one card with another player, only if both agree; trades happen after the draw.",
                 "        in_full: [{part: \"rule:trade\", drops: [may]}]\n")
    found = _problems(tmp_path, aids)
    assert found == [p for p in found if "keeps every 'may' of rule:trade" in p] and found


def test_kin_words_count_longest_first_and_once():
    from rulesmith.checks.condensed import counts

    assert counts("You may not place more; no more than two, at least one, can't.") == {
        "not": 2, "at-most": 1, "at-least": 1}
    assert counts("Each player; every round; one die per influence.")["each"] == 3


def test_condition_words_are_data_in_one_place():
    data = yaml.safe_load((ROOT / "templates" / "condition-words.yaml").read_text())
    keys = [g["key"] for g in data["groups"]]
    assert len(keys) == len(set(keys))
    phrases = [p for g in data["groups"] for p in g["phrases"]]
    assert len(phrases) == len(set(phrases)), "a phrase counts for one group only"
    for word in ("if", "unless", "only", "except", "instead", "may", "must", "cannot", "at most", "at least",
                 "each", "any", "all"):
        assert word in phrases


def test_review_prints_every_block_beside_its_full_text_with_what_it_drops(tmp_path):
    content = write_game(tmp_path, **{"trade.yaml": RULE, "aids.yaml": _aids(
        "Trade one card with another player when both agree.",
        "        in_full: [{part: \"rule:trade\", drops: [only]}]\n")})
    done = rulesmith_here("review", cwd=content)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Mini Game · Rules summary · Trade (rule:trade)" in out
    assert "aids.yaml:6:20" in out
    condensed, full = out.split("-- condensed")[1].split("-- full text")
    assert "Trade one card with another player «when» «both» agree." in condensed
    assert "You «may» trade one card with another player, but «only» «if» «both» of you agree." in full
    assert "[Timing]" in full and "Trades happen «after» the draw." in full
    dropped = out.split("-- dropped")[1]
    assert "may (a permission, the player's choice): full text 1, condensed 0; no pointer; REFUSED" in dropped
    assert "only (a restriction): full text 1, condensed 0; left to the full text: Trade; ok" in dropped
    assert "1 condensed block(s); 1 drop a condition word without saying where the rest is" in out


def test_review_covers_every_condensed_block_of_every_game():
    from rulesmith.commands.review import report

    out = report(ROOT / "content")
    expected = sum(1 for path in (ROOT / "content").glob("*/aids.yaml")
                   for plan in yaml.safe_load(path.read_text())["aids"]
                   for part in ("sequence", "setup", "body") for entry in plan.get(part, [])
                   if entry.get("condensed"))
    assert expected and out.count("\n-- condensed ") == expected
    assert f"{expected} condensed block(s)" in out


@pytest.fixture(scope="module")
def shipped_problems() -> list:
    """The problems `rulesmith check` finds in content/ (none, when it is clean)."""
    try:
        check_content(ROOT / "content")
    except ContentError as error:
        return error.problems
    return []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_games_condensed_blocks_keep_their_conditions(game_id, shipped_problems):
    dropped = [str(p) for p in shipped_problems if f"content/{game_id}/aids.yaml" in str(p)
               and ("condensed text of" in str(p) or "in_full" in str(p))]
    assert not dropped, "\n".join(dropped)


# ---------------------------------------------------------------- what a block stands for

ENTITY_RULE = RULE + """\
entities:
  - {id: broker, name: Broker, kind: symbol, text: "On the first turn only, the broker must be placed in port."}
"""


def test_a_block_is_compared_with_the_entities_it_names(tmp_path):
    """The condition a named entity carries counts as the block's (D.E.I.'s Psionics block named
    Infamous and dropped its first-turn Leader, L233, unseen while only the section was compared)."""
    keeps_the_section = "You may trade one card with another player, only if both agree; trades happen after the draw."
    aids = _aids(keeps_the_section + " The [[symbol:broker]] is placed in port.")
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"trade.yaml": ENTITY_RULE, "aids.yaml": aids}))
    found = [str(p) for p in error.value.problems]
    assert any("drops 'must'" in p and "in_full: [{part: symbol:broker, drops: [must]}]" in p for p in found), found
    assert any("drops 'only'" in p and "(it is used in rule:trade, symbol:broker)" in p for p in found), found
    kept = _aids(keeps_the_section + " On the first turn only, the [[symbol:broker]] must be placed in port.")
    assert check_content(write_game(tmp_path / "kept", **{"trade.yaml": ENTITY_RULE, "aids.yaml": kept}))


def test_review_lists_what_each_block_stands_for(tmp_path):
    from rulesmith.commands.review import report

    aids = _aids("You may trade one card with another player, only if both agree; trades happen after the draw. "
                 "On the first turn only, the [[symbol:broker]] must be placed in port.")
    out = report(write_game(tmp_path, **{"trade.yaml": ENTITY_RULE, "aids.yaml": aids}))
    assert "stands for: Trade (rule:trade), Timing (rule:trade-limit), Broker (symbol:broker)" in out
    assert "[Broker]" in out and "On the first turn «only», the broker «must» be placed in port." in out


def test_the_psionics_block_stands_for_infamous_and_keeps_the_first_turn_leader(shipped_games):
    from rulesmith.checks.check import own_entries
    from rulesmith.checks.condensed import plain_words, stands_for

    dei = shipped_games["dei"]
    plan = next(p for p in dei.game.aids if p.aid == "rules-summary")
    entry = next(e for e in plan.body if e.show == "rule:psionics")
    assert "ability:infamous" in stands_for(entry, dei.index, own_entries(plan) - {entry.show})
    assert "First Turn: the Psionic Leader, set alongside the Pad during the Setup, is placed in a Neutral Refuge" \
        in " ".join(plain_words(entry.condensed, dei.index).split())

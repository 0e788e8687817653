"""Values of the wrong type in fields and cells: a located message with the fix for that type,
and table rules that hold over the other cells, never a traceback (issue 23)."""

from __future__ import annotations

from conftest import rulesmith_here
from gamekit import CONTENT_YAML, GAME_YAML, write_game

TABLE = ("rows: [[1, 2], [2, 4], [3, 6]]\n    rules: [{rule: non-decreasing, column: influence}, {rule: unique, column: stage}]")


def check(tmp_path, game=GAME_YAML, content=CONTENT_YAML):
    assert content != CONTENT_YAML or game != GAME_YAML
    run = rulesmith_here("check", cwd=write_game(tmp_path, game, content))
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    return run.stderr


def test_a_quoted_number_under_a_range_rule_is_located_not_a_traceback(tmp_path):
    out = check(tmp_path, content=CONTENT_YAML.replace(TABLE, TABLE.replace("[2, 4]", "[2, '4']").replace(
        "column: stage}]", "column: stage}, {rule: range, column: influence, min: 0, max: 10}]")))
    assert "mini/content.yaml:19:" in out and "must be an integer, got '4' (write the number without quotes: 4)" in out


def test_an_integer_sum_is_reported_as_an_integer(tmp_path):
    out = check(tmp_path, content=CONTENT_YAML.replace(TABLE, TABLE.replace(
        "column: stage}]", "column: stage}, {rule: sum, column: influence, equals: 127}]")))
    assert "sums to 12, expected 127 (" in out


def test_a_boolean_written_as_a_word_says_true_or_false(tmp_path):
    game = GAME_YAML.replace("- {id: symbol, name: Symbol, type: ref, to: symbol}",
                             "- {id: symbol, name: Symbol, type: ref, to: symbol}\n      - {id: wild, name: Wild, type: boolean}")
    out = check(tmp_path, game, CONTENT_YAML.replace("symbol: star}}", "symbol: star, wild: no}}"))
    assert "(write true or false (without quotes))" in out

"""Fidelity: the numbers in the content are the rulebook's numbers.

Two kinds of test: a generic one (every number in every table and field occurs in the game's
source text, as digits or as a word), and the values the issues name, read from the tables.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import GAMES

from rulesmith.checks.source_map import source_path
from rulesmith.values.expressions import plain

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


@pytest.fixture(scope="module")
def games(shipped_games):
    return {game_id: c.game for game_id, c in shipped_games.items()}


def source_text(game) -> str:
    """The game's rulebook texts, where game.yaml (or $RULESMITH_SOURCES) says they are: without
    them the numbers cannot be proved, and the test fails (it never skips)."""
    paths = [source_path(game, s) for s in game.info.sources]
    missing = [str(p) for p in paths if not p.is_file()]
    assert not missing, f"rulebook texts not found: {', '.join(missing)} (set $RULESMITH_SOURCES or game.sources_folder)"
    return "\n".join(p.read_text(encoding="utf-8") for p in paths).lower()


def in_source(number, text: str) -> bool:
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if re.search(rf"(?<![\d.]){re.escape(str(number))}(?![\d])", text):
        return True
    return isinstance(number, int) and 0 <= number < len(WORDS) and re.search(rf"\b{WORDS[number]}\b", text) is not None


def numbers_of(game):
    for table in game.tables:
        for row in table.rows:
            for column, cell in zip(table.columns, row, strict=True):
                value = plain(cell)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    yield f"table:{table.id} {plain(row[0])}/{column.id}", value
    for entity in game.entities:
        for name, raw in entity.fields.items():
            value = plain(raw)
            values = value if isinstance(value, list) else [value]
            for v in values:
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    yield f"{entity.kind}:{entity.id} {name}", v


# Tables whose cells the text layer runs together; each value is checked against the glued run.
GLUED = {"reptilians-stages": ['"seizure of power i"2013', '"seizure of power ii"20112',
                               '"seizure of power iii"2094', '"substitution of leaders"4076',
                               '"day of nibiru"6078']}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_number_occurs_in_the_source_text(games, game_id):
    game = games[game_id]
    text = source_text(game)
    absent = []
    for where, value in numbers_of(game):
        table = where.split()[0].removeprefix("table:")
        if table in GLUED:
            assert all(run in text for run in GLUED[table]), f"{table}: the glued runs are no longer in the text"
            if any(str(value) in run.rsplit('"', 1)[1] for run in GLUED[table]):
                continue
        if not in_source(value, text):
            absent.append(f"{where} = {value}")
    assert absent == []


def column(game, table_id, name):
    table = next(t for t in game.tables if t.id == table_id)
    index = [c.id for c in table.columns].index(name)
    return [plain(row[index]) for row in table.rows]


def test_statecraft_popular_support_track_has_nine_spaces(games):
    assert column(games["statecraft"], "popular-support-track", "space") == ["-2", "-1", "0", "1", "2", "3", "4", "5", "TOP"]


def test_statecraft_extra_conflict_dice(games):
    assert column(games["statecraft"], "conflict-dice", "extra") == [3, 2, 1]


def test_high_society_capture_and_influence(games):
    game = games["deep-state"]
    assert column(game, "high-society-capture", "agents") == [3, 6, 9]
    assert column(game, "high-society-influence", "alone") == [20, 10, 5]


def test_reptilians_symbols_kept_as_printed_and_flagged(games):
    game = games["deep-state"]
    table = next(t for t in game.tables if t.id == "reptilians-stages")
    assert column(game, "reptilians-stages", "symbols_required") == [13, 11, 9, 7, 7]
    flagged = [row for row in table.rows if isinstance(row[3], dict) and row[3].get("status") == "unverified"]
    assert len(flagged) == 1
    rule = next(r for r in table.rules if r.column == "symbols_required")
    assert rule.except_ == [plain(flagged[0][0])]


def test_dei_sacrificed_outposts(games):
    assert column(games["dei"], "sacrificed-outposts", "supplies") == [5, 15, 30]


def test_dei_natural_feats(games):
    feats = {e.name: plain(e.fields["outposts"]) for e in games["dei"].entities_of("natural-feat")}
    assert feats == {"Howl": 2, "Smell": 4, "Wolfpack": 6}


def test_dei_psionic_missions_keep_fifteen_slots(games):
    missions = games["dei"].entities_of("psionic-mission")
    assert len(missions) == 15
    assert sorted(m.name for m in missions if m.status == "missing") == [
        "Elle – C", "Vladimir – A", "Vladimir – B", "Vladimir – C"]

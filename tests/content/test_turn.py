"""The bot's turn as data (rulesmith.content.turn) on the shipped games: every call resolves to a procedure
the page carries, every table answer the page is given is the table's own cell."""

from __future__ import annotations

import pytest
from conftest import GAMES

from rulesmith.content import turn
from rulesmith.site.botturn import companion_data, reached_procedures


@pytest.mark.parametrize("game_id", GAMES)
def test_every_answer_is_the_cell_of_its_row_and_column(game_id, shipped_games):
    game = shipped_games[game_id].game
    if game.bot is None:  # a game without a bot reads no table by its state
        return
    states = {v.id: v for v in game.bot.state}
    reads = [n for p in reached_procedures(game) for n in p.nodes if n.reads]
    for node in reads:
        table = next(t for t in game.tables if t.id == node.reads.table)
        ids = [c.id for c in table.columns]
        for answer in turn.answers(game, node):
            row_key = answer.when[node.reads.row[6:]] if node.reads.row.startswith("state:") else (
                answer.when["roll"] if node.reads.row == "roll" else node.reads.row)
            row = next(r for r in table.rows if str(turn.plain(r[0])) == row_key)
            if node.reads.find:
                holding = [ids[c] for c, cell in enumerate(row) if c and isinstance(cell, list) and int(answer.when["roll"]) in cell]
                assert answer.value in (node.reads.names.get(holding[0]), table.columns[ids.index(holding[0])].title)
            else:
                column = node.reads.column
                column = answer.when[column[6:]] if column.startswith("state:") else column
                column = node.reads.columns.get(column, column)
                assert answer.value == str(turn.plain(row[ids.index(column)])), (node.id, answer)
        assert len(turn.answers(game, node)) == len(turn.read_cases(node, states))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_carries_every_procedure_a_call_reaches(game_id, shipped_games):
    if shipped_games[game_id].game.bot is None:  # no Bot turn page
        return
    data = companion_data(shipped_games[game_id].game)
    for procedure in data["procedures"].values():
        for node in procedure["nodes"].values():
            if "call" in node:
                assert node["call"]["procedure"] in data["procedures"]
    assert {p["procedure"] for p in data["parts"]} <= set(data["procedures"])


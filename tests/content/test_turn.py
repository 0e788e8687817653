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



# ---- bounded by construction (issue 46): the table answers a Bot turn page carries

def _growth():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "growth.py"
    spec = importlib.util.spec_from_file_location("growth", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _line_of(path, needle: str, occurrence: int = 1) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, start=1) if needle in line][occurrence - 1]


@pytest.mark.unit
@pytest.mark.parametrize("procedures, steps, cell, where", [
    # the page: 4 procedures of 39 steps, a 100 x 10 table of 200-character cells (43.8 MB before)
    (4, 39, 200, ("id: s0,", 1)),
    # reads of short cells add up: the fourth read takes the page past the cap
    (2, 2, 20, ("id: s1,", 2)),
])
def test_table_reads_past_the_pages_cap_are_refused_at_the_read(tmp_path, procedures, steps, cell, where):
    from conftest import run_rulesmith

    growth = _growth()
    growth.write(tmp_path, growth.table_reads(steps, procedures=procedures, cell=cell))
    done = run_rulesmith("check", "--no-cache", cwd=tmp_path / "content")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    line = _line_of(tmp_path / "content" / "demo" / "procedures.yaml", *where)
    problems = done.stderr.splitlines()[:-1]
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"demo/procedures.yaml:{line}:"), problems[0]
    assert (f"takes the table answers the Bot turn page carries past {turn.MAX_TURN_ANSWER_CHARS:,} characters"
            in problems[0])


@pytest.mark.unit
def test_table_reads_under_the_cap_pass(tmp_path):
    from conftest import run_rulesmith

    growth = _growth()
    growth.write(tmp_path, growth.table_reads(1, procedures=1, rows=20, columns=5, cell=20))
    done = run_rulesmith("check", "--no-cache", cwd=tmp_path / "content")
    assert done.returncode == 0, done.stderr[-2000:]

"""The source map: every line of every rulebook text is mapped to content (or marked not content).

The coverage test reads the real texts beside the repository (../shared/seeds); the check tests
build a tiny game with its own text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GAMES

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.source_map import coverage, seeds_dir

from gamekit import write_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def games():
    return {c.game.id: c.game for c in check_content(ROOT / "content")}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_line_of_every_source_text_is_mapped(games, game_id):
    game = games[game_id]
    if not all((seeds_dir(game) / s.file).is_file() for s in game.info.sources):
        pytest.skip(f"the rulebook texts are not beside the repository ({seeds_dir(game)})")
    found = coverage(game)
    assert [c.source for c in found] == [s.id for s in game.info.sources]
    uncovered = [f"{c.file} lines {a}-{b}" if a != b else f"{c.file} line {a}"
                 for c in found for a, b in c.uncovered]
    assert uncovered == [], f"{game_id}: " + ", ".join(f"{c.source} {c.percent:.1f} %" for c in found)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_gap_is_named_in_the_source_map(games, game_id):
    """A stand-alone gap came out of the reverse pass, so some lines of the text carry it."""
    game = games[game_id]
    mapped = {key for entry in game.source_map for key in entry.items}
    assert [g.id for g in game.gaps if f"gap:{g.id}" not in mapped] == []


MAP = """\
source_map:
  - {source: core, lines: "1-2", items: [rule:goal, alliance:interpol]}
  - {source: core, lines: "3", not_content: "page header"}
"""


def problems(tmp_path, monkeypatch, source_map, text="one\ntwo\nthree\n"):
    (tmp_path / "seeds").mkdir(parents=True)
    (tmp_path / "seeds" / "mini.txt").write_text(text, encoding="utf-8")
    monkeypatch.setenv("RULESMITH_SOURCES", str(tmp_path / "seeds"))
    content = write_game(tmp_path, **{"source-map.yaml": source_map})
    try:
        checked = check_content(content)
    except ContentError as error:
        return [str(p).split("content/mini/")[1] for p in error.problems]
    return checked


def test_a_complete_map_passes_and_covers_every_line(tmp_path, monkeypatch):
    checked = problems(tmp_path, monkeypatch, MAP)
    [found] = coverage(checked[0].game)
    assert (found.total, found.covered, found.uncovered) == (3, 3, [])


def test_uncovered_lines_are_listed(tmp_path, monkeypatch):
    checked = problems(tmp_path, monkeypatch, MAP, text="one\ntwo\nthree\nfour\nfive\n")
    [found] = coverage(checked[0].game)
    assert found.uncovered == [(4, 5)]


def test_unknown_item_is_located_with_a_hint(tmp_path, monkeypatch):
    found = problems(tmp_path, monkeypatch, MAP.replace("alliance:interpol", "alliance:interpoll"))
    assert found == ["source-map.yaml:2:53: unknown item alliance:interpoll in the source map "
                     "(did you mean alliance:interpol or alliance:osce?)"]


def test_range_past_the_end_and_overlap(tmp_path, monkeypatch):
    found = problems(tmp_path, monkeypatch, MAP.replace('"3"', '"2-4"'))
    assert any(p.startswith("source-map.yaml:3:27: line range 2-4 goes past the end of mini.txt (3 lines)")
               for p in found)
    assert any(p.startswith("source-map.yaml:3:27: line range 2-4 of core overlaps 1-2") for p in found)


def test_unknown_source_and_items_or_reason(tmp_path, monkeypatch):
    found = problems(tmp_path, monkeypatch, MAP.replace("source: core, lines: \"3\"", "source: kore, lines: \"3\""))
    assert any("unknown source 'kore' (did you mean core?)" in p for p in found)
    found = problems(tmp_path / "b", monkeypatch, MAP.replace('not_content: "page header"', "items: []"))
    assert any("source-map.yaml:3:" in p and "either `items" in p for p in found)

"""The source map: every line of every rulebook text is mapped to content (or marked not content).

The coverage test reads the real texts where each game.yaml declares them (../shared/seeds); the check tests
build a tiny game with its own text.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import GAMES, rulesmith_here
from gamekit import write_game

from rulesmith.checks.source_map import coverage, seeds_dir
from rulesmith.content.load import display_path
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games(shipped_games):
    return {game_id: c.game for game_id, c in shipped_games.items()}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_line_of_every_source_text_is_mapped(games, game_id):
    game = games[game_id]
    missing = [s.file for s in game.info.sources if not (seeds_dir(game) / s.file).is_file()]
    assert missing == [], f"the rulebook texts game.yaml declares are not in {seeds_dir(game)}"
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
        return [str(p).split("content/mini/")[1] if "content/mini/" in p.file
                else f"{Path(p.file).name}:{p.line}:{p.column}: {p.message} ({p.hint})" for p in error.problems]
    return checked


def test_a_complete_map_passes_and_covers_every_line(tmp_path, monkeypatch):
    checked = problems(tmp_path, monkeypatch, MAP)
    [found] = coverage(checked[0].game)
    assert (found.total, found.covered, found.uncovered) == (3, 3, [])


def test_unmapped_lines_are_problems_at_the_text_s_own_lines(tmp_path, monkeypatch):
    found = problems(tmp_path, monkeypatch, MAP, text="one\ntwo\nthree\nfour\nfive\n")
    assert found == ["mini.txt:4:1: lines 4-5 of source 'core' are not in the source map (map them: "
                     "{source: core, lines: \"4-5\", items: [kind:id, …]}, or not_content: \"why\" "
                     "(see `rulesmith format source_map`))"]
    found = problems(tmp_path / "one", monkeypatch, MAP.replace('"1-2"', '"1"'))
    assert found == ["mini.txt:2:1: line 2 of source 'core' is not in the source map (map it: "
                     "{source: core, lines: \"2\", items: [kind:id, …]}, or not_content: \"why\" "
                     "(see `rulesmith format source_map`))"]


def test_without_the_text_the_check_warns_that_the_map_is_unchecked(tmp_path, monkeypatch):
    monkeypatch.delenv("RULESMITH_SOURCES", raising=False)
    content = write_game(tmp_path, **{"source-map.yaml": MAP.replace('"3"', '"3-99"')})
    [checked] = check_content(content)  # a range past the end cannot be known: not a problem …
    assert [(Path(w.file).name, w.line, w.message) for w in checked.warnings] == [
        ("game.yaml", 6, f"source text 'core' not found at {os.path.relpath(tmp_path / 'mini.txt')}: "
                         "the source map is unchecked against it")]
    (tmp_path / "mini.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")  # … beside the project: found
    with pytest.raises(ContentError) as error:
        check_content(content)
    assert [p.message for p in error.value.problems] == [
        "line range 3-99 goes past the end of mini.txt (3 lines)"]
    assert error.value.warnings == []


def test_the_sources_folder_is_relative_to_the_project(tmp_path, monkeypatch):
    monkeypatch.delenv("RULESMITH_SOURCES", raising=False)
    content = write_game(tmp_path, **{"source-map.yaml": MAP})
    game_yaml = content / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("  sources:", "  sources_folder: ../texts\n  sources:"))
    (tmp_path.parent / "texts").mkdir(exist_ok=True)
    (tmp_path.parent / "texts" / "mini.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    [checked] = check_content(content)
    assert checked.warnings == []
    [found] = coverage(checked.game)
    assert (found.total, found.covered) == (3, 3)


def test_check_prints_the_warning_and_passes(tmp_path, monkeypatch):
    monkeypatch.delenv("RULESMITH_SOURCES", raising=False)
    content = write_game(tmp_path, **{"source-map.yaml": MAP})
    result = rulesmith_here("check", cwd=content)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "mini/game.yaml:6:30: warning: source text 'core' not found at ../mini.txt: the source map is "
        "unchecked against it (put the rulebook text there, or give game.sources_folder (relative to the "
        "project) or $RULESMITH_SOURCES; see `rulesmith format game`)"]


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


def test_unmapped_lines_that_an_unreadable_file_may_map_say_so(tmp_path, monkeypatch):
    broken = 'source_map:\n  - {source: core, lines: "3", not_content: "page header"\n'  # never closed
    (tmp_path / "seeds").mkdir(parents=True)
    (tmp_path / "seeds" / "mini.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    monkeypatch.setenv("RULESMITH_SOURCES", str(tmp_path / "seeds"))
    content = write_game(tmp_path, **{"source-map.yaml": MAP.replace('  - {source: core, lines: "3", not_content: "page header"}\n', ""),
                                      "source-map-2.yaml": broken})
    with pytest.raises(ContentError) as error:
        check_content(content)
    messages = [(Path(p.file).name, p.message) for p in error.value.problems]
    assert ("game.yaml", "the source map of lines 3 of mini.txt may be in "
            f"{display_path(content / 'mini' / 'source-map-2.yaml')}, which could not be read") in messages
    assert [m for f, m in messages if "not in the source map" in m] == []
    assert len([f for f, _ in messages if f == "source-map-2.yaml"]) == 1  # its own error, once

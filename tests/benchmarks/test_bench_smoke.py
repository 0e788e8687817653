"""The benchmark's synthetic games stay valid content (the benchmark itself is never a test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rulesmith.pipeline import check_content

GENERATOR = Path(__file__).resolve().parents[2] / "scripts" / "make_synthetic_games.py"


def _generator():
    spec = importlib.util.spec_from_file_location("make_synthetic_games", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_synthetic_games_pass_the_check(tmp_path):
    folders = _generator().generate(tmp_path / "content", 2)
    checked = check_content(tmp_path / "content")
    assert [c.game.id for c in checked] == [f.name for f in folders] == ["synth-001", "synth-002"]
    for item in checked:
        game = item.game
        assert game.kinds and game.entities and game.tables and game.procedures and game.examples
        assert game.sections and game.glossary and game.gaps
        assert any(item.index.backlinks.values())


def test_synthetic_games_are_deterministic(tmp_path):
    generator = _generator()
    generator.generate(tmp_path / "a", 1)
    generator.generate(tmp_path / "b", 1)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.yaml"))
    assert files
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)

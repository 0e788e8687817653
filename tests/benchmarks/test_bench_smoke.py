"""The benchmark runs, and its synthetic games stay valid content (the benchmark's figures are
never a test's pass or fail: these tests only show that it runs)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulesmith.pipeline import check_content

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "scripts" / "make_synthetic_games.py"


def _generator():
    spec = importlib.util.spec_from_file_location("make_synthetic_games", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "bench.py")
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


@pytest.mark.pdf  # builds sites and PDFs, as the benchmark does
def test_the_benchmark_runs_end_to_end_in_its_quick_mode(tmp_path):
    """`scripts/bench --quick` on small content (the PDF tests' made-up games): every step runs in
    the processes the benchmark starts, prints its table and writes its figures, the test suite's
    among them, so a move of the package cannot break the benchmark unseen."""
    report = tmp_path / "bench.json"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick",
                          "--content", str(ROOT / "tests" / "fixtures" / "pdf" / "content"), "--json", str(report)],
                         cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    figures = json.loads(report.read_text(encoding="utf-8"))
    for step in ("check", "clean", "floors", "rebuild", "erratum", "scaling", "serve", "suite"):
        assert step in figures, step
    assert figures["clean"]["outputs"]["pdfs"] > 0
    # the check's baseline commit checks the content of its own day (the format has grown since),
    # wherever the clone's history holds that commit
    if subprocess.run(["git", "cat-file", "-e", f"{_bench().CHECK_BASELINE}^{{commit}}"], cwd=ROOT).returncode == 0:
        assert figures["check"]["baseline"]["items"] > 0, figures["check"]
        assert figures["check"]["in_process_vs_baseline"]["median"] > 0
    assert figures["suite"]["exit_code"] == 0 and figures["suite"]["tests"] > 0, figures["suite"]
    assert figures["suite"]["tiers"]["unit"]["tests"] == figures["suite"]["tests"]
    assert "Targets" in run.stdout and "test suite (" in run.stdout

"""The test suite's own figures, for `scripts/bench` (its `suite` step) or alone:
`python benchmarks/suite.py [pytest arguments]` runs the suite as `scripts/test` does (two
workers, the same Hypothesis profile and fuzz strength) and prints its wall time and the test time
of each tier (unit, site, pdf, browser), which tests/conftest.py records (RULESMITH_SUITE_TIMES).
Never part of the suite's pass/fail: it measures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = "2"


def measure_suite(pytest_args: list[str]) -> dict:
    """Run pytest over `pytest_args` (the whole suite when empty): wall time, outcome, per tier."""
    with tempfile.TemporaryDirectory(prefix="rulesmith-suite-") as tmp:
        times = Path(tmp) / "times.json"
        env = dict(os.environ, RULESMITH_SUITE_TIMES=str(times), HYPOTHESIS_PROFILE="ci")
        if not pytest_args:
            env.setdefault("RULESMITH_FUZZ_EXAMPLES", "60")  # as scripts/test runs the whole suite
        command = [sys.executable, "-m", "pytest", "-n", WORKERS, "--dist", "loadgroup", "-q", "-p", "no:cacheprovider",
                   *pytest_args]
        started = time.perf_counter()
        run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        recorded = json.loads(times.read_text(encoding="utf-8")) if times.is_file() else {"tests": 0, "tiers": {}}
    return {"command": "pytest " + " ".join(command[3:]), "wall_s": wall, "exit_code": run.returncode,
            "tests": recorded["tests"], "tiers": recorded["tiers"],
            "summary": (run.stdout.strip().splitlines() or [""])[-1]}


def report(result: dict) -> str:
    lines = [f"test suite ({result['command']}): {result['wall_s']:.1f} s wall, {result['tests']} tests, "
             f"exit code {result['exit_code']}: {result['summary']}"]
    for tier, figures in result["tiers"].items():
        if figures["tests"]:
            lines.append(f"  {tier:>8}: {figures['tests']:5d} tests, {figures['seconds']:8.1f} s of test time")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure_suite(sys.argv[1:])))

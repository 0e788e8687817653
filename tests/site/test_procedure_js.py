"""The procedure interpreter the walker and the Bot turn companion share (templates/site/assets/procedure.js):
its own tests (tests/js/procedure.test.js), run with `node --test` in the unit tier. Node comes with
scripts/setup; without it the test fails, never skips."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1] / "js" / "procedure.test.js"


def test_the_procedure_interpreter_passes_its_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed; scripts/setup installs it (the Debian package nodejs)")
    run = subprocess.run([node, "--test", "--test-reporter=tap", str(TESTS)], capture_output=True, text=True, timeout=300, check=False)
    report = run.stdout + run.stderr
    counts = {name: int(n) for name, n in re.findall(r"^# (tests|pass|fail) (\d+)$", run.stdout, re.MULTILINE)}
    failed = re.findall(r"^not ok \d+ - (.*)$", run.stdout, re.MULTILINE)
    assert run.returncode == 0 and failed == [], report
    assert counts.get("tests", 0) >= 10 and counts.get("pass") == counts["tests"], report

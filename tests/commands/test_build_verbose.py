"""`rulesmith build -v` explains a build: what each cache gave, what was made again, and why the
site engine rebuilt what it did (issue 35: a logger per module, with the stage's decisions)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import rulesmith_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "site"


@pytest.mark.site
def test_a_verbose_build_says_what_was_rebuilt_and_why(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "project" / "content")
    project = tmp_path / "project"
    build = ("build", "-v", "--no-pdf", "--site", str(tmp_path / "site"))

    first = rulesmith_here(*build, cwd=project, content=None)
    assert first.returncode == 0, first.stderr
    assert "check demo: read and checked" in first.stderr
    assert "pages of demo: rendered" in first.stderr
    assert "mkdocs build: every page: no site of an earlier build to start from" in first.stderr
    assert "final gate: " in first.stderr

    again = rulesmith_here(*build, cwd=project, content=None)
    assert "pages of demo: from the cache" in again.stderr
    assert "generated pages in " in again.stderr and ": 0 written (none)" in again.stderr
    assert "mkdocs build: nothing: the site is as its last build made it" in again.stderr

    rules = next((project / "content" / "demo").rglob("*.yaml"))
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    edited = rulesmith_here(*build, cwd=project, content=None)
    assert "pages of demo: rendered (its files" in edited.stderr
    assert "mkdocs build: " in edited.stderr

"""`rulesmith build --game ID`: one game built alone (one job of the CI matrix in
.github/workflows/deploy.yml), whose cached PDFs the build of the whole site then finds."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURE_PDF_CONTENT, run_rulesmith

from rulesmith.commands.build import _only
from rulesmith.pipeline import check_content
from rulesmith.problems import UsageError

pytestmark = pytest.mark.site


def test_a_game_built_alone_makes_the_pdfs_the_whole_build_asks_for(tmp_path):
    from rulesmith.aids import pdf  # WeasyPrint: imported by the test that needs it, not at collection

    checked = check_content(FIXTURE_PDF_CONTENT)
    assert len(checked) >= 2
    every = {job.path: job.key() for job in pdf.jobs_for(checked, tmp_path / "flowcharts", "https://example.org/rules/")}
    for game in (c.game.id for c in checked):
        alone = {job.path: job.key() for job in pdf.jobs_for(_only(checked, [game]), tmp_path / "flowcharts",
                                                                 "https://example.org/rules/")}
        assert alone and all(path.startswith(f"downloads/{game}/") for path in alone)
        assert alone == {path: key for path, key in every.items() if path.startswith(f"downloads/{game}/")}


def test_an_unknown_game_is_refused_with_a_hint():
    checked = check_content(FIXTURE_PDF_CONTENT)
    with pytest.raises(UsageError) as refused:
        _only(checked, [checked[0].game.id + "x"])
    assert checked[0].game.id in refused.value.hint


def test_build_game_builds_that_game_only(tmp_path):
    shutil.copytree(FIXTURE_PDF_CONTENT, tmp_path / "content")
    games = sorted(p.name for p in (tmp_path / "content").iterdir() if (p / "game.yaml").is_file())
    run = run_rulesmith("build", "--no-pdf", "--game", games[0], "--site", str(tmp_path / "site"), cwd=tmp_path / "content")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / games[0] / "index.html").is_file()
    assert not (tmp_path / "site" / games[1]).exists()
    bad = run_rulesmith("build", "--no-pdf", "--game", "nope", "--site", str(tmp_path / "other"), cwd=tmp_path / "content")
    assert bad.returncode == 1 and "error: no game 'nope'" in bad.stderr and "Traceback" not in bad.stderr
    assert not (tmp_path / "other").exists()


def test_the_deploy_workflow_builds_each_game_in_a_job_of_its_own_then_assembles_the_site():
    import yaml
    from conftest import ROOT

    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))["jobs"]
    assert "fromJSON(needs.games.outputs.shards)" in jobs["game"]["strategy"]["matrix"]["games"]
    per_game = " ".join(step.get("run", "") for step in jobs["game"]["steps"])
    assert "for game in ${{ matrix.games }}; do args+=(--game \"$game\"); done" in per_game
    assert '.venv/bin/rulesmith build "${args[@]}"' in per_game
    uploads = [s for s in jobs["game"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads and uploads[0]["with"]["path"] == ".cache"
    assert jobs["build"]["needs"] == "game"
    downloads = [s for s in jobs["build"]["steps"] if s.get("uses", "").startswith("actions/download-artifact")]
    assert downloads and downloads[0]["with"]["path"] == ".cache" and downloads[0]["with"]["merge-multiple"] is True
    assert jobs["deploy"]["needs"] == "build"

"""The command line as a user meets it: version, options in either place, progress, errors."""

from __future__ import annotations

import io
import sys

import pytest
from conftest import ROOT

from rulesmith import __version__, cli
from rulesmith.commands.build import Progress


def test_version(capsys):
    try:
        cli.main(["--version"])
    except SystemExit as done:
        assert done.code == 0
    assert capsys.readouterr().out.strip() == f"rulesmith {__version__}"


def test_content_before_or_after_the_command(capsys):
    content = str(ROOT / "tests" / "fixtures" / "site")
    assert cli.main(["--content", content, "check"]) == 0
    before = capsys.readouterr().out
    assert cli.main(["check", "--content", content]) == 0
    assert capsys.readouterr().out.split(" in ")[0] == before.split(" in ")[0]


def test_missing_content_folder_is_an_error_not_a_traceback(capsys, tmp_path):
    assert cli.main(["check", "--content", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: content folder") and "hint:" in err and "Traceback" not in err


@pytest.mark.site
def test_unwritable_site_folder_is_an_error_not_a_traceback(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = cli.main(["build", "--no-pdf", "--quiet", "--content", str(ROOT / "tests" / "fixtures" / "site"),
                     "--work", str(tmp_path / "work"), "--site", str(blocker / "site")])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write the site" in err and "Traceback" not in err


def test_pdf_progress_counts_on_a_terminal_and_is_silent_elsewhere(monkeypatch):
    for terminal, expected in ((True, "2/5 downloads/x.pdf"), (False, "")):
        stream = io.StringIO()
        stream.isatty = lambda terminal=terminal: terminal
        monkeypatch.setattr(sys, "stderr", stream)
        cli._configure_logging(verbose=False, quiet=False)
        progress = Progress(quiet=False)
        with progress.step("player aids (PDF)"):
            progress.count(2, 5, "downloads/x.pdf")
        shown = stream.getvalue()
        assert (expected in shown) if expected else ("/5" not in shown)
        assert "player aids (PDF)" in shown


@pytest.mark.site
def test_quiet_and_verbose_set_the_rulesmith_logger_and_mkdocs_keeps_its_level(capsys, tmp_path):
    import logging

    mkdocs = logging.getLogger("mkdocs")
    mkdocs.setLevel(logging.DEBUG)
    site = ["--content", str(ROOT / "tests" / "fixtures" / "site"), "--work", str(tmp_path / "work"),
            "--site", str(tmp_path / "site")]
    assert cli.main(["-q", "build", "--no-pdf", *site]) == 0
    assert "built" not in capsys.readouterr().err
    assert mkdocs.level == logging.DEBUG, "a build must leave MkDocs' logger as it found it"
    assert cli.main(["build", "--no-pdf", *site]) == 0
    assert "built" in capsys.readouterr().err
    assert logging.getLogger("rulesmith").level == logging.INFO
    assert cli.main(["check", "-v", "--content", str(ROOT / "tests" / "fixtures" / "site")]) == 0
    assert logging.getLogger("rulesmith").level == logging.DEBUG


@pytest.mark.unit
def test_help_and_the_readme_list_every_command_as_a_user_types_it(capsys):
    """`rulesmith --help` names every command of the registry, and the README's table of
    commands shows each as a user types it (`rulesmith <name>`, never a path inside this repository)."""
    import re

    from rulesmith.commands import COMMANDS

    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    listed = re.findall(r"^    (\w+) ", capsys.readouterr().out, flags=re.M)
    assert listed == [c.name for c in COMMANDS]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Commands")[1].split("\n## ")[0]
    assert {c.name for c in COMMANDS} <= set(re.findall(r"^\| `rulesmith (\w+)", table, flags=re.M))
    assert ".venv/bin/rulesmith" not in readme

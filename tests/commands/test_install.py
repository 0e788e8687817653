"""The installed tool: a wheel built from the checkout runs from anywhere, on a project of its own.

Nothing here reads the checkout's templates/: the wheel must carry them as package data, and the
project (content copied into an empty folder) must be found from the current folder or below.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel, installed (not editable) into a folder of its own: returns that folder."""
    folder = tmp_path_factory.mktemp("install")
    source = folder / "source"  # a copy, so that building writes nothing into the checkout
    outputs = {".git", ".venv", "site", ".build", ".cache", "schema", "build", "dist", ".pytest_cache"}

    def ignore(folder, names):  # the checkout's outputs (top level only) and caches
        top = Path(folder) == ROOT
        return [n for n in names if (top and n in outputs) or n == "__pycache__" or n.endswith(".egg-info")]

    shutil.copytree(ROOT, source, ignore=ignore)
    before = _tree(source)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(folder / "dist"), str(source)], check=True, capture_output=True)
    (folder / "source-changed.txt").write_text("\n".join(sorted(set(_tree(source)) ^ set(before))))
    wheel = next((folder / "dist").glob("rulesmith-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(folder / "lib"),
                    str(wheel)], check=True, capture_output=True)
    return folder


def _tree(folder: Path) -> list[str]:
    """Every file and folder under `folder`, with each file's size and modification time."""
    return [f"{p.relative_to(folder)} {p.stat().st_size if p.is_file() else 'dir'} {p.stat().st_mtime_ns}"
            for p in sorted(folder.rglob("*"))]


def test_building_the_wheel_writes_nothing_into_the_checkout(installed):
    """No build/, no rulesmith.egg-info/, nothing changed: a read-only checkout installs."""
    assert (installed / "source-changed.txt").read_text() == ""


def run(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import rulesmith, rulesmith.cli; "
            "assert rulesmith.__file__.startswith(sys.argv[1]), rulesmith.__file__; "
            "sys.exit(rulesmith.cli.main(sys.argv[2:]))")
    return subprocess.run([sys.executable, "-c", code, str(installed / "lib"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_wheel_carries_templates_and_no_benchmark(installed):
    names = zipfile.ZipFile(next((installed / "dist").glob("*.whl"))).namelist()
    for needed in ("rulesmith/templates/mkdocs.yml", "rulesmith/templates/icons.yaml",
                   "rulesmith/templates/site/overview.md.j2", "rulesmith/templates/fonts/Inter-Regular.otf",
                   "rulesmith/templates/flowchart/flowchart.dot.j2", "rulesmith/format/reference.py",
                   "rulesmith/templates/new/content/GAME_ID/game.yaml"):
        assert needed in names, needed
    assert not [n for n in names if "bench" in n or n.startswith("tests/")]
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    missing = sorted(p for p in shipped if f"rulesmith/{p}" not in names)
    assert not missing, f"templates not in the wheel: {missing}"


def test_installed_tool_builds_a_project_from_a_subfolder(installed, tmp_path):
    project = tmp_path / "my-rules"
    shutil.copytree(ROOT / "content", project / "content")
    (project / "content" / "notes").mkdir()  # no game.yaml: run from here, found upwards
    shutil.rmtree(project / "content" / "notes")
    subfolder = project / "content" / "statecraft"
    version = run(installed, subfolder, "--version")
    assert version.returncode == 0 and version.stdout.startswith("rulesmith "), version.stderr
    built = run(installed, subfolder, "build", "--no-pdf", "--quiet")
    assert built.returncode == 0, built.stderr
    assert (project / "site" / "index.html").is_file()
    assert (project / "site" / "statecraft" / "index.html").is_file()
    assert (project / ".build" / "mkdocs.yml").is_file()  # the generated MkDocs project, on disk
    assert not (subfolder / "site").exists()


def test_no_project_is_a_clear_error(installed, tmp_path):
    result = run(installed, tmp_path, "check")
    assert result.returncode == 1
    assert "no content/ folder" in result.stderr and "hint:" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.pdf  # the build makes the new game's PDFs
def test_a_contributor_starts_a_game_in_an_empty_folder(installed, tmp_path):
    """`rulesmith new mygame && rulesmith check && rulesmith build`, with the wheel, in an empty folder."""
    folder = tmp_path / "my-rules"
    folder.mkdir()
    made = run(installed, folder, "new", "mygame")
    assert made.returncode == 0, made.stderr
    checked = run(installed, folder, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ""  # no warning: the placeholder rulebook text is found and fully mapped
    built = run(installed, folder, "build", "--quiet")
    assert built.returncode == 0, built.stderr
    site = folder / "site"
    assert (site / "mygame" / "index.html").is_file()
    pdfs = {p.name: p.read_bytes() for p in (site / "downloads" / "mygame").glob("*.pdf")}
    assert sorted(pdfs) == ["card-reference-a4.pdf", "card-reference-letter.pdf", "rules-summary-a4.pdf",
                            "rules-summary-letter.pdf", "solo-aid-a4.pdf", "solo-aid-letter.pdf"]
    page = (site / "format.html").read_text(encoding="utf-8")  # the format reference, published
    assert "The content format" in page and "rulesmith format tables" in page
    for path in (folder / "content").rglob("*.yaml"):  # every `$schema` line resolves after a build
        line = path.read_text(encoding="utf-8").splitlines()[0]
        assert (path.parent / line.split("$schema=")[1]).resolve().is_file(), path
    again = run(installed, folder, "build", "--no-pdf", "--quiet")
    assert again.returncode == 0, again.stderr
    assert {p.name: p.read_bytes() for p in (site / "downloads" / "mygame").glob("*.pdf")} == pdfs
    assert "rules-summary-a4.pdf" in (site / "downloads.html").read_text(encoding="utf-8")

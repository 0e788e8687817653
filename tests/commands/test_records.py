"""One recording mechanism (commands/records.py) for `errata add` and `ruling add`: both commands
make their record through the same Recording, so what it guarantees (the game checked as it will
be, every file written whole or not at all, the id sequence) holds for both alike.

Every test works on a copy of tests/fixtures/errata (games alpha and beta).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from rulesmith import cli
from rulesmith.commands import records

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "errata"
SOURCE = ["--source", "publisher-faq", "--description", "Publisher FAQ v2", "--url", "https://example.org/faq"]
# The files each command writes (alpha has neither record file yet).
FILES = {"erratum": ["alpha/entities.yaml", "alpha/errata.yaml"], "ruling": ["alpha/rulings.yaml"]}


def command(kind: str, cost: str = "4", answer: str = "No: one hand per [[card:interpol]].") -> list[str]:
    """The same change asked of each command: an erratum to Interpol's cost, a ruling on Interpol."""
    if kind == "erratum":
        return ["errata", "add", "alpha", "interpol", "cost", cost, "--note", "Corrected."]
    return ["ruling", "add", "alpha", "interpol", "--question", "May Interpol look at two hands?", "--answer", answer]


@pytest.fixture
def content(tmp_path, monkeypatch) -> Path:
    target = tmp_path / "content"
    shutil.copytree(FIXTURE, target, ignore=shutil.ignore_patterns("README.md"))
    monkeypatch.chdir(target)  # paths in messages are shown relative to here
    return target


@pytest.fixture
def written(monkeypatch) -> list[tuple[str, list[str]]]:
    """(record kind, files it writes) of every Recording.write: the one way a record is written."""
    seen: list[tuple[str, list[str]]] = []
    write = records.Recording.write

    def spied(self, refused):
        seen.append((self.kind.name, sorted(os.path.relpath(os.path.abspath(path), os.path.abspath(self.content_dir))
                                            for path in self.changes)))
        return write(self, refused)

    monkeypatch.setattr(records.Recording, "write", spied)
    return seen


def run(capsys, content: Path, *args: str) -> tuple[int, str, str]:
    code = cli.main(["--content", str(content), *args, *SOURCE])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.unit
@pytest.mark.parametrize("kind", FILES)
def test_both_commands_write_their_record_through_the_one_recording(capsys, content, written, kind):
    files = FILES[kind]
    code, out, err = run(capsys, content, *command(kind))
    assert (code, err) == (0, "")
    assert written == [(kind, files)]
    record_file = files[-1]
    assert f"{record_file}:3: created the file and recorded {kind} {kind[0]}1 (" in out
    assert out.endswith("check: alpha ok\n")


@pytest.mark.unit
@pytest.mark.parametrize("kind", FILES)
def test_a_full_disk_at_the_swap_leaves_both_commands_files_byte_for_byte(capsys, content, written, monkeypatch,
                                                                          kind):
    """The swap of the staged files fails as a full disk does: each command says so, with the same
    words, and every content file is as it was, the record file not created."""
    def full(_staged):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(records.Staged, "swap", full)
    files = FILES[kind]
    before = snapshot(content)
    code, out, err = run(capsys, content, *command(kind))
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"error: cannot replace {', '.join(files)}: No space left on device; no file was changed",
                                "hint: the disk is full: make room, then run the command again (outputs are replaced only "
                                "when complete, so nothing was left half written)"]
    assert written == [(kind, files)]
    assert snapshot(content) == before
    assert sorted(p.name for p in (content / "alpha").iterdir()) == ["entities.yaml", "game.yaml", "rules", "tables.yaml"]


@pytest.mark.unit
@pytest.mark.parametrize("kind, change, message", [
    ("erratum", {"cost": "-1"}, "error: erratum not applied: with it, game 'alpha' has 1 problem(s); no file was changed"),
    ("ruling", {"answer": "See [[card:interpool]]."},
     "error: ruling not recorded: with it, game 'alpha' has 1 problem(s); no file was changed"),
])
def test_a_record_that_breaks_the_check_leaves_both_commands_files_byte_for_byte(capsys, content, written, kind,
                                                                                 change, message):
    """The game is checked as it will be, through the same Recording; each command says why in its
    own words, and no file is changed."""
    before = snapshot(content)
    code, out, err = run(capsys, content, *command(kind, **change))
    assert (code, out) == (1, "")
    assert message in err.splitlines()
    assert written == [(kind, FILES[kind])]
    assert snapshot(content) == before


@pytest.mark.unit
@pytest.mark.parametrize("kind", FILES)
def test_both_kinds_number_their_records_after_the_highest_and_refuse_an_id_taken(capsys, content, kind):
    letter = kind[0]
    assert run(capsys, content, *command(kind), "--id", f"{letter}7")[0] == 0
    taken = run(capsys, content, *command(kind, cost="5"), "--id", f"{letter}7")
    assert taken[0] == 1 and taken[2].splitlines()[-2:] == [
        f"error: {kind} id '{letter}7' already exists at {FILES[kind][-1]}:3:9", "hint: leave --id out for the next free one"]
    code, out, _ = run(capsys, content, *command(kind, cost="5"))
    assert code == 0 and f"recorded {kind} {letter}8 (" in out

"""Bad input: every case is refused by `rulesmith check` and `rulesmith build` with all its problems.

Each folder under tests/bad_input/ is a content folder (a game `demo/` with a valid minimal
game.yaml plus the broken bit) and an `expect.yaml` listing every problem it must produce. For
every case both commands must exit 1, print each expected problem as `file:line:column: message
(hint)`, report all of them in one run and nothing else, never print a traceback, and `build`
must leave the previous site exactly as it was. Cases that need something a repository cannot
hold (a 50 MB file, symbolic links, a named pipe, bombs larger than a test tree) are built at
run time below.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import Run, rulesmith_here, run_rulesmith

CASES_DIR = Path(__file__).resolve().parents[1] / "bad_input"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "expect.yaml").is_file())
MARKER = "pwned-marker"  # created by the hostile cases' commands if they ever ran

GAME_YAML = (CASES_DIR / "duplicate-ids-one-file" / "demo" / "game.yaml").read_text()


# ---------------------------------------------------------------- reading the output

@dataclass(frozen=True)
class Printed:
    file: str
    line: int
    column: int
    message: str
    hint: str


def split_hint(rest: str) -> tuple[str, str]:
    """'message (hint)' -> (message, hint); the hint is the last balanced parenthesis group."""
    if not rest.endswith(")"):
        return rest, ""
    depth = 0
    for i in range(len(rest) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(rest[i], 0)
        if depth == 0:
            return rest[:i].rstrip(), rest[i + 1:-1].strip()
    return rest, ""


def printed_problems(run: Run) -> list[Printed]:
    """Every `file:line:column: …` line of a run's stderr."""
    found = []
    for text in run.stderr.splitlines():
        parts = text.split(":", 3)
        if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
            if parts[3].strip().startswith("warning:"):
                continue  # what could not be checked (a source text not found): said, not a problem
            message, hint = split_hint(parts[3].strip())
            found.append(Printed(parts[0], int(parts[1]), int(parts[2]), message, hint))
    return found


def assert_refused(run: Run, expected: list[dict], command: str) -> None:
    """Exit 1, every expected problem located and hinted, nothing unexpected, no traceback."""
    output = run.stdout + run.stderr
    assert "Traceback" not in output, f"{command} crashed:\n{output}"
    assert run.returncode == 1, f"{command} exited {run.returncode}:\n{output}"
    printed = printed_problems(run)
    for problem in printed:
        assert problem.hint, f"{command}: no hint in parentheses for {problem}"
    unmatched = list(printed)
    for want in expected:
        match = next((p for p in unmatched if (p.file, p.line, p.column) == (want["file"], want["line"], want["column"])
                      and want["message"] in p.message), None)
        assert match is not None, (f"{command}: expected {want['file']}:{want['line']}:{want['column']}: "
                                   f"…{want['message']}… in:\n{run.stderr}")
        unmatched.remove(match)
    assert not unmatched, f"{command}: problems not in expect.yaml:\n" + "\n".join(map(str, unmatched))
    count = len(expected)
    assert f"{count} problem{'s' if count != 1 else ''} found" in run.stderr, run.stderr


# ---------------------------------------------------------------- the previous site

def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under folder: path -> (kind, size, mtime, digest)."""
    state = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        rel = str(path.relative_to(folder))
        if path.is_file():
            state[rel] = ("file", info.st_size, info.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
        else:
            state[rel] = ("dir", 0, 0, "")
    return state


def build_over_previous_site(content: Path, workdir: Path, previous: Path, run=run_rulesmith) -> tuple[Run, dict, dict]:
    """Run `build` into workdir/site, which already holds a copy of a good site."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copytree(previous, workdir / "site", copy_function=shutil.copy2)
    before = snapshot(workdir)
    built = run("build", "--no-pdf", "--site", str(workdir / "site"), cwd=content)
    return built, before, snapshot(workdir)


# ---------------------------------------------------------------- the committed corpus

@pytest.fixture(scope="module")
def corpus_runs(tmp_path_factory, fixture_site):
    """check and build of every case, read once for all its tests. Run in this process (the
    command's own code, rulesmith.cli.main, with its output and exit code): each case is a small
    content folder, so no process limit is needed; the bombs that need one are made at run time
    below and run as the installed command, under limits."""
    base = tmp_path_factory.mktemp("bad-input")
    runs = {}
    for name in CASES:
        case = CASES_DIR / name
        for stale in case.rglob(MARKER):
            stale.unlink()
        check = rulesmith_here("check", cwd=case)
        build = build_over_previous_site(case, base / name, fixture_site, run=rulesmith_here)
        runs[name] = (check, *build, sorted(case.rglob(MARKER)))
    return runs


def test_corpus_has_at_least_40_cases():
    assert len(CASES) >= 40, CASES


@pytest.mark.parametrize("name", CASES)
def test_bad_input_is_refused_with_every_problem(name, corpus_runs):
    expect = yaml.safe_load((CASES_DIR / name / "expect.yaml").read_text(encoding="utf-8"))
    assert expect["problems"], "a case lists at least one problem"
    check, build, before, after, markers = corpus_runs[name]
    assert_refused(check, expect["problems"], "check")
    assert_refused(build, expect["problems"], "build")
    assert "nothing was written" in build.stderr
    assert after == before, "build touched the previous site (or left files next to it)"
    assert not markers, f"content made a command run: {markers}"


# ---------------------------------------------------------------- cases made at run time

def make_game(content: Path, **files: str) -> Path:
    """content/demo/ with the minimal valid game.yaml and the given files (name -> text)."""
    game = content / "demo"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML)
    for name, text in files.items():
        (game / name.replace("__", "/")).write_text(text)
    return content


def refused(content: Path, expected: list[dict], tmp_path: Path, fixture_site: Path, limit: float = 10.0) -> None:
    """check and build both refuse `content` with exactly `expected`, fast, leaving the old site."""
    check = run_rulesmith("check", cwd=content, timeout=60)
    assert_refused(check, expected, "check")
    assert check.seconds < limit, f"check took {check.seconds:.1f} s"
    build, before, after = build_over_previous_site(content, tmp_path / "out", fixture_site)
    assert_refused(build, expected, "build")
    assert build.seconds < limit, f"build took {build.seconds:.1f} s"
    assert after == before


def test_50_mb_file_is_refused_without_reading_it(tmp_path, fixture_site):
    content = make_game(tmp_path / "content")
    row = "  - {id: card-0000000, name: A card of a very large file, kind: card}\n"
    with open(content / "demo" / "huge.yaml", "w") as out:
        out.write("entities:\n")
        for _ in range(50 * 1024 * 1024 // len(row) + 1):
            out.write(row)
    assert (content / "demo" / "huge.yaml").stat().st_size >= 50 * 1024 * 1024
    refused(content, [{"file": "demo/huge.yaml", "line": 1, "column": 1, "message": "content files are limited to"}],
            tmp_path, fixture_site)


def test_billion_laughs_fails_fast_with_bounded_memory(tmp_path, fixture_site):
    levels = ["lol: &l0 [" + ", ".join(['"lol"'] * 10) + "]"]
    levels += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 30)]
    content = make_game(tmp_path / "content", **{"bomb.yaml": "\n".join(levels) + "\n"})
    refused(content, [{"file": "demo/bomb.yaml", "line": 2, "column": 10, "message": "YAML aliases"}],
            tmp_path, fixture_site)


@pytest.mark.parametrize("shape", ["flow-lists", "flow-maps", "block-maps", "block-lists"])
def test_very_deep_nesting_fails_fast_with_bounded_memory(shape, tmp_path, fixture_site):
    depth = {"flow-lists": 900_000, "flow-maps": 300_000, "block-maps": 1_000, "block-lists": 1_000}[shape]
    text = {
        "flow-lists": lambda: "entities: " + "[" * depth + "]" * depth + "\n",
        "flow-maps": lambda: "entities: " + "{a: " * depth + "1" + "}" * depth + "\n",
        "block-maps": lambda: "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "a: 1\n",
        "block-lists": lambda: "".join(" " * i + "-\n" for i in range(depth)) + " " * depth + "- 1\n",
    }[shape]()
    content = make_game(tmp_path / "content", **{"deep.yaml": text})
    check = run_rulesmith("check", cwd=content, timeout=60)
    assert "Traceback" not in check.stderr and check.returncode == 1, check.stderr
    assert check.seconds < 10
    problems = printed_problems(check)
    assert len(problems) == 1 and problems[0].file == "demo/deep.yaml", check.stderr
    assert "nest" in problems[0].message and problems[0].hint, problems[0]


def test_python_object_tags_never_run(tmp_path, fixture_site):
    marker = tmp_path / "ran"
    evil = textwrap.dedent(f"""\
        entities:
          - id: alpha
            name: !!python/object/apply:os.system ["touch {marker}"]
            kind: card
          - id: beta
            name: !!python/object/new:subprocess.Popen [["touch", "{marker}"]]
            kind: card
          - id: gamma
            name: !!python/object/apply:builtins.exec ["open('{marker}', 'w')"]
            kind: card
        """)
    content = make_game(tmp_path / "content", **{"evil.yaml": evil})
    expected = [{"file": "demo/evil.yaml", "line": line, "column": 11, "message": "is not allowed in content"}
                for line in (3, 6, 9)]
    refused(content, expected, tmp_path, fixture_site)
    assert not marker.exists(), "a YAML tag ran a command"


def test_symbolic_links_outside_content_are_not_followed(tmp_path, fixture_site):
    outside = tmp_path / "outside"
    (outside / "game").mkdir(parents=True)
    secret = "entities:\n  - {id: secret, name: SECRET-OUTSIDE-TEXT, kind: card}\n"
    (outside / "secret.yaml").write_text(secret)
    (outside / "game" / "game.yaml").write_text(GAME_YAML.replace("id: demo", "id: evil"))
    (outside / "game" / "more.yaml").write_text(secret)
    content = make_game(tmp_path / "content")
    game = content / "demo"
    (game / "secret.yaml").symlink_to(outside / "secret.yaml")  # a file outside
    (game / "passwd.yaml").symlink_to("/etc/passwd")  # a system file
    (game / "rules").symlink_to(outside)  # a folder outside
    (game / "gone.yaml").symlink_to(game / "missing.yaml")  # a broken link
    (content / "evil").symlink_to(outside / "game")  # a whole game folder outside
    expected = [
        {"file": "demo/secret.yaml", "line": 1, "column": 1, "message": "symbolic link points outside the content folder"},
        {"file": "demo/passwd.yaml", "line": 1, "column": 1, "message": "symbolic link points outside the content folder"},
        {"file": "demo/rules", "line": 1, "column": 1, "message": "symbolic link to a folder is not followed"},
        {"file": "demo/gone.yaml", "line": 1, "column": 1, "message": "cannot read file"},
        {"file": "evil", "line": 1, "column": 1, "message": "symbolic link to a folder is not followed"},
    ]
    refused(content, expected, tmp_path, fixture_site)
    for command in ("check",):
        run = run_rulesmith(command, cwd=content)
        assert "SECRET-OUTSIDE-TEXT" not in run.stdout + run.stderr
        assert "root:" not in run.stdout + run.stderr


def test_named_pipe_is_not_read(tmp_path, fixture_site):
    content = make_game(tmp_path / "content")
    os.mkfifo(content / "demo" / "pipe.yaml")  # reading it would block forever
    refused(content, [{"file": "demo/pipe.yaml", "line": 1, "column": 1, "message": "not a regular file"}],
            tmp_path, fixture_site)


def check_refuses(content: Path, expected: list[dict]) -> None:
    """`rulesmith check` (limited to 1 GiB and 60 s of CPU) refuses `content` with exactly `expected`."""
    assert_refused(run_rulesmith("check", cwd=content), expected, "check")


# Content made to be slow (issue 34): each was minutes of quadratic work, far past run_rulesmith's
# 60 s of CPU, and is now linear or n log n; each holds one mistake, found at its place.
# benchmarks/pathological.py prints the times.

def test_80000_range_keys_are_checked_for_overlaps_in_n_log_n(tmp_path):
    rows = "".join(f'      - ["{i}"]\n' for i in range(1, 80_001))
    content = make_game(tmp_path / "content", **{"tables.yaml": "tables:\n  - id: big\n    title: Big\n    columns:\n"
                        "      - {id: key, title: Key, type: range}\n    rows:\n" + rows + '      - ["5-6"]\n'})
    check_refuses(content, [{"file": "demo/tables.yaml", "line": 80_007, "column": 10,
                             "message": "table 'big': range '5-6' overlaps range '5'"}])


def test_a_chain_of_6000_calls_is_followed_in_linear_time(tmp_path):
    def procedure(name: str, calls: str | None) -> str:
        call = f", call: {{procedure: {calls}}}" if calls else ""
        return (f"  - id: {name}\n    title: {name}\n    start: a\n    nodes:\n"
                f"      - {{id: a, type: step, text: Act, next: b{call}}}\n      - {{id: b, type: end, text: Done}}\n")
    chain = "".join(procedure(f"p{i}", f"p{i + 1}" if i < 5_999 else None) for i in range(6_000))
    content = make_game(tmp_path / "content", **{"procedures.yaml": "procedures:\n" + chain + procedure("again", "again")})
    check_refuses(content, [{"file": "demo/procedures.yaml", "line": 36_006, "column": 67,
                             "message": "call chain again → again never ends"}])


def test_a_source_map_of_60000_entries_is_checked_for_overlaps_in_n_log_n(tmp_path):
    def entries(first: int, last: int) -> str:
        return "source_map:\n" + "".join(f'  - {{source: core, lines: "{n}", not_content: "a line"}}\n'
                                         for n in range(first, last))
    content = make_game(tmp_path / "content", **{"map-1.yaml": entries(1, 30_001),  # two files: each under 2 MB
                                                 "map-2.yaml": entries(30_001, 60_001) + '  - {source: core, lines: "7-8", not_content: "again"}\n'})
    check_refuses(content, [{"file": "demo/map-2.yaml", "line": 30_002, "column": 27,
                             "message": "line range 7-8 of core overlaps 7 (mapped at demo/map-1.yaml:8)"}])


def test_a_chart_graphviz_cannot_lay_out_in_time_is_a_problem_of_its_procedure(tmp_path, monkeypatch):
    from conftest import rulesmith_here

    from rulesmith.flowchart import chart as flowchart

    procedures = textwrap.dedent("""\
        procedures:
          - id: slow
            title: Slow
            start: a
            nodes:
              - {id: a, type: step, text: Act, next: b}
              - {id: b, type: end, text: Done}
        """)
    content = make_game(tmp_path / "content", **{"procedures.yaml": procedures})
    monkeypatch.setattr(flowchart, "LAYOUT_SECONDS", 0.001)  # what a procedure too large for Graphviz takes
    run = rulesmith_here("build", "--no-pdf", "--site", str(tmp_path / "site"), "--work", str(tmp_path / "work"), cwd=content)
    assert_refused(run, [{"file": "demo/procedures.yaml", "line": 5, "column": 5,
                          "message": "procedure 'slow': Graphviz could not lay its flowchart out in 0.001 s"}], "build")
    assert not (tmp_path / "site").exists()


# ---------------------------------------------------------------- what cannot be read

def as_if_unreadable(monkeypatch, *paths: Path) -> None:
    """Make `paths` unreadable to this process as `chmod 000` would for a user other than root
    (the tests may run as root, whom chmod does not stop): a file cannot be opened; a folder
    cannot be listed, and nothing in it can be looked at or opened."""
    import builtins
    import errno
    import io

    shut = {os.path.abspath(p): p.is_dir() for p in paths}

    def refused(path, inside_only: bool) -> bool:
        """Whether using `path` is refused; `inside_only` (stat): only what lies in a shut folder."""
        if isinstance(path, int):
            return False
        here = os.path.abspath(os.fsdecode(path))
        return any(here.startswith(p + os.sep) if folder or inside_only else here == p for p, folder in shut.items()) \
            or (not inside_only and here in shut)

    def guard(function, inside_only: bool = False):
        def guarded(path=".", *args, **kwargs):
            if refused(path, inside_only):
                raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
            return function(path, *args, **kwargs)
        return guarded

    for module, name, inside_only in ((os, "stat", True), (os, "lstat", True), (os, "scandir", False), (os, "listdir", False),
                                      (io, "open", False), (builtins, "open", False)):
        monkeypatch.setattr(module, name, guard(getattr(module, name), inside_only))


def test_unreadable_files_and_folders_are_problems_at_their_place(tmp_path, monkeypatch):
    from conftest import rulesmith_here

    content = make_game(tmp_path / "content", **{
        "cards.yaml": "entities:\n  - {id: ace, name: Ace, kind: card, text: 'As in [[rule:setup]].'}\n",
        "secret.yaml": "entities:\n  - {id: two, name: Two, kind: card}\n"})
    (content / "demo" / "rules").mkdir()
    (content / "demo" / "rules" / "setup.yaml").write_text("sections:\n  - {id: setup, title: Setup, body: Set up.}\n")
    make_game(tmp_path / "other")
    (tmp_path / "other" / "demo").rename(content / "shut")
    (tmp_path / "rules.txt").write_text("The rulebook.\n")  # game.yaml's source text, beside content/
    as_if_unreadable(monkeypatch, content / "demo" / "rules", content / "demo" / "secret.yaml", content / "shut",
                     tmp_path / "rules.txt")
    expected = [
        {"file": "demo/game.yaml", "line": 7, "column": 24, "message": "cannot read source text 'rules.txt': Permission denied"},
        {"file": "demo/rules", "line": 1, "column": 1, "message": "cannot read folder: Permission denied"},
        {"file": "demo/secret.yaml", "line": 1, "column": 1, "message": "cannot read file: Permission denied"},
        {"file": "shut", "line": 1, "column": 1, "message": "cannot read folder: Permission denied"},
        {"file": "demo/cards.yaml", "line": 2, "column": 51,
         "message": "reference rule:setup may be in demo/rules, demo/secret.yaml, which could not be read"},
    ]
    for command in (["check"], ["build", "--no-pdf", "--site", str(tmp_path / "site"), "--work", str(tmp_path / "work")]):
        assert_refused(rulesmith_here(*command, cwd=content), expected, command[0])
    assert not (tmp_path / "site").exists()


def test_an_unreadable_content_folder_is_an_error(tmp_path, monkeypatch):
    from conftest import rulesmith_here

    content = make_game(tmp_path / "content")
    as_if_unreadable(monkeypatch, content)
    run = rulesmith_here("check", cwd=tmp_path, content="content")
    assert_refused(run, [{"file": "content", "line": 1, "column": 1, "message": "cannot read folder: Permission denied"}],
                   "check")


def test_a_full_disk_during_build_is_an_error_and_leaves_the_previous_site(tmp_path, monkeypatch, fixture_site):
    """The disk fills up at the build's first byte, a third and two thirds of the way through:
    each time `error: No space left on device` with a hint, exit 1, the old site as it was."""
    from conftest import disk_full_after, rulesmith_here

    content = make_game(tmp_path / "content", **{"cards.yaml": "entities:\n  - {id: ace, name: Ace, kind: card}\n"})
    command = ("build", "--no-pdf", "--site", str(tmp_path / "site"), "--work", str(tmp_path / "work"))
    with monkeypatch.context() as patched:
        written = disk_full_after(patched, room=10 ** 12)
        assert rulesmith_here(*command[:3], str(tmp_path / "counted"), *command[4:], cwd=content).returncode == 0
    for room in (0, written[0] // 3, written[0] * 2 // 3):
        shutil.rmtree(tmp_path / "work", ignore_errors=True)
        shutil.rmtree(tmp_path / "site", ignore_errors=True)
        shutil.copytree(fixture_site, tmp_path / "site", copy_function=shutil.copy2)
        before = snapshot(tmp_path / "site")
        with monkeypatch.context() as patched:
            disk_full_after(patched, room)
            run = rulesmith_here(*command, cwd=content)
        assert run.returncode == 1 and "Traceback" not in run.stderr, (room, run.stderr)
        assert "error: No space left on device" in run.stderr and "\nhint: the disk is full: make room" in run.stderr
        assert snapshot(tmp_path / "site") == before, f"the disk full after {room} of {written[0]} bytes changed the site"
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-")], "a staging folder was left"


def test_every_check_of_the_bots_turn_has_a_case():
    """Every problem rulesmith/content/turn.py reports (its calls, state, decks, table reads, tallies) is
    produced by at least one case of the corpus: its message, with the names filled in, is among
    the cases' expected messages."""
    import ast

    source = (Path(__file__).resolve().parents[2] / "rulesmith" / "content" / "turn.py").read_text(encoding="utf-8")
    patterns = []
    for call in ast.walk(ast.parse(source)):
        if (isinstance(call, ast.Call) and getattr(call.func, "attr", "") in ("add", "LookupError")) or \
                (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "LookupError"):
            args = call.args[1:2] if getattr(call.func, "attr", "") == "add" else call.args[:1]
            for message in args:
                parts = message.values if isinstance(message, ast.JoinedStr) else [message]
                regex = "".join(re.escape(p.value) if isinstance(p, ast.Constant) else ".+" for p in parts)
                patterns.append(regex)
    assert len(patterns) > 20, patterns
    expected = [p["message"] for case in CASES
                for p in yaml.safe_load((CASES_DIR / case / "expect.yaml").read_text(encoding="utf-8"))["problems"]]
    missing = [p for p in patterns if not any(re.search(p.replace(".+", ".+?"), m) or re.search(p, m) for m in expected)]
    assert missing == [], f"no case of tests/bad_input produces these checks of rulesmith/content/turn.py: {missing}"


@pytest.mark.unit
def test_the_cause_comes_first_and_what_follows_from_it_says_so(tmp_path):
    """One file that cannot be read: its problem is printed first, whatever the files' names; a
    problem that may only follow from it says so and holds back its guess (a name the unreadable
    file may declare)."""
    from conftest import rulesmith_here

    case = tmp_path / "case"
    shutil.copytree(CASES_DIR / "unreadable-file-cascade", case)
    (case / "demo" / "zz-more.yaml").write_text(  # a guess would name this file's section, not what was meant
        "sections:\n  - {id: ending, title: Ending, module: base, body: 'See [[rule:endings]].'}\n")
    run = rulesmith_here("check", cwd=case)
    problems = [line for line in run.stderr.splitlines() if ": warning: " not in line and line.startswith("demo/")]
    assert problems[0].startswith("demo/rules.yaml:5:1: YAML syntax error"), problems
    [follower] = [line for line in problems if "rule:endings" in line]
    assert "did you mean" not in follower and "may follow from demo/rules.yaml, which could not be read" in follower

"""`rulesmith new`: a starting point that checks, touches every part of the format, and points to it.

The build of the new game, with the installed wheel in an empty folder, is in test_install.py.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

import pytest
from conftest import rulesmith_here

from rulesmith.checks.source_map import coverage
from rulesmith.format import reference as formatref
from rulesmith.format import topics
from rulesmith.pipeline import check_content

if TYPE_CHECKING:
    from pathlib import Path

# the command's own code, in this process (conftest.rulesmith_here); args name --content themselves
rulesmith = functools.partial(rulesmith_here, content=None)


@pytest.fixture
def made(tmp_path) -> Path:
    result = rulesmith("new", "my-game", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path


def test_new_writes_a_game_that_checks_in_an_empty_folder(made):
    files = sorted(str(p.relative_to(made)) for p in made.rglob("*") if p.is_file())
    assert "content/my-game/game.yaml" in files and "sources/my-game-rulebook.txt" in files
    assert "schema/my-game.schema.json" in files  # the files' `$schema` lines resolve at once
    [checked] = check_content(made / "content")
    assert checked.warnings == []  # its rulebook text is found: the source map is checked
    [found] = coverage(checked.game)
    assert found.uncovered == [] and found.total > 10
    result = rulesmith("check", cwd=made / "content" / "my-game")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("ok: 1 game(s) checked")
    assert checked.game.info.name == "My Game"


def test_the_new_game_touches_every_part_of_the_format(made):
    [checked] = check_content(made / "content")
    game = checked.game
    assert any(k.fields for k in game.kinds)
    assert any("[[" in s.body for s, _ in game.all_sections())
    assert any("[[value:" in s.body for s, _ in game.all_sections())
    assert any(t.rules for t in game.tables)
    assert any(n.type == "decision" for p in game.procedures for n in p.nodes)
    assert any(e.expression for e in game.examples)
    assert game.glossary and game.gaps and game.aids and game.source_map and game.entities
    assert all(checked.index.backlinks.get(key) for key in ("table:hand-size", "procedure:bot-turn", "gap:card-art"))


def test_every_part_has_a_comment_naming_its_topic(made):
    for path in sorted((made / "content").rglob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# yaml-language-server: $schema=") and (path.parent / lines[0].split("=")[1]).resolve().is_file()
        keys = [line.split(":")[0] for line in lines if re.match(r"^[a-z_]+:", line)]
        for key in keys:
            if key == "defaults":
                continue
            number = lines.index(next(line for line in lines if line.startswith(key + ":")))
            above = [line for line in lines[:number] if not line.startswith("defaults:")]
            comment = []  # the comment lines right above the key
            while above and above[-1].startswith("#"):
                comment.insert(0, above.pop())
            comment = " ".join(comment)
            assert f"rulesmith format {topics.topic_of_key(key)}" in comment, (path.name, key, comment)
        for topic in re.findall(r"rulesmith format ([a-z_]+)", "\n".join(lines)):
            assert topic in formatref.BY_ID, (path.name, topic)


def test_new_never_overwrites(made):
    game_yaml = made / "content" / "my-game" / "game.yaml"
    before = game_yaml.read_text()
    result = rulesmith("new", "my-game", cwd=made)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "already exists" in result.stderr and "hint: " in result.stderr
    assert game_yaml.read_text() == before
    (made / "sources" / "other-rulebook.txt").write_text("mine\n")
    result = rulesmith("new", "other", cwd=made)
    assert result.returncode == 1 and "other-rulebook.txt already exists" in result.stderr
    assert not (made / "content" / "other").exists()
    assert (made / "sources" / "other-rulebook.txt").read_text() == "mine\n"


@pytest.mark.parametrize(("args", "message", "hint"), [
    (["My Game"], "error: 'My Game' is not a game id: it is not lower-case kebab-case",
     "hint: game ids are lower-case kebab-case, e.g. my-game"),
    (["a" * 329], f"error: '{'a' * 329}' is not a game id: it is 329 characters long; a game id has at most 64",
     f"hint: game ids are lower-case kebab-case, e.g. {'a' * 64}"),
    (["ok", "--name", "<b>Bold</b>"], "error: the name '<b>Bold</b>' cannot be used: plain text may not contain "
     "the tag opener '<b'", "hint: give --name a plain name"),
])
def test_new_refuses_what_would_not_check(tmp_path, args, message, hint):
    result = rulesmith("new", *args, cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0].startswith(message) and result.stderr.splitlines()[1] == hint
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "content"])


def test_new_inside_a_project_adds_a_game_beside_the_others(made):
    result = rulesmith("new", "second", cwd=made / "content" / "my-game")
    assert result.returncode == 0, result.stderr
    assert (made / "content" / "second" / "game.yaml").is_file()
    assert [c.game.id for c in check_content(made / "content")] == ["my-game", "second"]


@pytest.mark.parametrize("name", ["Foo: The #1 Game", "- Dash & Co. [2nd] {ed.} \\ GAME_ID GAME_NAME", "Yes"])
def test_a_name_goes_into_the_yaml_as_a_string(tmp_path, name):
    """The name fills YAML values: written as quoted YAML strings, so a colon, a #, a leading dash,
    brackets, a backslash or a word YAML reads as a boolean stay the name, and a placeholder's
    word in it is not filled in again."""
    result = rulesmith("new", "named", "--name", name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [checked] = check_content(tmp_path / "content")
    assert checked.game.info.name == name
    assert [s.title for s in checked.game.info.sources] == [f"{name} Rulebook"]

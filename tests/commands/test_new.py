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
    assert all(checked.index.backlinks.get(key) for key in ("table:hand-size", "procedure:rival-turn", "gap:card-art"))
    # an erratum, a ruling (one without an address) and an icon used in a text
    assert [(e.target, e.field) for e in game.errata] == [("table:hand-size", "rows.4.cards")]
    assert [r.source.where for r in game.rulings] == ["e-mail from the designer"]
    assert [i.id for i in game.icons] == ["crystal"] and any("[[icon:crystal]]" in s.body for s, _ in game.all_sections())


def test_the_new_game_has_a_bot_an_automa_designer_starts_from(made):
    """State, a deck, a turn, a labelled procedure with a draw, a table read by the state, a
    tally and a call; its solo rules in a module of their own, which the solo aid prints."""
    [checked] = check_content(made / "content")
    game = checked.game
    bot = game.bot
    assert bot is not None and [v.id for v in bot.state] == ["difficulty"] and [d.id for d in bot.decks] == ["rival-cards"]
    assert [p.procedure for p in bot.turn.parts] == ["rival-turn"]
    [turn] = [p for p in game.procedures if p.id == "rival-turn"]
    nodes = turn.nodes
    assert [n.label for n in nodes] == ["R1", "R2", "R3", "R4", "R5"] and turn.numbers["done"] == "R5"
    reads = next(n.reads for n in nodes if n.reads)
    assert reads.row == "state:difficulty"
    [read_table] = [t for t in game.tables if t.id == reads.table]
    assert [str(getattr(row[0], "value", row[0])) for row in read_table.rows] == [v.id for v in bot.state[0].values]
    assert any(n.draw for n in nodes) and any(n.tally for n in nodes)
    assert [n.call.procedure for n in nodes if n.call] == ["rival-score"]
    solo = [key for s, _ in game.all_sections() if game.module_of(s) == "solo" for key in [f"rule:{s.id}"]]
    plan = game.aid_plan("solo-aid")
    assert plan is not None and {e.show for e in plan.setup + plan.body} <= set(solo) and plan.body
    # the source map names the bot's parts
    mapped = {key for entry in game.source_map for key in entry.items}
    assert {"bot:turn", "bot:part-1", "bot:state-difficulty", "bot:deck-rival-cards"} <= mapped


def test_the_placeholder_names_no_shipped_game(made):
    """What `new` writes quotes no game Rulesmith ships (their names, ids or example items)."""
    from conftest import ROOT

    shipped = [p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file()]
    words = [*shipped, "Statecraft", "Deep State", "D.E.I.", "Nigeria", "Interpol", "Brute Force", "Falcon", "Automa"]
    for path in sorted(p for p in made.rglob("*") if p.is_file() and p.suffix in (".yaml", ".txt")):
        text = path.read_text(encoding="utf-8")
        assert not [w for w in words if w.lower() in text.lower()], path


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


def test_the_rulebooks_step_labels_are_the_one_numbering_of_every_view(made):
    """`label: R1` is what the chart, the list, the walker and the Bot turn page call a step; an
    unlabelled procedure keeps its positions; two steps read alike are refused at the label."""
    import json

    from rulesmith.flowchart.chart import to_dot
    from rulesmith.site.botturn import companion_data
    from rulesmith.site.pages import render_site
    from rulesmith.text.placed import unplaced

    [checked] = check_content(made / "content")
    [turn] = [p for p in checked.game.procedures if p.id == "rival-turn"]
    assert turn.numbers == {"count": "R1", "draw": "R2", "enough": "R3", "score": "R4", "done": "R5"}
    dot = to_dot(turn, checked.index)
    assert "<b>R1.&#160;</b>" in dot and "<b>R5. End</b>" in dot
    pages = {p.path: unplaced(p.text) for p in render_site([checked], []).pages}
    page = pages["my-game/solo/rival-turn.md"]
    steps = page.split("## Step by step")[1]
    assert "- **R1.** Find how many" in steps and "No → step R2." in steps and "- **R5.** **End:**" in steps
    assert 'data-number="R3"' in page  # the walker
    data = companion_data(checked.game)
    assert json.dumps(data).count('"number": "R') == 5
    score = pages["my-game/solo/rival-score.md"].split("## Step by step")[1]
    assert "1. **Does the Rival hold" in score  # no labels: positions, as before
    # a label that reads as another step's is refused where it is written
    path = made / "content" / "my-game" / "procedures.yaml"
    path.write_text(path.read_text().replace("label: R2", "label: r1"))
    result = rulesmith("check", cwd=made)
    assert result.returncode == 1
    assert "procedures.yaml:18:16: two steps of procedure 'rival-turn' would both read 'r1'" in result.stderr

"""The editor's view: a game's JSON Schema flags the same mistakes at the same lines as the check.

check-jsonschema (a real JSON Schema client that reads YAML 1.2, as editors do) validates a file
against `schema/<game>.schema.json`; each typical mistake must be flagged there at the line
where `rulesmith check` reports it. And every shipped content file names its game's schema.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from conftest import GAMES, ROOT, rulesmith_here

from rulesmith.content.load import read_file
from rulesmith.format.schema import schema_line
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError, Problems

GAME = """\
game:
  id: demo
  name: Demo
  data_version: "1.0"
  sources: [{id: core, file: rules.txt, title: Rulebook}]
modules:
  - {id: base, name: Base game}
kinds:
  - id: card
    name: Card
    plural: Cards
    fields:
      - {id: cost, name: Cost, type: integer, min: 0, required: true}
      - {id: colour, name: Colour, type: enum, values: [red, blue]}
      - {id: wild, name: Wild, type: boolean}
"""
CARDS = """\
entities:
  - id: alpha
    name: Alpha
    kind: card
    module: base
    fields:
      cost: 2
      colour: red
  - id: beta
    name: Beta
    kind: card
    fields:
      cost: 1
      wild: true
procedures:
  - id: bot
    title: Bot
    start: ask
    nodes:
      - id: ask
        type: decision
        text: Ask.
        branches:
          - {when: "Yes", to: done}
          - {when: "No", to: done}
      - {id: done, type: end, text: Done.}
tables:
  - id: costs
    title: Costs
    columns: [{id: n, title: N, type: integer}]
    rows: [[1], [2]]
    rules:
      - {rule: sum, column: n, equals: 3}
"""
MISTAKES = {
    "wrong type": ("      cost: 2\n", "      cost: two\n"),
    "unknown field": ("      colour: red\n", "      colour: red\n      colur: red\n"),
    "enum typo": ("      colour: red\n", "      colour: redd\n"),
    "missing required field": ("      cost: 1\n      wild: true\n", "      wild: true\n"),
    "unknown module": ("    module: base\n", "    module: bsae\n"),
    "unknown kind": ("    name: Beta\n    kind: card\n", "    name: Beta\n    kind: cards\n"),
    "branch to a missing node": ("{when: \"No\", to: done}", "{when: \"No\", to: dnoe}"),
    # each table rule's piece of the schema (rulesmith/checks/tablerules.py): its parameters, no other
    "table rule without its parameter": ("{rule: sum, column: n, equals: 3}", "{rule: sum, column: n}"),
    "table rule with another rule's parameter": ("{rule: sum, column: n, equals: 3}",
                                                 "{rule: sum, column: n, equals: 3, kind_column: n}"),
}


def write(folder: Path, cards: str) -> Path:
    game = folder / "content" / "demo"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text(cards)
    return folder / "content"


def check_jsonschema(schema: Path, files: list[Path]) -> dict:
    """check-jsonschema's own command over the files, run in this process (its click entry point):
    its JSON report ({"status", "errors": [{"filename", "path", "message"} …]})."""
    from check_jsonschema import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):  # it exits 1 when a file fails
        main(["--schemafile", str(schema), "-o", "json", *map(str, files)], standalone_mode=False)
    return json.loads(out.getvalue())


def editor_lines(report: dict, file: Path, content: Path) -> set[int]:
    """Lines check-jsonschema flags in `file`, from the JSON paths it reports."""
    source = read_file(file, Problems(), content)
    lines = set()
    for error in report["errors"]:
        if Path(error["filename"]) != file:
            continue
        path = tuple(int(p) if p.isdigit() else p for p in re.findall(r"\.([\w-]+)|\[(\d+)\]", error["path"])
                     for p in p if p)
        extra = re.match(r"Additional properties are not allowed \('([^']+)' was unexpected\)", error["message"])
        # An editor underlines the unexpected key itself, as the check does.
        lines.add(source.where(path + (extra.group(1),), key=True)[1] if extra else source.where(path)[1])
    return lines


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("schema")
    content = write(folder, CARDS)
    check_content(content)  # the file without mistakes is clean
    done = rulesmith_here("schema", "--output", str(folder / "schema" / "content.schema.json"), cwd=content)
    assert done.returncode == 0, done.stderr
    return folder / "schema" / "demo.schema.json"


@pytest.fixture(scope="module")
def edited(schema, tmp_path_factory) -> dict[str | None, tuple[Path, set[int]]]:
    """The clean file (None) and each mistake in a content folder of its own, all read by the editor
    at once: {mistake: (content folder, the lines the editor flags in its cards.yaml)}."""
    folder = tmp_path_factory.mktemp("edited")
    contents = {None: write(folder / "clean", CARDS)}
    for i, (mistake, (before, after)) in enumerate(MISTAKES.items()):
        assert before in CARDS, mistake
        contents[mistake] = write(folder / str(i), CARDS.replace(before, after, 1))
    report = check_jsonschema(schema, [c / "demo" / "cards.yaml" for c in contents.values()])
    return {m: (c, editor_lines(report, c / "demo" / "cards.yaml", c)) for m, c in contents.items()}


def test_the_clean_file_passes_the_editor(edited):
    assert edited[None][1] == set()


@pytest.mark.parametrize("mistake", MISTAKES)
def test_editor_and_check_flag_the_same_line(edited, mistake):
    content, flagged = edited[mistake]
    with pytest.raises(ContentError) as error:
        check_content(content)
    checked = {p.line for p in error.value.problems if p.file.endswith("cards.yaml")}
    assert checked, [str(p) for p in error.value.problems]
    assert checked & flagged, f"check: {sorted(checked)}, editor: {sorted(flagged)}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_content_file_names_its_games_schema(game_id):
    content = ROOT / "content"
    wrong = []
    for file in sorted((content / game_id).rglob("*.yaml")):
        first = file.read_text(encoding="utf-8").splitlines()[0]
        if first != schema_line(file, ROOT / "schema", game_id):
            wrong.append(f"{file.relative_to(ROOT)}: {first}")
    assert not wrong, wrong


def test_every_shipped_file_passes_its_games_schema(tmp_path):
    """No false alarms: what the check accepts, the editor accepts."""
    done = rulesmith_here("schema", "--output", str(tmp_path / "content.schema.json"), cwd=ROOT / "content")
    assert done.returncode == 0, done.stderr
    for game_id in GAMES:
        files = sorted((ROOT / "content" / game_id).rglob("*.yaml"))
        report = check_jsonschema(tmp_path / f"{game_id}.schema.json", files)
        assert report["status"] == "ok" and not report["errors"], json.dumps(report["errors"][:10], indent=1)

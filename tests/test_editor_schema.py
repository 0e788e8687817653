"""The editor's view: a game's JSON Schema flags the same mistakes at the same lines as the check.

check-jsonschema (a real JSON Schema client that reads YAML 1.2, as editors do) validates a file
against `schema/<game>.schema.json`; each typical mistake must be flagged there at the line
where `rulesmith check` reports it. And every shipped content file names its game's schema.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GAMES, ROOT
from rulesmith.load import read_file
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError, Problems
from rulesmith.schema import schema_line

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
    # each table rule's piece of the schema (rulesmith/tablerules.py): its parameters, no other
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


def editor_lines(schema: Path, file: Path, content: Path) -> set[int]:
    """Lines check-jsonschema flags in `file`, from the JSON paths it reports."""
    checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    result = subprocess.run([checker, "--schemafile", str(schema), "-o", "json", str(file)],
                            capture_output=True, text=True, timeout=120)
    report = json.loads(result.stdout)
    source = read_file(file, Problems(), content)
    lines = set()
    for error in report["errors"]:
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
    done = subprocess.run([sys.executable, "-m", "rulesmith.cli", "--content", str(content), "schema",
                           "--output", str(folder / "schema" / "content.schema.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return folder / "schema" / "demo.schema.json"


def test_the_clean_file_passes_the_editor(schema, tmp_path):
    content = write(tmp_path, CARDS)
    assert editor_lines(schema, content / "demo" / "cards.yaml", content) == set()


@pytest.mark.parametrize("mistake", MISTAKES)
def test_editor_and_check_flag_the_same_line(schema, mistake, tmp_path):
    before, after = MISTAKES[mistake]
    assert before in CARDS
    content = write(tmp_path, CARDS.replace(before, after, 1))
    with pytest.raises(ContentError) as error:
        check_content(content)
    checked = {p.line for p in error.value.problems if p.file.endswith("cards.yaml")}
    assert checked, [str(p) for p in error.value.problems]
    flagged = editor_lines(schema, content / "demo" / "cards.yaml", content)
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
    done = subprocess.run([sys.executable, "-m", "rulesmith.cli", "--content", str(ROOT / "content"), "schema",
                           "--output", str(tmp_path / "content.schema.json")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    for game_id in GAMES:
        files = [str(f) for f in sorted((ROOT / "content" / game_id).rglob("*.yaml"))]
        result = subprocess.run([checker, "--schemafile", str(tmp_path / f"{game_id}.schema.json"), *files],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout[-3000:]

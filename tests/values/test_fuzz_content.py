"""No traceback from any content: real content files, mutated the way a contributor's typo or a
bad merge would (a type flipped, a key dropped or renamed, a list where a scalar was and back,
a number quoted), are either accepted or refused with located problems, never anything else
(issue 23). Hypothesis picks the file, the place and the mutation, and shrinks any failure to
the smallest one."""

from __future__ import annotations

import datetime
import os
import re
import shutil
from typing import TYPE_CHECKING

import pytest
import yaml
from conftest import GAMES, ROOT, rulesmith_here
from gamekit import GAME_YAML, write_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.values import fieldtypes

if TYPE_CHECKING:
    from pathlib import Path

# Each example checks one whole game (about a second): the unit tier tries a few, the whole suite
# (./scripts/test without -m) many more; any number can be asked for.
EXAMPLES = int(os.environ.get("RULESMITH_FUZZ_EXAMPLES", "10"))

FILES = sorted(str(p.relative_to(ROOT / "content")) for game in GAMES for p in (ROOT / "content" / game).rglob("*.yaml"))


def places(data, path=()):
    """Every (path, value) inside a file's data."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from places(value, path + (i,))


def mutate(value, how: str):
    if how == "quote":
        return str(value)
    if how == "flip":
        # a date (game.yaml's `released:`) flips to a number, as a mistyped date would
        return {str: 3, int: "three", float: True, bool: "yes", list: "a", dict: ["a"], type(None): 0,
                datetime.date: 20261130}[type(value)]
    if how == "wrap":
        return [value]
    if how == "unwrap":
        return value[0] if isinstance(value, list) and value else {"value": value}
    if how == "null":
        return None
    if how == "status":
        return {"value": value, "status": "bogus"}
    raise AssertionError(how)


def apply(data, path, how: str, rename: str):
    if not path:
        return mutate(data, how)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    if how == "drop":
        del parent[key]
    elif how == "rename":
        if isinstance(parent, dict):
            parent[rename] = parent.pop(key)
        else:
            parent[key] = mutate(parent[key], "flip")
    else:
        parent[key] = mutate(parent[key], how)
    return data


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A copy of every game; each example changes one file and puts it back."""
    folder = tmp_path_factory.mktemp("fuzz")
    for game in GAMES:
        shutil.copytree(ROOT / "content" / game, folder / game / "content" / game)
    return folder


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(file=st.sampled_from(FILES), pick=st.integers(min_value=0), rename=st.sampled_from(["titel", "nme", "value", "id"]),
       how=st.sampled_from(["quote", "flip", "wrap", "unwrap", "null", "status", "drop", "rename"]))
def test_a_mutated_content_file_is_accepted_or_located(scratch, file, pick, how, rename):
    content = scratch / file.split("/")[0] / "content"
    data = yaml.safe_load((ROOT / "content" / file).read_text(encoding="utf-8"))
    spots = list(places(data))
    path, _ = spots[pick % len(spots)]
    if how in ("drop", "rename") and not path:
        how = "flip"
    data = apply(data, path, how, rename)
    original = (content / file).read_bytes()
    (content / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        check_content(content)
    except ContentError as error:
        assert error.problems, "refused without a problem"
        for problem in error.problems:
            assert problem.line >= 1 and problem.column >= 1 and problem.message, problem
    finally:
        (content / file).write_bytes(original)


def test_the_command_exits_1_with_located_problems_for_a_broken_file(tmp_path):
    shutil.copytree(ROOT / "content" / "statecraft", tmp_path / "content" / "statecraft")
    path = next((tmp_path / "content" / "statecraft").rglob("*.yaml"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data[next(iter(data))] = "not a list"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    run = rulesmith_here("check", cwd=tmp_path / "content")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[0].count(":") >= 3, run.stderr


# ---------------------------------------------------------------- every field type, every table shape

# A table with a column of every field type, rows of any shape (short, long, empty) whose cells
# are of any type, and every reader of a cell pointed at it: a value reference in a text, an
# example's lookup, a gap's `affects`; an entity with a field of every type, of any value. The
# check answers with located problems and exit 1, or passes; never a traceback.
TYPES = list(fieldtypes.REGISTRY)
OPTIONS = {"ref": {"to": "symbol"}, "ref-list": {"to": "symbol"}, "enum": {"values": ["a", "b"]}}
CELLS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.floats(-3, 40, allow_nan=False, width=32),
    st.sampled_from(["a", "b", "star", "3", "4+", "2-3", "≤ 1", "x y", "", "3.5"]),
    st.lists(st.sampled_from([1, "star", "a", True]), max_size=3),
    st.fixed_dictionaries({"status": st.sampled_from(["unverified", "missing", "bogus"])},
                          optional={"value": st.integers(0, 9), "note": st.just("Why.")}),
    st.just({"x": 1}))


class _Written(yaml.SafeDumper):
    """Every value written out (a value drawn twice is not an &anchor/*alias, which content refuses)."""

    def ignore_aliases(self, data):  # noqa: ARG002 (yaml's signature)
        return True


@st.composite
def typed_game(draw) -> tuple[str, str]:
    """(game.yaml, content.yaml) of the mini game with such a table and such an entity."""
    key_type = draw(st.sampled_from(["integer", "string", "range"]))
    columns = [{"id": "key", "title": "Key", "type": key_type}] + [
        {"id": name.replace("-", "_"), "title": name, "type": name, **OPTIONS.get(name, {})} for name in TYPES]
    width = len(columns)
    rows = draw(st.lists(st.lists(CELLS, min_size=0, max_size=width + 2), min_size=1, max_size=4))
    keys = [str(row[0]) for row in rows if row and isinstance(row[0], (str, int, float))] or ["1"]
    key, column = draw(st.sampled_from(keys)), draw(st.sampled_from([c["id"] for c in columns]))
    fields = [{"id": c["id"], "name": c["title"], "type": c["type"], **OPTIONS.get(c["type"], {})} for c in columns[1:]]
    values = draw(st.dictionaries(st.sampled_from([f["id"] for f in fields]), CELLS, max_size=len(fields)))
    field = draw(st.sampled_from([f["id"] for f in fields]))
    address = f"table:t.{key}.{column}"
    game = yaml.dump({**yaml.safe_load(GAME_YAML), "kinds": [
        {"id": "alliance", "name": "Alliance", "plural": "Alliances", "fields": fields},
        {"id": "symbol", "name": "Symbol", "plural": "Symbols"}]}, Dumper=_Written, allow_unicode=True, sort_keys=False)
    content = yaml.dump({
        "defaults": {"module": "base"},
        "entities": [{"id": "interpol", "name": "Interpol", "kind": "alliance", "fields": values},
                     {"id": "star", "name": "Star", "kind": "symbol"}],
        "tables": [{"id": "t", "title": "T", "columns": columns, "rows": rows}],
        "sections": [{"id": "goal", "title": "Goal", "body": f"Read [[value:{address}]] and "
                      f"[[value:alliance:interpol.{field}]]."}],
        "examples": [{"id": "ex", "title": "Ex", "text": "Looked up.", "inputs": {"k": key},
                      "expression": f"lookup('t', k, '{column}')", "result": 1}],
        "gaps": [{"id": "g", "title": "A gap", "status": "missing", "note": "Not printed.",
                  "affects": [address, f"alliance:interpol.{field}"]}],
    }, Dumper=_Written, allow_unicode=True, sort_keys=False)
    return game, content


@settings(max_examples=EXAMPLES * 5, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files=typed_game())
def test_every_field_type_and_table_shape_is_accepted_or_located(tmp_path_factory, files):
    game, content = files
    folder = write_game(tmp_path_factory.mktemp("typed"), game=game, content=content)
    run = rulesmith_here("check", "--no-cache", cwd=folder)
    assert "Traceback" not in run.stderr, run.stderr
    rows = yaml.safe_load(content)["tables"][0]["rows"]
    if any(len(row) != len(TYPES) + 1 for row in rows):  # a short or long row is always refused
        assert run.returncode == 1 and "cells but the table has" in run.stderr, run.stderr
    if run.returncode:
        assert run.returncode == 1
        lines = run.stderr.splitlines()
        assert all(re.match(r"^[^:\s]+:\d+:\d+: \S", line) or re.match(r"^\d+ problems? found", line)
                   for line in lines if line), run.stderr
        assert any(re.match(r"^[^:\s]+:\d+:\d+: (?!warning:)", line) for line in lines), run.stderr

"""No traceback from any content: real content files, mutated the way a contributor's typo or a
bad merge would (a type flipped, a key dropped or renamed, a list where a scalar was and back,
a number quoted), are either accepted or refused with located problems, never anything else
(issue 23). Hypothesis picks the file, the place and the mutation, and shrinks any failure to
the smallest one."""

from __future__ import annotations

import datetime
import os
import shutil
from typing import TYPE_CHECKING

import pytest
import yaml
from conftest import GAMES, ROOT, rulesmith_here
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError

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

"""What a contributor adding a game meets: each message located and true, each format need expressible."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import pytest
from conftest import rulesmith_here
from gamekit import GAME_YAML, write_game

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.site.pages import render_site
from rulesmith.text.placed import unplaced

TWO_MODULES = GAME_YAML.replace("  - {id: base, name: Base game}\n",
                                "  - {id: base, name: Base game}\n  - {id: variant, name: Bonus variant}\n")


# the command's own code, in this process (conftest.rulesmith_here); args name --content themselves
rulesmith = functools.partial(rulesmith_here, content=None)


def problems(content: Path) -> list[str]:
    with pytest.raises(ContentError) as error:
        check_content(content)
    return [f"{Path(p.file).name}:{p.line}:{p.column}: {p.message} ({p.hint})" for p in error.value.problems]


def test_a_bad_date_in_game_yaml_is_one_problem_from_the_game_s_own_folder(tmp_path):
    content = write_game(tmp_path, game=GAME_YAML.replace('  data_version: "1.0"\n',
                                                          '  data_version: "1.0"\n  released: 2026-13-45\n'))
    result = rulesmith("check", cwd=content / "mini")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "game.yaml:6:13: invalid value '2026-13-45': month must be in 1..12 (quote it if it is meant as text; "
        "dates are written YYYY-MM-DD)", "1 problem found; nothing was written."]


def test_a_game_yaml_without_game_says_so_with_a_relative_path(tmp_path):
    content = write_game(tmp_path, game="modules:\n  - {id: base, name: Base game}\n")
    result = rulesmith("check", cwd=content / "mini")
    assert result.stderr.splitlines()[0] == ("game.yaml:1:1: game.yaml has no `game:` section (add `game:` with id, "
                                             "name, data_version and sources (see `rulesmith format game`))")


def test_a_missing_field_points_to_its_topic(tmp_path):
    content = write_game(tmp_path, extra="tables:\n  - {id: t, title: T, rows: []}\n", **{
        "extra.yaml": "tables:\n  - {id: t, title: T, rows: []}\n"})
    assert "extra.yaml:2:5: missing required field 'columns' (add `columns:` here (see `rulesmith format tables`))" \
        in problems(content)


def test_a_field_that_applies_only_with_a_module(tmp_path):
    game = TWO_MODULES.replace("      - {id: cost, name: Cost, type: integer, min: 0}\n",
                               "      - {id: cost, name: Cost, type: integer, min: 0}\n"
                               "      - {id: bonus, name: Bonus, type: integer, module: variant}\n")
    content = write_game(tmp_path / "ok", game=game)
    content_yaml = content / "mini" / "content.yaml"
    content_yaml.write_text(content_yaml.read_text().replace("fields: {cost: 3,", "fields: {cost: 3, bonus: 2,"))
    checked = check_content(content)
    page = next(p for p in render_site(checked, []).pages if p.path.endswith("alliance.md")).text
    assert "| Bonus (Bonus variant) |" in page
    assert "- **Bonus (with [Bonus variant](" in page
    bad = write_game(tmp_path / "bad", game=game.replace("module: variant}", "module: variants}"))
    assert "game.yaml:17:57: unknown module 'variants' (did you mean variant?)" in problems(bad)


def test_the_check_says_which_items_name_no_module(tmp_path):
    write_game(tmp_path, game=TWO_MODULES, content=(
        "entities:\n  - {id: star, name: Star, kind: symbol}\n  - {id: moon, name: Moon, kind: symbol, module: base}\n"))
    result = rulesmith("check", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == ("note: mini: 1 item names no module (symbol:star): it applies with every "
                                             "module (see `rulesmith format modules`)")


def test_a_subsection_belongs_to_its_sections_module_and_terms_are_not_counted(tmp_path):
    content = write_game(tmp_path, game=TWO_MODULES, content=(
        "sections:\n  - id: play\n    title: Play\n    module: base\n    body: Play.\n"
        "    sections:\n      - {id: play-more, title: More, body: More.}\n"
        "  - {id: loose, title: Loose, body: Loose.}\n"
        "glossary:\n  - {id: pp, term: PP, definition: Points.}\n"))
    result = rulesmith("check", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == ("note: mini: 1 item names no module (rule:loose): it applies with every "
                                             "module (see `rulesmith format modules`)")
    game = check_content(content)[0].game
    assert game.module_of(game.sections[0].sections[0]) == "base"


def test_a_table_keyed_by_the_entities_of_a_kind(tmp_path):
    table = """\
tables:
  - id: costs
    title: Cost per alliance
    columns: [{id: alliance, title: Alliance, type: ref, to: alliance}, {id: cost, title: Cost, type: integer}]
    rows: [[interpol, 3], [osce, 1]]
"""
    content = write_game(tmp_path / "ok", **{"tables.yaml": table})
    page = unplaced(next(p for p in render_site(check_content(content), []).pages if p.path.endswith("tables.md")).text)
    # the rows show the entities' names, linked
    assert '<a href="kinds/alliance.html#interpol">Interpol</a>' in page and '>OSCE</a>' in page
    bad = write_game(tmp_path / "bad", **{"tables.yaml": table.replace("[osce, 1]", "[osc, 1]")})
    assert any(p.startswith("tables.yaml:5:28: cell 'alliance': unknown alliance 'osc' (did you mean osce?)")
               for p in problems(bad))


@pytest.mark.parametrize("args", [["diff", "no-such-revision"],
                                  ["errata", "add", "mini", "nosuch", "cost", "4", "--source", "publisher-faq",
                                   "--description", "FAQ", "--note", "n"]])
def test_command_failures_read_error(tmp_path, args):
    write_game(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    result = rulesmith(*args, cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    if lines[-1].startswith("hint: "):  # the error's hint follows it, as every command prints them
        lines = lines[:-1]
    assert lines[-1].startswith("error: "), result.stderr

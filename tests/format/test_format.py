"""The format reference: generated from the model, complete, the same everywhere it is shown."""

from __future__ import annotations

import functools
import re
import typing
from pathlib import Path

import pytest
import yaml
from conftest import rulesmith_here

from rulesmith.checks import tablerules
from rulesmith.content import model
from rulesmith.format import reference as formatref
from rulesmith.format import topics
from rulesmith.values import expressions, fieldtypes

ROOT = Path(__file__).resolve().parents[2]


# the command's own code, in this process (conftest.rulesmith_here); args name --content themselves
rulesmith = functools.partial(rulesmith_here, content=None)


def test_content_readme_is_the_generated_reference():
    """content/README.md is `rulesmith format`: regenerate it with `rulesmith format > content/README.md`."""
    assert (ROOT / "content" / "README.md").read_text(encoding="utf-8") == formatref.render()


def test_rulesmith_format_prints_it_from_any_folder(tmp_path):
    result = rulesmith("format", cwd=tmp_path)  # no project needed
    assert result.returncode == 0, result.stderr
    assert result.stdout == formatref.render()
    one = rulesmith("format", "tables", cwd=tmp_path)
    assert one.returncode == 0 and one.stdout == formatref.render("tables")
    assert one.stdout.startswith("# `tables`\n") and "| `columns` | list of column | required |" in one.stdout
    assert rulesmith("format", "source-map", cwd=tmp_path).stdout == formatref.render("source_map")


def test_an_unknown_topic_is_refused_with_the_nearest(tmp_path):
    result = rulesmith("format", "tabels", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["error: no format topic 'tabels'", "hint: did you mean tables?"]


def _models_under(cls, seen=None):
    seen = seen if seen is not None else []
    if cls not in seen:
        seen.append(cls)
        for inner in model.nested_models(cls).values():
            _models_under(inner, seen)
    return seen


def test_every_item_and_field_of_the_model_is_described():
    documented = {cls for topic in formatref.TOPICS for cls in topic.models}
    every = _models_under(model.ContentFile)
    assert [cls.__name__ for cls in every if cls not in documented] == []
    undescribed = [f"{cls.__name__}.{name}" for cls in every for name, info in cls.model_fields.items()
                   if not info.description]
    assert undescribed == []
    assert [cls.__name__ for cls in every if not cls.__doc__] == []
    text = formatref.render()
    missing = [f"{cls.__name__}.{info.alias or name}" for cls in every for name, info in cls.model_fields.items()
               if f"| `{info.alias or name}` |" not in text]
    assert missing == []
    assert all(f"**{formatref._name(cls)}**" in text for cls in every)


def test_every_field_type_table_rule_and_function_is_listed():
    assert list(fieldtypes.REGISTRY) == list(typing.get_args(model.FieldDef.model_fields["type"].annotation))
    rules = typing.get_args(model.TableRule.model_fields["rule"].annotation)
    assert list(tablerules.RULES) == list(rules)
    text = formatref.render()
    assert all(f"- `{name}`: {kind.description}" in text for name, kind in fieldtypes.REGISTRY.items())
    assert all(f"- `{name}`: " in text for name in tablerules.RULES)
    assert all(f"- `{signature}`: " in text for signature in expressions.FUNCTIONS)
    # the functions an expression really has are the ones listed (evaluate asserts it)
    assert expressions.evaluate("max([1, 2])", {}, {}) == 2


def test_every_validator_rule_is_stated():
    text = formatref.render()
    assert "Rule: A status other than `verified` needs a `note`" in text
    assert "Rule: An entry gives either `items` or `not_content`" in text
    assert "Rule: `ref` and `ref-list` need `to: <kind>`" in text


@pytest.mark.parametrize("topic", [t.id for t in formatref.TOPICS if t.id != "translations"])
def test_every_example_is_valid_content(topic):
    example = formatref.BY_ID[topic].example
    assert example, f"topic {topic} has no example"
    model.ContentFile.model_validate(yaml.safe_load(example))


def test_all_the_examples_together_are_one_game_that_checks(tmp_path):
    """Each topic's example is one file of one invented game: written out, the game checks (every
    reference of one example names what another declares), its catalog reads, and none of it
    quotes a game Rulesmith ships."""
    import polib

    from rulesmith.pipeline import check_content

    game = tmp_path / "content" / "tidewater"
    (game / "translations").mkdir(parents=True)
    (game / formatref.EXAMPLE_GAME_FILE).write_text(
        "\n".join(formatref.EXAMPLES[t] for t in formatref.IN_GAME_YAML), encoding="utf-8")
    for topic, text in formatref.EXAMPLES.items():
        if topic not in formatref.IN_GAME_YAML and topic != "translations":
            (game / f"{topic}.yaml").write_text(text, encoding="utf-8")
    assert set(formatref.EXAMPLES) == {t.id for t in formatref.TOPICS}
    [checked] = check_content(tmp_path / "content")  # raises ContentError with every problem
    assert checked.game.bot is not None and checked.game.rulings and checked.game.errata
    entries = polib.pofile(formatref.EXAMPLES["translations"])
    assert [e.msgctxt for e in entries] == ["ship:cutter.text", "rule:docking.body"]
    shipped = [p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file()]
    text = formatref.render().lower()
    assert [w for w in [*shipped, "statecraft", "nigeria", "interpol", "brute force", "falcon"] if w in text] == []


def test_every_topic_named_in_a_hint_exists():
    """`see(topic)` refuses a topic that does not exist; every `rulesmith format X` in the package names one."""
    with pytest.raises(KeyError):
        topics.see("nonsense")
    named = set()
    for path in [*(ROOT / "rulesmith").rglob("*.py"), *(ROOT / "templates").rglob("*.yaml")]:
        named |= set(re.findall(r"rulesmith format ([a-z_-]+)", path.read_text(encoding="utf-8")))
    assert sorted(n for n in named if n not in formatref.BY_ID and n not in topics.ALIASES) == []
    stale = [str(p.relative_to(ROOT)) for p in (ROOT / "rulesmith").rglob("*.py")
             if "see content/README.md" in p.read_text(encoding="utf-8")]
    assert stale == []


def test_the_site_publishes_the_same_text(tmp_path):
    from gamekit import write_game

    from rulesmith.pipeline import check_content
    from rulesmith.site.pages import render_site

    site = render_site(check_content(write_game(tmp_path)), [])
    [page] = [p for p in site.pages if p.path == "format.md"]
    assert page.text == "---\nsearch:\n  exclude: true\n---\n\n" + formatref.render()  # out of the readers' search
    assert "format.md" not in str(site.nav)  # not a readers' tab: the home page links it
    [home] = [p for p in site.pages if p.path == "index.md"]
    assert "[Content format, for contributors](format.md)" in home.text

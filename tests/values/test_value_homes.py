"""Each concept of a value has one home that every other module asks (issue 35):

- field types: values/fieldtypes.py (name, description, options, numeric, display …);
- how a value is shown: fieldtypes.shown;
- turning text into a number: values/numbers.py;
- status: values/status.py;
- the id rule: values/ids.py;
- addresses inside an item: values/addresses.py;
- a short table row is a located problem, never a traceback.

Each test proves the home: outputs agree because they ask it, and a change there reaches them all.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from gamekit import CONTENT_YAML, GAME_YAML, write_game

from rulesmith.aids.context import AidContext
from rulesmith.checks import tablerules
from rulesmith.content import affects, model, turn
from rulesmith.format import reference as formatref
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.site import pages
from rulesmith.text.html import convert
from rulesmith.text.references import Output, plain_text
from rulesmith.values import addresses, fieldtypes, ids, numbers, ranges
from rulesmith.values import references as values
from rulesmith.values import status as statuses

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

# The mini game with a boolean and a number field, shown in a table, in running text and in an example.
GAME = GAME_YAML.replace(
    "      - {id: symbol, name: Symbol, type: ref, to: symbol}\n",
    "      - {id: symbol, name: Symbol, type: ref, to: symbol}\n"
    "      - {id: secret, name: Secret, type: boolean}\n"
    "      - {id: weight, name: Weight, type: number}\n")
CONTENT = CONTENT_YAML.replace("symbol: star}}", "symbol: star, secret: true, weight: 2.0}}").replace(
    "Back to [[rule:goal]].", "Secret: [[value:alliance:interpol.secret]], weight [[value:alliance:interpol.weight]].")


def problems(content_dir: Path) -> list[tuple[str, int, int, str, str]]:
    with pytest.raises(ContentError) as error:
        check_content(content_dir)
    return [(Path(p.file).name, p.line, p.column, p.message, p.hint) for p in error.value.problems]


@pytest.fixture
def mini(tmp_path):
    [checked] = check_content(write_game(tmp_path, game=GAME, content=CONTENT))
    return checked


# ---------------------------------------------------------------- field types

def test_a_field_type_is_declared_described_and_classified_by_its_class_alone():
    declared = model.FieldDef.model_fields["type"].annotation
    assert list(fieldtypes.REGISTRY) == list(declared.__args__) == list(fieldtypes.NAMES)
    assert all(kind.description and kind.name == name for name, kind in fieldtypes.REGISTRY.items())
    assert fieldtypes.NUMERIC == ("integer", "number") == tablerules.NUMBERS
    # what the model asks of a type (its options), from the type itself
    with pytest.raises(ValueError, match=r"a field of type ref-list needs `to: <kind>`"):
        model.FieldDef.model_validate({"id": "x", "name": "X", "type": "ref-list"})
    # no template decides by a type's name: they ask the column's field type
    named = [f"{path.name}: {match.group(0)}" for path in sorted(TEMPLATES.rglob("*.j2"))
             for match in re.finditer(r"\.type (?:not )?in \(|\.type [!=]= \"(?!decision|end|step)",
                                      path.read_text(encoding="utf-8"))]
    assert named == []


# ---------------------------------------------------------------- how a value is shown

def test_every_output_shows_a_value_the_same_way(mini):
    game, index = mini.game, mini.index
    secret, weight = (spec for spec in game.kind("alliance").fields if spec.id in ("secret", "weight"))
    site = pages.PageContext(game, index, "mini/alliance.md")
    aid = AidContext(game, index, anchors=set())
    env = pages.environment()
    changelog = env.from_string('{% from "_macros.md.j2" import erratum_value %}{{ erratum_value(v) }}')
    table = model.Table.model_validate({"id": "t", "title": "T", "columns": [
        {"id": "k", "title": "K"}, {"id": "b", "title": "B", "type": "boolean"}, {"id": "n", "title": "N", "type": "number"}],
        "rows": [["a", True, 2.0]]})

    def node(column: str) -> model.Node:
        return model.Node.model_validate({"id": "x", "type": "step", "text": "x", "next": "y",
                                          "reads": {"table": "t", "row": "a", "column": column, "says": "{value}"}})

    def everywhere(value, spec, ref: str, column: str) -> dict[str, str]:
        return {
            "site table cell": site.value_html(value, spec),
            "aid table cell": aid.value_html(value, spec),
            "running text": plain_text(f"[[value:{ref}]]", index),
            "running text, HTML": convert(f"[[value:{ref}]]", Output(index, lambda _key: None)).removeprefix(
                "<p>").removesuffix("</p>"),
            "example result": env.from_string("{{ shown(v) }}").render(v=value),
            "changelog": changelog.render(v=value),
            "bot's answer": turn.lookup(table, node(column), {}),
            "the registry": fieldtypes.shown(value),
        }

    assert set(everywhere(True, secret, "alliance:interpol.secret", "b").values()) == {"Yes"}
    assert set(everywhere(2.0, weight, "alliance:interpol.weight", "n").values()) == {"2"}


# ---------------------------------------------------------------- turning text into a number

@pytest.mark.parametrize(("text", "number"), [
    ("4", 4), ("-2", -2), ("+3", 3), (" 5 ", 5), ("2.5", 2.5), ("3.0", 3.0),
    ("1_000", None), ("1e3", None), ("٣", None), ("½", None), ("", None), ("4+", None), (".5", None)])
def test_text_is_read_as_a_number_one_way_by_every_reader(text, number):
    assert numbers.parse(text) == number and type(numbers.parse(text)) is type(number)
    # errata add's command line
    if number is None:
        with pytest.raises(fieldtypes.FieldTypeError):
            fieldtypes.field_type("number").from_cli(text)
    else:
        assert fieldtypes.field_type("number").from_cli(text) == number
    # a range key's ends
    assert ranges.is_range(text.strip()) == (number is not None) or text.strip() == "4+"
    # the row a value reference names in a table keyed by ranges
    table = model.Table.model_validate({"id": "t", "title": "T", "columns": [
        {"id": "k", "title": "K", "type": "range"}, {"id": "v", "title": "V", "type": "integer"}],
        "rows": [["≤ 0", 0], ["1+", 1]]})
    assert (values.row_of(table, text) is not None) == (number is not None)


# ---------------------------------------------------------------- status

def test_one_status_table_gives_every_label_mark_and_note_rule(mini, monkeypatch):
    doubt = dataclasses.replace(statuses.TABLE["unverified"], label="In doubt", short="in doubt", mark="d")
    monkeypatch.setitem(statuses.TABLE, "unverified", doubt)
    site = pages.PageContext(mini.game, mini.index, "mini/alliance.md")
    aid = AidContext(mini.game, mini.index, anchors=set())
    assert "<em>In doubt</em>" in site._marker("unverified", "")
    assert "<em>in doubt</em>" in site._marker("unverified", "", short=True)
    assert aid.marker("unverified", "") == '<span class="rs-gap rs-gap--unverified">d</span>'
    assert ("d", "In doubt") in aid.legend()
    assert "\n- `unverified`: in the source but doubtful" in formatref.render()
    gaps = pages.environment().from_string("{{ STATUSES[s].label }}{% if s is doubtful %}!{% endif %}")
    assert gaps.render(s="unverified") == "In doubt!" and gaps.render(s="verified") == ""


def test_a_status_without_its_note_is_one_problem_wherever_it_is_written(tmp_path):
    content = CONTENT_YAML.replace("fields: {cost: 3,", "status: unverified, fields: {cost: {value: 3, status: unverified},")
    why = ("status 'unverified' needs a note saying what is missing or doubtful and why", "add note: '…' saying why")
    assert problems(write_game(tmp_path, content=content)) == [
        ("content.yaml", 3, 5, *why),
    ]
    content = CONTENT_YAML.replace("fields: {cost: 3,", "fields: {cost: {value: 3, status: unverified},")
    assert problems(write_game(tmp_path, content=content)) == [
        ("content.yaml", 3, 67, "field 'cost': " + why[0], why[1]),
    ]


# ---------------------------------------------------------------- the id rule

def test_each_kind_of_id_is_refused_with_its_own_rule_and_example(tmp_path):
    game = GAME_YAML.replace("{id: cost, name: Cost", "{id: world-bank, name: Cost").replace(
        "  - id: symbol\n", "  - id: Symbol Card\n")
    found = problems(write_game(tmp_path, game=game, content=""))
    assert found == [
        ("game.yaml", 15, 14, "'world-bank' is not a valid field id for 'id'",
         "field ids are lower case, with `_` between words, e.g. 'effect_type'"),
        ("game.yaml", 18, 9, "'Symbol Card' is not a valid id for 'id'",
         "ids are lower-case kebab-case, e.g. 'world-bank'"),
    ]
    assert ids.FIELD_ID.problem("x" * 65) == "is 65 characters long; a field id has at most 64"
    assert ids.ERRATUM_ID.problem("E1") == "is not lower-case kebab-case"
    assert model.FieldDef.model_json_schema()["properties"]["id"]["pattern"] == ids.FIELD_ID.pattern


# ---------------------------------------------------------------- addresses inside an item

@pytest.mark.parametrize(("text", "parts"), [
    ("country:nigeria", {"key": "country:nigeria"}),
    ("country:nigeria.ct", {"key": "country:nigeria", "field": "ct"}),
    ("table:dice.3.extra", {"key": "table:dice", "row": "3", "column": "extra"}),
    ("table:dice.2.5.extra", {"key": "table:dice", "row": "2.5", "column": "extra"}),
    ("procedure:bot.remove-a", {"key": "procedure:bot", "step": "remove-a"}),
])
def test_an_address_is_read_one_way(text, parts):
    place = addresses.parse(text)
    assert place == addresses.Address(**parts) and str(place) == text


def test_every_reader_of_an_address_asks_the_one_parser(tmp_path, monkeypatch):
    """A value reference, a gap's `affects` and an erratum's target and field are read by
    values/addresses.py, and the same cell is found by each."""
    read: list[str] = []
    parse, of_erratum = addresses.parse, addresses.of_erratum
    monkeypatch.setattr(addresses, "parse", lambda text: read.append(text) or parse(text))
    monkeypatch.setattr(addresses, "of_erratum", lambda target, path: read.append(f"{target} {path}") or of_erratum(target, path))
    content = CONTENT_YAML.replace("At stage 2 you gain 4.", "At stage 2 you gain [[value:table:stages.2.influence]].")
    [checked] = check_content(write_game(tmp_path, content=content, **{"gaps.yaml": """\
        gaps:
          - {id: g, title: A gap, status: missing, note: "Not printed.", affects: [table:stages.3.influence]}
        """, "errata.yaml": """\
        errata:
          - {id: e1, date: 2024-01-01, source: {kind: reader-report, description: A reader}, target: table:stages,
             field: rows.1.influence, old: 1, new: 2}
        """}))
    assert {"table:stages.2.influence", "table:stages.3.influence", "table:stages rows.1.influence"} <= set(read)
    assert [str(place) for _gap, place in affects.places(checked.game, checked.index)] == ["table:stages.3.influence"]
    assert values.lookup(checked.index, "table:stages.2.influence") == 4


# ---------------------------------------------------------------- a short row: located, never a traceback

def test_a_short_row_read_by_a_value_reference_is_a_located_problem(tmp_path):
    content = CONTENT_YAML.replace("rows: [[1, 2], [2, 4], [3, 6]]", "rows: [[1, 2], [2], [3, 6]]").replace(
        "At stage 2 you gain 4.", "At stage 2 you gain [[value:table:stages.2.influence]].")
    assert problems(write_game(tmp_path, content=content)) == [
        ("content.yaml", 19, 20, "row has 1 cells but the table has 2 columns (stage, influence)", "add or remove cells"),
        ("content.yaml", 30, 66, "table 'stages', row '2' has no cell in column 'influence' in "
         "[[value:table:stages.2.influence]]", "the row has 1 cells and the table 2 columns: give it one cell per column"),
        ("content.yaml", 30, 136, "example 'stage-two' cannot be computed: lookup: row 2 of table 'stages' has no cell "
         "in column 'influence'", "use the inputs, numbers and the functions `rulesmith format examples` lists"),
    ]

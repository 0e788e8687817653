"""Value references: texts and example inputs read a field or cell instead of retyping it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from gamekit import CONTENT_YAML, write_game

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.text.html import convert
from rulesmith.text.references import Output, plain_text
from rulesmith.values.references import lookup

ROOT = Path(__file__).resolve().parents[2]


def problems(content_dir):
    with pytest.raises(ContentError) as error:
        check_content(content_dir)
    return [str(p) for p in error.value.problems]


def test_value_reference_renders_the_current_value(tmp_path):
    text = CONTENT_YAML.replace("At stage 2 you gain 4.", "At stage 2 you gain [[value:table:stages.2.influence]].")
    [checked] = check_content(write_game(tmp_path, content=text))
    example = next(e for e in checked.game.examples if e.id == "stage-two")
    assert convert(example.text, Output(checked.index, lambda key: None)) == "<p>At stage 2 you gain 4.</p>"
    assert plain_text("Cost [[value:alliance:interpol.cost]]", checked.index) == "Cost 3"


def test_unknown_field_row_and_column_are_located_with_hints(tmp_path):
    text = CONTENT_YAML.replace("At stage 2 you gain 4.",
                                "[[value:alliance:interpol.cots]] [[value:table:stages.7.influence]] "
                                "[[value:table:stages.2.influense]] [[value:alliance:interpoll.cost]]")
    found = problems(write_game(tmp_path, content=text))
    assert any(re.search(r"content\.yaml:\d+:\d+: alliance:interpol has no field 'cots' .*\(did you mean cost\?\)", p)
               for p in found)
    assert any("table 'stages' has no row '7'" in p and "rows: 1, 2, 3" in p for p in found)
    assert any("has no column 'influense'" in p and "did you mean influence?" in p for p in found)
    assert any("unknown reference alliance:interpoll" in p and "did you mean alliance:interpol" in p for p in found)


def test_example_input_reads_the_data_so_an_edit_reaches_it(tmp_path):
    text = CONTENT_YAML.replace("inputs: {stage: 2}", 'inputs: {stage: "[[value:alliance:interpol.cost]]"}') \
        .replace("result: 4", "result: 6")
    content = write_game(tmp_path, content=text)
    check_content(content)  # interpol's cost 3 -> stage 3 -> 6
    edited = (content / "mini" / "content.yaml").read_text().replace("cost: 3, ", "cost: 2, ")
    (content / "mini" / "content.yaml").write_text(edited)
    assert any("example 'stage-two' no longer recomputes: the tables give 4" in p for p in problems(content))


@pytest.fixture()
def statecraft_copy(tmp_path):
    shutil.copytree(ROOT / "content" / "statecraft", tmp_path / "content" / "statecraft")
    return tmp_path / "content"


def test_nigeria_ct_erratum_reaches_every_example_that_uses_it(statecraft_copy):
    [checked] = check_content(statecraft_copy)
    ct = lookup(checked.index, "country:nigeria.ct")
    users = [e.id for e in checked.game.examples if "[[value:country:nigeria.ct]]" in str(e.inputs)]
    assert users, "no example reads Nigeria's CT from the data"
    countries = statecraft_copy / "statecraft" / "entities" / "countries.yaml"
    text = countries.read_text()
    block = text[text.index("  - id: nigeria"):]
    changed = block.replace(f"ct: {ct}\n", f"ct: {ct + 1}\n", 1)
    assert changed != block
    countries.write_text(text[:text.index("  - id: nigeria")] + changed)
    found = problems(statecraft_copy)
    for example in users:
        assert any(f"example '{example}'" in p for p in found), example


def test_prose_about_nigeria_shows_the_data(statecraft_copy):
    """Texts that state Nigeria's CT take it from the card, so none retypes it."""
    [checked] = check_content(statecraft_copy)
    retyped = []
    for entity_or_section in [*checked.game.examples, *(s for s, _ in checked.game.all_sections()),
                              *checked.game.entities]:
        body = getattr(entity_or_section, "text", "") or getattr(entity_or_section, "body", "")
        if re.search(r"\bCT (of )?\d", body) and "igeria" in body:
            retyped.append(entity_or_section.id)
    assert retyped == []

"""The registry of item types (content/items.py) owns each type's page and anchor, its collection
and its label: the site's layout, its pages and templates, the aids and the diff all ask it.

Works on tests/fixtures/site (game demo: a subsection, two kinds, tables, procedures, an erratum).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rulesmith.commands.diff import snapshot
from rulesmith.content import items, model
from rulesmith.content.game import Game
from rulesmith.pipeline import check_content
from rulesmith.site import layout
from rulesmith.site.pages import render_site

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def demo():
    [checked] = check_content(ROOT / "tests" / "fixtures" / "site")
    return checked


def test_every_key_type_places_its_targets_on_its_page(demo):
    places = {
        "game:demo": ("demo/index.md", ""),
        "module:base": ("demo/index.md", "module-base"),
        "kind:card": ("demo/kinds/card.md", ""),
        "card:alpha": ("demo/kinds/card.md", "alpha"),
        "rule:basics": ("demo/rules/basics.md", ""),
        "rule:drawing": ("demo/rules/basics.md", "drawing"),  # a subsection: on its section's page
        "table:costs": ("demo/tables.md", "costs"),
        "procedure:bot-turn": ("demo/solo/bot-turn.md", ""),
        "example:cost-sum": ("demo/examples.md", "cost-sum"),
        "term:draw": ("demo/glossary.md", "draw"),
        "gap:missing-page": ("demo/gaps.md", "missing-page"),
        "erratum:e1": ("demo/changelog.md", "erratum-e1"),
        "ruling:r1": ("demo/changelog.md", "ruling-r1"),
        "bot:part-2": ("demo/bot-turn.md", "mark-part-2"),
    }
    assert {key: layout.page_of(demo.game, key) for key in places} == places
    # every key type of the registry is here (entities by their kind's prefix)
    assert {items.key_type(key.partition(":")[0]).prefix for key in places} == set(items.BY_PREFIX)


def test_a_type_on_one_page_and_a_type_with_a_page_each_say_which_they_are():
    assert [layout.shared_page("demo", prefix) for prefix in ("table", "example", "term", "gap", "erratum", "ruling", "bot")] \
        == ["demo/tables.md", "demo/examples.md", "demo/glossary.md", "demo/gaps.md", "demo/changelog.md",
            "demo/changelog.md", "demo/bot-turn.md"]
    assert (layout.kind_page("demo", "card"), layout.procedure_page("demo", "bot-turn")) == \
        ("demo/kinds/card.md", "demo/solo/bot-turn.md")
    with pytest.raises(ValueError, match="procedure: its targets are on pages of their own"):
        layout.shared_page("demo", "procedure")
    with pytest.raises(ValueError, match="table: its items share one page"):
        items.TABLE.page_of_item("demo", "costs")


def test_every_target_is_on_a_page_the_site_renders_with_the_anchor_the_registry_gives(demo):
    """Pages and templates ask the registry: each target's page is rendered and carries its anchor."""
    site = render_site([demo], [])
    pages = {page.path: page.text for page in site.pages}
    keys = [*demo.index.targets, *(f"erratum:{e.id}" for e in demo.game.errata), f"game:{demo.game.id}"]
    missing = []
    for key in keys:
        page, anchor = layout.page_of(demo.game, key)
        if page not in pages or (anchor and not re.search(rf'\{{ ?#{re.escape(anchor)} ?\}}|id="{re.escape(anchor)}"',
                                                          pages[page])):
            missing.append((key, page, anchor))
    assert missing == []
    assert len(keys) > 20


def test_every_collection_of_the_registry_is_a_list_of_content_files_and_of_the_game():
    game_lists = {f.name for f in dataclasses.fields(Game) if str(f.type).startswith("list[")}
    assert set(model.COLLECTIONS) == game_lists - {"files", "bots", "unreadable"}
    assert [t.collection for t in items.ITEM_TYPES if t.collection not in model.COLLECTIONS] == []
    assert [t.model for t in items.ITEM_TYPES] == [
        model.ContentFile.model_fields[t.collection].annotation.__args__[0] for t in items.ITEM_TYPES]


def test_the_diff_takes_its_item_kinds_and_labels_from_the_registry(demo):
    found = snapshot(demo.game).items
    labels = {key: item.label for key, item in found.items()}
    assert labels["game:demo"] == "Game"
    assert labels["card:alpha"] == demo.game.kind("card").name  # an entity: its kind's name
    assert {labels[key] for key in ("rule:basics", "table:costs", "procedure:bot-turn", "example:cost-sum",
                                    "term:draw", "gap:missing-page", "module:base", "kind:card")} == \
        {"Rules section", "Table", "Procedure", "Example", "Glossary term", "Gap", "Module", "Kind"}
    assert [key for key in found if items.key_type(key.partition(":")[0]).prefix in ("erratum", "ruling")] == []
    assert "sections" not in {path.split(".")[0] for path in found["rule:basics"].values}  # its subsections are items
    assert "rows" not in found["table:costs"].values  # compared cell by cell

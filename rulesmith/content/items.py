"""The one registry of content item types: what each is called, where it is kept, how it is named.

Everything that walks the content by type (the index and its references, defaults, module
checks, texts to check, gaps, the diff, labels, page placement) asks this list, so a new type
is added here once. Entities are one type whose reference prefix is the kind the game declares.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesmith.content import model


@dataclass(frozen=True)
class ItemType:
    prefix: str  # reference prefix: [[rule:setup]]; "entity" stands for the entity's declared kind
    collection: str  # the list in a content file and on Game
    model: type
    name_field: str  # the field readers know the item by
    label: str  # what a reader calls one ("Rules section"), for the diff and the changelog
    tag: str  # the short word after a link, so two things of the same name stay apart
    takes_defaults: bool = True  # a file's `defaults:` (module, source, kind) apply
    # In a game with modules, an item of this type without one is counted by the check's note
    # (it may have been left out by mistake); a glossary term or a gap may concern the whole game.
    names_module: bool = True


ITEM_TYPES: tuple[ItemType, ...] = (
    ItemType("module", "modules", model.Module, "name", "Module", "module", takes_defaults=False, names_module=False),
    ItemType("kind", "kinds", model.Kind, "plural", "Kind", "list", takes_defaults=False, names_module=False),
    ItemType("entity", "entities", model.Entity, "name", "Entity", "card"),
    ItemType("rule", "sections", model.Section, "title", "Rules section", "rules"),
    ItemType("table", "tables", model.Table, "title", "Table", "table"),
    ItemType("procedure", "procedures", model.Procedure, "title", "Procedure", "solo bot"),
    ItemType("example", "examples", model.Example, "title", "Example", "example"),
    ItemType("term", "glossary", model.Term, "term", "Glossary term", "glossary", names_module=False),
    ItemType("gap", "gaps", model.Gap, "title", "Gap", "gap", names_module=False),
    ItemType("erratum", "errata", model.Erratum, "id", "Erratum", "erratum", takes_defaults=False, names_module=False),
    ItemType("ruling", "rulings", model.Ruling, "label", "Ruling", "changelog", takes_defaults=False,
             names_module=False),
)
BY_PREFIX = {t.prefix: t for t in ITEM_TYPES}
# Reference prefixes a game may not use as a kind id: the item types, and the reference forms
# that are not items ([[icon:…]], [[value:…]]) or not declared by content ("game"; "bot", the
# parts of the bot's declaration on the gaps page, rulesmith/site/pages.py bot_marks).
RESERVED_PREFIXES = tuple(t.prefix for t in ITEM_TYPES if t.prefix != "entity") + ("icon", "value", "game", "bot")


def items_of(game, item_type: ItemType) -> list:
    """The items of one type in a game; nested sections included, in reading order."""
    if item_type.collection == "sections":
        return [section for section, _page in game.all_sections()]
    return list(getattr(game, item_type.collection))


def key_of(item_type: ItemType, item) -> str:
    prefix = item.kind if item_type.prefix == "entity" else item_type.prefix
    return f"{prefix}:{item.id}"


def name_of(item_type: ItemType, item) -> str:
    return str(getattr(item, item_type.name_field))


def all_items(game):
    """(type, key, item) for every item of a game, type by type in registry order."""
    for item_type in ITEM_TYPES:
        for item in items_of(game, item_type):
            yield item_type, key_of(item_type, item), item


def without_module(game) -> list[str]:
    """Keys of the items that should name a module and belong to none (Game.module_of: a
    subsection belongs to its section's module); the check's note counts them."""
    return [key for item_type, key, item in all_items(game)
            if item_type.names_module and "module" in item_type.model.model_fields and game.module_of(item) is None]


def tag_of(game, key: str) -> str:
    """The short word shown after a link to `key`: the kind's own name for entities."""
    prefix = key.partition(":")[0]
    declared = game.kind(prefix)
    if declared is not None:
        return declared.name
    found = BY_PREFIX.get(prefix)
    return found.tag if found else prefix

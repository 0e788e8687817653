"""The one registry of content item types: what each is called, where it is kept, where it is shown.

Everything that walks the content by type (the index and its references, defaults, module
checks, texts to check, gaps, the diff, labels, page placement) asks this list, so a new type
is added here once. Entities are one type whose reference prefix is the kind the game declares.
Two kinds of key name no item of a collection (the game itself, a part of the bot's declaration)
and are here too (OTHER_KEYS), so that every key a link can name has its page in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesmith.content import model

if TYPE_CHECKING:
    from collections.abc import Callable

# A function's `game` is a content.game.Game, which asks this registry: not imported here.


def N_(text: str) -> str:
    """A word readers see (a tag after a link), marked for the tool's catalog (rulesmith/words.py)
    and translated where it is shown."""
    return text


@dataclass(frozen=True, kw_only=True)
class KeyType:
    """A kind of key (prefix:id) that a link can name, and where its target is on the site.

    `page` is the path of its page under the site's docs folder: {game} is the game's id, {kind}
    the key's prefix (an entity's kind) and {page} the id of the item whose page it is: the
    target's own, or the one `shown_in` gives (a subsection is on its section's page). `anchor`
    is its place on that page ({id}); a target whose page is its own has none (it opens the page).
    """

    prefix: str  # reference prefix: [[rule:setup]]; "entity" stands for the entity's declared kind
    page: str
    anchor: str = "{id}"
    shown_in: Callable[[Any, str], str] | None = None  # (game, id) -> the id of the item whose page shows it
    label: str  # what a reader calls one ("Rules section"): the diff and the changelog
    tag: str  # the short word after a link, so two things of the same name stay apart

    def page_id(self, game, ident: str) -> str:
        return self.shown_in(game, ident) if self.shown_in is not None else ident

    def place(self, game, prefix: str, ident: str) -> tuple[str, str]:
        """(page path, anchor) of the target prefix:ident of this type in a game."""
        page_id = self.page_id(game, ident)
        page = self.page.format(game=game.id, kind=prefix, page=page_id)
        opens_page = "{page}" in self.page and page_id == ident
        return page, "" if opens_page else self.anchor.format(id=ident)

    def page_of_item(self, game_id: str, ident: str) -> str:
        """The path of the page an item of a type with a page per item has to itself."""
        if "{page}" not in self.page:
            raise ValueError(f"{self.prefix}: its items share one page, {self.page}")
        return self.page.format(game=game_id, page=ident, kind=self.prefix)

    def shared_page(self, game_id: str) -> str:
        """The path of the one page every target of this type is on (the tables, the changelog …)."""
        if "{page}" in self.page or "{kind}" in self.page:
            raise ValueError(f"{self.prefix}: its targets are on pages of their own, {self.page}")
        return self.page.format(game=game_id)


@dataclass(frozen=True, kw_only=True)
class ItemType(KeyType):
    collection: str  # the list in a content file and on Game
    model: type
    name_field: str  # the field readers know the item by
    takes_defaults: bool = True  # a file's `defaults:` (module, source, kind) apply
    # In a game with modules, an item of this type without one is counted by the check's note
    # (it may have been left out by mistake); a glossary term or a gap may concern the whole game.
    names_module: bool = True
    # A record of the changelog (an erratum, a ruling): the diff compares it record by record,
    # not field by field as the items it is about.
    is_record: bool = False
    # Fields that hold what is compared on its own (nested sections are items themselves, a
    # table's rows are compared cell by cell): the diff leaves them out of the item's own fields.
    compared_apart: frozenset[str] = frozenset()


def _section_page(game, section_id: str) -> str:
    return game.section_pages[section_id]


MODULE = ItemType(prefix="module", collection="modules", model=model.Module, name_field="name", label="Module",
                  tag=N_("module"), page="{game}/index.md", anchor="module-{id}", takes_defaults=False,
                  names_module=False)
KIND = ItemType(prefix="kind", collection="kinds", model=model.Kind, name_field="plural", label="Kind", tag=N_("list"),
                page="{game}/kinds/{page}.md", takes_defaults=False, names_module=False)
ENTITY = ItemType(prefix="entity", collection="entities", model=model.Entity, name_field="name", label="Entity",
                  tag=N_("card"), page="{game}/kinds/{kind}.md")
RULE = ItemType(prefix="rule", collection="sections", model=model.Section, name_field="title", label="Rules section",
                tag=N_("rules"), page="{game}/rules/{page}.md", shown_in=_section_page,
                compared_apart=frozenset({"sections"}))
TABLE = ItemType(prefix="table", collection="tables", model=model.Table, name_field="title", label="Table",
                 tag=N_("table"), page="{game}/tables.md", compared_apart=frozenset({"rows"}))
PROCEDURE = ItemType(prefix="procedure", collection="procedures", model=model.Procedure, name_field="title",
                     label="Procedure", tag=N_("solo bot"), page="{game}/solo/{page}.md")
EXAMPLE = ItemType(prefix="example", collection="examples", model=model.Example, name_field="title",
                   label="Example", tag=N_("example"), page="{game}/examples.md")
TERM = ItemType(prefix="term", collection="glossary", model=model.Term, name_field="term", label="Glossary term",
                tag=N_("glossary"), page="{game}/glossary.md", names_module=False)
GAP = ItemType(prefix="gap", collection="gaps", model=model.Gap, name_field="title", label="Gap", tag=N_("gap"),
               page="{game}/gaps.md", names_module=False)
ERRATUM = ItemType(prefix="erratum", collection="errata", model=model.Erratum, name_field="id", label="Erratum",
                   tag=N_("erratum"), page="{game}/changelog.md", anchor="erratum-{id}", takes_defaults=False,
                   names_module=False, is_record=True)
RULING = ItemType(prefix="ruling", collection="rulings", model=model.Ruling, name_field="label", label="Ruling",
                  tag=N_("changelog"), page="{game}/changelog.md", anchor="ruling-{id}", takes_defaults=False,
                  names_module=False, is_record=True)
ITEM_TYPES: tuple[ItemType, ...] = (MODULE, KIND, ENTITY, RULE, TABLE, PROCEDURE, EXAMPLE, TERM, GAP, ERRATUM, RULING)

# Keys of no collection: the game (its overview) and a part of the bot's declaration (bot:turn,
# bot:part-2, bot:state-difficulty …; site/layout.bot_key), marked in place on the Bot turn page.
GAME = KeyType(prefix="game", page="{game}/index.md", anchor="", label="Game", tag=N_("game"))
BOT = KeyType(prefix="bot", page="{game}/bot-turn.md", anchor="mark-{id}", label="Bot turn", tag=N_("bot"))
OTHER_KEYS: tuple[KeyType, ...] = (GAME, BOT)


def bot_keys(game) -> list[str]:
    """The keys of the parts of a game's bot declaration a reader sees (its turn, each part of the
    turn, each state and deck), in reading order: what a source map or a gap may name."""
    bot = game.bot
    if bot is None:
        return []
    return ([f"{BOT.prefix}:turn"] + [f"{BOT.prefix}:part-{n}" for n in range(1, len(bot.turn.parts) + 1)]
            + [f"{BOT.prefix}:state-{v.id}" for v in bot.state] + [f"{BOT.prefix}:deck-{d.id}" for d in bot.decks])

BY_PREFIX: dict[str, KeyType] = {t.prefix: t for t in (*ITEM_TYPES, *OTHER_KEYS)}
# Reference prefixes a game may not use as a kind id: every key type but the entity's, and the
# reference forms that are not keys of a target ([[icon:…]], [[value:…]]).
RESERVED_PREFIXES = (*(t.prefix for t in ITEM_TYPES if t is not ENTITY), "icon", "value",
                     *(t.prefix for t in OTHER_KEYS))


def key_type(prefix: str) -> KeyType:
    """The type of a key by its prefix: any prefix not in the registry is an entity kind's."""
    return BY_PREFIX.get(prefix, ENTITY)


def page_item(game, key: str) -> str:
    """The key of the item whose page shows `key`: a subsection's section, else the key itself."""
    prefix, _, ident = key.partition(":")
    return f"{prefix}:{key_type(prefix).page_id(game, ident)}"


def items_of(game, item_type: ItemType) -> list:
    """The items of one type in a game; nested sections included, in reading order."""
    if item_type is RULE:
        return [section for section, _page in game.all_sections()]
    return list(getattr(game, item_type.collection))


def type_of(item) -> ItemType:
    """The type of a content item (a Section is a rule, an Entity an entity …)."""
    for item_type in ITEM_TYPES:
        if type(item) is item_type.model:
            return item_type
    raise TypeError(f"not a content item: {type(item).__name__}")


def key_of(item_type: ItemType, item) -> str:
    prefix = item.kind if item_type is ENTITY else item_type.prefix
    return f"{prefix}:{item.id}"


def name_of(item_type: ItemType, item) -> str:
    return str(getattr(item, item_type.name_field))


def label_of(game, item_type: ItemType, item) -> str:
    """What a reader calls this item: an entity its kind's name ("Country card"), else its type's label."""
    if item_type is ENTITY:
        declared = game.kind(item.kind) if item.kind else None
        return declared.name if declared is not None else item.kind or item_type.label
    return item_type.label


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

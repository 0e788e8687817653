"""What a translation translates: every reader-visible text of a game, plain and Markdown alike, at
a stable address.

An address is the key of the item the text belongs to and the path of the text inside it, written
as an erratum writes its field (values/addresses.py), so that an erratum names the address of the
text it changes:

    card:interpol.name                     an item's own text
    rule:setup.body                        a rules section's body (a subsection is an item of its own)
    country:nigeria.fields.effect          an entity's text field (…fields.effect.note: its status note)
    table:conflict-dice.rows.3.extra       a table cell of a text column (row key, column id)
    procedure:bot-davos.nodes.remove-a.text    a procedure's step (its node id)
    term:agitator.aliases.0                one of a list of texts, by position
    game:deep-state.description            the game's own texts
    aid:rules-summary.body.rule:setup.condensed    an aid plan's wording, by what it shows
    bot:state-difficulty.values.hard.name  the bot's declaration, by its keys (site/layout.bot_key)
    icon:flag-muslim.label                 a game's own icon's text alternative

Lists of things with ids are addressed by id (a node, a column, a state value), so a new step does
not move every address after it. The texts come from the one text walk (content/link.texts), plus
the few reader-visible texts it does not enter (a step's answer names, a game's icon labels); what
cites the English rulebook (a source's section and title, an erratum's or ruling's source) and
what is data rather than text (a data version, a file name, an enum's declared values) is not
translated, nor is a text without a letter (a cell "2", "3-5").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesmith.content import items, model
from rulesmith.content.link import owned_items, texts
from rulesmith.site.layout import bot_key
from rulesmith.values.expressions import plain

if TYPE_CHECKING:
    from rulesmith.content.game import Game

# A placeholder the outputs fill in (a step's answer: "The bot takes {value}."): kept by a translation.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
BLOCK_INDICATOR = re.compile(r"(?:^|[\s:-])[|>][-+0-9]*\s*(?:#.*)?$")  # a YAML block scalar's first line
# Fields of the text walk that are not translated: citations of the English rulebook, and data.
NOT_TRANSLATED = frozenset({
    (model.Source, "section"), (model.SourceText, "title"), (model.SourceText, "short"), (model.SourceText, "file"),
    (model.ErratumSource, "description"), (model.RulingSource, "description"),
    (model.GameInfo, "data_version"), (model.GameInfo, "language"), (model.GameInfo, "sources_folder"),
    (model.FieldDef, "values"), (model.Column, "values"),
})


@dataclass(frozen=True)
class English:
    """One translatable text: where it is and what it says now."""

    address: str
    key: str  # the item it belongs to (kind:id; game:<id>, aid:<aid>, bot:… for the game's own parts)
    text: str  # as the outputs show it (without the line break a YAML block adds at its end)
    markdown: bool  # Markdown (judged as content Markdown), else plain text
    file: str  # the content file it is written in, relative to the game's folder
    label: str  # what a translator knows its item by: "Country card Nigeria"
    line: int = 0  # the line of the file the text starts on (0: not known)


def english(game: Game) -> dict[str, English]:
    """Every translatable text of a game by address, in reading order (the item registry's)."""
    return {address: text for address, (text, _holder, _path) in places(game).items()}


def places(game: Game) -> dict[str, tuple[English, Any, tuple]]:
    """Every translatable text of a game by address, with where it is held: the object and the
    path inside it (names, positions) at which its value is written (what `translated` sets)."""
    found: dict[str, tuple[English, Any, tuple]] = {}

    def add(key: str, steps: list[str], value: str, markdown: bool, item: model.Located, label: str,
            path: tuple = (), holder: Any = None, at: tuple | None = None) -> None:
        text = value.strip("\n")
        if not any(char.isalpha() for char in text):
            return  # a number, a range, a sign: nothing to translate (shown as written in every language)
        address = f"{key}.{'.'.join(steps)}"
        if address in found:  # two list elements that share an id (the check reports them): by position
            address += f"#{sum(a.startswith(address) for a in found) + 1}"
        found[address] = (English(address, key, text, markdown, file_of(item), label, _line_of(item, path)),
                          item if holder is None else holder, path if at is None else at)

    files: dict[int, str] = {}  # by source file: its path worked out once, not once per text

    def file_of(item: model.Located) -> str:
        source = getattr(item, "_file", None)
        if id(source) not in files:
            files[id(source)] = _file_of(game, item)
        return files[id(source)]

    walked = [(text, fmt) for fmt in (model.PLAIN, model.MARKDOWN) for text in texts(game, fmt)]
    order = {id(item): n for n, (_owner, item) in enumerate(owned_items(game))}
    walked.sort(key=lambda pair: order.get(id(pair[0].item), len(order)))  # stable: reading order kept
    for text, fmt in walked:
        placed = _place(game, text.owner, text.item, text.path)
        if placed is None:
            continue
        key, steps, label = placed
        add(key, steps, text.value, fmt is model.MARKDOWN, text.item, label, text.path)
    for procedure in game.procedures:  # a step's answer names: a mapping the text walk does not enter
        for node in procedure.nodes:
            for name, value in (node.reads.names if node.reads else {}).items():
                add(f"procedure:{procedure.id}", ["nodes", node.id, "reads", "names", name], value, False, procedure,
                    _label(game, f"procedure:{procedure.id}", procedure), holder=node.reads, at=("names", name))
    for icon in game.icons:
        add(f"icon:{icon.id}", ["label"], icon.label, False, icon, f"Icon {icon.id}", at=("label",))
    return found


def address_of_erratum(erratum: model.Erratum) -> str:
    """The address of the text an erratum changes (when it changes a text)."""
    return f"{erratum.target}.{erratum.field}"


def item_of(address: str) -> str:
    """The key of the item an address is in: the part before its first dot (ids hold none)."""
    return address.partition(".")[0]


def _file_of(game: Game, item: model.Located) -> str:
    """The item's file relative to the game's folder (`rules/05-solo.yaml`), as a translator's tool
    opens it from a catalog's `#:` reference (both made absolute: a file is shown relative to the
    working folder, the game's folder may be given either way)."""
    source = getattr(item, "_file", None)
    if source is None:
        return ""
    path = Path(os.path.abspath(source.path))
    try:
        return path.relative_to(os.path.abspath(game.folder)).as_posix()
    except ValueError:
        return path.name


def _line_of(item: model.Located, path: tuple) -> int:
    """The line a text starts on in its file: a block scalar's (`body: |`) first line of text."""
    source = getattr(item, "_file", None)
    if source is None:
        return 0
    _file, line, _column = source.where(item._path + tuple(path))
    written = source.lines[line - 1] if 0 < line <= len(source.lines) else ""
    if BLOCK_INDICATOR.search(written) and line < len(source.lines):
        return line + 1  # the indicator's line (`body: |`, `- value: >-`) holds no text
    return line


def _label(game: Game, key: str, item: Any) -> str:
    try:
        item_type = items.type_of(item)
    except TypeError:
        return key
    return f"{items.label_of(game, item_type, item)} {items.name_of(item_type, item)}"


def _place(game: Game, owner: str, item: Any, path: tuple) -> tuple[str, list[str], str] | None:
    """(item key, path as written in an address, label) of one text of the walk; None when not translated."""
    if owner != "game":
        key, label = owner, _label(game, owner, item)
    elif isinstance(item, model.GameInfo):
        key, label = f"game:{game.id}", f"Game {item.name}"
    elif isinstance(item, model.AidPlan):
        key, label = f"aid:{item.aid}", f"Player aid {item.aid}"
    elif isinstance(item, model.Bot):
        key, item, path = _bot_part(item, path)
        label = f"Bot turn {key.partition(':')[2]}"
    else:
        return None
    steps = _steps(item, path)
    return None if steps is None else (key, steps, label)


def _bot_part(bot: model.Bot, path: tuple) -> tuple[str, Any, tuple]:
    """A text of the bot's declaration under the key of the part it is in (site/layout.bot_key)."""
    if path[:1] == ("state",) and len(path) > 1:
        var = bot.state[path[1]]
        return bot_key("state", var.id), var, path[2:]
    if path[:1] == ("decks",) and len(path) > 1:
        deck = bot.decks[path[1]]
        return bot_key("deck", deck.id), deck, path[2:]
    if path[:2] == ("turn", "parts") and len(path) > 2:
        return bot_key("part", str(path[2] + 1)), bot.turn.parts[path[2]], path[3:]
    if path[:1] == ("turn",):
        return bot_key("turn"), bot.turn, path[1:]
    return bot_key("bot"), bot, path


def _steps(item: Any, path: tuple) -> list[str] | None:
    """A walk's path (names and positions) as an address writes it (names, ids, row keys); None for
    a field that is not translated."""
    steps: list[str] = []
    holder, at = item, 0
    while at < len(path):
        step = path[at]
        if isinstance(holder, model.Table) and step == "rows":
            row, column = holder.rows[path[at + 1]], path[at + 2]
            return steps + ["rows", str(plain(row[0])), holder.columns[column].id, *map(str, path[at + 3:])]
        if isinstance(holder, model.Entity) and step == "fields":
            return steps + ["fields", *map(str, path[at + 1:])]
        if isinstance(step, int):
            element = holder[step]
            steps.append(_element_name(element, step))
            holder = element
        else:
            if (type(holder), step) in NOT_TRANSLATED:
                return None
            steps.append(step)
            holder = getattr(holder, step)
        at += 1
    return steps


def _element_name(element: Any, position: int) -> str:
    """How an address names one element of a list: its id, what an aid entry shows, where a branch
    leads; else its position."""
    for name in ("id", "show", "to"):
        value = getattr(element, name, None)
        if isinstance(value, str) and value:
            return value
    return str(position)

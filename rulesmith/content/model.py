"""Stage 2, model: the typed content, one set of classes for every game.

These pydantic classes are the schema: they validate the YAML, document the format and export
the JSON Schema for editors (`rulesmith schema`). A game declares its own entity kinds and their
typed fields in data (`kinds:`); `check` validates entity fields against those declarations.
"""

from __future__ import annotations

import datetime
import functools
import html
import re
import typing
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from rulesmith.checks import tablerules
from rulesmith.values import fieldtypes, ids
from rulesmith.values import status as statuses

# The id rule of each kind of id is values/ids.py's: its pattern, length, message and example
# (mypy reads them as text).
if typing.TYPE_CHECKING:
    Id = str
    FieldId = str
    StateValueId = str
    StateRef = str
    InputName = str
    ItemKey = str
    GlyphName = str
    LineRange = str
    LanguageCode = str
else:
    Id, FieldId, StateValueId, StateRef = ids.ID.type, ids.FIELD_ID.type, ids.STATE_VALUE.type, ids.STATE_REF.type
    InputName, ItemKey, GlyphName, LineRange = ids.INPUT_NAME.type, ids.KEY.type, ids.GLYPH.type, ids.LINES.type
    LanguageCode = ids.LANGUAGE.type


class TextFormat:
    """Marks a str field as plain text or Markdown: the one registry of text fields.

    Everything that scans, escapes or tests text asks the model (`text_fields`) which fields are
    which, so a new field is covered the moment it is declared."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"TextFormat({self.name!r})"


PLAIN = TextFormat("plain")
MARKDOWN = TextFormat("markdown")

# Plain text must read the same as text and as HTML: names and titles reach places that treat
# them as HTML (MkDocs/Material navigation, tabs, and <title> after `striptags`, which also
# decodes &lt;), so escaping cannot be trusted on every path. The check refuses what HTML would
# read differently instead, once, here: a tag opener ('<' then a letter, '/', '!' or '?'), a
# character reference (what html.unescape would change) and control characters. 'a < b', '<3'
# and 'R&D' stay allowed.
# Bidirectional overrides and zero-width characters are refused too: they can make one card's
# name look like another's.
INVISIBLE = "\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
PLAIN_TEXT_REFUSED = re.compile(r"<[A-Za-z/!?]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f" + INVISIBLE
                                + r"]|&#[xX]?[0-9A-Fa-f]*;?|&[A-Za-z][A-Za-z0-9]*;?")
PLAIN_TEXT_PATTERN = (r"^(?![\s\S]*<[A-Za-z/!?])(?![\s\S]*&(#|[A-Za-z][A-Za-z0-9]*;))[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
                      + INVISIBLE + r"]*$")


def refused_plain_text(value: str) -> re.Match | None:
    """The first part of a plain text that HTML would not read as that text."""
    for match in PLAIN_TEXT_REFUSED.finditer(value):
        if not match.group(0).startswith("&") or html.unescape(match.group(0)) != match.group(0):
            return match
    return None


def plain_text_problem(value: str) -> str | None:
    """Why a plain-text value is refused, or None."""
    match = refused_plain_text(value)
    return None if match is None else refused_message(match)


def refused_message(match: re.Match) -> str:
    """What readers would not see as written, for a part refused_plain_text found."""
    part = match.group(0)
    shown = (f"the tag opener '{part}'" if part.startswith("<") else f"the character reference '{part}'"
             if part.startswith("&") else f"the control character {part!r}" if ord(part) < 0x80
             else f"the invisible character U+{ord(part):04X}")
    return f"plain text may not contain {shown}: names and titles are shown as written, never as markup"


def _refuse_markup(value: str) -> str:
    problem = plain_text_problem(value)
    if problem:
        raise ValueError(problem)
    return value


# A name, title, term or label: shown as written everywhere (pages, navigation, PDFs, flowcharts).
PlainText = Annotated[str, PLAIN, AfterValidator(_refuse_markup),
                      WithJsonSchema({"type": "string", "pattern": PLAIN_TEXT_PATTERN})]
_URL_REFUSED = re.compile(r"[\s\x00-\x1f\x7f\"'<>\\`]")
_HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def https_url_problem(value: str) -> str | None:
    """Why a URL is refused, or None: the one rule for every URL field (errata, rulings, any
    record) and every link in content text. Parsed, not prefix-matched: https, a real host name,
    nothing that could end a link or an attribute (spaces, quotes, angle brackets, backslashes,
    backticks), parentheses only in pairs."""
    from urllib.parse import urlsplit

    bad = _URL_REFUSED.search(value)
    if bad:
        return f"a URL may not contain {bad.group(0)!r}" if not bad.group(0).isspace() else "a URL may not contain spaces"
    depth = 0
    for char in value:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        return "a URL's parentheses must come in pairs"
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as error:
        return f"not a URL ({error})"
    if parts.scheme != "https":
        return "only https:// links are allowed"
    host = (parts.hostname or "")
    if not _HOST.match(host) or parts.username or parts.password or port == 0:
        return f"'{host or value}' is not a host name"
    return None


def _https_url(value: str) -> str:
    problem = https_url_problem(value)
    if problem:
        raise ValueError(problem)
    return value


# A link to a source: an https URL with a host (https_url_problem).
HttpsUrl = Annotated[str, AfterValidator(_https_url),
                     WithJsonSchema({"type": "string", "format": "uri", "pattern": "^https://[^\\s\"'<>\\\\`]+$"})]


# Markdown with [[kind:id]] references and [[icon:name]] icons; checked by check.check_texts.
Markdown = Annotated[str, MARKDOWN]
Text = Markdown
# The statuses are the status table's (values/status.py), the field types the registry's
# (values/fieldtypes.py), the table rules theirs (checks/tablerules.py); mypy reads them as text.
if typing.TYPE_CHECKING:
    Status = str
    FieldType = str
    RuleName = str
else:
    Status = Literal[statuses.IDS]
    FieldType = Literal[fieldtypes.NAMES]
    RuleName = Literal[tablerules.NAMES]


# What an item's `module` means when it is left out (the check counts such items in a game with modules).
NO_MODULE = ("Without it (and without the file's `defaults: {module: …}`), the item belongs to no module: it "
             "applies whichever modules are played and is shown without a module.")


# A model rule's problem that carries its own hint (ctx "hint"): the load reports both.
HINTED = "hinted"


class Typed:
    """A declared field or column: its type is the registry's (values/fieldtypes.py)."""

    if typing.TYPE_CHECKING:  # (the field itself is each class's own, in its order)
        type: str

    @property
    def field_type(self) -> fieldtypes.FieldType:
        return fieldtypes.field_type(self.type)


class Strict(BaseModel):
    """Every content class: unknown fields and wrong types are errors, nothing is converted."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Located(Strict):
    """A content item that remembers the file and data path it was read from."""

    _file: Any = PrivateAttr(default=None)  # load.SourceFile
    _path: tuple = PrivateAttr(default=())

    def where(self, *subpath, key: bool = False) -> tuple[str, int, int]:
        if self._file is None:
            return ("<unknown>", 1, 1)
        return self._file.where(self._path + tuple(subpath), key=key)


class Source(Strict):
    """Where in the rulebook an item comes from."""

    section: PlainText = Field(description="Rulebook section (heading) the item is transcribed from.")
    page: int | None = Field(default=None, ge=1, description="Rulebook page, where the text gives one.")
    file: Id | None = Field(default=None, description="Id of the game source, when not the first.")


class Fidelity(Located):
    """An item that says how faithful it is to the rulebook."""

    status: Status = Field(default=statuses.VERIFIED, description="How faithful the data is to the source.")
    note: Text | None = Field(default=None, description="Why the status is not `verified`.")

    @model_validator(mode="after")
    def _note_for_status(self):
        """A status other than `verified` needs a `note` saying what is missing or doubtful, and why."""
        # (which statuses need one is the status table's: values/status.py)
        lacking = statuses.note_problem(self.status, self.note)
        if lacking:
            raise PydanticCustomError(HINTED, lacking, {"hint": statuses.NOTE_HINT})
        return self


def _inside_sources(value: str) -> str:
    """A source text is read from inside the sources folder only: no absolute path, no '..'."""
    import posixpath

    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value) or "\\" in value:
        raise ValueError("a source file is a path inside the sources folder, written with '/' (not absolute)")
    if ".." in posixpath.normpath(value).split("/") or ".." in value.split("/"):
        raise ValueError("a source file may not leave the sources folder ('..')")
    return value


class SourceText(Strict):
    """A rulebook text the game is transcribed from, one line of the text per line of the file."""

    id: Id = Field(description="Used by `source: {file: …}` and by the source map.")
    file: Annotated[PlainText, AfterValidator(_inside_sources)] = Field(
        description="Path of the text file, relative to the game's `sources_folder` (or, without one, to the "
                    "project: the folder that holds `content/`), written with '/', never absolute nor with '..'.")
    title: PlainText = Field(description="The rulebook's title, as readers know it.")
    short: PlainText | None = Field(default=None, description="A short name for the compact "
                                    "line references on paper (\"RB\" for \"RB 12–20\"); without it, the "
                                    "initials of the title.")


class GameInfo(Located):
    """The game itself: only in `game.yaml`."""

    id: Id = Field(description="The game's id: the same as its folder's name, `content/<id>/`.")
    name: PlainText = Field(description="The game's name, as on the box.")
    subtitle: PlainText | None = Field(default=None, description="Shown under the name.")
    description: Text = Field(default="", description="What the data covers (Markdown), on the game's overview.")
    data_version: PlainText = Field(description="Version of this data, e.g. `1.0.0`; on the site and every PDF.")
    released: datetime.date | None = Field(default=None, description="Date this data version was released; "
                                          "the site shows the latest erratum's date when it is later.")
    language: LanguageCode = Field(default="en", description="Language of the content (for search and hyphenation; "
                                   "pages in another language say it of its texts shown untranslated).")
    sources_folder: PlainText | None = Field(default=None, description="Folder of the rulebook texts, relative "
                                             "to the project (e.g. `../shared/seeds`); `$RULESMITH_SOURCES` "
                                             "overrides it. Without it, each text's `file` is relative to the project.")
    sources: list[SourceText] = Field(min_length=1, description="The rulebook texts the data is transcribed from; "
                                      "the first is the default `source` of every item.")
    show_source_texts: bool = Field(default=False, description="Whether the site may show the rulebook texts' "
                                    "own lines beside each item (and find items by their words). Give `true` "
                                    "only where the texts may be republished; by default readers see line "
                                    "references only and no source text is copied into the site.")


class Module(Located):
    """A part of the game players may leave out: the base game, an expansion, an optional rule."""

    id: Id = Field(description="Used by `module:` of items and fields.")
    name: PlainText = Field(description="The module's name, as readers know it.")
    description: Text = Field(default="", description="What the module adds (Markdown).")


class FieldDef(Typed, Strict):
    """One typed field of a kind: every entity of the kind may give it under `fields:`."""

    id: FieldId = Field(description="The key under an entity's `fields:` (lower case, `_` between words).")
    name: PlainText = Field(description="What readers call it (a column heading, a label).")
    type: FieldType = Field(description="The field type (see the list of field types).")
    to: Id | None = Field(default=None, description="Kind referred to, for ref and ref-list.")
    values: list[PlainText] | None = Field(default=None, description="Allowed values, for enum.")
    min: float | None = Field(default=None, description="Smallest allowed value, for integer and number.")
    max: float | None = Field(default=None, description="Largest allowed value, for integer and number.")
    required: bool = Field(default=False, description="Every entity of the kind must give it "
                           "(unless the whole entity has `status: missing`).")
    module: Id | None = Field(default=None, description="The field applies only with this module (e.g. an "
                              "optional rule that gives some cards a value): its column and values are shown as "
                              "belonging to the module.")
    description: Text = Field(default="", description="What the field means (Markdown).")

    @model_validator(mode="after")
    def _options(self):
        """`ref` and `ref-list` need `to: <kind>`; `enum` needs `values: [...]`."""
        # (which options a type needs is the type's own: FieldType.needs, values/fieldtypes.py)
        for option, written in self.field_type.needs:
            if not getattr(self, option):
                raise ValueError(f"a field of type {self.type} needs `{written}`")
        return self


class Kind(Located):
    """A kind of entity the game declares (card, token, alliance …), with its typed fields: only in `game.yaml`."""

    id: Id = Field(description="The reference prefix: `[[country:mexico]]`. Not one of the reserved prefixes "
                   "(rule, table, procedure, example, term, module, gap, kind, erratum, icon, value, game, bot).")
    name: PlainText = Field(description="One of them: `Country card`.")
    plural: PlainText = Field(description="The list page's title: `Country cards`.")
    description: Text = Field(default="", description="What they are (Markdown), on the list page.")
    count: int | None = Field(default=None, ge=0, description="How many exist in the game, per the source; the "
                              "entities may be fewer (the rest are shown as not in the source), never more.")
    count_note: Text | None = Field(default=None, description="Where the count comes from, or why it is doubtful.")
    fields: list[FieldDef] = Field(default=[], description="The kind's typed fields.")


class Entity(Fidelity):
    """A card, token, alliance, symbol …: one thing of a declared kind."""

    id: Id = Field(description="Unique among the entities of its kind.")
    name: PlainText = Field(description="As printed on it.")
    kind: Id | None = Field(default=None, description="A kind declared in game.yaml; or the file's `defaults: {kind: …}`.")
    module: Id | None = Field(default=None, description="The module it belongs to; or the file's `defaults: {module: …}`. " + NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    text: Text = Field(default="", description="Its main text (Markdown).")
    fields: dict[str, Any] = Field(default={}, description="Values of its kind's fields, by field id; a value "
                                   "may carry its own status: `{value: 7, status: unverified, note: …}`.")
    aliases: list[PlainText] = Field(default=[], description="Other names readers search for.")


class Column(Typed, Strict):
    """One typed column of a table."""

    id: FieldId = Field(description="Used by rules, lookups and `[[value:table:id.key.column]]`.")
    title: PlainText = Field(description="The column heading.")
    type: FieldType = Field(default="string", description="A field type (see the list of field types).")
    to: Id | None = Field(default=None, description="Kind referred to, for ref and ref-list.")
    values: list[PlainText] | None = Field(default=None, description="Allowed values, for enum.")
    min: float | None = Field(default=None, description="Smallest allowed value, for integer and number.")
    max: float | None = Field(default=None, description="Largest allowed value, for integer and number.")
    description: Text = Field(default="", description="What the column means (Markdown).")


class TableRule(Strict):
    """A rule the table is held to: the check proves it over every row."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    rule: RuleName = Field(
        description="Which rule (see the list of table rules); contiguous: range keys leave no gap.")
    column: FieldId = Field(description="The column the rule holds over.")
    min: float | None = Field(default=None, description="For range.")
    max: float | None = Field(default=None, description="For range.")
    equals: float | None = Field(default=None, description="For sum.")
    table: Id | None = Field(default=None, description="For matches: the other table.")
    other_column: FieldId | None = Field(default=None, description="For matches: the other table's column.")
    kind_column: FieldId | None = Field(default=None, description="For entity-count: the column of kind ids.")
    except_: list[Any] = Field(default=[], alias="except", description="Keys of rows the source breaks the rule "
                               "in (give those cells `status: unverified` and a note), so the exception is explicit.")


class Table(Fidelity):
    """A stage table, track or reference table: typed columns, rows, and rules that hold over them."""

    id: Id = Field(description="Referred to as `[[table:id]]`.")
    title: PlainText = Field(description="The table's heading.")
    module: Id | None = Field(default=None, description=NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    description: Text = Field(default="", description="Shown above the table (Markdown).")
    columns: list[Column] = Field(min_length=1, description="In order; the first column is the row's key (a "
                                  "`ref` column makes the rows the entities of its kind).")
    rows: list[list[Any]] = Field(description="One list of cells per row, in column order.")
    rules: list[TableRule] = Field(default=[], description="Rules the check holds the table to.")

    @property
    def kind_columns(self) -> set[str]:
        """Columns of kind ids (an `entity-count` rule's `kind_column`): readers see the kind, not its id."""
        return {r.kind_column for r in self.rules if r.rule == "entity-count" and r.kind_column}


class Given(Located):
    """What answers a decision's branch without asking the player: something the Bot turn page
    holds. One source (`state`, `roll`, `read`, `drawn`, `ended`, `count`, `event`) or `otherwise`;
    `roll`, `read` and `drawn` take the answers this branch stands for under `is`."""

    state: dict[Id, list[int | str]] = Field(default={}, description="The bot's state has, for every "
                                             "state named, one of these values: `{difficulty: [high, maximum]}`.")
    roll: Id | None = Field(default=None, description="A step of this procedure that rolls: its roll is one of `is`.")
    read: Id | None = Field(default=None, description="A step of this procedure that reads a table: its answer "
                            "is one of `is`.")
    drawn: Id | None = Field(default=None, description="A step of this procedure that draws from a deck the page "
                             "holds: the card drawn (of several, the one that wins) is one of `is`.")
    ended: list[Id] = Field(default=[], description="The procedure that the step before this decision called "
                            "ended at one of these ends.")
    count: Literal["reached", "below"] | None = Field(default=None, description="This decision's `tally` has "
                                                      "reached its number (`reached`), or not yet (`below`).")
    event: list[Id] = Field(default=[], description="The turn's event this run of the part is for is one of "
                            "these (the turn's and its part's `events`).")
    is_: list[int | str] = Field(default=[], alias="is", description="With roll, read or drawn: the answers "
                                 "this branch stands for (faces, table answers, cards).")
    otherwise: bool = Field(default=False, description="Every case no other branch takes.")

    def source(self) -> list[str]:
        """The sources it names (one, for a well-formed given)."""
        return [name for name in ("state", "roll", "read", "drawn", "ended", "count", "event", "otherwise")
                if getattr(self, name)]


class Branch(Located):
    """One answer of a decision."""

    when: PlainText = Field(description="The answer, as the reader picks it (`Yes`, `No`, `3 or more` …).")
    to: Id = Field(description="The node it leads to.")
    given: Given | None = Field(default=None, description="What the page holds that gives this answer, "
                                "so it is not asked (every branch of the decision says it, or none does).")


class Call(Located):
    """A step that runs another procedure and goes on at its `next` once that one ends."""

    procedure: Id = Field(description="Id of the procedure this step runs.")
    optional: bool = Field(default=False, description="The player may go on without running it "
                           "(\"if needed\", or once per Region the text leaves to the player).")
    event: Id | None = Field(default=None, description="The turn's event (`bot: turn: events`) the called "
                             "procedure runs for, where its decisions are given by the event.")


class Read(Located):
    """A step that looks up a table by the bot's state (or by a roll): the walker shows the answer."""

    table: Id = Field(description="Id of the table read.")
    row: StateRef = Field(description="The row key: `state:<id>` (the bot's state), `roll` (this "
                          "step's roll) or a row key as written.")
    column: StateRef | None = Field(default=None, description="The column: `state:<id>` (its value is "
                                    "the column id, or `columns:` maps it) or a column id.")
    columns: dict[str, FieldId] = Field(default={}, description="State value -> column id, where the "
                                        "value is not itself the column id.")
    find: Literal["roll"] | None = Field(default=None, description="Instead of a column: the column "
                                         "whose cell (a list) holds this step's roll.")
    # Plain text refused markup like PlainText; not a registered text slot (a mapping's values are
    # not reached by the text walkers), and the page shows it as text only (textContent).
    names: dict[str, Annotated[str, AfterValidator(_refuse_markup)]] = Field(
        default={}, description="With find: what each column means (shown as the answer).")
    says: PlainText = Field(description="The answer as a sentence; {value} is the looked-up value "
                           "(without it, the value follows the sentence).")


class Roll(Located):
    """A step that rolls dice: the walker rolls (seeded, shown) or takes what was rolled at the table."""

    dice: int = Field(default=1, ge=1, le=6, description="How many dice are rolled (their sum is the roll).")
    sides: int = Field(default=6, ge=2, le=100, description="The sides of each die.")
    reroll: bool = Field(default=True, description="Whether the rules let this roll be rolled again.")


class Draw(Located):
    """A step that draws from a deck the game declares under `bot: decks:`."""

    deck: Id = Field(description="Id of a deck declared under `bot: decks:`.")
    count: int = Field(default=1, ge=1, description="How many are drawn.")
    up_to: int | None = Field(default=None, ge=1, description="The player says how many, from "
                              "`count` up to this (one for each tied Region, say).")
    wins: Literal["highest", "lowest"] | None = Field(default=None, description="Of several drawn, the one "
                                                      "that wins (the deck's cards are numbers): the page says which.")


class Tally(Located):
    """A question the walker helps with by counting: how often a node was passed in this run."""

    node: Id = Field(description="The node of the same procedure whose passes are counted.")
    label: PlainText = Field(description="What the count is, e.g. \"Actions performed in this Action Phase\".")
    of: Id | None = Field(default=None, description="A node of the same procedure that reads a table: "
                          "its answer is the number to reach.")


class Change(Located):
    """A change of the bot's state where a step (or the end of a turn) says so."""

    state: Id = Field(description="Id of the state changed (under `bot: state:`).")
    to: int | str = Field(description="`next` (the next value), or a value.")
    carry: Id | None = Field(default=None, description="With `next` past the last value: start again "
                             "from the first and move this other state on (Action Phase 3, then Turn).")


# A step's own label in the rulebook ("A4", "P2", "3b"): short, letters and digits.
StepLabel = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9.-]{0,7}$")]


class Node(Located):
    """A step, decision or end of a procedure."""

    id: Id = Field(description="Unique in its procedure.")
    label: StepLabel | None = Field(default=None, description="The rulebook's own label of this step "
                                    "(`A4`, `P2`: letters and digits, at most 8), shown instead of its "
                                    "position on the flowchart, the list, the walker and the Bot turn page; "
                                    "unique in its procedure.")
    type: Literal["step", "decision", "end"] = Field(description="`step` (needs `next`), `decision` (needs "
                                                     "`branches`) or `end`.")
    text: Text = Field(description="What the reader does or decides (Markdown).")
    next: Id | None = Field(default=None, description="For a step: the node after it.")
    branches: list[Branch] = Field(default=[], description="For a decision: at least two, with distinct labels; "
                                   "a Yes needs a No.")
    call: Call | None = Field(default=None, description="A step that runs another procedure, then goes on to next.")
    reads: Read | None = Field(default=None, description="A table answer computed from the bot's state.")
    roll: Roll | None = Field(default=None, description="Dice the walker rolls at this node (see `bot`).")
    draw: Draw | None = Field(default=None, description="A card the walker draws at this node (see `bot`).")
    sets: list[Change] = Field(default=[], description="State changed when this node is passed.")
    shows: list[Id] = Field(default=[], description="Bot state shown beside this question.")
    tally: Tally | None = Field(default=None, description="A count the walker keeps for this question.")
    card: Id | None = Field(default=None, description="A card (a deck under `bot: decks:`) this step "
                            "reads; where the source does not reproduce it, the walker asks what it shows.")
    asks: Literal["board"] | None = Field(default=None, description="For a decision: `board`, only the "
                                          "player can answer it, from the board or the cards in hand; else "
                                          "each branch says what answers it (`given`). A game with a bot "
                                          "marks every decision one way or the other.")


# What a page can show: a procedure's flowchart fits one printed page (Graphviz lays a tangle of
# 80 decisions out in half a minute, of 150 not at all), and the player picks a bot state's value
# from a list (a state of 300,000 values made a page of 6 MB).
MAX_PROCEDURE_NODES = 40
MAX_STATE_VALUES = 100


class Procedure(Fidelity):
    """A solo-bot decision process: a flowchart, a numbered list and a step-by-step walker on the site."""

    id: Id = Field(description="Referred to as `[[procedure:id]]`.")
    title: PlainText = Field(description="The procedure's heading.")
    module: Id | None = Field(default=None, description=NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    description: Text = Field(default="", description="Shown above the flowchart (Markdown).")
    start: Id = Field(description="The first node.")
    nodes: list[Node] = Field(min_length=1, description="In the order of the numbered list; at most "
                              f"{MAX_PROCEDURE_NODES}, what one flowchart shows (a longer procedure calls others).")

    @property
    def numbers(self) -> dict[str, str]:
        """What readers call each node, the one numbering of the flowchart, the list, the walker
        and the Bot turn page: its rulebook `label`, else its position in the list."""
        return {node.id: node.label or str(position) for position, node in enumerate(self.nodes, start=1)}


class StateValue(Strict):
    """One value of an enum state, in order."""

    id: StateValueId = Field(description="How steps and tables name it: a table read by this state has "
                             "it as a row key (or a column id).")
    name: PlainText = Field(description="What the player picks (\"Hard\").")


class StateVar(Fidelity):
    """One part of the bot's state (difficulty, turn, stage …), set once per game by the player."""

    id: Id = Field(description="Named by steps as `state:<id>`.")
    name: PlainText = Field(description="What the player sees (\"Difficulty level\").")
    type: Literal["enum", "integer"] = Field(description="`enum` (named values, in order) or `integer` (from min to max).")
    values: list[StateValue] = Field(default=[], description=f"For enum: the values, in order (at most {MAX_STATE_VALUES}).")
    min: int | None = Field(default=None, description="For integer: the first value.")
    max: int | None = Field(default=None, description=f"For integer: the last value (at most {MAX_STATE_VALUES - 1} "
                            "above min: the player picks the value from a list).")
    initial: int | str | None = Field(default=None, description="The value a game starts with.")
    description: Text = Field(default="", description="What the rulebook says of it (Markdown).")
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")


class Deck(Fidelity):
    """Cards or tokens the bot draws from, all of them back in the deck before each draw. Without
    `cards` (not reproduced in the source), the walker asks the player what the real one shows;
    status and note say why."""

    id: Id = Field(description="Named by a step's `draw: {deck: <id>}` and `card:`.")
    name: PlainText = Field(description="What the rulebook calls it (\"Automa cards\", \"tie-breaker tokens\").")
    cards: list[PlainText] = Field(default=[], description="What each card or token shows; leave it out "
                                   "when the source does not reproduce them (the walker then asks).")
    description: Text = Field(default="", description="What the rulebook says of it (Markdown).")
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")


class TurnPart(Fidelity):
    """One procedure of the bot's turn, in the turn's order."""

    procedure: Id = Field(description="Id of the procedure run.")
    phase: PlainText | None = Field(default=None, description="The phase of the round it belongs to.")
    when: Text = Field(default="", description="When it applies, as the rulebook says.")
    skip: bool = Field(default=False, description="It may not apply every turn: the walker offers "
                       "\"Does not apply now\".")
    only: dict[Id, list[int | str]] = Field(default={}, description="It applies only when the bot's "
                                             "state has one of these values (else it is passed by).")
    repeat: PlainText | None = Field(default=None, description="It is run again each time this "
                                     "happens (the walker offers to run it again).")
    events: list[Id] = Field(default=[], description="It applies when one of these of the turn's `events` "
                             "happened: the page asks once which did, and runs the part once for each.")
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")


class Event(Strict):
    """Something that happens at the table during the bot's turn and sets off a part (its `events:`)."""

    id: Id = Field(description="Its id, as a part's `events:`, a call's `event:` and `given: {event: …}` name it.")
    name: PlainText = Field(description="As the player ticks it: \"The Rival received a bonus card\".")


class BotTurn(Fidelity):
    """The bot's turn: the procedures it runs, in order, and the state changes when it ends."""

    title: PlainText = Field(description="The heading of the Bot turn page (\"The Rival's turn\").")
    called: PlainText | None = Field(default=None, description="What one turn is called where it ends "
                                     "(\"the bot's round\", \"the Automa's Action Phase\"): the page says "
                                     "\"End of …\" (without it, \"End of the turn\").")
    description: Text = Field(default="", description="Shown above the turn (Markdown).")
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    events: list[Event] = Field(default=[], description="What may happen during the turn and sets off "
                                "parts (a part's `events:`): the page asks once, at the start of the turn, which did.")
    parts: list[TurnPart] = Field(min_length=1, description="The procedures of the turn, in order.")
    after: list[Change] = Field(default=[], description="State changes when the turn ends (next turn).")


class Bot(Located):
    """A game's solo bot: its state, its decks and its turn (`rulesmith format bot`)."""

    name: PlainText = Field(description="What the rulebook calls the bot.")
    up_to: int = Field(default=1, ge=1, le=6, description="How many bots one game may have, as the rules "
                       "allow (\"up to three rival powers\"): the page keeps each one's state and turn, "
                       "switched from the tool.")
    state: list[StateVar] = Field(default=[], description="What the bot keeps between steps and turns, "
                                  "set once by the player (at most " + str(MAX_STATE_VALUES) + " values each).")
    decks: list[Deck] = Field(default=[], description="What it draws from.")
    turn: BotTurn = Field(description="Its turn.")


# A worked example's inputs and printed result: numbers, booleans and plain text only, so no
# example can carry markup into a page.
ExampleValue = bool | int | float | PlainText


class Example(Fidelity):
    """A worked example printed in the rulebook, recomputed from the data by the check."""

    id: Id = Field(description="Referred to as `[[example:id]]`.")
    title: PlainText = Field(description="The example's heading.")
    module: Id | None = Field(default=None, description=NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    text: Text = Field(description="The example as printed (Markdown).")
    printed: bool = Field(default=True, description="False for a check case that applies a stated rule "
                          "rather than an example printed in the rulebook.")
    inputs: dict[InputName, ExampleValue | list[ExampleValue]] = Field(
        default={}, description="The example's numbers by name: a number, true/false, a value reference "
        "`\"[[value:ship:cutter.cargo]]\"` (read from the data) or a short plain text; or a list of these.")
    expression: str | None = Field(default=None, description="How the result is computed (see expressions); "
                                   "leave it out for an example that is not arithmetic.")
    result: ExampleValue | list[ExampleValue] | None = Field(
        default=None, description="What the rulebook prints as the result (a number, true/false, a short text).")


class Term(Located):
    """A glossary term."""

    id: Id = Field(description="Referred to as `[[term:id]]`.")
    term: PlainText = Field(description="The term, as the rulebook writes it.")
    aliases: list[PlainText] = Field(default=[], description="Other forms readers search for (plurals …).")
    definition: Text = Field(description="What the text says it is (Markdown).")
    note: Text | None = Field(default=None, description="A remark of the transcriber (Markdown).")
    module: Id | None = Field(default=None, description=NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")


class Gap(Fidelity):
    """A known gap in the source that belongs to no single entity, table or section; its status is not `verified`."""

    id: Id = Field(description="Referred to as `[[gap:id]]`, shown with the gap marker where the reader meets it.")
    title: PlainText = Field(description="What is missing.")
    module: Id | None = Field(default=None, description=NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it would be.")
    affects: list[str] | None = Field(default=None, description="Every place a reader meets this gap, where its "
                               "marker is shown: kind:id (rule:setup, ship:cutter, table:x, "
                               "procedure:x …), kind:id.field, table:id.row.column or procedure:id.step "
                               "(rulesmith/content/affects.py); [] when it affects nothing printed but the gaps page.")


class Section(Fidelity):
    """A prose rules section: a top-level section is one page of the rules, in file order."""

    id: Id = Field(description="Referred to as `[[rule:id]]`.")
    title: PlainText = Field(description="The section's heading.")
    module: Id | None = Field(default=None, description="The module whose rules it is (a rules text that applies "
                              "only with that module). " + NO_MODULE)
    source: Source | None = Field(default=None, description="Where in the rulebook it comes from.")
    body: Text = Field(default="", description="The rules, as the rulebook says them (Markdown with references).")
    sections: list[Section] = Field(default=[], description="Subsections, shown on the same page.")


class ErratumSource(Strict):
    """Who corrected the value."""

    kind: Literal["publisher-faq", "reader-report", "transcription-fix"] = Field(description="The kind of source.")
    description: PlainText = Field(description="Names it: `Publisher FAQ v2`.")
    url: HttpsUrl | None = Field(default=None, description="An https:// link to it.")


class Erratum(Located):
    """A correction of one value: the data holds the new value, the record says what changed and why."""

    id: Id = Field(description="`e1`, `e2` …")
    date: datetime.date = Field(description="When it was published, YYYY-MM-DD, not in the future.")
    source: ErratumSource = Field(description="Who corrected it.")
    target: str = Field(description="`kind:id` of the entity, or `table:id`, `rule:id` …")
    field: str = Field(description="Which value: `name`, `text`, `fields.<field>`, a table cell `rows.<key>.<column>`, `body` …")
    old: Any = Field(default=None, description="The value before (the previous record's `new`, for a second erratum).")
    new: Any = Field(default=None, description="The value now: the data must hold it.")
    note: Text = Field(default="", description="What changed and why (Markdown), on the changelog and the marker.")


class RulingSource(Strict):
    """Who gave the answer, and where: an address (`url`) or, for an answer with none, `where`."""

    kind: Literal["publisher-faq", "designer-answer", "tournament-ruling", "forum-answer", "rules-team"] = Field(
        description="Who gave the answer.")
    description: PlainText = Field(description='The source, e.g. "Publisher FAQ v2, question 4".')
    url: HttpsUrl | None = Field(default=None, description="https:// link to where the answer is published.")
    where: PlainText | None = Field(default=None, description="Where the answer was given, for one with no "
                                    'address: "e-mail from the designer, 2026-11-30", "at the convention".')

    @model_validator(mode="after")
    def _url_or_where(self):
        """A ruling's source gives either `url` (a published answer) or `where` (one without an
        address), not both or neither."""
        if (self.url is None) == (self.where is None):
            raise ValueError("give either `url: https://…` (where the answer is published) or `where: …` "
                             "(an answer with no address, such as an e-mail), not both or neither")
        return self


class Ruling(Located):
    """A ruling or FAQ answer: a question about some items and its answer, with its source.
    Its status is current unless a later ruling supersedes it or an erratum overrules it."""

    id: Id = Field(description="`r1`, `r2` …")
    date: datetime.date = Field(description="When it was given, YYYY-MM-DD, not in the future.")
    source: RulingSource = Field(description="Who gave it, and where.")
    about: list[str] = Field(min_length=1, description="kind:id of every item the ruling is about.")
    question: Markdown = Field(description="The question as asked (Markdown, with references).")
    answer: Markdown = Field(description="The answer as given (Markdown, with references).")
    superseded_by: Id | None = Field(default=None, description="Id of the later ruling that replaces this one.")
    overruled_by: Id | None = Field(default=None, description="Id of the erratum that overrules this ruling.")

    @property
    def status(self) -> str:
        return "superseded" if self.superseded_by else "overruled" if self.overruled_by else "current"

    @property
    def label(self) -> str:
        """What readers call it: "Ruling r2"."""
        return f"Ruling {self.id}"


class SourceLines(Located):
    """One range of a source text and the content items that carry it (the reverse pass as data)."""

    source: Id = Field(description="Id of the text, as declared under game.sources.")
    lines: LineRange = Field(
        description="Line or inclusive line range of the text: `12` or `12-40`.")
    items: list[str] = Field(default=[], description="kind:id of every item that carries these lines.")
    not_content: PlainText | None = Field(default=None, description="Why these lines are not rules content "
                                    "(page header, illustration caption, credits …).")

    @model_validator(mode="after")
    def _items_or_reason(self):
        """An entry gives either `items` or `not_content`, not both or neither."""
        if bool(self.items) == bool(self.not_content):
            raise ValueError("give either `items: [kind:id, …]` or `not_content: <why>`, not both or neither")
        return self


class Icon(Located):
    """A named icon for [[icon:name]]: drawn from SVG glyphs shipped with mkdocs-material
    (Material Design Icons, Font Awesome), inlined the same way on the site and in the PDFs."""

    id: Id = Field(description="Used as `[[icon:id]]`; a game's icon replaces a default icon of the same id.")
    label: PlainText = Field(description="Text alternative: screen readers, PDF text, flowcharts.")
    glyphs: list[GlyphName] = Field(
        min_length=1, description="Glyph names under material/templates/.icons, e.g. material/flag.")


class InFull(Located):
    """A pointer from condensed wording to the full text: this part of the item keeps conditions
    the condensed wording leaves out (the aid prints where to read it in full)."""

    part: ItemKey = Field(
        description="kind:id of the condensed item itself or of one of its subsections.")
    drops: list[Id] = Field(min_length=1, description="The condition words (groups of "
                            "templates/condition-words.yaml: if, only, may, must, not …) whose "
                            "occurrences in that part the condensed wording leaves to the full text.")


class AidEntry(Located):
    """One thing printed on a player aid, in the aid's order: a rules section, a table, a
    procedure or a kind's list, in full, or in condensed wording that names what it condenses."""

    show: ItemKey = Field(
        description="kind:id of what is printed: rule:…, table:…, procedure:…, kind:…")
    title: PlainText | None = Field(default=None, description="Heading instead of the item's own.")
    condensed: Text | None = Field(default=None, description="Condensed wording of `show`, printed "
                                   "instead of its full text; every number in it must occur in that item, "
                                   "and it keeps every condition word of it (if, only, may, must …) "
                                   "or names under `in_full` the part that keeps it.")
    in_full: list[InFull] = Field(default=[], description="Where the conditions the condensed "
                                  "wording leaves out are kept: printed on the aid as pointers to the full text.")
    subsections: bool = Field(default=True, description="For a rules section: print its subsections too.")


class LeftOut(Located):
    """A rules section of the module an aid holds that the aid does not print, and why."""

    show: ItemKey = Field(description="rule:… of the section left out.")
    why: PlainText = Field(description="Why it is not on the aid (printed on the aid with it).")


class AidPlan(Located):
    """What goes on one aid of a game, and in what order (the aid kinds are templates/pdf/aids.yaml)."""

    aid: Id = Field(description="The aid kind: rules-summary, solo-aid or card-reference.")
    holds: Id | None = Field(default=None, description="The module whose rules the aid holds (the solo aid: the "
                             "solo rules; a game with a bot needs one): every rules section of that module is on "
                             "the aid, in full or condensed, or listed under `leaves_out` with why.")
    leaves_out: list[LeftOut] = Field(default=[], description="Sections of the module the aid holds that it does "
                                      "not print, each with why (the aid lists them).")
    covers: Text = Field(default="", description="What the aid covers, on its first page.")
    sequence: list[AidEntry] = Field(default=[], description="The round/turn sequence at a glance (page 1).")
    setup: list[AidEntry] = Field(default=[], description="Set-up, with player-count changes (page 1).")
    body: list[AidEntry] = Field(default=[], description="Then, in this order: the rules and tables looked up in play.")


class Defaults(Strict):
    """Values for every entity, table, procedure, example, term, gap and section of this file that does not set its own."""

    kind: Id | None = Field(default=None, description="For entities.")
    module: Id | None = Field(default=None, description="The module of the file's items.")
    source: Source | None = Field(default=None, description="Where in the rulebook they come from.")


class ContentFile(Strict):
    """One YAML file of a game: any of these collections."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={
        "title": "Rulesmith content file",
        "description": "The format: `rulesmith format`."})
    game: GameInfo | None = Field(default=None, description="The game itself (only in game.yaml).")
    modules: list[Module] = Field(default=[], description="Modules and expansions (only in game.yaml).")
    kinds: list[Kind] = Field(default=[], description="The entity kinds, with typed fields (only in game.yaml).")
    defaults: Defaults | None = Field(default=None, description="`kind`, `module`, `source` for the items of this file.")
    sections: list[Section] = Field(default=[], description="Prose rules sections (Markdown).")
    entities: list[Entity] = Field(default=[], description="Cards, tokens, alliances, symbols …")
    tables: list[Table] = Field(default=[], description="Stage tables, tracks, reference tables.")
    procedures: list[Procedure] = Field(default=[], description="Solo-bot decision processes (flowcharts).")
    examples: list[Example] = Field(default=[], description="Worked examples printed in the rulebook.")
    glossary: list[Term] = Field(default=[], description="Glossary terms.")
    gaps: list[Gap] = Field(default=[], description="Known gaps of the source that belong to no single item.")
    errata: list[Erratum] = Field(default=[], description="Erratum records (by convention in errata.yaml).")
    rulings: list[Ruling] = Field(default=[], description="Rulings and FAQ answers (by convention in rulings.yaml).")
    source_map: list[SourceLines] = Field(default=[], description="Every line of the rulebook texts and the items "
                                          "that carry it (by convention in source-map.yaml).")
    icons: list[Icon] = Field(default=[], description="The game's own icons (by convention in icons.yaml).")
    aids: list[AidPlan] = Field(default=[], description="What goes on the player aids (by convention in aids.yaml).")
    bot: Bot | None = Field(default=None, description="The solo bot's state, decks and turn (`bot:`).")


# The lists a content file may hold, as ContentFile declares them (a game gathers each from its
# files, content/game.py); the item types among them are in content/items.py.
COLLECTIONS = tuple(name for name, info in ContentFile.model_fields.items() if typing.get_origin(info.annotation) is list)


@functools.cache
def text_fields(cls: type[BaseModel], fmt: TextFormat) -> tuple[str, ...]:
    """Names of the fields of a model class that hold text of this format (str or list of str).
    Asked once per class and format: a class's fields do not change while the program runs."""
    return tuple(name for name, info in cls.model_fields.items() if _has_format(info.annotation, info.metadata, fmt))


def _has_format(annotation, metadata, fmt: TextFormat) -> bool:
    if any(m is fmt for m in metadata):
        return True
    if typing.get_origin(annotation) is Annotated:
        return any(m is fmt for m in typing.get_args(annotation)[1:])
    if typing.get_origin(annotation) is dict:
        return False  # a mapping of values (an example's inputs): each value is validated by its type
    return any(_has_format(arg, (), fmt) for arg in typing.get_args(annotation))


@functools.cache
def nested_models(cls: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """Fields of a model class that hold other models (or lists of them), by name (once per
    class; not to be changed by the caller)."""
    found = {}
    for name, info in cls.model_fields.items():
        inner = _model_in(info.annotation)
        if inner is not None:
            found[name] = inner
    return found


def _model_in(annotation):
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, str):
        return globals().get(annotation)
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None

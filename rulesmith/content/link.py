"""Stage 3, link: resolve every [[kind:id]] reference, build the index and the backlinks."""

from __future__ import annotations

import re
import typing
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import yaml

from rulesmith.content import model
from rulesmith.content.items import ENTITY, ERRATUM, RESERVED_PREFIXES, all_items, name_of
from rulesmith.format.topics import see
from rulesmith.problems import Problems, Suggestions, nearest
from rulesmith.project import templates
from rulesmith.text.glyphs import glyph_exists
from rulesmith.values import fieldtypes, ids
from rulesmith.values import references as values

if typing.TYPE_CHECKING:
    from rulesmith.content.game import Game

REFERENCE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
WELL_FORMED = re.compile(ids.KEY.pattern)  # kind:id
ICONS_FILE = templates() / "icons.yaml"


@dataclass
class Target:
    key: str  # "kind:id"
    kind: str
    id: str
    name: str
    item: model.Located


@dataclass
class Text:
    """One text field of the content: who owns it, where it is, what it says."""

    owner: str  # key of the item the text belongs to ("game" for the game's description)
    item: model.Located
    path: tuple
    value: str


@dataclass
class Index:
    targets: dict[str, Target] = field(default_factory=dict)
    backlinks: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    icons: dict[str, dict] = field(default_factory=dict)
    invalid_ids: set[str] = field(default_factory=set)  # Game.invalid_ids: not reported as unknown
    errata: list = field(default_factory=list)  # the game's errata (not targets): what changed a value
    _by_id: dict[str, list[str]] | None = field(default=None, repr=False)  # keys_of_id's map, made when first asked
    _suggestions: dict[str, Suggestions] = field(default_factory=dict, repr=False)

    def name(self, key: str) -> str:
        return self.targets[key].name

    def keys_of_id(self, item_id: str) -> list[str]:
        """Every target whose id (after 'kind:') is `item_id`: found in a map made once, so that
        each of many unknown references costs a look-up, not a pass over every target."""
        if self._by_id is None:
            self._by_id = defaultdict(list)
            for key in self.targets:
                self._by_id[key.partition(":")[2]].append(key)
        return self._by_id.get(item_id, [])

    def guess_of_kind(self, kind: str, item_id: str) -> str:
        """'did you mean …' among the ids of one kind (problems.Suggestions, made once per kind)."""
        if kind not in self._suggestions:
            ids = [key.partition(":")[2] for key in self.targets if key.partition(":")[0] == kind]
            self._suggestions[kind] = Suggestions(ids)
        return self._suggestions[kind].hint(item_id)


@lru_cache(maxsize=1)
def _icons_text_parsed(text: str) -> dict[str, dict]:
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_icons() -> dict[str, dict]:
    """The package's default icons, templates/icons.yaml (parsed once per distinct file content)."""
    return _icons_text_parsed(ICONS_FILE.read_text(encoding="utf-8"))


def game_icons(game: Game, problems: Problems) -> dict[str, dict]:
    """The package's default icons with the game's own (content/<game>/*.yaml `icons:`) over them."""
    icons = dict(load_icons())
    seen: dict[str, int] = {}  # icon id -> line of its first definition
    for icon in game.icons:
        if icon.id in seen:
            problems.add(icon.where("id"), f"duplicate icon '{icon.id}' (first defined at line {seen[icon.id]})",
                         "give each icon its own id")
        seen.setdefault(icon.id, icon.where()[1])
        for i, glyph in enumerate(icon.glyphs):
            if not glyph_exists(glyph):
                problems.add(icon.where("glyphs", i), f"unknown glyph '{glyph}'",
                             "use a name from mkdocs-material's icon sets, e.g. material/flag or "
                             "fontawesome/solid/dice (https://pictogrammers.com/library/mdi/)")
        icons[icon.id] = {"label": icon.label, "glyphs": icon.glyphs}
    return icons


def build_index(game: Game, problems: Problems) -> Index:
    index = Index(icons=game_icons(game, problems), invalid_ids=game.invalid_ids, errata=list(game.errata))
    kinds = {k.id for k in game.kinds}

    def add(kind: str, item_id: str, name: str, item) -> None:
        key = f"{kind}:{item_id}"
        if key in index.targets:
            first = index.targets[key].item
            line = first.where()[1] if isinstance(first, model.Located) else "?"
            file = first.where()[0] if isinstance(first, model.Located) else "?"
            problems.add(item.where("id"), f"duplicate id '{key}' (first defined at {file}:{line})",
                         "ids must be unique per game and kind; rename one")
            return
        index.targets[key] = Target(key, kind, item_id, name, item)

    for kind in game.kinds:
        if kind.id in RESERVED_PREFIXES:
            problems.add(kind.where("id"), f"kind id '{kind.id}' is reserved",
                         "reserved: " + ", ".join(RESERVED_PREFIXES))
    for item_type, key, item in all_items(game):
        if item_type is ERRATUM:
            continue  # errata are checked by check_errata, not referred to from text
        if item_type is ENTITY:
            if item.kind is None:
                problems.add(item.where(), f"entity '{item.id}' has no kind",
                             "add `kind:` to it or `defaults: {kind: …}` to the file")
                continue
            if item.kind not in kinds:
                unread = game.missing_because_unread(f"kind '{item.kind}'", item.kind)
                problems.add(item.where("kind"), *(unread or (f"unknown kind '{item.kind}'",
                             nearest(item.kind, kinds) or "declare it under `kinds:` in game.yaml")))
                continue
        add(key.partition(":")[0], item.id, name_of(item_type, item), item)
    return index


def owned_items(game: Game):
    """Every content item with the key that texts inside it are owned by."""
    yield "game", game.info
    for _type, key, item in all_items(game):
        yield key, item
    # An aid plan's texts (what it covers, condensed wording) belong to the game, as its description does.
    for plan in game.aids:
        yield "game", plan
    # The bot's turn and state: their texts (when a part applies, notes) belong to the game too.
    for bot in game.bots:
        yield "game", bot


def model_texts(value, fmt: model.TextFormat, path: tuple = ()):
    """(path, text) of every field of this format inside a model instance, nested models included.

    Nested sections are items of their own (owned_items), so they are not entered here."""
    cls: typing.Any = type(value)
    for name in model.text_fields(cls, fmt):
        found = getattr(value, name)
        if isinstance(found, str) and found:
            yield path + (name,), found
        elif isinstance(found, list):
            for i, entry in enumerate(found):
                if isinstance(entry, str):
                    yield path + (name, i), entry
    for name, _inner in model.nested_models(cls).items():
        if name == "sections":
            continue
        found = getattr(value, name)
        if isinstance(found, model.Strict):
            yield from model_texts(found, fmt, path + (name,))
        elif isinstance(found, list):
            for i, entry in enumerate(found):
                if isinstance(entry, model.Strict):
                    yield from model_texts(entry, fmt, path + (name, i))


def texts(game: Game, fmt: model.TextFormat = model.MARKDOWN):
    """Every text of a format in a game (Markdown by default), with its owner and position.

    The fields come from the model's text markers; entity fields and table cells from the types
    the game declares (text, text-list are Markdown; string, string-list, enum are plain text)."""
    declared = {k.id: {f.id: f for f in k.fields} for k in game.kinds}
    for owner, item in owned_items(game):
        for path, value in model_texts(item, fmt):
            yield Text(owner, item, path, value)
        if isinstance(item, model.Entity):
            for name, value in item.fields.items():
                spec = declared.get(item.kind or "", {}).get(name)
                yield from _value_texts(owner, item, ("fields", name), value, spec.type if spec else None, fmt)
        elif isinstance(item, model.Table):
            for r, row in enumerate(item.rows):
                for c, value in enumerate(row):
                    kind = item.columns[c].type if c < len(item.columns) else None
                    yield from _value_texts(owner, item, ("rows", r, c), value, kind, fmt)


# Which declared types hold text, and of which format: from the field-type registry.
FORMAT_OF_TYPE = {name: {"plain": model.PLAIN, "markdown": model.MARKDOWN}[kind.text_format]
                  for name, kind in fieldtypes.REGISTRY.items() if kind.text_format and kind.name != "ref"}


def _value_texts(owner, item, path, value, kind, fmt: model.TextFormat):
    """Text inside a field or cell: its value when its declared type has this format, and any
    status note (always Markdown)."""
    found = fieldtypes.Value.of(value)
    if found.wrapped:
        if fmt is model.MARKDOWN and isinstance(found.note, str):
            yield Text(owner, item, path + ("note",), found.note)
        value = found.value
    if FORMAT_OF_TYPE.get(kind) is not fmt:
        return
    if isinstance(value, str):
        yield Text(owner, item, path, value)
    elif isinstance(value, list):
        for i, entry in enumerate(value):
            if isinstance(entry, str):
                yield Text(owner, item, path + (i,), entry)


def resolve(game: Game, index: Index, problems: Problems) -> None:
    """Check every reference in every text; record backlinks."""
    suggest: Suggestions | None = None  # made at the first unknown reference, once for the game
    for text in texts(game):
        for match in REFERENCE.finditer(text.value):
            target, label = match.group(1), match.group(2)
            where = text.item._file.find_text(text.item._path + text.path, match.group(0)) \
                if text.item._file else ("<unknown>", 1, 1)
            if target.startswith(values.PREFIX):
                owner = values.owner(target)
                unread = game.missing_because_unread(owner, owner) if owner not in index.targets else None
                if unread:
                    problems.add(where, *unread)
                    continue
                try:
                    values.lookup(index, target[len(values.PREFIX):])
                except values.ValueError_ as error:
                    problems.add(where, *error.args)
                    continue
                if text.owner != owner and text.owner not in index.backlinks[owner]:
                    index.backlinks[owner].append(text.owner)
                continue
            if not WELL_FORMED.fullmatch(target) or (label is not None and not label.strip()):
                cleaned = re.sub(r"\s+", "", target).lower()
                problems.add(where, f"malformed reference {match.group(0)}",
                             f"did you mean [[{cleaned}]]?" if cleaned in index.targets and cleaned != target
                             else "write [[kind:id]] or [[kind:id|label]] with lower-case ids, without spaces")
                continue
            kind, _, ident = target.partition(":")
            if kind == "icon":
                if ident not in index.icons:
                    problems.add(where, f"unknown icon '{ident}'",
                                 nearest(ident, index.icons) or "declare it under `icons:` in the game's folder (" + see("icons") + ")")
                continue
            if target not in index.targets:
                if ident in game.invalid_ids:
                    continue  # declared in a file that failed validation: reported there
                unread = game.missing_because_unread(f"reference {target}", target)
                if unread:
                    problems.add(where, *unread)
                    continue
                # A hint offers an item of the same kind only: one of another kind that shares the
                # id is another thing, and a guess across kinds misleads more than it helps. The
                # targets are indexed once (Suggestions), not scanned per unknown reference.
                if suggest is None:
                    suggest = Suggestions(index.targets, same_kind=True)
                hint = suggest.hint(target) or (f"no {kind}:… item of this game is named so" if kind in suggest.by_kind
                                                else "no such id in this game")
                problems.add(where, f"unknown reference {target}", hint)
                continue
            if text.owner != target and text.owner not in index.backlinks[target]:
                index.backlinks[target].append(text.owner)
        spans = [m.span() for m in REFERENCE.finditer(text.value)]
        for stray in re.finditer(r"\[\[", text.value):
            if any(start <= stray.start() < end for start, end in spans):
                continue
            needle = text.value[stray.start():].split("\n", 1)[0]
            where = text.item._file.find_text(text.item._path + text.path, needle) \
                if text.item._file else ("<unknown>", 1, 1)
            problems.add(where, "unclosed reference '[['", "close it with ]]: [[kind:id]]")

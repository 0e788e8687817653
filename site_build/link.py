"""Stage 3, link: resolve every [[kind:id]] reference, build the index and the backlinks."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import model, values
from .game import Game
from .problems import Problems, nearest

REFERENCE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
WELL_FORMED = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*:[a-z0-9]+(-[a-z0-9]+)*")
ICONS_FILE = Path(__file__).resolve().parent.parent / "templates" / "icons.yaml"


@dataclass
class Target:
    key: str  # "kind:id"
    kind: str
    id: str
    name: str
    item: object


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

    def name(self, key: str) -> str:
        return self.targets[key].name


@lru_cache(maxsize=1)
def _icons_text_parsed(text: str) -> dict[str, dict]:
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_icons() -> dict[str, dict]:
    """The icon names of templates/icons.yaml (parsed once per distinct file content)."""
    return _icons_text_parsed(ICONS_FILE.read_text(encoding="utf-8"))


def build_index(game: Game, problems: Problems) -> Index:
    index = Index(icons=load_icons(), invalid_ids=game.invalid_ids)
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
        if kind.id in model.RESERVED_KINDS:
            problems.add(kind.where("id"), f"kind id '{kind.id}' is reserved",
                         "reserved: " + ", ".join(model.RESERVED_KINDS))
    for module in game.modules:
        add("module", module.id, module.name, module)
    for kind in game.kinds:
        add("kind", kind.id, kind.plural, kind)
    for entity in game.entities:
        if entity.kind is None:
            problems.add(entity.where(), f"entity '{entity.id}' has no kind",
                         "add `kind:` to it or `defaults: {kind: …}` to the file")
            continue
        if entity.kind not in kinds:
            problems.add(entity.where("kind"), f"unknown kind '{entity.kind}'",
                         nearest(entity.kind, kinds) or "declare it under `kinds:` in game.yaml")
            continue
        add(entity.kind, entity.id, entity.name, entity)
    for section, _page in game.all_sections():
        add("rule", section.id, section.title, section)
    for table in game.tables:
        add("table", table.id, table.title, table)
    for procedure in game.procedures:
        add("procedure", procedure.id, procedure.title, procedure)
    for example in game.examples:
        add("example", example.id, example.title, example)
    for term in game.glossary:
        add("term", term.id, term.term, term)
    for gap in game.gaps:
        add("gap", gap.id, gap.title, gap)
    return index


def texts(game: Game):
    """Every Markdown text of a game, with its owner and position."""
    def note(owner, item):
        if getattr(item, "note", None):
            yield Text(owner, item, ("note",), item.note)

    if game.info.description:
        yield Text("game", game.info, ("description",), game.info.description)
    for module in game.modules:
        if module.description:
            yield Text(f"module:{module.id}", module, ("description",), module.description)
    for kind in game.kinds:
        if kind.description:
            yield Text(f"kind:{kind.id}", kind, ("description",), kind.description)
        if kind.count_note:
            yield Text(f"kind:{kind.id}", kind, ("count_note",), kind.count_note)
    declared = {k.id: {f.id: f for f in k.fields} for k in game.kinds}
    for entity in game.entities:
        owner = f"{entity.kind}:{entity.id}"
        if entity.text:
            yield Text(owner, entity, ("text",), entity.text)
        yield from note(owner, entity)
        for name, value in entity.fields.items():
            spec = declared.get(entity.kind, {}).get(name)
            yield from _value_texts(owner, entity, ("fields", name), value, spec.type if spec else None)
    for section, _page in game.all_sections():
        owner = f"rule:{section.id}"
        if section.body:
            yield Text(owner, section, ("body",), section.body)
        yield from note(owner, section)
    for table in game.tables:
        owner = f"table:{table.id}"
        if table.description:
            yield Text(owner, table, ("description",), table.description)
        yield from note(owner, table)
        for r, row in enumerate(table.rows):
            for c, value in enumerate(row):
                kind = table.columns[c].type if c < len(table.columns) else None
                yield from _value_texts(owner, table, ("rows", r, c), value, kind)
    for procedure in game.procedures:
        owner = f"procedure:{procedure.id}"
        if procedure.description:
            yield Text(owner, procedure, ("description",), procedure.description)
        yield from note(owner, procedure)
        for node in procedure.nodes:
            yield Text(owner, node, ("text",), node.text)
    for example in game.examples:
        owner = f"example:{example.id}"
        yield Text(owner, example, ("text",), example.text)
        yield from note(owner, example)
    for term in game.glossary:
        owner = f"term:{term.id}"
        yield Text(owner, term, ("definition",), term.definition)
        if term.note:
            yield Text(owner, term, ("note",), term.note)
    for gap in game.gaps:
        yield from note(f"gap:{gap.id}", gap)
    for erratum in game.errata:
        if erratum.note:
            yield Text(f"erratum:{erratum.id}", erratum, ("note",), erratum.note)


def _value_texts(owner, item, path, value, kind):
    """Text inside a field or cell: its value when the type is text, and any status note."""
    if isinstance(value, dict):
        if isinstance(value.get("note"), str):
            yield Text(owner, item, path + ("note",), value["note"])
        value = value.get("value")
    if kind == "text" and isinstance(value, str):
        yield Text(owner, item, path, value)
    elif kind == "text-list" and isinstance(value, list):
        for i, entry in enumerate(value):
            if isinstance(entry, str):
                yield Text(owner, item, path + (i,), entry)


def resolve(game: Game, index: Index, problems: Problems) -> None:
    """Check every reference in every text; record backlinks."""
    for text in texts(game):
        for match in REFERENCE.finditer(text.value):
            target, label = match.group(1), match.group(2)
            where = text.item._file.find_text(text.item._path + text.path, match.group(0)) \
                if text.item._file else ("<unknown>", 1, 1)
            if target.startswith(values.PREFIX):
                try:
                    values.lookup(index, target[len(values.PREFIX):])
                except values.ValueError_ as error:
                    problems.add(where, *error.args)
                    continue
                owner = values.parse(target[len(values.PREFIX):])[0]
                if text.owner != owner and text.owner not in index.backlinks[owner]:
                    index.backlinks[owner].append(text.owner)
                continue
            if not WELL_FORMED.fullmatch(target) or label is not None and not label.strip():
                cleaned = re.sub(r"\s+", "", target).lower()
                problems.add(where, f"malformed reference {match.group(0)}",
                             f"did you mean [[{cleaned}]]?" if cleaned in index.targets and cleaned != target
                             else "write [[kind:id]] or [[kind:id|label]] with lower-case ids, without spaces")
                continue
            kind, _, ident = target.partition(":")
            if kind == "icon":
                if ident not in index.icons:
                    problems.add(where, f"unknown icon '{ident}'",
                                 nearest(ident, index.icons) or "icons are listed in templates/icons.yaml")
                continue
            if target not in index.targets:
                if ident in game.invalid_ids:
                    continue  # declared in a file that failed validation: reported there
                other = [k for k in index.targets if k.endswith(":" + ident)]
                same_kind = [k for k in index.targets if k.startswith(kind + ":")]
                hint = (f"'{ident}' exists as {', '.join(other)}" if other else
                        nearest(target, same_kind) or nearest(target, index.targets) or "no such id in this game")
                if game.unreadable:
                    hint += (" Or" if hint.endswith("?") else "; or") + \
                        f" it may be in {', '.join(game.unreadable)}, which could not be read"
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

"""Stages 1–2 together: read a game folder's files and validate them into one typed Game."""

from __future__ import annotations

import functools
import os
import re
import stat
import typing
from dataclasses import dataclass, field

import pydantic

from rulesmith.content import model
from rulesmith.content.items import ITEM_TYPES
from rulesmith.content.load import UNREADABLE, SourceFile, content_files, display_path, read_file
from rulesmith.format.topics import see, topic_of_key
from rulesmith.problems import Problems, nearest
from rulesmith.project import game_folders, site_name_hint, site_name_problem
from rulesmith.values import ids

if typing.TYPE_CHECKING:
    from pathlib import Path

    from pydantic_core import ErrorDetails


@dataclass
class Game:
    folder: Path
    info: model.GameInfo
    files: list[SourceFile] = field(default_factory=list)
    modules: list[model.Module] = field(default_factory=list)
    kinds: list[model.Kind] = field(default_factory=list)
    sections: list[model.Section] = field(default_factory=list)  # top level, in reading order
    entities: list[model.Entity] = field(default_factory=list)
    tables: list[model.Table] = field(default_factory=list)
    procedures: list[model.Procedure] = field(default_factory=list)
    examples: list[model.Example] = field(default_factory=list)
    glossary: list[model.Term] = field(default_factory=list)
    gaps: list[model.Gap] = field(default_factory=list)
    errata: list[model.Erratum] = field(default_factory=list)
    rulings: list[model.Ruling] = field(default_factory=list)
    source_map: list[model.SourceLines] = field(default_factory=list)
    icons: list[model.Icon] = field(default_factory=list)
    aids: list[model.AidPlan] = field(default_factory=list)  # what goes on each player aid
    bots: list[model.Bot] = field(default_factory=list)  # the solo bot's turn and state (one per game)
    # Files with their own errors: references into them are not reported a second time.
    unreadable: list[str] = field(default_factory=list)  # files that could not be parsed at all
    invalid_ids: set[str] = field(default_factory=set)  # ids declared in files that failed validation
    unread_text: dict[str, str | None] = field(default_factory=dict)  # unreadable file -> its raw text, if any

    def could_hold(self, key: str = "", collection: str = "") -> list[str]:
        """The unreadable files that may declare `key` (kind:id or id) or hold entries of
        `collection` (source_map …): a problem that only arises because they are missing is said so."""
        ident = key.rpartition(":")[2]
        found = []
        for name, text in self.unread_text.items():
            if text is None or (ident and re.search(rf"\bid:\s*[\"']?{re.escape(ident)}[\"']?\s*(?:[,}}#]|$)", text, re.MULTILINE)) or (collection and re.search(rf"^{re.escape(collection)}\s*:", text, re.MULTILINE)):  # not even its text could be read: it may hold anything
                found.append(name)
        return found

    def missing_because_unread(self, what: str, key: str = "", collection: str = "") -> tuple[str, str] | None:
        """(message, hint) for `what` that may be in a file that could not be read, or None."""
        files = self.could_hold(key, collection)
        if not files:
            return None
        return (f"{what} may be in {', '.join(files)}, which could not be read",
                "fix the error reported in that file first")

    @property
    def id(self) -> str:
        return self.info.id

    def kind_of(self, entity: model.Entity) -> model.Kind:
        """An entity's kind, in a game that passed the check (every entity's kind is declared)."""
        kind = self.kind(entity.kind)
        if kind is None:
            raise LookupError(f"entity '{entity.id}' has no declared kind (the game has not passed `rulesmith check`)")
        return kind

    def kind(self, kind_id: str | None) -> model.Kind | None:
        """The declared kind of that id (None for an entity whose kind is not given: reported by link)."""
        return next((k for k in self.kinds if k.id == kind_id), None)

    def entities_of(self, kind_id: str) -> list[model.Entity]:
        return [e for e in self.entities if e.kind == kind_id]

    def all_sections(self):
        """Every section, nested ones included, with its top-level page section."""
        def walk(section, page):
            yield section, page
            for sub in section.sections:
                yield from walk(sub, page)
        for top in self.sections:
            yield from walk(top, top)

    @functools.cached_property
    def _section_parents(self) -> dict[int, model.Section]:
        """id() of a subsection -> the section it is written in."""
        return {id(sub): section for section, _page in self.all_sections() for sub in section.sections}

    def module_of(self, item) -> str | None:
        """The module an item belongs to: its own `module` (or its file's default); a subsection
        without one belongs to the module of the section it is written in. The one place that
        decides it (the check's note on items without a module asks it)."""
        module = getattr(item, "module", None)
        parent = self._section_parents.get(id(item)) if isinstance(item, model.Section) else None
        while module is None and parent is not None:
            module, parent = parent.module, self._section_parents.get(id(parent))
        return module

    @functools.cached_property
    def section_pages(self) -> dict[str, str]:
        """Section id -> id of the top-level section whose page shows it."""
        return {section.id: page.id for section, page in self.all_sections()}

    @property
    def bot(self) -> model.Bot | None:
        """The game's solo bot declaration (`bot:`), if it has one."""
        return self.bots[0] if self.bots else None

    def aid_plan(self, aid: str) -> model.AidPlan | None:
        return next((plan for plan in self.aids if plan.aid == aid), None)

    def latest_erratum(self) -> model.Erratum | None:
        return latest_erratum(self.errata)

    def data_date(self):
        """The data's date: the latest erratum's or ruling's, else the release date in game.yaml, else None."""
        latest = self.latest_erratum()
        dates = [d for d in (latest.date if latest else None, self.info.released) if d is not None]
        return max(dates + [r.date for r in self.rulings], default=None)

    def rulings_about(self, key: str) -> list[model.Ruling]:
        """The rulings about an item, newest first."""
        return sorted((r for r in self.rulings if key in r.about), key=lambda r: (r.date, r.id), reverse=True)


def latest_erratum(errata) -> model.Erratum | None:
    """The newest of some errata (by date, then id), or None."""
    return max(errata, key=lambda e: (e.date, e.id), default=None)


def load_games(content_dir: Path, problems: Problems, skip: frozenset[str] = frozenset()) -> list[Game]:
    """Every game under content_dir (a folder with a game.yaml), validated; problems collected.
    The folders named in `skip` are not read (the check's answer for them is known)."""
    games = []
    try:
        os.listdir(content_dir)
    except OSError as error:
        problems.add((str(display_path(content_dir)), 1, 1), f"cannot read folder: {error.strerror}", UNREADABLE)
    for folder in game_folders(content_dir):
        if folder.name in skip:
            continue
        if os.path.islink(folder):
            problems.add((str(folder), 1, 1), "symbolic link to a folder is not followed",
                         "move the game's files into the content folder instead of linking them")
            continue
        try:
            os.listdir(folder)
            has_game_yaml = (folder / "game.yaml").exists()
        except OSError as error:
            problems.add((str(display_path(folder)), 1, 1), f"cannot read folder: {error.strerror}", UNREADABLE)
            continue
        if not has_game_yaml:
            problems.add((str(display_path(folder / "game.yaml")), 1, 1), f"game folder '{folder.name}' has no game.yaml",
                         "add a game.yaml with `game:`, `modules:` and `kinds:` (" + see("game") + ", "
                         "or start from `rulesmith new <game-id>`)")
            continue
        game = load_game(folder, problems, content_dir)
        if game is not None:
            games.append(game)
    return games


def load_game(folder: Path, problems: Problems, root: Path, overlay: dict[Path, bytes] | None = None) -> Game | None:
    """One game folder, validated. `overlay`: files as a command is about to write them (path ->
    bytes), read instead of what is on disk, so that the command checks them before it writes."""
    parsed: list[tuple[SourceFile, model.ContentFile]] = []
    unreadable: list[str] = []
    invalid_ids: set[str] = set()
    unread_text: dict[str, str | None] = {}
    failed: set[Path] = set()
    paths, unread_folders = content_files(folder, problems)
    for path in unread_folders:  # it may hold anything: references into it are not reported again
        unreadable.append(str(display_path(path)))
        unread_text[unreadable[-1]] = None
        problems.causes.add(unreadable[-1])
    given = {os.path.abspath(path): data for path, data in (overlay or {}).items()}
    known = {os.path.abspath(path) for path in paths}
    paths = sorted(paths + [folder / os.path.relpath(path, os.path.abspath(folder)) for path in given if path not in known])
    for path in paths:
        source = read_file(path, problems, root, data=given.get(os.path.abspath(path)))
        if source is None:
            unreadable.append(str(display_path(path)))
            unread_text[unreadable[-1]] = _raw_text(path)
            problems.causes.add(unreadable[-1])
            failed.add(path)
            continue
        content = validate_file(source, problems)
        if content is not None:
            parsed.append((source, content))
        else:
            invalid_ids |= _ids(source.data)
            failed.add(path)
    info_files = [(s, c, c.game) for s, c in parsed if c.game is not None]
    if not info_files:
        if folder / "game.yaml" not in failed:  # else its own error says why (a bad date, a tab …)
            problems.add((str(display_path(folder / "game.yaml")), 1, 1), "game.yaml has no `game:` section",
                         "add `game:` with id, name, data_version and sources (" + see("game") + ")")
        return None
    game = Game(folder=folder, info=info_files[0][2], unreadable=unreadable, invalid_ids=invalid_ids,
                unread_text=unread_text)
    for _source, _content, info in info_files[1:]:
        problems.add(info.where(), "`game:` may appear only once, in game.yaml",
                     f"remove it here; it is defined in {info_files[0][0].path}")
    if game.info.id != folder.name:
        problems.add(game.info.where("id"), f"game id '{game.info.id}' differs from its folder '{folder.name}'",
                     f"use id: {folder.name}")
    # A game's pages and files go in a folder named after it, beside the site's own.
    for name in dict.fromkeys((folder.name, game.info.id)):
        if problem := site_name_problem(name):
            problems.add(game.info.where("id"), problem, site_name_hint(name))
    for source, content in parsed:
        game.files.append(source)
        _apply_defaults(content)
        for name in model.COLLECTIONS:
            getattr(game, name).extend(getattr(content, name))
        if content.bot is not None:
            if game.bots:
                file, line, _ = game.bots[0].where()
                problems.add(content.bot.where(key=True), "`bot:` may appear only once in a game",
                             f"merge it with the one at {file}:{line}")
            else:
                game.bots.append(content.bot)
    return game


def _raw_text(path: Path) -> str | None:
    """What an unreadable file says, to tell which ids it may declare (None: not even that)."""
    if path.is_symlink():
        return None  # what a link points at is not read (it may lie outside the content folder)
    try:
        info = path.stat()  # never open what is not a regular file (a named pipe would block)
        if not stat.S_ISREG(info.st_mode) or info.st_size > 2 * 1024 * 1024:
            return None
        raw = path.read_bytes()
    except OSError:
        return None
    return raw.decode("utf-8", errors="replace")


def _ids(data) -> set[str]:
    """Every `id:` value in raw data (of a file that failed validation)."""
    found = set()
    if isinstance(data, dict):
        if isinstance(data.get("id"), str):
            found.add(data["id"])
        data = list(data.values())
    if isinstance(data, list):
        for value in data:
            found |= _ids(value)
    return found


def validate_file(source: SourceFile, problems: Problems) -> model.ContentFile | None:
    try:
        content = model.ContentFile.model_validate(source.data)
    except pydantic.ValidationError as error:
        for item in error.errors():
            _report(source, item, problems)
        return None
    _attach(content, source, ())
    return content


def _attach(value, source: SourceFile, path: tuple) -> None:
    """Give every Located item its file and data path, for messages later."""
    if isinstance(value, model.Located):
        value._file, value._path = source, path
    if isinstance(value, pydantic.BaseModel):
        for name in type(value).model_fields:
            key = "except" if name == "except_" else name
            _attach(getattr(value, name), source, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _attach(item, source, path + (index,))


def _apply_defaults(content: model.ContentFile) -> None:
    defaults = content.defaults or model.Defaults()
    for item_type in ITEM_TYPES:
        if not item_type.takes_defaults:
            continue
        for item in getattr(content, item_type.collection):
            if getattr(item, "kind", "absent") is None and defaults.kind:
                item.kind = defaults.kind
            if item.module is None:
                item.module = defaults.module
            if item.source is None:
                item.source = defaults.source


def _model_at(loc: tuple) -> type[pydantic.BaseModel] | None:
    """The pydantic model class that holds the field at loc (for 'did you mean' hints)."""
    current: type[pydantic.BaseModel] | None = model.ContentFile
    for part in loc[:-1]:
        if isinstance(part, int) or current is None:
            continue
        info = current.model_fields.get(part if part != "except" else "except_")
        current = _inner_model(info.annotation) if info else None
    return current


def _inner_model(annotation):
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return annotation
    if isinstance(annotation, str):
        return getattr(model, annotation, None)
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _report(source: SourceFile, item: ErrorDetails, problems: Problems) -> None:
    loc = tuple(part for part in item["loc"] if not (isinstance(part, str) and part[:1].isupper()))
    kind, value = item["type"], item.get("input")
    name = loc[-1] if loc else ""
    if kind == "extra_forbidden":
        owner = _model_at(loc)
        valid = [n if n != "except_" else "except" for n in (owner.model_fields if owner else [])]
        hint = nearest(str(name), valid) or ("valid fields: " + ", ".join(valid) if valid else "")
        problems.add(source.where(loc, key=True), f"unknown field '{name}'", hint)
    elif kind == "missing":
        problems.add(source.where(loc[:-1]), f"missing required field '{name}'",
                     f"add `{name}:` here ({see(topic_of_key(loc[0] if loc else ''))})")
    elif kind == ids.ERROR:  # an id of some kind (values/ids.py) that breaks its kind's rule
        problems.add(source.where(loc), *ids.KINDS[item["ctx"]["id_kind"]].message(str(value), name))
    elif kind == model.HINTED:  # a model rule's problem with its own hint
        problems.add(source.where(loc), item["msg"], item["ctx"]["hint"])
    elif kind == "literal_error":
        expected = item.get("ctx", {}).get("expected", "")
        choices = [c.strip(" '") for c in expected.replace(" or ", ",").split(",")]
        hint = nearest(str(value), choices) or f"expected {expected}"
        problems.add(source.where(loc), f"'{value}' is not allowed for '{name}'", hint)
    elif kind == "string_type" and isinstance(value, bool):
        problems.add(source.where(loc), f"'{name}' must be text, but YAML read a boolean",
                     "quote the value: YAML reads true and false as booleans")
    elif kind.endswith("_type") or kind.endswith("_parsing"):
        expected = kind.removesuffix("_type").removesuffix("_parsing").replace("_", " ")
        expected = {"model": "mapping", "dict": "mapping", "int": "whole number", "float": "number"}.get(expected, expected)
        got = type(value).__name__ if value is not None else "nothing"
        hint = {"mapping": "write `key: value` pairs, or {key: value, …}",
                "list": "write a list: [a, b], or one `- item` per line",
                "date": "write the date without quotes, as YYYY-MM-DD"}.get(
                    expected, "fix the value's type (quote text; write numbers without quotes)")
        problems.add(source.where(loc), f"'{name}' must be {_article(expected)}, got {got} {_short(value)}".rstrip(), hint)
    elif kind in ("too_short", "too_long"):
        problems.add(source.where(loc), f"'{name}': {item['msg'].lower()}",
                     "add entries" if kind == "too_short" else "remove entries")
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        problems.add(source.where(loc), f"'{name}' is out of range: {item['msg'].lower()}",
                     "write a number " + item["msg"].lower().removeprefix("input should be "))
    elif kind == "value_error" and isinstance(value, str) and (refused := model.refused_plain_text(value)):
        problems.add(source.find_text(loc, refused.group(0)), model.refused_message(refused), "write it out ('less than', 'and'); "
                     "plain text is never read as markup")
    elif kind == "value_error":
        problems.add(source.where(loc), item["msg"].removeprefix("Value error, "), see(topic_of_key(loc[0] if loc else "")))
    else:
        problems.add(source.where(loc), f"'{name}': {item['msg']}", see(topic_of_key(loc[0] if loc else "")))


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _short(value) -> str:
    text = repr(value)
    return f"({text[:40]}…)" if len(text) > 40 else f"({text})"

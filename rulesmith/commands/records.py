"""One way to record a change in a game's content: the steps `errata add` and `ruling add` share.

A record kind (RecordKind: an erratum, a ruling) says which file its records are appended to
(errata.yaml, rulings.yaml: its collection in the item registry), how its ids run (e1, e2 … and
r1, r2 …) and whether the game must check clean before one is recorded. A Recording then takes
the steps every record takes, in this order: find the game and check it as it is (Recording),
name what the record is about (resolve), give it its id (new_id), append it to its file, created
if missing (append), and write every file it changed only if the game checks with them (write):
their new bytes go beside them first (files.Staged), the game is checked as it will be, and only
then do they replace the old ones, so a refusal, a full disk or any other failure leaves every
content file byte for byte as it was. The line saying what was recorded is made here too
(Recorded.said). Each command keeps its own arguments, its own checks and its own messages.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulesmith.checks.check import check_game
from rulesmith.content import items
from rulesmith.content.game import load_game
from rulesmith.content.link import build_index, resolve
from rulesmith.content.load import display_path
from rulesmith.content.yamledit import append_record
from rulesmith.files import Staged
from rulesmith.problems import Problem, Problems, RulesmithError, nearest, say, system_error
from rulesmith.project import game_folders
from rulesmith.translations import freshness
from rulesmith.values import ids

if TYPE_CHECKING:
    from collections.abc import Callable

    from rulesmith.content.game import Game
    from rulesmith.content.link import Index


class RecordError(RulesmithError):
    """The record cannot be made; nothing was changed. Carries the lines to print: the problems,
    `error: …` and `hint: …` (a closing "(…)" of the message is its hint)."""

    command = "rulesmith --help"  # what the default hint sends the maintainer to

    def __init__(self, message: str, problems: list[Problem] | None = None, hint: str | None = None):
        self.problems = problems or []
        if hint is None and message.endswith(")") and " (" in message:
            message, _, hint = message.rpartition(" (")
            hint = hint[:-1]
        self.hint = hint or f"nothing was changed; `{self.command}` says what each argument takes"
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems] + [f"error: {self}", f"hint: {self.hint}"]


class ErrataError(RecordError):
    """The erratum cannot be applied; nothing was changed."""

    command = "rulesmith errata add --help"


class RulingError(RecordError):
    """The ruling cannot be recorded; nothing was changed."""

    command = "rulesmith ruling add --help"


@dataclass(frozen=True)
class RecordKind:
    item_type: items.ItemType  # its collection (errata), and so its file (errata.yaml)
    letter: str  # the ids given when none is asked for: e1, e2 …
    id_rule: ids.IdKind  # what an id of this kind may be (values/ids.py): its message and hint
    error: type[RecordError]
    # Whether the game must check clean before (a ruling), or is checked once, with the record
    # (an erratum: the refusal then says which problems were there before).
    clean_first: bool

    @property
    def name(self) -> str:
        return self.item_type.prefix  # "erratum", "ruling"

    @property
    def file_name(self) -> str:
        return f"{self.item_type.collection}.yaml"


ERRATUM = RecordKind(items.ERRATUM, "e", ids.ERRATUM_ID, ErrataError, clean_first=False)
RULING = RecordKind(items.RULING, "r", ids.RULING_ID, RulingError, clean_first=True)


@dataclass
class Recorded:
    """What a Recording wrote: the record's id and date, where it is, and the game as it is now."""

    kind: RecordKind
    id: str
    date: datetime.date
    game: Game
    index: Index
    file: Path  # as shown to the maintainer
    line: int
    created: bool  # the file did not exist before
    # What the record did to the game's translations: texts it made outdated, new ones untranslated.
    translations: list[freshness.Affected] = field(default_factory=list)

    def said(self, about: str = "") -> str:
        """The line that says where the record went: "errata.yaml:12: recorded erratum e2 (2026-03-01)"."""
        return (f"{self.file}:{self.line}: {'created the file and ' if self.created else ''}recorded "
                f"{self.kind.name} {self.id} ({self.date}){about}\n")

    def checked(self) -> str:
        return f"check: {self.game.id} ok\n"

    def translation_notes(self) -> str:
        """What the record did to the translations, a line per language and kind, or nothing."""
        lines = []
        for affected in self.translations:
            where, update = display_path(affected.path), f"`rulesmith translate update {self.game.id} {affected.language}`"
            if affected.outdated:
                lines.append(f"{where}: {len(affected.outdated)} translation(s) made outdated by {self.kind.name} "
                             f"{self.id}: {', '.join(affected.outdated)} ({update} marks them fuzzy with the old English)")
            if affected.untranslated:
                lines.append(f"{where}: not yet translated: {', '.join(affected.untranslated)}")
        return "".join(line + "\n" for line in lines)


class Recording:
    """One record on its way into a game: the game as it is, and the files as they will be."""

    def __init__(self, kind: RecordKind, content_dir: Path, game_id: str, today: datetime.date):
        self.kind, self.content_dir, self.today = kind, content_dir, today
        self.folder = game_folder(content_dir, game_id, kind.error)
        game, index, self.before = check_one_game(content_dir, self.folder, today)
        if kind.clean_first and self.before:  # a game that does not load has problems
            raise kind.error(f"game '{game_id}' does not check clean", self.before.sorted(),
                             hint=f"fix these first (`rulesmith check`), then record the {kind.name}")
        if game is None or index is None:
            raise kind.error(f"game '{game_id}' does not load; fix these first", self.before.sorted())
        self.game, self.index = game, index
        self.path = self.folder / kind.file_name  # the file the record is appended to
        self.created = not self.path.exists()
        self.changes: dict[Path, bytes] = {}  # every file the record changes, as it will be
        self.id = ""
        self.date = today
        self.line = 0  # of the record in its file

    @property
    def records(self) -> list:
        return items.items_of(self.game, self.kind.item_type)

    def resolve(self, target: str) -> str:
        """kind:id, or a bare id that names exactly one item of the game (a module is named kind:id)."""
        error, game_id, targets = self.kind.error, self.game.id, self.index.targets
        if ":" in target:
            if target in targets:
                return target
            hint = nearest(target, targets)
            raise error(f"no {target} in game '{game_id}'" + (f" ({hint})" if hint else ""))
        found = sorted(k for k in targets
                       if k.split(":", 1)[1] == target and items.key_type(k.partition(":")[0]) is not items.MODULE)
        if len(found) == 1:
            return found[0]
        if found:
            raise error(f"'{target}' is ambiguous: it is {', '.join(found)}; write one of them as kind:id")
        hint = nearest(target, {k.split(":", 1)[1] for k in targets})
        raise error(f"no item with id '{target}' in game '{game_id}'" + (f" ({hint})" if hint else ""))

    def new_id(self, given: str | None) -> str:
        """The id asked for (--id), else the next of the kind's sequence (e1, e2 …)."""
        kind = self.kind
        if given is None:
            numbers = [int(m.group(1)) for r in self.records if (m := re.fullmatch(rf"{kind.letter}(\d+)", r.id))]
            return f"{kind.letter}{max(numbers, default=0) + 1}"
        problem = kind.id_rule.problem(given)
        if problem:
            raise kind.error(f"--id '{given}' {problem}", hint=kind.id_rule.hint)
        for existing in self.records:
            if existing.id == given:
                file, line, column = existing.where("id")
                raise kind.error(f"{kind.name} id '{given}' already exists at {file}:{line}:{column}",
                                 hint="leave --id out for the next free one")
        return given

    def is_record_file(self, path: Path) -> bool:
        """Whether `path` is the file the record goes to (by any name)."""
        return self.path.exists() and path.exists() and os.path.samefile(path, self.path)

    def _changed(self, path: Path) -> Path | None:
        return next((p for p in self.changes if p == path or (p.exists() and path.exists() and os.path.samefile(p, path))),
                    None)

    def current(self, path: Path) -> bytes:
        """A content file's bytes as the record leaves them so far."""
        changed = self._changed(path)
        return self.changes[changed] if changed is not None else path.read_bytes()

    def change(self, path: Path, data: bytes) -> None:
        """A content file's new bytes, written with the record (or not at all)."""
        self.changes[self._changed(path) or path] = data

    def append(self, record: dict) -> None:
        """The record (id, date, …) after the last one of its file's list, the file created if missing."""
        self.id, self.date = record["id"], record["date"]
        before = self.current(self.path) if self._changed(self.path) or self.path.exists() else None
        data, self.line = append_record(self.path, before, self.folder, record, collection=self.kind.item_type.collection)
        self.change(self.path, data)

    def write(self, refused: Callable[[Problems], RecordError]) -> Recorded:
        """Write the changed files only if the game checks with them (files.Staged); anything else
        (a problem, a full disk, an interruption) leaves every file byte for byte as it was.
        `refused` says why, from the problems."""
        error, changes = self.kind.error, self.changes
        shown = ", ".join(str(display_path(path)) for path in changes)
        try:
            staged = Staged(changes)
        except OSError as failed:
            raise error(f"cannot write {display_path(Path(failed.filename)) if failed.filename else shown}: "
                        f"{failed.strerror}; no file was changed", hint=system_error(failed).hint) from None
        try:
            game, index, after = check_one_game(self.content_dir, self.folder, self.today, overlay=changes)
            if after or game is None or index is None:  # a game that does not load has problems
                raise refused(after)
            try:
                staged.swap()
            except OSError as failed:
                raise error(f"cannot replace {shown}: {failed.strerror}; no file was changed",
                            hint=system_error(failed).hint) from None
        finally:
            staged.discard()
        return Recorded(self.kind, self.id, self.date, game, index, display_path(self.path), self.line, self.created,
                        freshness.made_outdated(self.game, game))


def game_folder(content_dir: Path, game_id: str, error: type[RecordError] = RecordError) -> Path:
    """The folder of the game a command names (an id: never a path); else `error`, naming the games."""
    def has_game_yaml(folder: Path) -> bool:
        try:
            return (folder / "game.yaml").is_file()
        except OSError:  # unreadable: the check says so
            return False

    if ids.GAME_ID.problem(game_id) is None and has_game_yaml(content_dir / game_id):
        return content_dir / game_id
    try:
        games = sorted(p.name for p in game_folders(content_dir) if has_game_yaml(p))
    except OSError:
        games = []
    raise error(f"no game '{game_id}' in {content_dir}",
                hint=nearest(game_id, games) or f"games: {', '.join(games) or 'none'}")


def check_one_game(content_dir: Path, folder: Path, today: datetime.date | None = None,
                   overlay: dict[Path, bytes] | None = None) -> tuple[Game | None, Index | None, Problems]:
    """load → model → link → check for one game folder (other games cannot be affected by it);
    `overlay`: files as the command is about to write them (game.load_game)."""
    problems = Problems()
    game = load_game(folder, problems, content_dir, overlay)
    if game is None:
        return None, None, problems
    index = build_index(game, problems)
    resolve(game, index, problems)
    check_game(game, index, problems, today)
    return game, index, problems


# ---------------------------------------------------------------- the arguments both commands take

class RefusingParser(argparse.ArgumentParser):
    """A command that writes content refuses a bad argument as every refusal: `error: …` with a
    hint, exit 1 (argparse's own is exit 2 and no hint)."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        say(f"error: {message}\nhint: `{self.prog} --help` says what each argument takes", sys.stderr)
        raise SystemExit(1)


def add_source_arguments(parser, *, record: str, kinds, url_required: bool, description_example: str) -> None:
    """The options every recorded change shares (errata and rulings): who said it, where, when."""
    parser.add_argument("--source", dest="source_kind", required=True, choices=kinds,
                        help=f"where the {record} comes from")
    parser.add_argument("--description", required=True, help=f"the source, e.g. {description_example}")
    if url_required:  # a ruling: a published answer (--url) or one without an address (--where)
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--url", help=f"https:// link to where the {record} is published")
        where.add_argument("--where", help=f"where the {record} was given, when it has no address: "
                           '"e-mail from the designer, 2026-11-30", "at the convention"')
    else:
        parser.add_argument("--url", help=f"https:// link to where the {record} is published")
    parser.add_argument("--date", help=f"date of the {record}, YYYY-MM-DD (default: today)")


def parse_date(text: str | None, error: type[RecordError] = RecordError) -> datetime.date | None:
    """--date YYYY-MM-DD as a real day; a refusal is `error` (exit 1), not argparse's exit 2."""
    if text is None:
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        raise error(f"--date '{text}' is not a date written YYYY-MM-DD", hint="write the date as 2026-03-01")
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError as reason:
        raise error(f"--date '{text}' is not a real day: {reason}", hint="check the month and the day") from None


def add_command(parser, dest: str, help: str, description: str):
    """The one subcommand of `rulesmith errata` and `rulesmith ruling`: `add`, refusing as every
    command refuses (RefusingParser). Returns its parser, for the command's own arguments."""
    sub = parser.add_subparsers(dest=dest, required=True, metavar="add", parser_class=RefusingParser)
    add = sub.add_parser("add", help=help, description=description)
    add.add_argument("game", help="game id (its folder under content/)")
    return add

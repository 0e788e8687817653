"""`rulesmith errata add`: change one canonical value and record the erratum (issue: errata).

The command edits the YAML in place: only the text of the one scalar that changes is replaced
(at the line and column the loader recorded), so comments, quoting, key order and every other
byte of the file stay as they were. The record is appended to `content/<game>/errata.yaml`.
Both files are written beside the old ones and checked as the game will be; only if the check
passes do they replace the old ones (errata.write_checked, files.Staged), so a refusal, a full
disk or any other failure leaves every content file byte for byte as it was: an erratum is
applied whole or not at all.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import re
import sys
import typing
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path

from rulesmith.checks.check import ERRATUM_FIELDS, Slot, check_game, erratum_slot, same_value
from rulesmith.content import model
from rulesmith.content.game import Game, load_game
from rulesmith.content.link import Index, build_index, resolve
from rulesmith.content.load import SourceFile, display_path
from rulesmith.content.yamledit import EditError, append_record, flow_scalar, replace_scalar  # noqa: F401 (flow_scalar: tests)
from rulesmith.files import Staged
from rulesmith.problems import RESULTS, Problem, Problems, RulesmithError, nearest, say, system_error
from rulesmith.project import game_folders
from rulesmith.values import fieldtypes, ids, outcomes

if typing.TYPE_CHECKING:
    from collections.abc import Callable

SOURCE_KINDS = typing.get_args(model.ErratumSource.model_fields["kind"].annotation)
LIST_TYPES = ("ref-list", "text-list", "string-list", "integer-list")


class ErrataError(RulesmithError):
    """The erratum (or ruling) cannot be recorded; nothing was changed. Carries the lines to print:
    the problems, `error: …` and `hint: …` (a closing "(…)" of the message is its hint)."""

    command = "rulesmith errata add --help"

    def __init__(self, message: str, problems: list[Problem] | None = None, hint: str | None = None):
        self.problems = problems or []
        if hint is None and message.endswith(")") and " (" in message:
            message, _, hint = message.rpartition(" (")
            hint = hint[:-1]
        self.hint = hint or f"nothing was changed; `{self.command}` says what each argument takes"
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems] + [f"error: {self}", f"hint: {self.hint}"]


@dataclass
class Applied:
    """What `add_erratum` changed."""

    erratum_id: str
    date: datetime.date
    target: str
    field: str
    old: object
    new: object
    data_file: Path
    data_line: int
    data_column: int
    errata_file: Path
    errata_line: int
    created: bool  # errata.yaml did not exist before
    examples: list = dc_field(default_factory=list)  # (example id, printed, was, now) of every example it changed


# ---------------------------------------------------------------- the command line

class RefusingParser(argparse.ArgumentParser):
    """A command that writes content refuses a bad argument as every refusal: `error: …` with a
    hint, exit 1 (argparse's own is exit 2 and no hint)."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        say(f"error: {message}\nhint: `{self.prog} --help` says what each argument takes", sys.stderr)
        raise SystemExit(1)


def configure(parser) -> None:
    sub = parser.add_subparsers(dest="errata_command", required=True, metavar="add", parser_class=RefusingParser)
    add = sub.add_parser(
        "add", help="change one value in the YAML and record the erratum",
        description="Change one canonical value in place (comments and formatting kept) and append "
                    "the erratum record to content/<game>/errata.yaml; the game is checked with both "
                    "changes first, and no file is changed if the check fails.")
    add.add_argument("game", help="game id (its folder under content/)")
    add.add_argument("target", metavar="entity-id",
                     help="what the erratum changes: kind:id (card:interpol, table:conflict-dice, rule:setup …) "
                          "or a bare id when it is unique in the game")
    add.add_argument("field", help=f"the value it changes: {ERRATUM_FIELDS}; a bare <field> means fields.<field>")
    add.add_argument("new_value", metavar="new-value",
                     help="the corrected value, converted to the field's type (integer, boolean, text …)")
    add_source_arguments(add, record="erratum", kinds=SOURCE_KINDS, url_required=False,
                         description_example='"Publisher FAQ v2" or "Reader report on the forum"')
    add.add_argument("--note", required=True, help="what changed and why (Markdown, shown in the changelog)")
    add.add_argument("--id", dest="erratum_id", help="erratum id (default: the next e1, e2 …)")
    add.set_defaults(run=cmd_add)


def add_source_arguments(parser, *, record: str, kinds, url_required: bool, description_example: str) -> None:
    """The options every recorded change shares (errata and rulings): who said it, where, when."""
    parser.add_argument("--source", dest="source_kind", required=True, choices=kinds,
                        help=f"where the {record} comes from")
    parser.add_argument("--description", required=True, help=f"the source, e.g. {description_example}")
    parser.add_argument("--url", required=url_required, help=f"https:// link to where the {record} is published")
    parser.add_argument("--date", help=f"date of the {record}, YYYY-MM-DD (default: today)")


def parse_date(text: str | None, error=None) -> datetime.date | None:
    """--date YYYY-MM-DD as a real day; a refusal is an ErrataError (exit 1), not argparse's exit 2."""
    error = error or ErrataError
    if text is None:
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        raise error(f"--date '{text}' is not a date written YYYY-MM-DD", hint="write the date as 2026-03-01")
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError as reason:
        raise error(f"--date '{text}' is not a real day: {reason}", hint="check the month and the day") from None


def cmd_add(args) -> int:
    applied = add_erratum(Path(args.content), args.game, args.target, args.field, args.new_value,
                          source_kind=args.source_kind, description=args.description, url=args.url,
                          note=args.note, date=parse_date(args.date), erratum_id=args.erratum_id)
    RESULTS.info(f"{applied.data_file}:{applied.data_line}:{applied.data_column}: {applied.target} {applied.field}: "
                 f"{_show(applied.old)} → {_show(applied.new)}\n")
    RESULTS.info(f"{applied.errata_file}:{applied.errata_line}: {'created the file and ' if applied.created else ''}"
                 f"recorded erratum {applied.erratum_id} ({applied.date})\n")
    for example_id, printed, was, now in applied.examples:
        RESULTS.info(f"example:{example_id}: the rulebook prints {_show(printed)}; with erratum {applied.erratum_id} "
                     f"it is now {_show(now)}" + (f" (was {_show(was)})" if was is not None and was != printed else "")
                     + "\n")
    RESULTS.info(f"check: {args.game} ok\n")
    return 0


def _show(value) -> str:
    """A value in a message: a text quoted, anything else as readers see it (fieldtypes.shown)."""
    text = repr(value) if isinstance(value, str) else fieldtypes.shown(value)
    text = text.replace("\\n", " ")
    return text if len(text) <= 80 else text[:77] + "…"


# ---------------------------------------------------------------- applying an erratum

def game_folder(content_dir: Path, game_id: str, error: type[ErrataError] = ErrataError) -> Path:
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


def add_erratum(content_dir: Path, game_id: str, target: str, field: str, new_value: str, *,
                source_kind: str, description: str, note: str, url: str | None = None,
                date: datetime.date | None = None, erratum_id: str | None = None,
                today: datetime.date | None = None) -> Applied:
    """Apply one erratum to the content and record it, atomically; raises ErrataError."""
    today = today or datetime.date.today()
    date = date or today
    if source_kind not in SOURCE_KINDS:
        raise ErrataError(f"unknown source '{source_kind}' (one of {', '.join(SOURCE_KINDS)})")
    url_problem = model.https_url_problem(url) if url is not None else None
    if url_problem:
        raise ErrataError(f"--url is refused: {url_problem} (give the https:// address of the page as a browser shows it)")
    if not note.strip() or not description.strip():
        raise ErrataError("--note and --description must say something",
                          hint="--description names the source, --note says what changed and why")
    folder = game_folder(content_dir, game_id)
    game, index, before = check_one_game(content_dir, folder, today)
    if game is None or index is None:
        raise ErrataError(f"game '{game_id}' does not load; fix these first", before.sorted())

    key = resolve_target(index, target, game_id)
    field, slot = _resolve_field(game, index, key, field)
    path, old = _value_path(slot, key, field)
    new = _typed(new_value, slot.type, field)
    if same_value(old, new):
        raise ErrataError(f"{key} {field} is already {_show(new)}; nothing to change")
    if erratum_id is None:
        numbers = [int(m.group(1)) for e in game.errata if (m := re.fullmatch(r"e(\d+)", e.id))]
        erratum_id = f"e{max(numbers, default=0) + 1}"
    elif problem := ids.ERRATUM_ID.problem(erratum_id):
        raise ErrataError(f"--id '{erratum_id}' {problem}", hint=ids.ERRATUM_ID.hint)
    for existing in game.errata:
        if existing.id == erratum_id:
            file, line, column = existing.where("id")
            raise ErrataError(f"erratum id '{erratum_id}' already exists at {file}:{line}:{column}")

    source: SourceFile = slot.item._file
    data_path = Path(source.path)
    line, column = source.values[path]
    data_before = data_path.read_bytes()
    data_after = replace_scalar(data_before.decode("utf-8"), line, column, new).encode("utf-8")

    errata_path = folder / "errata.yaml"
    if errata_path.exists() and errata_path.samefile(data_path):
        raise ErrataError(f"{key} is defined in {errata_path} itself; move it to its own file first")
    created = not errata_path.exists()
    errata_before = None if created else errata_path.read_bytes()
    record = {"id": erratum_id, "date": date,
              "source": {"kind": source_kind, "description": description, **({"url": url} if url else {})},
              "target": key, "field": field, "old": _record_value(old), "new": new, "note": note}
    errata_after, record_line = append_record(errata_path, errata_before, folder, record)

    def refused(after: Problems) -> ErrataError:
        known = {(p.file, p.message) for p in before.items}
        new_count = sum((p.file, p.message) not in known for p in after.items)
        if new_count == 0:
            reason = (f"game '{game_id}' does not check: {len(after)} problem(s), all there before this "
                      "erratum; fix them first (`rulesmith check`)")
        else:
            reason = f"with it, game '{game_id}' has {len(after)} problem(s)" + (
                f" ({len(after) - new_count} of them there before)" if new_count < len(after) else "")
        return ErrataError(f"erratum not applied: {reason}; no file was changed", after.sorted())

    game_after, index_after = write_checked(content_dir, folder, {data_path: data_after, errata_path: errata_after},
                                            today, refused)
    was = outcomes.outcomes(game, index)
    changed = [(o.example.id, o.printed, was[o.example.id].current if o.example.id in was else None, o.current)
               for o in outcomes.outcomes(game_after, index_after).values()
               if o.example.id not in was or was[o.example.id].current != o.current]
    return Applied(erratum_id, date, key, field, old, new, data_path, line, column,
                   display_path(errata_path), record_line, created, changed)


def write_checked(content_dir: Path, folder: Path, changes: dict[Path, bytes], today: datetime.date | None,
                  refused: Callable[[Problems], ErrataError]) -> tuple[Game, Index]:
    """Write the changed content files of a game only if the game checks with them: their new
    bytes go beside them first (files.Staged), the game is checked as it will be, and only then
    do they replace the old ones; anything else (a problem, a full disk, an interruption) leaves
    every file byte for byte as it was. `refused` says why, from the problems."""
    shown = ", ".join(str(display_path(path)) for path in changes)
    try:
        staged = Staged(changes)
    except OSError as error:
        raise ErrataError(f"cannot write {display_path(Path(error.filename)) if error.filename else shown}: "
                          f"{error.strerror}; no file was changed", hint=system_error(error).hint) from None
    try:
        game, index, after = check_one_game(content_dir, folder, today, overlay=changes)
        if after or game is None or index is None:  # a game that does not load has problems
            raise refused(after)
        try:
            staged.swap()
        except OSError as error:
            raise ErrataError(f"cannot replace {shown}: {error.strerror}; no file was changed",
                              hint=system_error(error).hint) from None
    finally:
        staged.discard()
    return game, index


def resolve_target(index: Index, target: str, game_id: str) -> str:
    """kind:id, or a bare id that names exactly one item of the game."""
    if ":" in target:
        if target in index.targets:
            return target
        hint = nearest(target, index.targets)
        raise ErrataError(f"no {target} in game '{game_id}'" + (f" ({hint})" if hint else ""))
    found = sorted(k for k in index.targets if k.split(":", 1)[1] == target and not k.startswith("module:"))
    if len(found) == 1:
        return found[0]
    if found:
        raise ErrataError(f"'{target}' is ambiguous: it is {', '.join(found)}; write one of them as kind:id")
    hint = nearest(target, {k.split(":", 1)[1] for k in index.targets})
    raise ErrataError(f"no item with id '{target}' in game '{game_id}'" + (f" ({hint})" if hint else ""))


def _resolve_field(game: Game, index: Index, key: str, field: str) -> tuple[str, Slot]:
    item = index.targets[key].item
    try:
        return field, erratum_slot(game, index, key, field)
    except LookupError as error:
        if "." not in field and isinstance(item, model.Entity):
            try:
                return f"fields.{field}", erratum_slot(game, index, key, f"fields.{field}")
            except LookupError:
                pass
        choices = fields_of(game, item)
        short = {c.removeprefix("fields."): c for c in choices}  # "costs" is close to cost: fields.cost
        close = difflib.get_close_matches(field.removeprefix("fields."), list(short), n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(short[c] for c in close)}?" if close else ""
        raise ErrataError(f"{key}: {error.args[0]} ({hint + ' ' if hint else ''}fields of {key}: "
                          f"{', '.join(choices)})") from None


def fields_of(game: Game, item) -> list[str]:
    """The field names an erratum of this item can use (for hints)."""
    found = [name for name in ("name", "title", "term", "text", "body", "description", "definition")
             if name in type(item).model_fields]
    kind = game.kind(item.kind) if isinstance(item, model.Entity) else None
    if kind is not None:
        found += [f"fields.{f.id}" for f in kind.fields]
    if isinstance(item, model.Table):
        found += [f"rows.<key>.{c.id}" for c in item.columns[1:]]
    if isinstance(item, model.Procedure):
        found += [f"nodes.{n.id}.text" for n in item.nodes]
    return found


def _value_path(slot: Slot, key: str, field: str) -> tuple[tuple, object]:
    """The data path of the scalar to replace (inside a status wrapper) and its current value."""
    if slot.key_column:
        raise ErrataError(f"{key} {field} is the row key; change the key by hand (and the errata naming it)")
    if slot.type in LIST_TYPES or isinstance(slot.value, (list, dict)):
        raise ErrataError(f"{key} {field} is a list ({slot.type}); `errata add` changes one scalar value: "
                          "edit the YAML by hand and add the record to errata.yaml")
    path = slot.item._path + slot.path
    if isinstance(slot.raw, dict):
        if "value" not in slot.raw:
            raise ErrataError(f"{key} {field} has no value (status {slot.raw.get('status')}): "
                              "write `value:` (and the status) by hand, then add the record")
        path += ("value",)
    elif slot.raw is None:
        raise ErrataError(f"{key} {field} has no value yet: add it to the YAML by hand, then add the record")
    if path not in slot.item._file.values:
        raise ErrataError(f"cannot find {key} {field} in {slot.item._file.path}")
    return path, slot.value


def _typed(text: str, kind: str, field: str):
    """The command-line value as the field's type (fieldtypes): integer stays integer, and so on."""
    if kind not in fieldtypes.REGISTRY:
        return text
    try:
        return fieldtypes.field_type(kind).from_cli(text)
    except fieldtypes.FieldTypeError as error:
        raise ErrataError(f"{field} {error.args[0]} ({error.args[1]})") from None


def _record_value(value):
    """Old values as the record keeps them: text without the trailing line break of a block."""
    return value.rstrip("\n") if isinstance(value, str) else value

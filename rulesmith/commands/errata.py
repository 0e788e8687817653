"""`rulesmith errata add`: change one canonical value and record the erratum (issue: errata).

The command edits the YAML in place: only the text of the one scalar that changes is replaced
(at the line and column the loader recorded), so comments, quoting, key order and every other
byte of the file stay as they were. The record is appended to `content/<game>/errata.yaml`.
The record is made as every record is (commands/records.py, as `ruling add` makes its own): both
files are written beside the old ones and checked as the game will be; only if the check passes
do they replace the old ones, so a refusal, a full disk or any other failure leaves every
content file byte for byte as it was: an erratum is applied whole or not at all.
"""

from __future__ import annotations

import datetime
import difflib
import typing
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path

from rulesmith.checks.check import ERRATUM_FIELDS, Slot, erratum_slot, same_value
from rulesmith.commands.records import (
    ERRATUM,
    ErrataError,
    Recorded,
    Recording,
    add_command,
    add_source_arguments,
    parse_date,
)
from rulesmith.content import model
from rulesmith.content.yamledit import replace_scalar
from rulesmith.problems import RESULTS
from rulesmith.values import fieldtypes, outcomes

if typing.TYPE_CHECKING:
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index
    from rulesmith.content.load import SourceFile
    from rulesmith.problems import Problems

SOURCE_KINDS = typing.get_args(model.ErratumSource.model_fields["kind"].annotation)
LIST_TYPES = ("ref-list", "text-list", "string-list", "integer-list")


@dataclass
class Applied:
    """What `add_erratum` changed: the value, and the record (records.Recorded)."""

    record: Recorded
    target: str
    field: str
    old: object
    new: object
    data_file: Path
    data_line: int
    data_column: int
    examples: list = dc_field(default_factory=list)  # (example id, printed, was, now) of every example it changed


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    add = add_command(parser, "errata_command", "change one value in the YAML and record the erratum",
                      "Change one canonical value in place (comments and formatting kept) and append the erratum "
                      "record to content/<game>/errata.yaml; the game is checked with both changes first, and no "
                      "file is changed if the check fails.")
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


def cmd_add(args) -> int:
    applied = add_erratum(Path(args.content), args.game, args.target, args.field, args.new_value,
                          source_kind=args.source_kind, description=args.description, url=args.url,
                          note=args.note, date=parse_date(args.date, ErrataError), erratum_id=args.erratum_id)
    record = applied.record
    RESULTS.info(f"{applied.data_file}:{applied.data_line}:{applied.data_column}: {applied.target} {applied.field}: "
                 f"{_show(applied.old)} → {_show(applied.new)}\n")
    RESULTS.info(record.said())
    for example_id, printed, was, now in applied.examples:
        RESULTS.info(f"example:{example_id}: the rulebook prints {_show(printed)}; with erratum {record.id} "
                     f"it is now {_show(now)}" + (f" (was {_show(was)})" if was is not None and was != printed else "")
                     + "\n")
    RESULTS.info(record.translation_notes())
    RESULTS.info(record.checked())
    return 0


def _show(value) -> str:
    """A value in a message: a text quoted, anything else as readers see it (fieldtypes.shown)."""
    text = repr(value) if isinstance(value, str) else fieldtypes.shown(value)
    text = text.replace("\\n", " ")
    return text if len(text) <= 80 else text[:77] + "…"


# ---------------------------------------------------------------- applying an erratum

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
    recording = Recording(ERRATUM, content_dir, game_id, today)
    game, index = recording.game, recording.index
    key = recording.resolve(target)
    field, slot = _resolve_field(game, index, key, field)
    path, old = _value_path(slot, key, field)
    new = _typed(new_value, slot.type, field)
    if same_value(old, new):
        raise ErrataError(f"{key} {field} is already {_show(new)}; nothing to change")
    erratum_id = recording.new_id(erratum_id)

    source: SourceFile = slot.item._file
    data_path = Path(source.path)
    if recording.is_record_file(data_path):
        raise ErrataError(f"{key} is defined in {recording.path} itself; move it to its own file first")
    line, column = source.values[path]
    recording.change(data_path, replace_scalar(data_path.read_bytes().decode("utf-8"), line, column, new).encode("utf-8"))
    recording.append({"id": erratum_id, "date": date,
                      "source": {"kind": source_kind, "description": description, **({"url": url} if url else {})},
                      "target": key, "field": field, "old": _record_value(old), "new": new, "note": note})

    def refused(after: Problems) -> ErrataError:
        known = {(p.file, p.message) for p in recording.before.items}
        new_count = sum((p.file, p.message) not in known for p in after.items)
        if new_count == 0:
            reason = (f"game '{game_id}' does not check: {len(after)} problem(s), all there before this "
                      "erratum; fix them first (`rulesmith check`)")
        else:
            reason = f"with it, game '{game_id}' has {len(after)} problem(s)" + (
                f" ({len(after) - new_count} of them there before)" if new_count < len(after) else "")
        return ErrataError(f"erratum not applied: {reason}; no file was changed", after.sorted())

    record = recording.write(refused)
    was = outcomes.outcomes(game, index)
    changed = [(o.example.id, o.printed, was[o.example.id].current if o.example.id in was else None, o.current)
               for o in outcomes.outcomes(record.game, record.index).values()
               if o.example.id not in was or was[o.example.id].current != o.current]
    return Applied(record, key, field, old, new, data_path, line, column, changed)


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

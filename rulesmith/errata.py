"""`rulesmith errata add`: change one canonical value and record the erratum (issue: errata).

The command edits the YAML in place: only the text of the one scalar that changes is replaced
(at the line and column the loader recorded), so comments, quoting, key order and every other
byte of the file stay as they were. The record is appended to `content/<game>/errata.yaml`.
Then the game is checked again; if it fails, both files are restored: an erratum is applied
whole or not at all.
"""

from __future__ import annotations

import datetime
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from . import fieldtypes, model
from .files import write_atomic
from .check import ERRATUM_FIELDS, Slot, check_game, erratum_slot, same_value
from .game import Game, load_game
from .link import Index, build_index, resolve
from .load import SourceFile, display_path, read_file, read_scalar_text
from .problems import Problem, Problems, RulesmithError, nearest

SOURCE_KINDS = ("publisher-faq", "reader-report", "transcription-fix")
SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/content.schema.json"
LIST_TYPES = ("ref-list", "text-list", "string-list", "integer-list")
ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
WIDE = 10**9  # never fold long lines


class ErrataError(RulesmithError):
    """The erratum cannot be applied; nothing was changed. Carries the lines to print."""

    def __init__(self, message: str, problems: list[Problem] | None = None):
        self.problems = problems or []
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems] + [f"error: {self}"]


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


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    sub = parser.add_subparsers(dest="errata_command", required=True, metavar="add")
    add = sub.add_parser(
        "add", help="change one value in the YAML and record the erratum",
        description="Change one canonical value in place (comments and formatting kept) and append "
                    "the erratum record to content/<game>/errata.yaml; the game is checked again and "
                    "both files are restored if the check fails.")
    add.add_argument("game", help="game id (its folder under content/)")
    add.add_argument("target", metavar="entity-id",
                     help="what the erratum changes: kind:id (card:interpol, table:conflict-dice, rule:setup …) "
                          "or a bare id when it is unique in the game")
    add.add_argument("field", help=f"the value it changes: {ERRATUM_FIELDS}; a bare <field> means fields.<field>")
    add.add_argument("new_value", metavar="new-value",
                     help="the corrected value, converted to the field's type (integer, boolean, text …)")
    add.add_argument("--source", dest="source_kind", required=True, choices=SOURCE_KINDS,
                     help="where the erratum comes from")
    add.add_argument("--description", required=True,
                     help='the source, e.g. "Publisher FAQ v2" or "Reader report on the forum"')
    add.add_argument("--url", help="https:// link to the source")
    add.add_argument("--note", required=True, help="what changed and why (Markdown, shown in the changelog)")
    add.add_argument("--date", type=_date_argument, help="date of the erratum, YYYY-MM-DD (default: today)")
    add.add_argument("--id", dest="erratum_id", help="erratum id (default: the next e1, e2 …)")
    add.set_defaults(run=cmd_add)


def _date_argument(text: str) -> datetime.date:
    import argparse

    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a date written YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"'{text}' is not a valid date: {error}") from None


def cmd_add(args) -> int:
    applied = add_erratum(Path(args.content), args.game, args.target, args.field, args.new_value,
                          source_kind=args.source_kind, description=args.description, url=args.url,
                          note=args.note, date=args.date, erratum_id=args.erratum_id)
    print(f"{applied.data_file}:{applied.data_line}:{applied.data_column}: {applied.target} {applied.field}: "
          f"{_show(applied.old)} → {_show(applied.new)}")
    print(f"{applied.errata_file}:{applied.errata_line}: {'created the file and ' if applied.created else ''}"
          f"recorded erratum {applied.erratum_id} ({applied.date})")
    print(f"check: {args.game} ok")
    return 0


def _show(value) -> str:
    text = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    text = text.replace("\\n", " ")
    return text if len(text) <= 80 else text[:77] + "…"


# ---------------------------------------------------------------- applying an erratum

def check_one_game(content_dir: Path, folder: Path, today: datetime.date | None = None
                   ) -> tuple[Game | None, Index | None, Problems]:
    """load → model → link → check for one game folder (other games cannot be affected by it)."""
    problems = Problems()
    game = load_game(folder, problems, content_dir)
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
        raise ErrataError("--note and --description must say something")
    folder = content_dir / game_id
    if not (folder / "game.yaml").is_file():
        games = [p.name for p in content_dir.iterdir() if (p / "game.yaml").is_file()] if content_dir.is_dir() else []
        raise ErrataError(f"no game '{game_id}' in {content_dir}"
                          + (f" ({nearest(game_id, games)})" if nearest(game_id, games) else
                             f" (games: {', '.join(sorted(games)) or 'none'})"))
    game, index, before = check_one_game(content_dir, folder, today)
    if game is None:
        raise ErrataError(f"game '{game_id}' does not load; fix these first", before.sorted())

    key = _resolve_target(index, target, game_id)
    field, slot = _resolve_field(game, index, key, field)
    path, old = _value_path(slot, key, field)
    new = _typed(new_value, slot.type, field)
    if same_value(old, new):
        raise ErrataError(f"{key} {field} is already {_show(new)}; nothing to change")
    if erratum_id is None:
        numbers = [int(m.group(1)) for e in game.errata if (m := re.fullmatch(r"e(\d+)", e.id))]
        erratum_id = f"e{max(numbers, default=0) + 1}"
    elif not ID.fullmatch(erratum_id):
        raise ErrataError(f"--id '{erratum_id}' is not a valid id (lower-case kebab-case, e.g. e3 or faq-2-cost)")
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

    try:
        _write(data_path, data_after)
        _write(errata_path, errata_after)
        _game, _index, after = check_one_game(content_dir, folder, today)
        if after:
            was = {(p.file, p.message) for p in before.items}
            new_count = sum((p.file, p.message) not in was for p in after.items)
            if new_count == 0:
                reason = (f"game '{game_id}' does not check: {len(after)} problem(s), all there before this "
                          "erratum; fix them first (`rulesmith check`)")
            else:
                reason = f"with it, game '{game_id}' has {len(after)} problem(s)" + (
                    f" ({len(after) - new_count} of them there before)" if new_count < len(after) else "")
            raise ErrataError(f"erratum not applied: {reason}; both files are restored", after.sorted())
    except BaseException:
        _write(data_path, data_before)
        if created:
            errata_path.unlink(missing_ok=True)
        else:
            _write(errata_path, errata_before)
        raise
    return Applied(erratum_id, date, key, field, old, new, data_path, line, column,
                   display_path(errata_path), record_line, created)


def _write(path: Path, data: bytes) -> None:
    """Replace a file in one rename (never half written), keeping its permissions."""
    write_atomic(path, data, mode_from=path)


def _resolve_target(index: Index, target: str, game_id: str) -> str:
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
    if isinstance(item, model.Entity) and game.kind(item.kind):
        found += [f"fields.{f.id}" for f in game.kind(item.kind).fields]
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


# ---------------------------------------------------------------- YAML text, edited in place

def _token_at(text: str, line: int, column: int):
    """The token starting at (1-based) line:column, as the loader recorded it; the tokens after
    it; and whether it stands inside a flow collection ({…} or […]), where plain text is stricter."""
    tokens = yaml.scan(text, Loader=yaml.SafeLoader)
    depth = 0
    for token in tokens:
        if token.start_mark.line == line - 1 and token.start_mark.column == column - 1 \
                and not isinstance(token, (yaml.BlockEndToken, yaml.BlockMappingStartToken,
                                           yaml.BlockSequenceStartToken, yaml.KeyToken, yaml.ValueToken)):
            return token, tokens, depth > 0
        if isinstance(token, (yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)):
            depth += 1
        elif isinstance(token, (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
            depth -= 1
    raise ErrataError(f"no YAML value at line {line}, column {column}")


def replace_scalar(text: str, line: int, column: int, value) -> str:
    """`text` with the scalar starting at line:column replaced by `value`, nothing else touched."""
    token, _, in_flow = _token_at(text, line, column)
    if not isinstance(token, yaml.ScalarToken):
        raise ErrataError(f"line {line}, column {column} holds a collection, not a single value")
    start, end = token.start_mark.index, token.end_mark.index
    if token.style in ("|", ">"):
        segment = text[start:end]
        kept = segment.rstrip("\n ")  # trailing blank lines belong to the layout, not the value
        end = start + len(kept)
        replacement = _block(segment, value, text, start) if isinstance(value, str) else None
        if replacement is None:
            replacement = flow_scalar(value, '"', in_flow)
    else:
        replacement = flow_scalar(value, token.style, in_flow)
    return text[:start] + replacement + text[end:]


def _block(segment: str, value: str, text: str, start: int) -> str | None:
    """A block scalar with the original header and indentation holding `value`, if it can."""
    header, _, body = segment.partition("\n")
    if value.startswith((" ", "\n")) or not value.strip():
        return None  # would need an indentation indicator: write it quoted instead
    if "\n" in value.rstrip("\n") and header.startswith(">"):
        header = "|" + header[1:]  # folding would turn the line breaks into spaces
    content = [l for l in body.split("\n") if l.strip()]
    if content:
        indent = len(content[0]) - len(content[0].lstrip(" "))
    else:
        line_start = text.rfind("\n", 0, start) + 1
        own = text[line_start:start]
        indent = len(own) - len(own.lstrip(" ")) + 2
    lines = [(" " * indent + l) if l.strip() else "" for l in value.rstrip("\n").split("\n")]
    return header + "\n" + "\n".join(lines)


def flow_scalar(value, style: str | None = None, in_flow: bool = True) -> str:
    """One value as a YAML scalar on one line that reads back as exactly `value`.

    Strings keep the given quoting style where it can hold them ('"', "'", or None for plain)
    and are double-quoted where plain text would read as something else (yes, 3, a: b …);
    `in_flow`: the scalar stands inside {…} or […], where fewer plain strings are safe.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return yaml.safe_dump(value).split("\n", 1)[0]
    if not isinstance(value, str):
        raise ErrataError(f"cannot write {value!r} as one YAML value")
    if in_flow:
        plain_text = yaml.safe_dump([value], default_flow_style=True, width=WIDE, allow_unicode=True).strip()[1:-1]
    else:
        plain_text = yaml.safe_dump(value, width=WIDE, allow_unicode=True).removesuffix("\n...\n")
    if style is None and plain_text == value:
        out = value
    elif style == "'" and "\n" not in value and value.isprintable():
        out = "'" + value.replace("'", "''") + "'"
    else:
        out = yaml.safe_dump(value, default_style='"', width=WIDE, allow_unicode=True).strip()
    if not _reads_back(out, value, in_flow):  # quote where any reader (YAML 1.1 or 1.2) could differ
        out = yaml.safe_dump(value, default_style='"', width=WIDE, allow_unicode=True).strip()
    if not _reads_back(out, value, in_flow):
        raise ErrataError(f"cannot write {value!r} as one YAML value that reads back the same")
    return out


def _reads_back(out: str, value, in_flow: bool) -> bool:
    """Whether a written scalar reads back as `value` for PyYAML (YAML 1.1) and for Rulesmith and
    editors (YAML 1.2), in block and, where it stands in one, in flow context."""
    texts = [f"k: {out}"] + ([f"{{k: {out}}}"] if in_flow else [])
    for text in texts:
        try:
            if yaml.safe_load(text) != {"k": value} or read_scalar_text(text) != {"k": value}:
                return False
        except yaml.YAMLError:
            return False
    return True



FREE_TEXT = ("description", "url", "note")  # quoted in records, as in the content files


def _record_scalar(name: str, value, indent: int, in_flow: bool = False) -> str:
    """A record value: multi-line text as a literal block, anything else as one scalar."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and "\n" in value and not value.startswith((" ", "\n")) and not in_flow:
        return "|-\n" + "\n".join((" " * indent + l) if l.strip() else "" for l in value.split("\n"))
    return flow_scalar(value, '"' if name in FREE_TEXT else None, in_flow)


def format_record(record: dict, dash: int, indent: int) -> str:
    """An erratum as a block list item, `dash` spaces before the '-', keys at `indent`."""
    lines = []
    for n, (name, value) in enumerate(record.items()):
        if isinstance(value, dict):
            text = "{" + ", ".join(f"{k}: {_record_scalar(k, v, 0, True)}" for k, v in value.items()) + "}"
        else:
            text = _record_scalar(name, value, indent + 2)
        prefix = " " * dash + "- " + " " * (indent - dash - 2) if n == 0 else " " * indent
        lines.append(f"{prefix}{name}: {text}")
    return "\n".join(lines)


def append_record(path: Path, before: bytes | None, folder: Path, record: dict) -> tuple[bytes, int]:
    """errata.yaml with the record added after the last one (the file is created if missing)."""
    if before is None:
        schema = SCHEMA_LINE
        game_yaml = (folder / "game.yaml").read_text(encoding="utf-8").split("\n", 1)[0]
        if game_yaml.startswith("# yaml-language-server:"):
            schema = game_yaml  # same folder, so the same relative path to the schema
        text = f"{schema}\nerrata:\n{format_record(record, 2, 4)}\n"
        return text.encode("utf-8"), 3
    problems = Problems()
    source = read_file(path, problems)
    if source is None:
        raise ErrataError(f"{path} does not load; fix it first", problems.sorted())
    text = before.decode("utf-8")
    items = source.data.get("errata")
    if items is None:
        text += ("" if text.endswith("\n") else "\n") + "errata:\n"
        return (text + format_record(record, 2, 4) + "\n").encode("utf-8"), text.count("\n") + 1
    if not isinstance(items, list):
        raise ErrataError(f"{path}: `errata:` must be a list")
    if not items:  # `errata: []`: replace the empty flow list by a block list
        token, tokens, _ = _token_at(text, *source.values[("errata",)])
        end = next(t for t in tokens if isinstance(t, yaml.FlowSequenceEndToken)).end_mark.index
        record_text = format_record(record, 2, 4)
        new = text[:token.start_mark.index].rstrip(" ") + "\n" + record_text + text[end:]
        return new.encode("utf-8"), new[:new.index(record_text)].count("\n") + 1
    first_line, first_col = source.values[("errata", 0)]
    dash_line = source.lines[first_line - 1][:first_col - 1].rstrip()
    if not dash_line.endswith("-"):
        raise ErrataError(f"{path}: write `errata:` as a block list (- id: …) to use `errata add`")
    dash, indent = len(dash_line) - 1, first_col - 1
    last = len(items) - 1
    line, column = max(pos for p, pos in source.values.items() if p[:2] == ("errata", last))
    token, tokens, _ = _token_at(text, line, column)
    end = token.end_mark.index
    if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
        end = token.start_mark.index + len(text[token.start_mark.index:end].rstrip("\n "))
    for following in tokens:  # closing brackets of a flow mapping the value sits in
        if isinstance(following, (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
            end = following.end_mark.index
        elif not isinstance(following, yaml.BlockEndToken):
            break
    eol = text.find("\n", end)
    eol = len(text) if eol < 0 else eol
    record_text = format_record(record, dash, indent)
    new = text[:eol] + "\n" + record_text + text[eol:]
    if not new.endswith("\n"):
        new += "\n"
    return new.encode("utf-8"), text[:eol].count("\n") + 2

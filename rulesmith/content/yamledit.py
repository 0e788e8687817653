"""Edit a content file's YAML text in place: one scalar replaced, a record appended to a list,
a key added to a record. Only the text that changes is touched, so comments, quoting, key order
and every other byte of the file stay as they were (`errata add`, `ruling add`)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import yaml

from rulesmith.content.load import read_file, read_scalar_text
from rulesmith.problems import Problems, RulesmithError

if TYPE_CHECKING:
    from pathlib import Path

SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/content.schema.json"
WIDE = 10**9  # never fold long lines


class EditError(RulesmithError):
    """The file cannot be edited this way; nothing was changed. Carries the lines to print."""

    def __init__(self, message: str, problems=None, hint: str = ""):
        self.problems = problems or []
        self.hint = hint
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems] + [f"error: {self}"] + ([f"hint: {self.hint}"] if self.hint else [])



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
    raise EditError(f"no YAML value at line {line}, column {column}")


def replace_scalar(text: str, line: int, column: int, value) -> str:
    """`text` with the scalar starting at line:column replaced by `value`, nothing else touched."""
    token, _, in_flow = _token_at(text, line, column)
    if not isinstance(token, yaml.ScalarToken):
        raise EditError(f"line {line}, column {column} holds a collection, not a single value")
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
    content = [row for row in body.split("\n") if row.strip()]
    if content:
        indent = len(content[0]) - len(content[0].lstrip(" "))
    else:
        line_start = text.rfind("\n", 0, start) + 1
        own = text[line_start:start]
        indent = len(own) - len(own.lstrip(" ")) + 2
    lines = [(" " * indent + row) if row.strip() else "" for row in value.rstrip("\n").split("\n")]
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
        raise EditError(f"cannot write {value!r} as one YAML value")
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
        raise EditError(f"cannot write {value!r} as one YAML value that reads back the same")
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



FREE_TEXT = ("description", "url", "note", "question", "answer")  # quoted in records, as in the content files


def _record_scalar(name: str, value, indent: int, in_flow: bool = False) -> str:
    """A record value: multi-line text as a literal block, anything else as one scalar."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and "\n" in value and not value.startswith((" ", "\n")) and not in_flow:
        return "|-\n" + "\n".join((" " * indent + row) if row.strip() else "" for row in value.split("\n"))
    return flow_scalar(value, '"' if name in FREE_TEXT else None, in_flow)


def format_record(record: dict, dash: int, indent: int) -> str:
    """An erratum as a block list item, `dash` spaces before the '-', keys at `indent`."""
    lines = []
    for n, (name, value) in enumerate(record.items()):
        if isinstance(value, dict):
            text = "{" + ", ".join(f"{k}: {_record_scalar(k, v, 0, True)}" for k, v in value.items()) + "}"
        elif isinstance(value, list):
            text = "[" + ", ".join(_record_scalar(name, v, 0, True) for v in value) + "]"
        else:
            text = _record_scalar(name, value, indent + 2)
        prefix = " " * dash + "- " + " " * (indent - dash - 2) if n == 0 else " " * indent
        lines.append(f"{prefix}{name}: {text}")
    return "\n".join(lines)


def append_record(path: Path, before: bytes | None, folder: Path, record: dict,
                  collection: str = "errata") -> tuple[bytes, int]:
    """The file (errata.yaml, rulings.yaml) with the record added after the last one of its
    `collection:` list (the file is created if missing)."""
    if before is None:
        schema = SCHEMA_LINE
        game_yaml = (folder / "game.yaml").read_text(encoding="utf-8").split("\n", 1)[0]
        if game_yaml.startswith("# yaml-language-server:"):
            schema = game_yaml  # same folder, so the same relative path to the schema
        text = f"{schema}\n{collection}:\n{format_record(record, 2, 4)}\n"
        return text.encode("utf-8"), 3
    problems = Problems()
    source = read_file(path, problems, data=before)
    if source is None:
        raise EditError(f"{path} does not load", problems.sorted(), hint="fix it first (`rulesmith check`)")
    text = before.decode("utf-8")
    items = source.data.get(collection)
    if items is None:
        text += ("" if text.endswith("\n") else "\n") + f"{collection}:\n"
        return (text + format_record(record, 2, 4) + "\n").encode("utf-8"), text.count("\n") + 1
    if not isinstance(items, list):
        raise EditError(f"{path}: `{collection}:` must be a list", hint=f"write `{collection}:` followed by `- id: …` records")
    if not items:  # `errata: []`: the empty flow list becomes a block list
        token, tokens, _ = _token_at(text, *source.values[(collection,)])
        end = next(t for t in tokens if isinstance(t, yaml.FlowSequenceEndToken)).end_mark.index
        record_text = format_record(record, 2, 4)
        new = text[:token.start_mark.index].rstrip(" ") + "\n" + record_text + text[end:]
        return new.encode("utf-8"), new[:new.index(record_text)].count("\n") + 1
    first_line, first_col = source.values[(collection, 0)]
    dash_line = source.lines[first_line - 1][:first_col - 1].rstrip()
    if not dash_line.endswith("-"):
        raise EditError(f"{path}: `{collection}:` is written as a flow list", hint=f"write `{collection}:` as a block list (- id: …) to add to it by command")
    dash, indent = len(dash_line) - 1, first_col - 1
    eol = _end_of_record(text, source, (collection, len(items) - 1))
    record_text = format_record(record, dash, indent)
    new = text[:eol] + "\n" + record_text + text[eol:]
    if not new.endswith("\n"):
        new += "\n"
    return new.encode("utf-8"), text[:eol].count("\n") + 2


def _end_of_record(text: str, source, path: tuple) -> int:
    """Where the line of the last value inside `path` ends (after any closing brackets)."""
    line, column = max(pos for p, pos in source.values.items() if p[:len(path)] == path)
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
    return len(text) if eol < 0 else eol


def set_key(path: Path, before: bytes, collection: str, position: int, key: str, value) -> tuple[bytes, int]:
    """The file with `key: value` set in the `position`-th record of `collection` (replaced in
    place where the key is there, else added as the record's last line); returns the line."""
    problems = Problems()
    source = read_file(path, problems, data=before)
    if source is None:
        raise EditError(f"{path} does not load", problems.sorted(), hint="fix it first (`rulesmith check`)")
    text = before.decode("utf-8")
    record = (collection, position)
    if (*record, key) in source.values:
        line, column = source.values[(*record, key)]
        return replace_scalar(text, line, column, value).encode("utf-8"), line
    line, _ = source.values[record]
    if isinstance(_token_at(text, *source.values[record])[0], yaml.FlowMappingStartToken):
        raise EditError(f"{path}:{line}: the record is written as a flow mapping {{…}}",
                        hint="write it as a block mapping (one key per line) to change it by command")
    key_column = source.where(record + ("id",), key=True)[2]
    eol = _end_of_record(text, source, record)
    added = " " * (key_column - 1) + f"{key}: {flow_scalar(value, None, False)}"
    new = text[:eol] + "\n" + added + text[eol:]
    return new.encode("utf-8"), text[:eol].count("\n") + 2

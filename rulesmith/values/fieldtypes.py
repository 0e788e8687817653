"""Field values, typed once: the one registry of the types a game declares for its entity fields
and table columns, and the one unwrapping of a value with a status.

A field or cell is written either as its value or as a mapping `{value, status, note}` (a value
the source gives doubtfully, or `{status: missing, note}`). `Value.of` is the only place that
reads that mapping. Each `FieldType` owns, for its values: whether a value is of the type, the
located check's message and hint, the JSON Schema for editors, how `errata add` reads a value
from the command line, and how readers see it. Every other module asks this registry
(`field_type(name)`); nobody re-implements a type. Like MkDocs' config options: one class per
type, each owning its validation and its message.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar

STATUSES = ("verified", "unverified", "missing", "reconstructed", "contradictory")
WRAPPER_KEYS = {"status", "value", "note"}
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Ids name the site's files and anchors and the commands' arguments: a file name of 329 characters
# cannot be written (most systems stop at 255 bytes), and no rulebook needs one that long.
MAX_ID_LENGTH = 64


@dataclass(frozen=True)
class Value:
    """A field's or cell's value with how faithful it is to the source."""

    value: Any
    status: str = "verified"
    note: str | None = None
    wrapped: bool = False  # written as {value, status, note}

    @classmethod
    def of(cls, raw: Any) -> Value:
        """The value as written: a plain value, or the status mapping unwrapped."""
        if isinstance(raw, dict) and "status" in raw and set(raw) <= WRAPPER_KEYS:
            return cls(raw.get("value"), str(raw["status"]), raw.get("note"), True)
        return cls(raw)

    @property
    def missing(self) -> bool:
        return self.status == "missing"

    @property
    def doubtful(self) -> bool:
        """Not as the source gives it plainly: readers see a marker."""
        return self.status != "verified"


def plain(raw: Any) -> Any:
    """The value itself, without its status."""
    return Value.of(raw).value


def wrapper_problem(raw: dict) -> tuple[str, str] | None:
    """Why a {status, value, note} mapping is malformed, or None."""
    status = raw.get("status")
    if status not in STATUSES or set(raw) - WRAPPER_KEYS:
        return ("a value with a status is a mapping of status, value and note",
                f"write {{status: missing, note: '…'}}; status is one of {', '.join(STATUSES)}")
    if status != "verified" and not raw.get("note"):
        return (f"status '{status}' needs a note", "add note: '…' saying why")
    if status == "missing" and "value" in raw:
        return ("a missing value has no value", "remove value: or change status")
    if status != "missing" and "value" not in raw:
        return (f"status '{status}' keeps the value as printed", "add value: …, or use status: missing")
    return None


class FieldTypeError(ValueError):
    """A command-line value that is not of the field's type: (message, hint)."""


class FieldType:
    """One declared type. Subclasses override what differs."""

    name = ""
    text_format: str | None = None  # "plain" or "markdown" for types that hold text
    example = "a value"

    def accepts(self, value: Any) -> bool:
        raise NotImplementedError

    def hint(self, value: Any) -> str:
        return f"write {self.example}"

    def problem(self, value: Any, spec) -> tuple[str, str] | None:
        """A problem of a value of this type against its declaration (range, allowed values)."""
        return None

    def json_schema(self, spec) -> dict:
        raise NotImplementedError

    def from_cli(self, text: str) -> Any:
        """The value `errata add` is given on the command line, as this type."""
        return text

    def shown(self, value: Any) -> str:
        """The value as readers see it, as plain text."""
        return str(value)


class TextType(FieldType):
    name, text_format, example = "text", "markdown", "text in quotes"

    def accepts(self, value):
        return isinstance(value, str)

    def hint(self, value):
        return f"quote it: '{value}'" if not isinstance(value, (dict, list)) else "write one text, not a list or mapping"

    def json_schema(self, spec):
        return {"type": "string"}


class StringType(TextType):
    name, text_format = "string", "plain"


class EnumType(StringType):
    name = "enum"

    def problem(self, value, spec):
        from rulesmith.problems import nearest

        allowed = list(spec.values or [])
        if value not in allowed:
            return (f"'{value}' is not one of {', '.join(allowed)}", nearest(value, allowed) or "add it to the declared values")
        return None

    def json_schema(self, spec):
        return {"enum": list(spec.values or [])}


class RefType(FieldType):
    name, example = "ref", "the id of an entity"

    def accepts(self, value):
        return isinstance(value, str)

    def hint(self, value):
        return "write the entity's id, e.g. interpol"

    def json_schema(self, spec):
        return {"type": "string", "pattern": ID_PATTERN, "maxLength": MAX_ID_LENGTH}


class BooleanType(FieldType):
    name, example = "boolean", "true or false"
    WORDS: ClassVar[dict[str, bool]] = {"true": True, "yes": True, "false": False, "no": False}

    def accepts(self, value):
        return isinstance(value, bool)

    def hint(self, value):
        return "write true or false (without quotes)"

    def json_schema(self, spec):
        return {"type": "boolean"}

    def from_cli(self, text):
        if text.strip().lower() not in self.WORDS:
            raise FieldTypeError(f"is a boolean; write true or false, not '{text}'", "true or false")
        return self.WORDS[text.strip().lower()]

    def shown(self, value):
        return "Yes" if value else "No"


class NumberType(FieldType):
    name, example = "number", "a number, e.g. 2.5"

    def accepts(self, value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

    def hint(self, value):
        text = str(value).strip()
        if isinstance(value, str) and re.fullmatch(r"[-+]?\d+(\.\d+)?", text) and self.accepts(_number(text)):
            return f"write the number without quotes: {text}"
        return f"write {self.example}"

    def problem(self, value, spec):
        if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
            low = _shown_number(spec.min) if spec.min is not None else "…"
            high = _shown_number(spec.max) if spec.max is not None else "…"
            return (f"{_shown_number(value)} is out of range", f"allowed: {low} to {high}")
        return None

    def json_schema(self, spec):
        schema: dict = {"type": "number"}
        if spec.min is not None:
            schema["minimum"] = spec.min
        if spec.max is not None:
            schema["maximum"] = spec.max
        return schema

    def from_cli(self, text):
        if not re.fullmatch(r"[-+]?\d+(\.\d+)?", text.strip()):
            raise FieldTypeError(f"is a number; '{text}' is not", f"write {self.example}")
        return _number(text.strip())

    def shown(self, value):
        return _shown_number(value)


class IntegerType(NumberType):
    name, example = "integer", "a whole number, e.g. 3"

    def accepts(self, value):
        return isinstance(value, int) and not isinstance(value, bool)

    def json_schema(self, spec):
        return {**super().json_schema(spec), "type": "integer"}

    def from_cli(self, text):
        if not re.fullmatch(r"[-+]?\d+", text.strip()):
            raise FieldTypeError(f"is an integer; '{text}' is not", f"write {self.example}")
        return int(text)


class ListType(FieldType):
    """A list of values of one type (text-list, string-list, integer-list, ref-list)."""

    def __init__(self, item: FieldType):
        self.item, self.name, self.text_format = item, f"{item.name}-list", item.text_format
        self.example = f"[a, b] (a list of {item.name} values)"

    def accepts(self, value):
        return isinstance(value, list)

    def hint(self, value):
        return f"write {self.example}"

    def json_schema(self, spec):
        return {"type": "array", "items": self.item.json_schema(spec)}

    def from_cli(self, text):
        return [self.item.from_cli(part.strip()) for part in text.split(",") if part.strip()]

    def shown(self, value):
        return ", ".join(self.item.shown(v) for v in value) or "—"


def _number(text: str) -> int | float:
    number = float(text)
    return int(number) if number.is_integer() and re.fullmatch(r"[-+]?\d+", text) else number


def _shown_number(value) -> str:
    """A number as a reader writes it: 127, not 127.0."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


class RangeType(FieldType):
    """A row key as the rulebook prints it ("2", "3-5", "4+", "≤ 2"): a lookup by a number finds
    the row whose range holds it (values/ranges.py parses; the check proves the keys do not overlap)."""

    name, text_format, example = "range", "plain", 'a number ("2"), "3-5", "4+" or "≤ 2", as the rulebook prints it'

    def accepts(self, value):
        return isinstance(value, (str, int)) and not isinstance(value, bool)

    def hint(self, value):
        return 'write the row key as the rulebook prints it, quoted: "2", "3-5", "4+"'

    def problem(self, value, spec):
        from rulesmith.values import ranges

        try:
            ranges.parse(value)
        except ranges.RangeError as error:
            return error.args[0], error.args[1] if len(error.args) > 1 else self.hint(value)
        return None

    def json_schema(self, spec):
        return {"type": ["string", "number"]}


_SCALARS: list[FieldType] = [TextType(), StringType(), IntegerType(), NumberType(), BooleanType(), EnumType(), RefType(),
                             RangeType()]
REGISTRY: dict[str, FieldType] = {t.name: t for t in _SCALARS}
REGISTRY.update({f"{name}-list": ListType(REGISTRY[name]) for name in ("text", "string", "integer", "ref")})


def field_type(name: str) -> FieldType:
    return REGISTRY[name]


def register(kind: FieldType) -> None:
    """Add a type (a module that owns one, such as range keys, registers it here)."""
    REGISTRY[kind.name] = kind


def json_schema(spec) -> dict:
    """A declared field's or column's value, plain or with its status, as editors validate it."""
    base = field_type(spec.type).json_schema(spec)
    wrapped = {"type": "object", "additionalProperties": False, "required": ["status"],
               "properties": {"status": {"enum": list(STATUSES)}, "value": base, "note": {"type": "string"}}}
    return {"anyOf": [base, wrapped, {"type": "null"}]}

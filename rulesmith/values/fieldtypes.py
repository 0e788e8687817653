"""Field values, typed once: the one registry of the types a game declares for its entity fields
and table columns, the one unwrapping of a value with a status, and the one way a value is shown.

A field or cell is written either as its value or as a mapping `{value, status, note}` (a value
the source gives doubtfully, or `{status: missing, note}`). `Value.of` is the only place that
reads that mapping. Each `FieldType` owns, for its values: its name and its line in the format
reference, the declaration's options it needs, whether a value is of the type, the located
check's message and hint, whether it holds numbers, the JSON Schema for editors, how `errata
add` reads a value from the command line, and how readers see it (`shown`: every output, site,
aids, flowcharts, running text, diff and messages, asks it). Every other module asks this
registry (`field_type(name)`); nobody re-implements a type. Like MkDocs' config options: one
class per type, each owning its validation and its message.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rulesmith.values import ids, numbers
from rulesmith.values import status as statuses

WRAPPER_KEYS = {"status", "value", "note"}


@dataclass(frozen=True)
class Value:
    """A field's or cell's value with how faithful it is to the source."""

    value: Any
    status: str = statuses.VERIFIED
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
        return statuses.doubtful(self.status)


def plain(raw: Any) -> Any:
    """The value itself, without its status."""
    return Value.of(raw).value


def wrapper_problem(raw: dict) -> tuple[str, str, bool] | None:
    """Why a {status, value, note} mapping is malformed, or None: (message, hint, whether the value
    can still be checked: only a missing note leaves it readable)."""
    found = raw.get("status")
    if found not in statuses.IDS or set(raw) - WRAPPER_KEYS:
        return ("a value with a status is a mapping of status, value and note",
                f"write {{status: missing, note: '…'}}; status is one of {', '.join(statuses.IDS)}", False)
    lacking = statuses.note_problem(found, raw.get("note"))
    if lacking:
        return (lacking, statuses.NOTE_HINT, True)
    if found == "missing" and "value" in raw:
        return ("a missing value has no value", "remove value: or change status", False)
    if found != "missing" and "value" not in raw:
        return (f"status '{found}' keeps the value as printed", "add value: …, or use status: missing", False)
    return None


class FieldTypeError(ValueError):
    """A command-line value that is not of the field's type: (message, hint)."""


class FieldType:
    """One declared type. Subclasses override what differs."""

    name = ""
    description = ""  # its line in the format reference
    text_format: str | None = None  # "plain" or "markdown" for types that hold text
    numeric = False  # holds numbers: compared, summed, set right-aligned in tables
    example = "a value"
    needs: tuple[tuple[str, str], ...] = ()  # the declaration's options it needs: (option, how to write it)

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
        """The value as readers see it, as plain text (every output asks `shown` below)."""
        return str(value)


class TextType(FieldType):
    name, text_format, example = "text", "markdown", "text in quotes"
    description = "Markdown, with references (a card's text)."

    def accepts(self, value):
        return isinstance(value, str)

    def hint(self, value):
        return f"quote it: '{value}'" if not isinstance(value, (dict, list)) else "write one text, not a list or mapping"

    def json_schema(self, spec):
        return {"type": "string"}


class StringType(TextType):
    name, text_format = "string", "plain"
    description = "Plain text, shown as written (a label, a code printed on the card)."


class EnumType(StringType):
    name = "enum"
    needs = (("values", "values: [...]"),)
    description = "One of the declared `values`."

    def problem(self, value, spec):
        from rulesmith.problems import nearest

        allowed = list(spec.values or [])
        if value not in allowed:
            return (f"'{value}' is not one of {', '.join(allowed)}", nearest(value, allowed) or "add it to the declared values")
        return None

    def json_schema(self, spec):
        return {"enum": list(spec.values or [])}

    def shown(self, value):
        """A value written as a key ("influence-and-demonstrator") becomes words ("Influence and
        demonstrator"); a value written as words stays as it is."""
        if re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", value):
            words = re.sub(r"[-_]", " ", value)
            return words[:1].upper() + words[1:]
        return value


class RefType(FieldType):
    name, example = "ref", "the id of an entity"
    needs = (("to", "to: <kind>"),)
    description = "The id of an entity of the kind named by `to` (e.g. `to: symbol`), or of a kind with `to: kind`."

    def accepts(self, value):
        return isinstance(value, str)

    def hint(self, value):
        return "write the entity's id, e.g. interpol"

    def json_schema(self, spec):
        return ids.ID.json_schema()


class BooleanType(FieldType):
    name, example = "boolean", "true or false"
    description = "`true` or `false` (YAML 1.2: `yes`, `no`, `on`, `off` are text)."
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
    name, example, numeric = "number", "a number, e.g. 2.5", True
    description = "A number, whole or decimal; `min` and `max` bound it."

    def accepts(self, value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

    def hint(self, value):
        written = numbers.parse(value) if isinstance(value, str) else None
        if written is not None and self.accepts(written):
            return f"write the number without quotes: {value.strip()}"
        return f"write {self.example}"

    def problem(self, value, spec):
        if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
            low = numbers.shown(spec.min) if spec.min is not None else "…"
            high = numbers.shown(spec.max) if spec.max is not None else "…"
            return (f"{numbers.shown(value)} is out of range", f"allowed: {low} to {high}")
        return None

    def json_schema(self, spec):
        schema: dict = {"type": "number"}
        if spec.min is not None:
            schema["minimum"] = spec.min
        if spec.max is not None:
            schema["maximum"] = spec.max
        return schema

    def from_cli(self, text):
        number = numbers.parse(text)
        if number is None:
            raise FieldTypeError(f"is a number; '{text}' is not", f"write {self.example}")
        return number

    def shown(self, value):
        return numbers.shown(value)


class IntegerType(NumberType):
    name, example = "integer", "a whole number, e.g. 3"
    description = "A whole number; `min` and `max` bound it."

    def accepts(self, value):
        return isinstance(value, int) and not isinstance(value, bool)

    def json_schema(self, spec):
        return {**super().json_schema(spec), "type": "integer"}

    def from_cli(self, text):
        number = numbers.parse(text)
        if not isinstance(number, int):
            raise FieldTypeError(f"is an integer; '{text}' is not", f"write {self.example}")
        return number


class ListType(FieldType):
    """A list of values of one type (text-list, string-list, integer-list, ref-list)."""

    def __init__(self, item: FieldType, description: str):
        self.item, self.name, self.text_format = item, f"{item.name}-list", item.text_format
        self.description, self.needs = description, item.needs  # a list needs what its item needs
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
        return ", ".join(shown(v, self.item) for v in value) or "—"


class RangeType(FieldType):
    """A row key as the rulebook prints it ("2", "3-5", "4+", "≤ 2"): a lookup by a number finds
    the row whose range holds it (values/ranges.py parses; the check proves the keys do not overlap)."""

    name, text_format, example = "range", "plain", 'a number ("2"), "3-5", "4+" or "≤ 2", as the rulebook prints it'
    description = "A row key as the rulebook prints it: \"2\", \"3-5\", \"4+\", \"≤ 2\" (a lookup by a number finds its row)."

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


# In the order the format reference lists them (and the schema's enum).
_TEXT, _STRING, _INTEGER, _REF = TextType(), StringType(), IntegerType(), RefType()
REGISTRY: dict[str, FieldType] = {t.name: t for t in (
    _TEXT, _STRING, _INTEGER, NumberType(), BooleanType(), EnumType(), _REF,
    ListType(_REF, "A list of such ids."),
    ListType(_TEXT, "A list of Markdown texts."),
    ListType(_STRING, "A list of plain texts."),
    ListType(_INTEGER, "A list of whole numbers; `min` and `max` bound each."),
    RangeType())}
NAMES = tuple(REGISTRY)
NUMERIC = tuple(name for name, kind in REGISTRY.items() if kind.numeric)


def field_type(name: str) -> FieldType:
    return REGISTRY[name]


def _of_value(value: Any) -> FieldType:
    """The type a value without a declaration is shown as (an example's result, an erratum's value)."""
    if isinstance(value, bool):
        return REGISTRY["boolean"]
    if isinstance(value, (int, float)):
        return REGISTRY["number"]
    return REGISTRY["string"]


def shown(value: Any, kind: FieldType | str | None = None) -> str:
    """A value as readers see it, as plain text, everywhere (site, aids, flowcharts, running text,
    the diff, errata messages): as its declared type shows it, else as a value of its own kind
    shows (true is "Yes", 2.0 is "2"); nothing is "—"."""
    if value is None:
        return "—"
    declared = field_type(kind) if isinstance(kind, str) else kind
    if declared is not None and declared.accepts(value):
        return declared.shown(value)
    if isinstance(value, list):
        item = declared.item if isinstance(declared, ListType) else None
        return ", ".join(shown(v, item) for v in value) or "—"
    return _of_value(value).shown(value)


def reference() -> str:
    """The field types' part of the format reference."""
    return "Field types (`type:` of a field or a column):\n\n" + "\n".join(
        f"- `{name}`: {kind.description}" for name, kind in REGISTRY.items())


def json_schema(spec) -> dict:
    """A declared field's or column's value, plain or with its status, as editors validate it."""
    base = field_type(spec.type).json_schema(spec)
    wrapped = {"type": "object", "additionalProperties": False, "required": ["status"],
               "properties": {"status": {"enum": list(statuses.IDS)}, "value": base, "note": {"type": "string"}}}
    return {"anyOf": [base, wrapped, {"type": "null"}]}

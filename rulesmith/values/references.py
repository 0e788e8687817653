"""Value references: a text or an example input that shows a number the data holds.

    [[value:country:nigeria.ct]]             an entity's field
    [[value:table:conflict-dice.3.extra]]    a table cell: row key (first column), then column id

They resolve against the link index, so an erratum to the field or cell reaches every text that
shows it, and every example that computes with it.
"""

from __future__ import annotations

import re

from rulesmith.problems import nearest
from rulesmith.values.expressions import find_row, plain
from rulesmith.values.fieldtypes import Value

PREFIX = "value:"
WHOLE = re.compile(r"^\[\[value:([^\[\]|]*)\]\]$")


class ValueError_(Exception):
    """An unknown target, field, row or column; args: message, hint."""


def parse(ref: str) -> tuple[str, str]:
    """'country:nigeria.ct' -> ('country:nigeria', 'ct')."""
    target, _, rest = ref.partition(".")
    return target, rest


def raw(index, ref: str):
    """The field or cell a value reference names, as the data holds it (a status wrapper
    {value, status, note} included); raises ValueError_ when it names nothing."""
    target, rest = parse(ref)
    if target not in index.targets:
        same_kind = [k for k in index.targets if k.startswith(target.partition(":")[0] + ":")]
        raise ValueError_(f"unknown reference {target} in [[value:{ref}]]",
                          nearest(target, same_kind) or "write [[value:kind:id.field]] or [[value:table:id.key.column]]")
    item = index.targets[target].item
    kind = target.partition(":")[0]
    if kind == "table":
        key, _, column = rest.rpartition(".")
        columns = [c.id for c in item.columns]
        if column not in columns:
            raise ValueError_(f"table '{item.id}' has no column '{column}' in [[value:{ref}]]",
                              nearest(column, columns) or "columns: " + ", ".join(columns))
        keys = [str(plain(row[0])) for row in item.rows]
        if key in keys:
            return item.rows[keys.index(key)][columns.index(column)]
        number = _number(key)
        row = find_row(item, number) if number is not None else None  # "5" in a table keyed "4+"
        if row is None:
            raise ValueError_(f"table '{item.id}' has no row '{key}' in [[value:{ref}]]",
                              nearest(key, keys) or "rows: " + ", ".join(keys))
        return row[columns.index(column)]
    fields = getattr(item, "fields", None)
    if not isinstance(fields, dict):
        raise ValueError_(f"[[value:{ref}]] names neither an entity field nor a table cell",
                          "write [[value:kind:id.field]] or [[value:table:id.key.column]]")
    if rest not in fields:
        raise ValueError_(f"{target} has no field '{rest}' in [[value:{ref}]]",
                          nearest(rest, fields) or "fields: " + ", ".join(fields) if fields else "it has no fields")
    return fields[rest]


def lookup(index, ref: str):
    """The current value a value reference names (without its status wrapper)."""
    value = plain(raw(index, ref))
    if value is None:
        target, rest = parse(ref)
        raise ValueError_(f"{target}.{rest} has no value (it is not in the source) in [[value:{ref}]]",
                          "show it as a marked gap instead of a value")
    return value


def status(index, ref: str) -> tuple[str, str]:
    """(status, note) of the field or cell a value reference names: ("verified", "") unless
    the data marks it."""
    found = Value.of(raw(index, ref))
    return (found.status, found.note or "") if found.doubtful else ("verified", "")
def _number(text: str):
    try:
        return int(text)
    except ValueError:
        return None


def shown(value) -> str:
    """A value as readers see it in running text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def resolve_inputs(index, inputs: dict) -> dict:
    """Example inputs with every "[[value:…]]" replaced by the value it names."""
    resolved = {}
    for name, value in inputs.items():
        match = WHOLE.match(value) if isinstance(value, str) else None
        resolved[name] = lookup(index, match.group(1)) if match else value
    return resolved


def value_inputs(example) -> list[str]:
    """The example's inputs that are value references ([[value:…]]), in order."""
    return [v for v in example.inputs.values() if isinstance(v, str) and WHOLE.match(v)]


def reads_data(example) -> bool:
    """Does the example take a value from the canonical data (a table lookup or a value input)?"""
    names = ("lookup(", "lookup_or(", "column(")
    return any(n in (example.expression or "") for n in names) or any(
        isinstance(v, str) and WHOLE.match(v) for v in example.inputs.values())

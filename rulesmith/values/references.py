"""Value references: a text or an example input that shows a number the data holds.

    [[value:country:nigeria.ct]]             an entity's field
    [[value:table:conflict-dice.3.extra]]    a table cell: row key (first column), then column id

They resolve against the link index, so an erratum to the field or cell reaches every text that
shows it, and every example that computes with it.
"""

from __future__ import annotations

import re
from typing import Any

from rulesmith.problems import nearest
from rulesmith.values import addresses, fieldtypes, numbers
from rulesmith.values import status as statuses
from rulesmith.values.expressions import find_row, plain
from rulesmith.values.fieldtypes import Value

PREFIX = "value:"
WHOLE = re.compile(r"^\[\[value:([^\[\]|]*)\]\]$")


class ValueError_(Exception):
    """An unknown target, field, row or column; args: message, hint."""


def owner(ref: str) -> str:
    """kind:id of the item a value reference reads: 'country:nigeria' for 'country:nigeria.ct',
    'value:country:nigeria.ct' or '[[value:country:nigeria.ct]]'."""
    whole = WHOLE.match(ref)
    return addresses.parse((whole.group(1) if whole else ref).removeprefix(PREFIX)).key


def raw(index, ref: str):
    """The field or cell a value reference names, as the data holds it (a status wrapper
    {value, status, note} included); raises ValueError_ when it names nothing."""
    return _place(index, ref)[0]


def _place(index, ref: str) -> tuple[Any, Any]:
    """(the field or cell as written, its declaration: the kind's field or the table's column,
    None where the kind declares no such field); raises ValueError_ when it names nothing."""
    place = addresses.parse(ref)
    target = place.key
    if target not in index.targets:
        same_kind = [k for k in index.targets if k.startswith(place.kind + ":")]
        raise ValueError_(f"unknown reference {target} in [[value:{ref}]]",
                          nearest(target, same_kind) or "write [[value:kind:id.field]] or [[value:table:id.key.column]]")
    item = index.targets[target].item
    if place.kind == "table":
        return _cell(item, place.row or "", place.column or "", ref)
    fields = getattr(item, "fields", None)
    if not isinstance(fields, dict):
        raise ValueError_(f"[[value:{ref}]] names neither an entity field nor a table cell",
                          "write [[value:kind:id.field]] or [[value:table:id.key.column]]")
    field = place.field or ""
    if field not in fields:
        raise ValueError_(f"{target} has no field '{field}' in [[value:{ref}]]",
                          nearest(field, fields) or "fields: " + ", ".join(fields) if fields else "it has no fields")
    kind = index.targets.get(f"kind:{item.kind}")
    declared = {spec.id: spec for spec in kind.item.fields} if kind is not None else {}
    return fields[field], declared.get(field)


def _cell(table, key: str, column: str, ref: str) -> tuple[Any, Any]:
    columns = [c.id for c in table.columns]
    if column not in columns:
        raise ValueError_(f"table '{table.id}' has no column '{column}' in [[value:{ref}]]",
                          nearest(column, columns) or "columns: " + ", ".join(columns))
    row = row_of(table, key)
    if row is None:
        keys = [str(plain(cells[0])) for cells in table.rows if cells]
        raise ValueError_(f"table '{table.id}' has no row '{key}' in [[value:{ref}]]",
                          nearest(key, keys) or "rows: " + ", ".join(keys))
    c = columns.index(column)
    if c >= len(row):  # a short row: the check of tables says so at the row too
        raise ValueError_(f"table '{table.id}', row '{key}' has no cell in column '{column}' in [[value:{ref}]]",
                          f"the row has {len(row)} cells and the table {len(columns)} columns: give it one cell per column")
    return row[c], table.columns[c]


def row_of(table, key: str):
    """The row a key written in an address names: the row whose first cell reads so, else (a
    number, in a table keyed by ranges) the row whose range holds it; None when none does."""
    for cells in table.rows:
        if cells and str(plain(cells[0])) == key:
            return cells
    number = numbers.parse(key)
    return find_row(table, number) if number is not None else None


def lookup(index, ref: str):
    """The current value a value reference names (without its status wrapper)."""
    value = plain(raw(index, ref))
    if value is None:
        place = addresses.parse(ref)
        raise ValueError_(f"{place} has no value (it is not in the source) in [[value:{ref}]]",
                          "show it as a marked gap instead of a value")
    return value


_CURRENT = object()


def shown(index, ref: str, value: Any = _CURRENT) -> str:
    """The value a value reference names as readers see it, as its field's or column's type
    shows it; with `value`, that value of the same place (what the rulebook printed, "—" for
    none). Raises ValueError_ as `lookup` does."""
    spec = _place(index, ref)[1]
    return fieldtypes.shown(lookup(index, ref) if value is _CURRENT else value, spec.type if spec is not None else None)


def status(index, ref: str) -> tuple[str, str]:
    """(status, note) of the field or cell a value reference names: ("verified", "") unless
    the data marks it."""
    found = Value.of(raw(index, ref))
    return (found.status, found.note or "") if found.doubtful else (statuses.VERIFIED, "")


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

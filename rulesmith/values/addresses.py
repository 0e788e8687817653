"""Addresses of the places inside an item (an entity's field, a table cell, a procedure's step),
and an erratum's target and field, read one way.

    country:nigeria                   the item itself (kind:id)
    country:nigeria.ct                an entity's field
    table:conflict-dice.3.extra       a table cell: the row whose first cell is `3` (a key may
                                      itself hold dots), then the column id
    procedure:bot-davos.remove-a      a procedure's step (its node id)

A value reference (`[[value:…]]`, values/references.py), a gap's `affects` (content/affects.py),
the errata (their target and field, below) and the pages that show them all ask `parse`; none
splits an address itself. An erratum names its value by the item and a path inside it
(`fields.ct`, `rows.3.extra`, `nodes.remove-a.text`, or an attribute such as `name`):
`of_erratum` reads that path as the same Address. Whether an address names something is the
business of those who resolve it against the game; this module only reads the text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Address:
    """One place: an item (its kind:id) and, inside it, at most one field, cell or step."""

    key: str  # kind:id of the item
    field: str | None = None  # an entity's field id
    row: str | None = None  # a table row's key, as written
    column: str | None = None  # a table column id
    step: str | None = None  # a procedure's node id
    attribute: str | None = None  # an erratum's: an attribute of the item (name, text …), or `text` of a step

    @property
    def kind(self) -> str:
        return self.key.partition(":")[0]

    @property
    def id(self) -> str:
        return self.key.partition(":")[2]

    @property
    def inner(self) -> str | None:
        """The place inside the item as an address writes it after the item's key ("ct", "3.extra")."""
        if self.row is not None:
            return f"{self.row}.{self.column}"
        return self.field if self.field is not None else self.step

    @property
    def is_value(self) -> bool:
        """A field or a cell: a place that holds one value (what a value reference shows)."""
        return self.attribute is None and (self.field is not None or self.row is not None)

    def __str__(self) -> str:
        inner = self.inner
        return self.key if inner is None else f"{self.key}.{inner}"


def parse(text: str) -> Address:
    """An address as written (ids hold no dots, so the first dot ends the item's key)."""
    key, dot, rest = text.partition(".")
    if not dot:
        return Address(key)
    kind = key.partition(":")[0]
    if kind == "table":
        row, _, column = rest.rpartition(".")
        return Address(key, row=row, column=column)
    if kind == "procedure":
        return Address(key, step=rest)
    return Address(key, field=rest)


def of_erratum(target: str, path: str) -> Address:
    """The place an erratum changes: its target item and the path of the value in it."""
    head, _, rest = path.partition(".")
    if head == "fields" and rest:
        return Address(target, field=rest)
    if head == "rows" and "." in rest:
        row, _, column = rest.rpartition(".")
        return Address(target, row=row, column=column)
    if head == "nodes" and rest.endswith(".text") and rest != ".text":
        return Address(target, step=rest.removesuffix(".text"), attribute="text")
    return Address(target, attribute=path)

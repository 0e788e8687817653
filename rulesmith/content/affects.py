"""What a gap in the source affects, and so where readers are shown it.

A gap (content/<game>/gaps.yaml) lists under `affects` the places a reader meets it:

    rule:setup                            a rules section (or any item: organisation:imf, table:x,
                                          procedure:bot-davos, term:vote, example:x …)
    country:mexico.ct                     an entity's field
    table:resource-market-setup.Goods.start   a table cell: row key (first column), then column id
    procedure:bot-davos.remove-a          a procedure's step (its node id)

The site pages and the aids ask this module which gaps affect what they print and show each
gap's marker there (rulesmith/site/pages.py PageContext.gaps_at and the templates); the gaps
page lists every gap with the places it affects; tests/content/test_gap_markers.py reads the built
pages and PDFs for every affected place. A status on a field, cell or section is shown where
that value is printed, and where prose shows it with [[value:…]] (text/references.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith.content import model
from rulesmith.problems import Problems, nearest
from rulesmith.values import addresses
from rulesmith.values import references as values
from rulesmith.values.expressions import plain

if TYPE_CHECKING:
    from rulesmith.content.link import Index
    from rulesmith.values.addresses import Address


def parse(index: Index, address: str) -> Address:
    """An address (values/addresses.py) that names a place of the game; raises values.ValueError_
    (message, hint) when it names nothing."""
    place = addresses.parse(address)
    key = place.key
    if key not in index.targets:
        same_kind = [k for k in index.targets if k.startswith(place.kind + ":")]
        raise values.ValueError_(f"unknown place {key} in affects",
                                 nearest(key, same_kind)  # never an item of another kind
                                 or "write kind:id, kind:id.field, table:id.row.column or procedure:id.step")
    if place.inner is None:
        return place
    item = index.targets[key].item
    if isinstance(item, model.Procedure):
        nodes = [node.id for node in item.nodes]
        if place.step not in nodes:
            raise values.ValueError_(f"procedure '{item.id}' has no step '{place.step}' in affects",
                                     nearest(place.step or "", nodes) or "steps: " + ", ".join(nodes))
        return place
    try:
        values.raw(index, address)  # an unknown field, row or column: said as for a value reference
    except values.ValueError_ as error:
        message, hint = error.args
        raise values.ValueError_(message.replace(f"in [[value:{address}]]", "in affects"), hint) from None
    return place


def check(game, index: Index, problems: Problems) -> None:
    """Every gap says what it affects; every place it names exists, once per gap."""
    for gap in game.gaps:
        if gap.affects is None:
            problems.add(gap.where("id"), f"gap '{gap.id}' does not say what it affects",
                         "list every place a reader meets it: affects: [rule:…, kind:id.field, "
                         "table:id.row.column, procedure:id.step] (or affects: [] for the gaps page only)")
            continue
        seen = set()
        for i, address in enumerate(gap.affects):
            try:
                parse(index, address)
            except values.ValueError_ as error:
                key = addresses.parse(address).key
                unread = key not in index.targets and game.missing_because_unread(f"place {key} in affects", key)
                problems.add(gap.where("affects", i), *(unread or error.args))
            if address in seen:
                problems.add(gap.where("affects", i), f"gap '{gap.id}' lists {address} twice", "list each place once")
            seen.add(address)


def affected(game, index: Index) -> dict[str, list[model.Gap]]:
    """Address -> the gaps that affect it, in file order (only addresses that resolve)."""
    cache = getattr(index, "_affected", None)
    if cache is not None:
        return cache
    found: dict[str, list[model.Gap]] = {}
    for gap in game.gaps:
        for address in gap.affects or []:
            try:
                place = parse(index, address)
            except values.ValueError_:
                continue
            found.setdefault(str(place), []).append(gap)
    index._affected = found  # type: ignore[attr-defined]
    return found


def places(game, index: Index) -> list[tuple[model.Gap, Address]]:
    """(gap, place) for every place every gap affects: what the marker tests walk."""
    found = []
    for gap in game.gaps:
        for address in gap.affects or []:
            try:
                found.append((gap, parse(index, address)))
            except values.ValueError_:
                continue
    return found


def at(game, index: Index, key: str, inner: str | None = None) -> list[model.Gap]:
    """The gaps that affect an item (inner None) or a field, cell ("row.column") or step of it."""
    return list(affected(game, index).get(key + (f".{inner}" if inner is not None else ""), []))


def inside(game, index: Index, key: str) -> list[model.Gap]:
    """The gaps that affect an item or anything inside it (its fields, cells, steps)."""
    found = []
    for address, gaps in affected(game, index).items():
        if address == key or address.startswith(key + "."):
            found += [g for g in gaps if g not in found]
    return found


def cell_key(table: model.Table, row: list, column: int) -> str:
    """The "row.column" of a table cell, as an address names it."""
    return f"{plain(row[0])}.{table.columns[column].id}"

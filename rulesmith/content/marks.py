"""Marks: what a reader is shown where the data is not the rulebook's plain word. The one home.

A place carries a mark for its own status (an item's, a field's or a cell's `status`, the bot's
turn, a part, a state or a deck: values/status.py says what each status reads as) and for every
gap that lists it under `affects` (content/affects.py). Every output asks this module which marks
a place carries: the site's pages (rulesmith/site/pages.py), the walker and the Bot turn page with
its companion (the step's marks are rendered with the step's text, which the companion shows),
and every aid (rulesmith/aids/context.py). No output decides on its own which marks to show:
tests/content/test_marks.py goes through every mark of every game in every output that shows the
affected place.

A step carries its gaps; the step a reader enters a procedure at also carries the procedure's own
status and the gaps of the procedure as a whole, so that a walk that starts there (the walker, the
Bot turn page) meets them as the procedure's page does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.content import affects, model
from rulesmith.values import status as statuses
from rulesmith.values.fieldtypes import Value

if TYPE_CHECKING:
    from rulesmith.content.link import Index


@dataclass(frozen=True)
class Mark:
    """One mark at a place: a status (values/status.py) and why; a gap's mark names the gap."""

    status: str
    note: str = ""
    gap: model.Gap | None = None

    @property
    def label(self) -> str:
        return statuses.of(self.status).label


def own(item) -> Mark | None:
    """An item's own mark (an entity, section, table, procedure, example, gap, the bot's turn, a
    part, a state, a deck), or None where it is as the source gives it."""
    status = getattr(item, "status", statuses.VERIFIED)
    if not isinstance(status, str) or not statuses.doubtful(status):
        return None
    return Mark(status, getattr(item, "note", "") or "")


def value(raw, entity_status: str = statuses.VERIFIED) -> Mark | None:
    """A field's or cell's own mark: its status, or missing where the whole entity is and the
    field has no value of its own."""
    if raw is None:
        return Mark("missing") if entity_status == "missing" else None
    found = Value.of(raw)
    if found.missing or found.value is None:
        return Mark("missing", found.note or "")
    return Mark(found.status, found.note or "") if found.doubtful else None


def gaps(game, index: Index, key: str, inner: str | None = None, already: str = "") -> list[model.Gap]:
    """The gaps that affect an item (inner None) or a field, cell ("row.column") or step of it,
    but those the text `already` printed there names ([[gap:…]])."""
    return [g for g in affects.at(game, index, key, inner) if f"[[gap:{g.id}]" not in already]


def gaps_within(game, index: Index, keys: list[str], already: str = "") -> list[model.Gap]:
    """The gaps that affect any of these items as a whole (a condensed block and everything it
    stands for), each once, in the order of the keys."""
    found: list[model.Gap] = []
    for key in keys:
        found += [g for g in gaps(game, index, key, already=already) if g not in found]
    return found


def at(game, index: Index, key: str, inner: str | None = None, already: str = "") -> list[Mark]:
    """Every mark at a place: its own status first, then its gaps."""
    found: list[Mark] = []
    target = index.targets.get(key)
    item = getattr(target, "item", None)
    if item is not None and inner is None:
        mark = own(item)
        if mark:
            found.append(mark)
    elif isinstance(item, model.Entity) and inner is not None:
        mark = value(item.fields.get(inner), item.status)
        if mark:
            found.append(mark)
    return found + [Mark(g.status, g.note or "", g) for g in gaps(game, index, key, inner, already)]


def entered(procedure: model.Procedure, node: model.Node) -> bool:
    """Whether a reader enters the procedure at this step (its start)."""
    return node.id == procedure.start


def step(game, index: Index, procedure: model.Procedure, node: model.Node) -> list[Mark]:
    """The marks a step carries where it is shown alone (the walker, the Bot turn page): its gaps,
    but those its text names; at the step a walk enters, also the procedure's own status and the
    gaps of the procedure as a whole."""
    key = f"procedure:{procedure.id}"
    found: list[Mark] = []
    if entered(procedure, node):
        found += at(game, index, key, already=node.text or "")
    found += [Mark(g.status, g.note or "", g) for g in gaps(game, index, key, node.id, already=node.text or "")
              if all(m.gap is not g for m in found)]
    return found


def bot_parts(game) -> list[tuple[str, str, model.Fidelity]]:
    """(what, title, item) of each part of the bot's declaration (`bot:`): the turn, its parts (by
    number from 1), its state and its decks, in that order. `what` is turn, part-N, state-ID or
    deck-ID (the Bot turn page's anchors and the gaps page's rows: site/layout.bot_key)."""
    bot = game.bot
    if bot is None:
        return []
    found: list[tuple[str, str, model.Fidelity]] = [("turn", bot.turn.title, bot.turn)]
    procedures = {p.id: p.title for p in game.procedures}
    for n, part in enumerate(bot.turn.parts, start=1):
        title = procedures.get(part.procedure, part.procedure)
        found.append((f"part-{n}", f"{bot.turn.title}, part {n}: {title}", part))
    for var in bot.state:
        found.append((f"state-{var.id}", f"{bot.turn.title}, kept during the game: {var.name}", var))
    for deck in bot.decks:
        found.append((f"deck-{deck.id}", f"{bot.turn.title}, drawn from: {deck.name}", deck))
    return found


def bot_marked(game) -> list[tuple[str, str, model.Fidelity]]:
    """The parts of the bot's declaration that carry a mark of their own."""
    return [(what, title, item) for what, title, item in bot_parts(game) if own(item)]

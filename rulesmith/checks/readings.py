"""Readings said as readings: the bot's turn states nothing the rulebook does not, unmarked.

Modelling the bot's turn takes decisions the text may not make: which procedures make up the turn,
in what order, what state the bot keeps. Each such statement either names where the rulebook says
it (`source:`) or carries the status `reading` with its reason (values/status.py), which every
output shows as "Our reading". Here the check refuses:

- a bot turn, a part of it or a state with neither a source nor a reading mark;
- parts listed in an order the source map contradicts (a procedure listed after one that the
  rulebook text gives later), unless the later part or the turn is marked as our reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith.checks.source_map import line_range
from rulesmith.content import marks

if TYPE_CHECKING:
    from rulesmith.content.game import Game
    from rulesmith.problems import Problems

READING = "reading"
HINT = ("give `source: {section: …}` where the rulebook says it, or `status: reading` with a `note` "
        "saying why this is our reading")


def read(item) -> bool:
    """Whether an item is marked as our reading."""
    mark = marks.own(item)
    return mark is not None and mark.status == READING


def first_lines(game: Game) -> dict[str, tuple[int, int]]:
    """procedure id -> (its source's place among the game's texts, the first line that carries it)."""
    order = {s.id: n for n, s in enumerate(game.info.sources)}
    found: dict[str, tuple[int, int]] = {}
    for entry in game.source_map:
        for key in entry.items:
            kind, _, ident = key.partition(":")
            if kind != "procedure" or entry.source not in order:
                continue
            place = (order[entry.source], line_range(entry.lines)[0])
            if ident not in found or place < found[ident]:
                found[ident] = place
    return found


def check_bot_readings(game: Game, problems: Problems) -> None:
    bot = game.bot
    if bot is None:
        return
    turn = bot.turn
    if turn.source is None and not read(turn):
        problems.add(turn.where(), "the bot's turn names no source and is not marked as our reading", HINT)
    for n, part in enumerate(turn.parts, start=1):
        if part.source is None and not read(part):
            problems.add(part.where(), f"turn part {n} ({part.procedure}) names no source and is not marked as our reading", HINT)
    for var in bot.state:
        if var.source is None and not read(var):
            problems.add(var.where(), f"bot state '{var.id}' names no source and is not marked as our reading", HINT)
    if read(turn):
        return
    lines = first_lines(game)
    sources = [s.id for s in game.info.sources]
    latest: tuple[int, tuple[int, int]] | None = None  # (part number, its place) of the part given latest so far
    for n, part in enumerate(turn.parts, start=1):
        place = lines.get(part.procedure)
        if place is None:
            continue
        if latest is not None and place < latest[1] and not read(part):
            before = turn.parts[latest[0] - 1].procedure
            problems.add(part.where("procedure"),
                         f"turn part {n} ({part.procedure}, {sources[place[0]]} line {place[1]}) is listed after part "
                         f"{latest[0]} ({before}, line {latest[1][1]}), which the rulebook gives later",
                         "list the parts in the order of the source map, or mark the part `status: reading` "
                         "with a `note` saying why this order is our reading")
        if latest is None or place > latest[1]:
            latest = (n, place)

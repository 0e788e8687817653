"""What a game's overview leads with: the pieces of the rules a player looks up during play.

Derived from the data alone, the same way for every game (no per-game template): the round at a
glance and the set-up as the game's rules-summary aid lists them (content/<game>/aids.yaml), else
the set-up sections by their titles; the rules in reading order; the bot's turn as the game declares it (`bot:`), else its entry
procedures (those no other procedure calls, and where procedures call each other in a ring, the one in it that
calls the most others) and the tables referred to most.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesmith.content import model
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index

SETUP = re.compile(r"\bset[\s-]?up\b", re.I)
MOST_USED = 4


@dataclass
class Play:
    sequence: list[tuple[str, str, model.Located]]  # (heading, key, table or section): the round at a glance
    setup: list[tuple[str, str, model.Located]]  # (title, key, section or table)
    bot: list[model.Procedure]
    tables: list[model.Table]


def _shown(entries, index: Index) -> list[tuple[str, str, model.Located]]:
    found = []
    for entry in entries:
        target = index.targets.get(entry.show)
        if target is not None:
            found.append((entry.title or target.name, entry.show, target.item))
    return found


def _entries(procedures: list[model.Procedure], index: Index) -> list[model.Procedure]:
    """The procedures a turn starts from: those no other procedure calls; then, while some procedure
    cannot be reached from these (a ring of procedures calling each other, as an action phase that
    dispatches to actions which return to it), the one among the unreached that calls the most."""
    keys = {f"procedure:{p.id}": p for p in procedures}
    calls: dict[str, set[str]] = {key: set() for key in keys}
    for key in keys:
        for owner in index.backlinks.get(key, []):
            if owner in keys and owner != key:
                calls[owner].add(key)
    called = set().union(*calls.values()) if calls else set()
    entries = [key for key in keys if key not in called]
    reached: set[str] = set()

    def reach(key: str) -> None:
        if key not in reached:
            reached.add(key)
            for callee in calls[key]:
                reach(callee)

    for key in entries:
        reach(key)
    while len(reached) < len(keys):
        unreached = [key for key in keys if key not in reached]
        hub = max(unreached, key=lambda key: len(calls[key]))  # the first of equals, in content order
        entries.append(hub)
        reach(hub)
    return [keys[key] for key in keys if key in entries]


def _declared_turn(game: Game) -> list[model.Procedure]:
    """The procedures of the bot's turn as the game declares it (`bot: turn: parts:`), in its order."""
    if game.bot is None:
        return []
    procedures = {p.id: p for p in game.procedures}
    ids = list(dict.fromkeys(part.procedure for part in game.bot.turn.parts if part.procedure in procedures))
    return [procedures[i] for i in ids]


def play(game: Game, index: Index) -> Play:
    plan = next((p for p in game.aids if p.aid == "rules-summary"), None)
    sequence = _shown(plan.sequence, index) if plan else []
    setup = _shown(plan.setup, index) if plan else []
    setup = setup or [(str(s.title), f"rule:{s.id}", s) for s, _page in game.all_sections() if SETUP.search(s.title)]
    bot = _declared_turn(game) or _entries(game.procedures, index)
    uses = {t.id: len(set(index.backlinks.get(f"table:{t.id}", []))) for t in game.tables}
    order = {t.id: n for n, t in enumerate(game.tables)}
    tables = sorted((t for t in game.tables if uses[t.id]), key=lambda t: (-uses[t.id], order[t.id]))[:MOST_USED]
    return Play(sequence=sequence, setup=setup[:6], bot=bot, tables=tables)


def bot_turn(game: Game, index: Index) -> tuple[list[model.Procedure], list[model.Procedure]]:
    """The Bot turn page's procedures: those that start a part of the turn (walked in order), and
    the ones their steps call."""
    entry = play(game, index).bot or list(game.procedures)
    return entry, [p for p in game.procedures if p not in entry]

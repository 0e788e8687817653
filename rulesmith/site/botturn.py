"""What the Bot turn page's companion walks (templates/site/bot-companion.md.j2, assets/botturn.js).

From the game's `bot:` declaration and its procedures: the turn's parts, the procedures they reach
through calls, every node's links, calls, rolls, draws and state changes, the bot's state and
decks, and every table answer already computed for every value of the state it depends on
(rulesmith/content/turn.py), so the script only picks one. Texts are rendered by the template, hidden,
the same way as the numbered text; this is the graph, as JSON the script reads.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rulesmith.content import model, turn
from rulesmith.flowchart.chart import numbering
from rulesmith.translations import translated

if TYPE_CHECKING:
    from rulesmith.content.game import Game


def reached_procedures(game: Game) -> list[model.Procedure]:
    """The turn's procedures and those their steps call, in the content's order."""
    assert game.bot is not None
    return turn.reached(game, [part.procedure for part in game.bot.turn.parts])


def tables_read(game: Game) -> list[model.Table]:
    ids = {n.reads.table for p in reached_procedures(game) for n in p.nodes if n.reads}
    return [t for t in game.tables if t.id in ids]


def _node(game: Game, node: model.Node, number: str) -> dict:
    found: dict = {"type": node.type, "number": number}
    if node.type == "step":
        found["next"] = node.next
    if node.branches:
        found["branches"] = [b.to for b in node.branches]
        found["labels"] = [b.when for b in node.branches]
        if any(b.given for b in node.branches):
            found["given"] = [_given(b.given) for b in node.branches]
    if node.asks:
        found["asks"] = node.asks
    if node.call:
        found["call"] = {"procedure": node.call.procedure, "optional": node.call.optional}
        if node.call.event:
            found["call"]["event"] = node.call.event
    if node.roll:
        found["roll"] = {"dice": node.roll.dice, "sides": node.roll.sides, "reroll": node.roll.reroll}
    if node.draw:
        found["draw"] = {"deck": node.draw.deck, "count": node.draw.count, "upTo": node.draw.up_to or node.draw.count,
                         "wins": node.draw.wins}
    if node.card:
        found["card"] = node.card
    if node.tally:
        found["tally"] = {"node": node.tally.node, "label": node.tally.label, "of": node.tally.of}
    if node.sets:
        found["sets"] = [_change(c) for c in node.sets]
    if node.shows:
        found["shows"] = list(node.shows)
    if node.reads:
        found["reads"] = {"table": node.reads.table, "says": node.reads.says,
                          "inputs": turn.read_inputs(node),
                          "answers": [[a.when, a.value] for a in turn.answers(game, node)]}
    return found


def _given(given: model.Given | None) -> dict | None:
    """What answers a branch, as the page reads it (procedure.js: Turn.given)."""
    if given is None:
        return None
    found: dict = {"source": given.source()[0] if given.source() else "otherwise"}
    if given.state:
        found["state"] = {k: [str(v) for v in values] for k, values in given.state.items()}
    for name in ("roll", "read", "drawn", "count"):
        if getattr(given, name):
            found["step" if name != "count" else "count"] = getattr(given, name)
    if given.ended or given.event or given.is_:
        found["is"] = [str(v) for v in (given.ended or given.event or given.is_)]
    return found


def _change(change: model.Change) -> dict:
    return {"state": change.state, "to": str(change.to), "carry": change.carry}


def state_choices(game: Game, language: str | None = None) -> list[dict]:
    """The bot's state as the set-up form offers it, on a site in `language` (default: the game's
    own): each value's id and name, and the initial one (the page draws the form with them, the
    companion's script fills it again from the same)."""
    assert game.bot is not None
    language = language or game.info.language
    return [{"id": v.id, "name": v.name, "initial": str(v.initial) if v.initial is not None else turn.state_values(v)[0],
             "values": [[value, turn.value_name(v, value)] for value in turn.state_values(v)],
             # on a page in another language, the names shown in the game's own (translated.in_source):
             # the page says them to be in it (`lang`, the data's "lang": botturn.js)
             "english": [name for name in [v.name, *(turn.value_name(v, value) for value in turn.state_values(v))]
                         if translated.in_source(name, game, language)]}
            for v in game.bot.state]


def companion_data(game: Game, language: str | None = None) -> dict:
    """What the Bot turn page's script plays, on a site in `language` (default: the game's own)."""
    bot = game.bot
    assert bot is not None
    procedures = reached_procedures(game)
    return {
        "lang": game.info.language,  # the language of the game's own texts
        "name": bot.name,
        "called": bot.turn.called,
        "upTo": bot.up_to,
        "state": state_choices(game, language),
        "decks": {d.id: {"name": d.name, "cards": list(d.cards)} for d in bot.decks},
        "parts": [{"procedure": part.procedure, "phase": part.phase, "skip": part.skip, "repeat": part.repeat,
                   "only": {k: [str(v) for v in values] for k, values in part.only.items()},
                   "events": list(part.events)}
                  for part in bot.turn.parts],
        "events": [{"id": e.id, "name": e.name} for e in bot.turn.events],
        "after": [_change(c) for c in bot.turn.after],
        "procedures": {p.id: _procedure(game, p) for p in procedures},
    }


def _procedure(game: Game, procedure: model.Procedure) -> dict:
    """A procedure's nodes, and its loops played at the table (turn.table_loops): each node of a
    loop names it (`loop`: its index), so the page shows the loop as one screen where it is entered."""
    numbers = numbering(procedure)
    nodes = {n.id: _node(game, n, numbers[n.id]) for n in procedure.nodes}
    loops = turn.table_loops(procedure)
    for i, loop in enumerate(loops):
        for node_id in loop.nodes:
            nodes[node_id]["loop"] = i
    found: dict = {"title": procedure.title, "start": procedure.start, "nodes": nodes}
    if loops:
        found["loops"] = [{"nodes": list(loop.nodes), "exits": [list(e) for e in loop.exits]} for loop in loops]
    return found


def companion_json(game: Game, language: str | None = None) -> str:
    """The data as JSON on one line, for an HTML attribute (the template escapes it)."""
    return json.dumps(companion_data(game, language), ensure_ascii=True, separators=(",", ":"), sort_keys=True)

"""The bot's turn as data: its state, its calls between procedures, its table answers and its chance.

A game declares under `bot:` what its solo bot keeps between steps (difficulty, turn, stage …),
the decks it draws from and its turn (which procedures, in what order, when each applies). Steps
may call another procedure (`call:`), read a table by the state (`reads:`), roll dice (`roll:`),
draw (`draw:`) and change the state (`sets:`). This module proves all of it holds together (every
call resolves, no call chain loops without an end, every state value has its row and column) and
computes the table answers the walker shows, so the browser never looks anything up itself.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.content import model
from rulesmith.format.topics import see
from rulesmith.problems import Problems, nearest
from rulesmith.values import fieldtypes
from rulesmith.values import status as statuses
from rulesmith.values.expressions import plain

if TYPE_CHECKING:
    from rulesmith.content.game import Game

NEXT = "next"
# A table read's answer for every combination of what it reads by (states, a roll) goes into the
# page for the walker: no more than a page can hold.
MAX_READ_ANSWERS = 1000
# All the table answers of the Bot turn page together, in characters (the shipped games' pages hold
# under 1,000): each read is bounded above, but 4 procedures of 39 reads of 1,000 answers of 200
# characters each made a page of 43.8 MB.
MAX_TURN_ANSWER_CHARS = 200_000


def state_values(var: model.StateVar) -> list[str]:
    """The values a state can take, as the walker and the address write them (strings); none
    for a state the check refuses (no range, or more values than a page shows)."""
    if var.type == "enum":
        return [v.id for v in var.values][:model.MAX_STATE_VALUES]
    if var.min is None or var.max is None or not 0 <= var.max - var.min < model.MAX_STATE_VALUES:
        return []
    return [str(n) for n in range(var.min, var.max + 1)]


def value_name(var: model.StateVar, value: str) -> str:
    """A state value as readers know it ("Hard", "3")."""
    for v in var.values:
        if v.id == value:
            return v.name
    return value


def calls(procedure: model.Procedure) -> list[tuple[model.Node, model.Call]]:
    return [(node, node.call) for node in procedure.nodes if node.call is not None]


def reached(game: Game, starts: list[str]) -> list[model.Procedure]:
    """These procedures and every one their steps call, directly or not, in the content's order:
    what a walker that starts at them must hold to enter every call."""
    procedures = {p.id: p for p in game.procedures}
    todo = [p for p in starts if p in procedures]
    found = set(todo)
    while todo:
        for _node, call in calls(procedures[todo.pop()]):
            if call.procedure in procedures and call.procedure not in found:
                found.add(call.procedure)
                todo.append(call.procedure)
    return [p for p in game.procedures if p.id in found]


@dataclass(frozen=True)
class TableLoop:
    """A loop played at the table: a cycle of a procedure's steps and questions that only the board
    answers (every decision in it `asks: board`; no step in it calls, rolls, draws, reads a table,
    changes the state, shows a card or keeps a count, which the page would do itself each round).
    The Bot turn page shows it as one screen, its steps together, and asks once how it ended:
    `nodes` in the procedure's order, `exits` the (decision, branch index) pairs that lead out."""

    nodes: tuple[str, ...]
    exits: tuple[tuple[str, int], ...]


def _played_at_the_table(node: model.Node) -> bool:
    if node.type == "decision":
        return node.asks == "board" and node.tally is None and not node.sets and not node.shows
    return (node.type == "step" and node.call is None and node.roll is None and node.draw is None
            and node.reads is None and not node.sets and node.card is None)


def table_loops(procedure: model.Procedure) -> list[TableLoop]:
    """The loops of a procedure played at the table (TableLoop), in the order of their first node."""
    edges = {n.id: ([n.next] if n.next else []) + [b.to for b in n.branches] for n in procedure.nodes}
    edges = {k: [t for t in v if t in edges] for k, v in edges.items()}
    group = _strongly_connected(edges)
    members: dict[int, list[model.Node]] = {}
    for node in procedure.nodes:
        members.setdefault(group[node.id], []).append(node)
    found = []
    for nodes in members.values():
        ids = {n.id for n in nodes}
        cycle = len(nodes) > 1 or nodes[0].id in edges[nodes[0].id]
        if not cycle or not all(_played_at_the_table(n) for n in nodes):
            continue
        exits = tuple((n.id, i) for n in nodes for i, b in enumerate(n.branches) if b.to not in ids)
        if exits:
            found.append(TableLoop(tuple(n.id for n in nodes), exits))
    return found


# ---------------------------------------------------------------- the checks

def check_bot(game: Game, problems: Problems) -> None:
    before = len(problems)
    _check_bot(game, problems)
    if game.bot is not None and len(problems) == before:
        _check_page_answers(game, problems)


def _check_page_answers(game: Game, problems: Problems) -> None:
    """The table answers the Bot turn page carries, all reads together, are bounded: refused at the
    read that takes them past MAX_TURN_ANSWER_CHARS (each read is bounded in count alone)."""
    assert game.bot is not None
    total = 0
    for procedure in reached(game, [part.procedure for part in game.bot.turn.parts]):
        for node in procedure.nodes:
            if node.reads is None:
                continue
            total += sum(len(a.value) + sum(len(k) + len(v) + 6 for k, v in a.when.items()) + 8
                         for a in answers(game, node))
            if total > MAX_TURN_ANSWER_CHARS:
                problems.add(node.reads.where(), f"node '{node.id}' takes the table answers the Bot turn page "
                             f"carries past {MAX_TURN_ANSWER_CHARS:,} characters (every answer of every read is "
                             f"in the page)", "read shorter cells, by fewer states, or from fewer steps: a "
                             "player's phone loads the whole page")
                return


def _check_bot(game: Game, problems: Problems) -> None:
    procedures = {p.id: p for p in game.procedures}
    bot = game.bot
    states = {v.id: v for v in bot.state} if bot else {}
    tables = {t.id: t for t in game.tables}
    decks = {d.id: d for d in bot.decks} if bot else {}
    _check_calls(game, procedures, problems)
    for procedure in game.procedures:
        nodes = {n.id: n for n in procedure.nodes}
        for node in procedure.nodes:
            _check_node(node, states, tables, decks, bot is not None, problems)
            if node.tally is not None:
                _check_tally(node, nodes, problems)
    for procedure in game.procedures:
        _check_who_answers(game, procedure, problems)
    if bot is None:
        return
    _check_state(bot, problems)
    event_ids = [e.id for e in bot.turn.events]
    for i, event in enumerate(bot.turn.events):
        if event.id in event_ids[:i]:
            problems.add(bot.turn.where("events", i, "id"), f"duplicate event id '{event.id}'", "give every event its own id")
    seen: set[str] = set()
    for deck in bot.decks:
        if deck.id in seen:
            problems.add(deck.where("id"), f"duplicate deck id '{deck.id}'", "give every deck its own id")
        seen.add(deck.id)
        if not deck.cards and not statuses.doubtful(deck.status):
            problems.add(deck.where(), f"deck '{deck.id}' lists no cards",
                         "list them under cards:, or give status: missing with a note naming the gap")
    for n, part in enumerate(bot.turn.parts):
        if part.procedure not in procedures:
            problems.add(part.where("procedure"), f"the bot's turn runs unknown procedure '{part.procedure}'",
                         nearest(part.procedure, procedures) or "name one of the game's procedures")
        for state_id, allowed in part.only.items():
            var = states.get(state_id)
            if var is None:
                problems.add(part.where("only", key=True), f"turn part {n + 1}: unknown bot state '{state_id}'",
                             nearest(state_id, states) or "declare it under bot: state:")
                continue
            values = state_values(var)  # none: the state itself is refused (_check_state)
            for i, value in enumerate(allowed):
                if values and str(value) not in values:
                    problems.add(part.where("only", state_id, i), f"turn part {n + 1}: '{value}' is not a value of {var.name}",
                                 nearest(str(value), values) or "values: " + ", ".join(values))
        for i, named in enumerate(part.events):
            if named not in event_ids:
                problems.add(part.where("events", i), f"turn part {n + 1}: unknown event '{named}'",
                             nearest(named, event_ids) or "declare it under bot: turn: events:")
    for change in bot.turn.after:
        _check_change(change, states, problems)


def _check_calls(game: Game, procedures: dict[str, model.Procedure], problems: Problems) -> None:
    """Every call names a procedure, from a step; no chain of calls comes back without an end."""
    for procedure in game.procedures:
        for node, call in calls(procedure):
            if node.type != "step":
                problems.add(node.where("call"), f"{node.type} '{node.id}' calls a procedure",
                             "only a step can call another procedure; it goes on at next when that one ends")
            events = [e.id for e in game.bot.turn.events] if game.bot else []
            if call.event is not None and call.event not in events:
                problems.add(call.where("event"), f"step '{node.id}' calls with unknown event '{call.event}'",
                             nearest(call.event, events) or "declare it under bot: turn: events:")
            if call.procedure not in procedures:
                problems.add(call.where("procedure"), f"step '{node.id}' calls unknown procedure '{call.procedure}'",
                             nearest(call.procedure, procedures) or "name one of the game's procedures")
    finishes = _finishing(game.procedures)
    structurally = {p.id for p in game.procedures if _reaches_an_end(p)}
    chains = _CallChains(game.procedures)
    for procedure in game.procedures:
        if procedure.id in finishes or procedure.id not in structurally:
            continue  # finishes, or cannot reach an end at all (check_procedures says so)
        for _node, call in calls(procedure):
            if call.optional or call.procedure not in procedures or call.procedure in finishes:
                continue
            shown = " → ".join(chains.shown(procedure.id, call.procedure))
            problems.add(call.where("procedure"), f"call chain {shown} never ends: every way to an end of "
                         f"'{procedure.id}' runs a procedure that comes back to it",
                         "give one of these procedures a way to an end that does not call back, or make the call optional")


def _unseen_targets(node: model.Node, seen: set[str]) -> list[str]:
    """The nodes a node leads to that a walk has not met yet, now met."""
    found = [t for t in dict.fromkeys(([node.next] if node.next else []) + [b.to for b in node.branches]) if t not in seen]
    seen.update(found)
    return found


def _reaches_an_end(procedure: model.Procedure) -> bool:
    """A path from the start reaches an end, whatever its calls do."""
    nodes = {n.id: n for n in procedure.nodes}
    seen, todo = {procedure.start}, [procedure.start]
    while todo:
        node = nodes.get(todo.pop())
        if node is None:
            continue
        if node.type == "end":
            return True
        todo += _unseen_targets(node, seen)
    return False


def _finishing(all_procedures: list[model.Procedure]) -> set[str]:
    """The procedures that finish: a path from the start reaches an end through calls that finish
    (a call the player may leave out, optional, never keeps its caller from finishing).

    Every node is visited once, so a long chain of calls takes linear time (going over every
    procedure again until nothing changed took a minute for 6,000 calls): a step whose call is not
    known to finish waits for that procedure, and its walk goes on when that one finishes."""
    finishes: set[str] = set()
    newly: list[str] = []  # finished, their waiting steps not yet taken up
    waiting: dict[str, list[tuple[int, model.Node]]] = {}  # callee -> (procedure, its step) waiting for it
    nodes = [{n.id: n for n in p.nodes} for p in all_procedures]
    seen = [{p.start} for p in all_procedures]

    def walk(n: int, todo: list[str]) -> None:
        procedure = all_procedures[n]
        while todo and procedure.id not in finishes:
            node = nodes[n].get(todo.pop())
            if node is None:
                continue
            if node.type == "end":
                finishes.add(procedure.id)
                newly.append(procedure.id)
            elif node.call is not None and not node.call.optional and node.call.procedure not in finishes:
                waiting.setdefault(node.call.procedure, []).append((n, node))
            else:
                todo += _unseen_targets(node, seen[n])

    for n, procedure in enumerate(all_procedures):
        walk(n, [procedure.start])
    while newly:
        for n, node in waiting.pop(newly.pop(), []):
            walk(n, _unseen_targets(node, seen[n]))
    return finishes


class _CallChains:
    """A chain of calls from one procedure back to another, to show in a problem, found in linear
    time for every call at once (a search per call took a minute for 2,000 procedures calling in
    a ring). Procedures that call each other, directly or not, form a strongly connected group;
    in each, one search from its first procedure each way gives a way from any member to any
    other through it. A long chain is shown by its ends."""

    SHOWN = 6  # procedures shown at each end of a long chain

    def __init__(self, all_procedures: list[model.Procedure]):
        self.callees: dict[str, list[str]] = {}
        for procedure in all_procedures:
            self.callees.setdefault(procedure.id, [])
        for procedure in all_procedures:
            self.callees[procedure.id] += [c.procedure for _n, c in calls(procedure) if c.procedure in self.callees]
        self.group = _strongly_connected(self.callees)
        callers: dict[str, list[str]] = {p: [] for p in self.callees}
        for caller, called in self.callees.items():
            for callee in called:
                callers[callee].append(caller)
        self.root: dict[int, str] = {}
        for member in self.callees:  # content order: the first member of a group is its root
            self.root.setdefault(self.group[member], member)
        self.from_root = self._search(self.callees)  # member -> the one before it on a way from the root
        self.to_root = self._search(callers)  # member -> the one after it on a way to the root

    def _search(self, edges: dict[str, list[str]]) -> dict[str, str | None]:
        """From every group's root along `edges`, within its group: each member's predecessor."""
        found: dict[str, str | None] = {}
        for root in self.root.values():
            found[root] = None
            todo = [root]
            for here in todo:
                for there in edges[here]:
                    if there not in found and self.group[there] == self.group[root]:
                        found[there] = here
                        todo.append(there)
        return found

    def shown(self, caller: str, callee: str) -> list[str]:
        """caller → callee → … → caller, or caller → callee when callee does not come back."""
        if self.group[callee] != self.group[caller]:
            return [caller, callee]
        head = self._follow(self.to_root, callee)  # callee … root
        tail = self._follow(self.from_root, caller)[::-1]  # root … caller
        if len(head) + len(tail) <= 4 * self.SHOWN and head[-1] == tail[0]:  # whole: without its loops
            way: list[str] = []
            for procedure in head + tail[1:]:
                if procedure in way:
                    del way[way.index(procedure) + 1:]
                else:
                    way.append(procedure)
            return [caller] + (way if callee != caller else [caller])
        return [caller] + head[:self.SHOWN] + ["…"] + tail[-self.SHOWN:]

    def _follow(self, links: dict[str, str | None], start: str) -> list[str]:
        """start, then its links, up to the root or 2 × SHOWN + 1 procedures."""
        way = [start]
        while (after := links.get(way[-1])) is not None and len(way) <= 2 * self.SHOWN:
            way.append(after)
        return way


def _strongly_connected(edges: dict[str, list[str]]) -> dict[str, int]:
    """Each node's strongly connected group (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    group: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for start in edges:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                after = edges[node][i]
                if after not in index:
                    work.append((after, 0))
                elif after in on_stack:
                    low[node] = min(low[node], index[after])
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group[member] = index[node]
                    if member == node:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return group


def _check_state(bot: model.Bot, problems: Problems) -> None:
    seen: set[str] = set()
    for var in bot.state:
        if var.id in seen:
            problems.add(var.where("id"), f"duplicate bot state '{var.id}'", "give every state its own id")
        seen.add(var.id)
        if var.type == "enum":
            ids = [v.id for v in var.values]
            if not ids:
                problems.add(var.where(), f"bot state '{var.id}' is an enum without values",
                             "list them: values: [{id: easy, name: Easy}, …]")
            if len(set(ids)) != len(ids):
                problems.add(var.where("values"), f"bot state '{var.id}' lists a value twice", "remove the repeat")
            if len(ids) > model.MAX_STATE_VALUES:
                problems.add(var.where("values"), f"bot state '{var.id}' has {len(ids)} values; a page shows at "
                             f"most {model.MAX_STATE_VALUES}", "keep the values the rules tell apart")
                continue
        elif var.min is None or var.max is None or var.max < var.min:
            problems.add(var.where(), f"bot state '{var.id}' is an integer without a range",
                         "give min: and max: (max not below min)")
            continue
        elif var.max - var.min >= model.MAX_STATE_VALUES:
            problems.add(var.where("max"), f"bot state '{var.id}' has {var.max - var.min + 1:,} values; a page "
                         f"shows at most {model.MAX_STATE_VALUES}", f"the player picks the value from a list: give min: "
                         f"and max: at most {model.MAX_STATE_VALUES - 1} apart, or an enum of the values the rules tell apart")
            continue
        if var.initial is not None and str(var.initial) not in state_values(var):
            problems.add(var.where("initial"), f"bot state '{var.id}': initial '{var.initial}' is not one of its values",
                         nearest(str(var.initial), state_values(var)) or "values: " + ", ".join(state_values(var)))


def _check_change(change: model.Change, states: dict[str, model.StateVar], problems: Problems) -> None:
    var = states.get(change.state)
    if var is None:
        problems.add(change.where("state"), f"unknown bot state '{change.state}'",
                     nearest(change.state, states) or "declare it under bot: state:")
        return
    values = state_values(var)  # none: the state itself is refused (_check_state)
    if str(change.to) != NEXT and values and str(change.to) not in values:
        problems.add(change.where("to"), f"'{change.to}' is not a value of {var.name}",
                     "write next, or one of: " + ", ".join(values))
    if change.carry is not None and (change.carry not in states or change.carry == change.state):
        problems.add(change.where("carry"), f"carry: unknown bot state '{change.carry}'",
                     nearest(change.carry, [s for s in states if s != change.state]) or "name another bot state")


def _check_node(node: model.Node, states, tables, decks, has_bot: bool, problems: Problems) -> None:
    used = [ref for ref in ([node.reads.row, node.reads.column] if node.reads else []) if ref and ref.startswith("state:")]
    if not has_bot and (used or node.sets or node.shows or node.draw or node.card):
        problems.add(node.where(), f"node '{node.id}' uses the bot's state or decks, but the game declares no bot",
                     "declare `bot:` with its state, decks and turn; " + see("bot"))
        return
    for change in node.sets:
        _check_change(change, states, problems)
    for i, state_id in enumerate(node.shows):
        if state_id not in states:
            problems.add(node.where("shows", i), f"node '{node.id}' shows unknown bot state '{state_id}'",
                         nearest(state_id, states) or "declare it under bot: state:")
    if node.draw is not None:
        if node.draw.deck not in decks:
            problems.add(node.draw.where("deck"), f"node '{node.id}' draws from unknown deck '{node.draw.deck}'",
                         nearest(node.draw.deck, decks) or "declare it under bot: decks:")
        elif node.draw.up_to is not None and node.draw.up_to < node.draw.count:
            problems.add(node.draw.where("up_to"), f"node '{node.id}': up_to is below count", "up_to is the most drawn")
        elif decks[node.draw.deck].cards and max(node.draw.count, node.draw.up_to or 0) > len(decks[node.draw.deck].cards):
            problems.add(node.draw.where(), f"node '{node.id}' draws more than deck '{node.draw.deck}' holds",
                         f"it holds {len(decks[node.draw.deck].cards)}")
    if node.card is not None and node.card not in decks:
        problems.add(node.where("card"), f"node '{node.id}' reads unknown card '{node.card}'",
                     nearest(node.card, decks) or "declare it under bot: decks:")
    if node.reads is not None:
        _check_read(node, states, tables, problems)


def _check_tally(node: model.Node, nodes: dict[str, model.Node], problems: Problems) -> None:
    tally = node.tally
    if tally is None:
        return
    if tally.node not in nodes:
        problems.add(tally.where("node"), f"node '{node.id}' counts unknown node '{tally.node}'",
                     nearest(tally.node, nodes) or "name a node of the same procedure")
    if tally.of is not None and (tally.of not in nodes or nodes[tally.of].reads is None):
        problems.add(tally.where("of"), f"node '{node.id}': '{tally.of}' is not a node of this procedure that reads a table",
                     nearest(tally.of, [n for n in nodes if nodes[n].reads]) or "name the node whose table answer is the number to reach")


def _check_read(node: model.Node, states, tables, problems: Problems) -> None:
    read = node.reads
    if read is None:
        return
    table = tables.get(read.table)
    if table is None:
        problems.add(read.where("table"), f"node '{node.id}' reads unknown table '{read.table}'",
                     nearest(read.table, tables) or "name one of the game's tables")
        return
    refs = [("row", read.row)] + ([("column", read.column)] if read.column else [])
    for field, ref in refs:
        if ref.startswith("state:") and ref[6:] not in states:
            problems.add(read.where(field), f"node '{node.id}' reads unknown bot state '{ref[6:]}'",
                         nearest(ref[6:], states) or "declare it under bot: state:")
            return
        if ref == "roll" and node.roll is None:
            problems.add(read.where(field), f"node '{node.id}' reads its roll but rolls nothing",
                         "add roll: {dice: 1, sides: 6} to this node")
            return
    if (read.column is None) == (read.find is None):
        problems.add(read.where(), f"node '{node.id}': a table read needs either column: or find: roll",
                     "column: state:<id> or a column id; find: roll for the column holding the roll")
        return
    if read.find == "roll" and node.roll is None:
        problems.add(read.where("find"), f"node '{node.id}' finds its roll but rolls nothing",
                     "add roll: {dice: 1, sides: 6} to this node")
        return
    count = math.prod(len(values) for values in _read_choices(node, states).values())
    if count > MAX_READ_ANSWERS:
        problems.add(read.where(), f"node '{node.id}' reads table '{table.id}' by {count:,} combinations of "
                     f"{' and '.join(read_inputs(node))}; a page holds at most {MAX_READ_ANSWERS:,} answers",
                     "read it by fewer states, by states with fewer values, or by a smaller roll")
        return
    rows = _rows(table)
    for case in read_cases(node, states):
        try:
            lookup(table, node, case, rows)
        except LookupError as error:
            problems.add(read.where(), f"node '{node.id}': {error.args[0]}",
                         "every value of the state it reads needs its row and column in the table")


# ---------------------------------------------------------------- who answers a decision

GIVEN_HINT = "mark it asks: board (only the player sees the answer), or give each branch given: (what the page holds that answers it); "


def before(procedure: model.Procedure, node_id: str) -> list[model.Node]:
    """The nodes that lead to a node of the same procedure."""
    return [n for n in procedure.nodes if n.next == node_id or any(b.to == node_id for b in n.branches)]


def held(game: Game, procedure: model.Procedure, node: model.Node) -> str | None:
    """What the Bot turn page already holds that answers a question, said as a reason; None where
    only the player can answer it. A question whose answer is held is not the player's: a count
    with its number to reach, a roll or a draw the page made just before it, the end a procedure
    the step before it called reached."""
    if game.bot is None:
        return None
    if node.shows:
        return "the bot's state it shows beside the question (" + ", ".join(node.shows) + "); split what the board answers into a question of its own"
    if node.tally is not None and node.tally.of is not None:
        return f"the count it keeps ({node.tally.label}) and the number to reach"
    decks = {d.id: d for d in game.bot.decks}
    ways = before(procedure, node.id)
    if not ways:
        return None
    if all(n.roll is not None for n in ways):
        return f"the roll of step '{ways[0].id}'"
    if all(n.draw is not None and decks.get(n.draw.deck) is not None and decks[n.draw.deck].cards for n in ways):
        return f"the card drawn at step '{ways[0].id}'"
    procedures = {p.id: p for p in game.procedures}
    if all(n.call is not None and not n.call.optional and n.call.procedure in procedures
           and len(ends(procedures[n.call.procedure])) > 1 for n in ways):
        return f"the end that procedure '{ways[0].call.procedure}' reached"  # type: ignore[union-attr]
    return None


def ends(procedure: model.Procedure) -> list[str]:
    return [n.id for n in procedure.nodes if n.type == "end"]


def event_ids_of(game: Game, procedure_id: str) -> list[str] | None:
    """The events of the turn parts that run this procedure (their `events:`); None where no part does."""
    if game.bot is None:
        return None
    found = [e for part in game.bot.turn.parts if part.procedure == procedure_id for e in part.events]
    found += [c.event for p in game.procedures for _n, c in calls(p) if c.procedure == procedure_id and c.event]
    return list(dict.fromkeys(found)) if found else None


def given_cases(game: Game, procedure: model.Procedure, node: model.Node, given: model.Given) -> list | None:
    """Every answer the source of a given can take (roll faces, table answers, cards, ends …), or
    None where the source is not one the page holds here (the check says why)."""
    nodes = {n.id: n for n in procedure.nodes}
    decks = {d.id: d for d in game.bot.decks} if game.bot else {}
    if given.roll:
        step = nodes.get(given.roll)
        return roll_faces(step.roll) if step is not None and step.roll is not None else None
    if given.read:
        step = nodes.get(given.read)
        return list(dict.fromkeys(a.value for a in answers(game, step))) if step is not None and step.reads else None
    if given.drawn:
        step = nodes.get(given.drawn)
        deck = decks.get(step.draw.deck) if step is not None and step.draw is not None else None
        return list(deck.cards) if deck is not None and deck.cards else None
    if given.ended:
        callers = before(procedure, node.id)
        procedures = {p.id: p for p in game.procedures}
        if not callers or any(n.call is None or n.call.optional or n.call.procedure not in procedures for n in callers):
            return None
        return list(dict.fromkeys(e for n in callers for e in ends(procedures[n.call.procedure])))  # type: ignore[union-attr]
    if given.count:
        return ["reached", "below"] if node.tally is not None and node.tally.of is not None else None
    if given.event:
        return event_ids_of(game, procedure.id)
    return None


def _check_who_answers(game: Game, procedure: model.Procedure, problems: Problems) -> None:
    states = {v.id: v for v in game.bot.state} if game.bot else {}
    for node in procedure.nodes:
        givens = [(i, b.given) for i, b in enumerate(node.branches) if b.given is not None]
        if node.type != "decision":
            if node.asks or givens:
                problems.add(node.where("asks" if node.asks else "branches"), f"{node.type} '{node.id}' says who answers it",
                             "only a decision is answered: remove asks: and given:")
            continue
        if node.asks and givens:
            problems.add(node.where("asks"), f"decision '{node.id}' is asked at the board and given",
                         "keep asks: board, or given: on its branches, not both")
            continue
        if node.asks:
            reason = held(game, procedure, node)
            if reason:
                problems.add(node.where("asks"), f"decision '{node.id}' asks the player what the page holds: {reason}",
                             "answer it with given: on its branches")
            continue
        if not givens:
            if game.bot is not None:
                problems.add(node.where(), f"decision '{node.id}' does not say who answers it", GIVEN_HINT + see("bot"))
            continue
        if game.bot is None:
            problems.add(node.where("branches", givens[0][0], "given"), f"decision '{node.id}' is given, but the game declares no bot",
                         "mark it asks: board; " + see("bot"))
            continue
        if len(givens) < len(node.branches):
            missing = next(i for i, b in enumerate(node.branches) if b.given is None)
            problems.add(node.where("branches", missing), f"decision '{node.id}': branch '{node.branches[missing].when}' "
                         "does not say what answers it", "give every branch given:, or mark the decision asks: board")
            continue
        _check_givens(game, procedure, node, states, problems)


def _check_givens(game: Game, procedure: model.Procedure, node: model.Node, states, problems: Problems) -> None:
    kinds: set[str] = set()
    others = 0
    for branch in node.branches:
        given = branch.given
        assert given is not None
        where = branch.where("given")
        named = given.source()
        if len(named) != 1:
            problems.add(where, f"decision '{node.id}', branch '{branch.when}': given names "
                         f"{' and '.join(named) if named else 'nothing'}",
                         "name one of: state, roll, read, drawn, ended, count, event, or otherwise")
            return
        kind = named[0]
        if kind == "otherwise":
            others += 1
            continue
        kinds.add(kind)
        if (given.is_ != []) != (kind in ("roll", "read", "drawn")):
            problems.add(where, f"decision '{node.id}', branch '{branch.when}': " +
                         ("is: lists the answers of a roll, a read or a draw" if given.is_ else f"given {kind} needs is: the answers it stands for"),
                         "with roll, read or drawn: is: [...]; else no is:")
            return
        if kind == "state":
            for state_id, allowed in given.state.items():
                var = states.get(state_id)
                if var is None:
                    problems.add(where, f"decision '{node.id}': unknown bot state '{state_id}'",
                                 nearest(state_id, states) or "declare it under bot: state:")
                    return
                values = state_values(var)
                for value in allowed:
                    if values and str(value) not in values:
                        problems.add(where, f"decision '{node.id}': '{value}' is not a value of {var.name}",
                                     nearest(str(value), values) or "values: " + ", ".join(values))
                        return
            continue
        cases = given_cases(game, procedure, node, given)
        if cases is None:
            why = {"roll": f"'{given.roll}' is not a step of this procedure that rolls",
                   "read": f"'{given.read}' is not a step of this procedure that reads a table",
                   "drawn": f"'{given.drawn}' is not a step of this procedure that draws from a deck the page holds",
                   "ended": "the step before it does not call a procedure (every way in, without optional)",
                   "count": "it keeps no count with a number to reach (tally: with of:)",
                   "event": "no turn part that runs this procedure names events (events:)"}[kind]
            problems.add(where, f"decision '{node.id}', branch '{branch.when}': {why}", see("bot"))
            return
        stands = given.ended or given.event or ([given.count] if given.count else []) or given.is_
        for value in stands:
            if str(value) not in [str(c) for c in cases]:
                problems.add(where, f"decision '{node.id}', branch '{branch.when}': '{value}' is not one of its answers",
                             nearest(str(value), [str(c) for c in cases]) or "answers: " + ", ".join(map(str, cases)))
                return
    if len(kinds) > 1:
        problems.add(node.where("branches"), f"decision '{node.id}' is given by {' and '.join(sorted(kinds))}",
                     "answer a decision by one source (and otherwise)")
        return
    if others > 1:
        problems.add(node.where("branches"), f"decision '{node.id}' has {others} branches given otherwise", "keep one")
        return
    if others or not kinds:
        return
    for case in every_case(game, procedure, node):
        if not [b for b in node.branches if b.given is not None and takes(b.given, case)]:
            shown = ", ".join(f"{k} {v}" for k, v in case.items())
            problems.add(node.where("branches"), f"decision '{node.id}': no branch answers {shown}",
                         "add a branch for it, or one given: {otherwise: true}")
            return


def every_case(game: Game, procedure: model.Procedure, node: model.Node) -> list[dict[str, str]]:
    """Every case a given decision meets: each combination of the states its branches name, or
    each answer of its roll, read, draw, called procedure, count or event."""
    givens = [b.given for b in node.branches if b.given is not None and not b.given.otherwise]
    if not givens:
        return []
    kind = givens[0].source()[0]
    if kind == "state":
        states = {v.id: v for v in game.bot.state} if game.bot else {}
        named = list(dict.fromkeys(s for g in givens for s in g.state))
        choices = [state_values(states[s]) for s in named]
        if math.prod(len(c) for c in choices) > MAX_READ_ANSWERS:
            return []
        return [dict(zip(named, combo, strict=True)) for combo in itertools.product(*choices)]
    cases = given_cases(game, procedure, node, givens[0]) or []
    return [{kind: str(c)} for c in cases]


def takes(given: model.Given, case: dict[str, str]) -> bool:
    """Whether a branch's given holds in a case (every_case)."""
    if given.otherwise:
        return True
    if given.state:
        return all(s in case and case[s] in [str(v) for v in values] for s, values in given.state.items())
    kind = given.source()[0]
    stands = given.ended or given.event or ([given.count] if given.count else []) or given.is_
    return str(case.get(kind)) in [str(v) for v in stands]


# ---------------------------------------------------------------- the answers

def read_inputs(node: model.Node) -> list[str]:
    """What a node's table read depends on: state ids, and 'roll'."""
    read = node.reads
    assert read is not None
    found = []
    for ref in [read.row, read.column] + (["roll"] if read.find else []):
        if ref is None:
            continue
        name = ref[6:] if ref.startswith("state:") else "roll" if ref == "roll" else None
        if name and name not in found:
            found.append(name)
    return found


def roll_faces(roll: model.Roll) -> list[str]:
    return [str(n) for n in range(roll.dice, roll.dice * roll.sides + 1)]


def _read_choices(node: model.Node, states: dict[str, model.StateVar]) -> dict[str, list[str]]:
    """Each input a read depends on, with the values it can take."""
    choices = {}
    for name in read_inputs(node):
        if name == "roll":
            assert node.roll is not None
            choices[name] = roll_faces(node.roll)
        else:
            choices[name] = state_values(states[name])
    return choices


def read_cases(node: model.Node, states: dict[str, model.StateVar]) -> list[dict[str, str]]:
    """Every combination of the inputs a read depends on."""
    choices = _read_choices(node, states)
    return [dict(zip(choices, combination, strict=True)) for combination in itertools.product(*choices.values())]


def _resolve(ref: str, case: dict[str, str]) -> str:
    if ref.startswith("state:"):
        return case[ref[6:]]
    if ref == "roll":
        return case["roll"]
    return ref


def _rows(table: model.Table) -> dict[str, list]:
    """A table's rows by their key as a read names it (the first row of a key)."""
    rows: dict[str, list] = {}
    for row in table.rows:
        if row:
            rows.setdefault(str(plain(row[0])), row)
    return rows


def lookup(table: model.Table, node: model.Node, case: dict[str, str], rows: dict[str, list] | None = None) -> str:
    """The answer of a node's table read for one case, as readers see it; LookupError if none.
    `rows`: the table's `_rows`, made once for many cases."""
    read = node.reads
    assert read is not None
    key = _resolve(read.row, case)
    row = (rows if rows is not None else _rows(table)).get(key)
    if row is None:
        raise LookupError(f"table '{table.id}' has no row '{key}'")
    ids = [c.id for c in table.columns]
    if read.find == "roll":
        face = int(case["roll"])
        holding = [ids[c] for c, cell in enumerate(row) if c and isinstance(plain(cell), list) and face in plain(cell)]
        if len(holding) != 1:
            raise LookupError(f"row '{key}' of table '{table.id}' holds the roll {face} in "
                              f"{len(holding)} columns, not one")
        column = holding[0]
        return read.names.get(column) or table.columns[ids.index(column)].title
    value = _resolve(read.column or "", case)
    column = read.columns.get(value, value)
    if column not in ids:
        raise LookupError(f"table '{table.id}' has no column '{column}'")
    c = ids.index(column)
    cell = plain(row[c]) if c < len(row) else None
    if cell is None:
        raise LookupError(f"table '{table.id}', row '{key}', column '{column}' is empty")
    return fieldtypes.shown(cell, table.columns[c].type)


@dataclass
class Answer:
    when: dict[str, str]
    value: str


def answers(game: Game, node: model.Node) -> list[Answer]:
    """The answer of a node's table read for every case of its inputs (the walker picks one)."""
    states = {v.id: v for v in game.bot.state} if game.bot else {}
    assert node.reads is not None
    table = next(t for t in game.tables if t.id == node.reads.table)
    rows = _rows(table)
    return [Answer(case, lookup(table, node, case, rows)) for case in read_cases(node, states)]

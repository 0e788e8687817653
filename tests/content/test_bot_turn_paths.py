"""Every path of every shipped bot turn, walked as the Bot turn page walks it: every decision it
meets says who answers it, and no question put to the player is one whose answer the page already
holds (the roll or the draw it made just before, the end a procedure it ran reached, a count it
keeps with its number, the bot's state it shows or names)."""

from __future__ import annotations

import pytest
from conftest import GAMES

from rulesmith.content import turn

MAX_PATHS = 200_000


def paths(procedure):
    """Every path from the start to an end, a loop cut where it comes back to a node already on
    the path (its way back is walked, the loop's second round is the first one's)."""
    nodes = {n.id: n for n in procedure.nodes}
    found, todo = [], [[procedure.start]]
    while todo:
        path = todo.pop()
        node = nodes[path[-1]]
        targets = [node.next] if node.type == "step" else [b.to for b in node.branches]
        ahead = [t for t in targets if t and t not in path]
        if node.type == "end" or not ahead:
            found.append(path)
        todo += [path + [t] for t in ahead]
        assert len(found) + len(todo) < MAX_PATHS, procedure.id
    return found


def asked_though_held(game, procedure, before, node) -> str | None:
    """Why a board question's answer is on the page at this point of a path, or None."""
    decks = {d.id: d for d in game.bot.decks}
    if node.shows:
        return "it shows the bot's state beside it"
    if node.tally is not None and node.tally.of is not None:
        return "the page keeps its count and the number to reach"
    named = [v.name for v in game.bot.state if v.type == "enum" and v.name.lower() in node.text.lower()]
    if named:
        return f"it asks about the bot's {named[0]}"
    if before is not None and before.roll is not None:
        return f"the page rolled at '{before.id}' just before"
    if before is not None and before.draw is not None and decks[before.draw.deck].cards and (
            "drawn" in node.text.lower() or decks[before.draw.deck].name.lower() in node.text.lower()):
        return f"it asks about what the page drew at '{before.id}' just before"
    if before is not None and before.call is not None and not before.call.optional:
        ends = [n for p in game.procedures if p.id == before.call.procedure for n in p.nodes if n.type == "end"]
        if len(ends) > 1:
            return f"the page ran '{before.call.procedure}' just before and knows the end it reached"
    return None


@pytest.mark.parametrize("game_id", GAMES)
def test_every_question_on_every_path_is_one_only_the_player_can_answer(game_id, shipped_games):
    game = shipped_games[game_id].game
    if game.bot is None:
        return
    procedures = turn.reached(game, [part.procedure for part in game.bot.turn.parts])
    unmarked, held, walked = [], [], 0
    for procedure in procedures:
        nodes = {n.id: n for n in procedure.nodes}
        for path in paths(procedure):
            walked += 1
            for i, node_id in enumerate(path):
                node = nodes[node_id]
                if node.type != "decision":
                    continue
                given = [b.given for b in node.branches if b.given is not None]
                if node.asks != "board" and len(given) != len(node.branches):
                    unmarked.append(f"{procedure.id}.{node.id}")
                elif node.asks == "board":
                    why = asked_though_held(game, procedure, nodes[path[i - 1]] if i else None, node)
                    if why:
                        held.append(f"{procedure.id}.{node.id}: {why}")
    assert walked > len(procedures)
    assert sorted(set(unmarked)) == [], "decisions that do not say who answers them"
    assert sorted(set(held)) == [], "questions whose answer the page holds"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_given_decision_answers_every_case_it_meets(game_id, shipped_games):
    """A decision the page answers picks exactly one way for every state, roll, answer, end,
    count or event it can meet (the first branch that takes it, else otherwise)."""
    game = shipped_games[game_id].game
    if game.bot is None:
        return
    unanswered = []
    for procedure in turn.reached(game, [part.procedure for part in game.bot.turn.parts]):
        for node in procedure.nodes:
            if node.type != "decision" or node.asks:
                continue
            cases = turn.every_case(game, procedure, node)
            if not cases and not any(b.given.otherwise for b in node.branches):
                unanswered.append(f"{procedure.id}.{node.id}: no case")
            for case in cases:
                taking = [b.when for b in node.branches if not b.given.otherwise and turn.takes(b.given, case)]
                if len(taking) > 1 or (not taking and not any(b.given.otherwise for b in node.branches)):
                    unanswered.append(f"{procedure.id}.{node.id}: {case} -> {taking}")
    assert unanswered == []


def _cycles(procedure) -> list[set[str]]:
    """The nodes on a cycle of the procedure, grouped by the cycles they share (by brute force:
    a node that reaches itself, and the nodes that reach it and that it reaches)."""
    nodes = {n.id: n for n in procedure.nodes}
    reach = {}
    for start in nodes:
        seen, todo = set(), [start]
        while todo:
            node = nodes[todo.pop()]
            for target in ([node.next] if node.type == "step" else [b.to for b in node.branches]):
                if target and target in nodes and target not in seen:
                    seen.add(target)
                    todo.append(target)
        reach[start] = seen
    groups = []
    for n in nodes:
        if n in reach[n] and not any(n in g for g in groups):
            groups.append({m for m in nodes if m in reach[n] and n in reach[m]})
    return groups


@pytest.mark.parametrize("game_id", GAMES)
def test_a_loop_is_played_at_the_table_exactly_where_only_the_board_answers_it(game_id, shipped_games):
    """turn.table_loops: every cycle of a procedure whose questions all ask the board and whose
    steps the page has nothing to do at (no call, roll, draw, read, state change, card, count) is one
    loop played at the table, with every answer that leads out of it as its way out; no other
    cycle is (a cycle with a question the page answers, or a step it plays, is played by the page)."""
    game = shipped_games[game_id].game
    found_any = False
    for procedure in game.procedures:
        nodes = {n.id: n for n in procedure.nodes}
        loops = {frozenset(loop.nodes): loop for loop in turn.table_loops(procedure)}
        for group in _cycles(procedure):
            plain = all((nodes[n].type == "decision" and nodes[n].asks == "board" and nodes[n].tally is None and not nodes[n].sets)
                        or (nodes[n].type == "step" and not (nodes[n].call or nodes[n].roll or nodes[n].draw or nodes[n].reads
                                                             or nodes[n].sets or nodes[n].card)) for n in group)
            assert (frozenset(group) in loops) == plain, (procedure.id, sorted(group))
            if plain:
                found_any = True
                loop = loops[frozenset(group)]
                assert list(loop.nodes) == [n.id for n in procedure.nodes if n.id in group], "in the procedure's order"
                assert list(loop.exits) == [(n, i) for n in loop.nodes for i, b in enumerate(nodes[n].branches) if b.to not in group]
        assert set(loops) <= {frozenset(g) for g in _cycles(procedure)}, "a loop is a cycle"
    assert found_any, "every shipped game's bot has a loop played at the table"

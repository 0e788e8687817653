"""What the step-by-step walker of a procedure shows, node by node (templates/site/_walker.md.j2).

Nothing here is new content: every step carries its number (the flowchart's and the numbered
text's), its text rendered as the numbered text renders it, its labelled choices and the tables
its text refers to, so that the script only reveals what the page already holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith.content import model, turn
from rulesmith.content.link import REFERENCE
from rulesmith.flowchart.chart import numbering
from rulesmith.values import references as values
from rulesmith.words import N_

if TYPE_CHECKING:
    from rulesmith.content.game import Game


def tables_in(text: str) -> list[str]:
    """Ids of the tables a text refers to or takes a value from, in order of first mention."""
    found = []
    for match in REFERENCE.finditer(text):
        target = match.group(1)
        if target.startswith(values.PREFIX):
            target = values.owner(target)
        kind, _, ident = target.partition(":")
        if kind == "table" and ident not in found:
            found.append(ident)
    return found


def walker_steps(procedure: model.Procedure) -> list[dict]:
    """Each node with its number, its choices (label, target) and the tables its text names. A step
    that calls another procedure has no plain "Done": the walker enters the call (`call`), and
    offers to go on without it where the call is optional."""
    numbers = numbering(procedure)
    return [{"node": node, "number": numbers[node.id], "call": node.call,
             "choices": ([(b.when, b.to) for b in node.branches] if node.type == "decision"
                         else [(N_("Go on without it"), node.next)] if node.call and node.call.optional
                         else [] if node.call else [(N_("Done"), node.next)] if node.type == "step" else []),
             "tables": tables_in(node.text)}
            for node in procedure.nodes]


def walker_procedures(game: Game, procedures: list[model.Procedure]) -> list[model.Procedure]:
    """The procedures a walker over these holds: these, then those their steps call (directly or
    not) that are not among them, so every call is entered and returned from on the page."""
    ids = [p.id for p in procedures]
    return procedures + [p for p in turn.reached(game, ids) if p.id not in ids]

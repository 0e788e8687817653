"""What a game's overview leads with (rulesmith.site.overview), on small call graphs."""

from __future__ import annotations

from types import SimpleNamespace

from rulesmith.site.overview import _entries


def entries(calls: dict[str, list[str]]) -> list[str]:
    """Entry procedures for procedures named in content order, `calls` saying which calls which."""
    backlinks: dict[str, list[str]] = {}
    for caller, callees in calls.items():
        for callee in callees:
            backlinks.setdefault(f"procedure:{callee}", []).append(f"procedure:{caller}")
    procedures = [SimpleNamespace(id=name) for name in calls]
    return [p.id for p in _entries(procedures, SimpleNamespace(backlinks=backlinks))]


def test_procedures_no_other_calls_are_the_entries():
    assert entries({"turn": ["move", "fight"], "move": [], "fight": [], "score": []}) == ["turn", "score"]


def test_a_ring_of_procedures_enters_at_the_one_calling_the_most():
    """An action phase dispatching to actions that each return to it: every procedure is called, and
    the overview still names the action phase as where the bot's turn starts."""
    ring = {"free-units": ["move"], "action-phase": ["raid", "move", "enlist"], "raid": ["action-phase"],
            "move": ["action-phase", "free-units"], "enlist": ["action-phase"]}
    assert entries(ring) == ["action-phase"]


def test_a_ring_beside_an_entry_gets_its_own_entry():
    calls = {"setup": ["deal"], "deal": [], "a": ["b"], "b": ["a", "c"], "c": []}
    assert entries(calls) == ["setup", "b"]

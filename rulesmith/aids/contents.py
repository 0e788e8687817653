"""What goes on each aid: the game's plan (content/<game>/aids.yaml) for the rules summary and
the bot's set-up; every procedure and the tables it uses for the solo aid; every entity list and
table for the card reference. The aid kind (templates/pdf/aids.yaml) says which of these it is."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.content import affects, model
from rulesmith.site.pages import gaps_of

if TYPE_CHECKING:
    from rulesmith.aids.kinds import AidKind
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index

PARTS = ("sequence", "setup", "body")


@dataclass
class Entry:
    """One planned item, resolved: what it is, its heading, and its condensed wording if any."""

    key: str
    kind: str  # rule | table | procedure | kind
    item: model.Section | model.Table | model.Procedure | model.Kind
    title: str
    condensed: str | None
    subsections: bool = True
    elsewhere: frozenset = frozenset()  # keys planned as entries of their own: not repeated inside this one
    in_full: tuple = ()  # model.InFull pointers: parts whose conditions the condensed wording leaves to the full text

    @property
    def full(self) -> bool:
        return self.condensed is None


def planned(game: Game, index: Index, aid: str) -> dict[str, list[Entry]]:
    """The plan of an aid, part by part (sequence, setup, body), resolved against the index."""
    plan = game.aid_plan(aid)
    found: dict[str, list[Entry]] = {part: [] for part in PARTS}
    if plan is None:
        return found
    own = frozenset(entry.show for part in PARTS for entry in getattr(plan, part))
    for part in PARTS:
        for entry in getattr(plan, part):
            target = index.targets[entry.show]
            if not isinstance(target.item, (model.Section, model.Table, model.Procedure, model.Kind)):
                raise LookupError(f"aid entry '{entry.show}' is no rules section, table, procedure or kind "
                                  "(the game has not passed `rulesmith check`)")
            found[part].append(Entry(entry.show, target.kind, target.item, entry.title or target.name,
                                     entry.condensed, entry.subsections, own - {entry.show},
                                     tuple(entry.in_full)))
    return found


def procedure_tables(game: Game, index: Index, procedure: model.Procedure) -> list[model.Table]:
    """The tables a procedure refers to, in file order."""
    key = f"procedure:{procedure.id}"
    return [t for t in game.tables if key in index.backlinks.get(f"table:{t.id}", [])]


def bot_tables(game: Game, index: Index) -> list[model.Table]:
    """The tables the solo bot needs, in file order: those a procedure refers to, and those the
    solo rules refer to (the rules pages, with their subsections, that mention a procedure)."""
    procedures = {f"procedure:{p.id}" for p in game.procedures}
    mentions = {owner for key in procedures for owner in index.backlinks.get(key, [])}
    solo_pages = {page.id for section, page in game.all_sections() if f"rule:{section.id}" in mentions}
    solo_rules = {f"rule:{section.id}" for section, page in game.all_sections() if page.id in solo_pages}
    return [table for table in game.tables
            if any(owner in procedures or owner in solo_rules
                   for owner in index.backlinks.get(f"table:{table.id}", []))]


def subsection_keys(entry: Entry) -> list[str]:
    """The keys of a rules entry's subsections, nested ones too, but those planned elsewhere."""
    if not isinstance(entry.item, model.Section):
        return []
    keys, stack = [], list(entry.item.sections)
    while stack:
        section = stack.pop()
        if f"rule:{section.id}" not in entry.elsewhere:
            keys.append(f"rule:{section.id}")
            stack += section.sections
    return keys


def entry_keys(game: Game, entry: Entry) -> set[str]:
    """The keys an entry prints: its item, the subsections it prints, a kind's entities."""
    keys = {entry.key}
    if entry.kind == "rule" and entry.full and entry.subsections:
        keys.update(subsection_keys(entry))
    if entry.kind == "kind":
        keys |= {f"{e.kind}:{e.id}" for e in game.entities_of(entry.item.id)}
    return keys


def shown_keys(game: Game, index: Index, kind: AidKind) -> set[str]:
    """Keys of everything the aid shows with an anchor (references to them get a page number)."""
    keys: set[str]
    if kind.key == "solo-aid":
        keys = {f"procedure:{p.id}" for p in game.procedures} | {f"table:{t.id}" for t in bot_tables(game, index)}
        keys |= {f"table:{t.id}" for p in game.procedures for t in procedure_tables(game, index, p)}
        for entries in planned(game, index, kind.key).values():
            for entry in entries:
                keys |= entry_keys(game, entry)
        return keys
    if kind.key == "card-reference":
        return ({f"table:{t.id}" for t in game.tables} | {f"{e.kind}:{e.id}" for e in game.entities}
                | {f"kind:{k.id}" for k in game.kinds})
    keys = set()
    for entries in planned(game, index, kind.key).values():
        for entry in entries:
            keys |= entry_keys(game, entry)
    return keys


def condensed_cover(game: Game, index: Index, kind: AidKind) -> dict[str, str]:
    """The subsections a condensed section stands for on this aid (those not planned as entries
    of their own), each with that section's key: a reference to one gets the condensed
    section's page."""
    found: dict[str, str] = {}
    for entries in planned(game, index, kind.key).values():
        for entry in entries:
            if entry.kind == "rule" and not entry.full:
                for key in subsection_keys(entry):
                    found.setdefault(key, entry.key)
    return found


def listed_names(game: Game, index: Index, kind: AidKind) -> list[str]:
    """Headings of everything the aid lists (the tests look for each in the text layer)."""
    if kind.key == "solo-aid":
        front = [entry.title for entries in planned(game, index, kind.key).values() for entry in entries]
        return front + [p.title for p in game.procedures] + [t.title for t in bot_tables(game, index)]
    if kind.key == "card-reference":
        return [t.title for t in game.tables] + [k.plural for k in game.kinds if game.entities_of(k.id)]
    return [entry.title for entries in planned(game, index, kind.key).values() for entry in entries]


def gaps_in(game: Game, index: Index, keys: set[str]) -> list[dict]:
    """The gaps in the source that affect these items: their own, stand-alone gaps they refer
    to or that refer to them, and stand-alone gaps that say they affect one of them (or a
    field, cell or step of one)."""
    found = []
    affecting = {f"gap:{gap.id}" for gap, place in affects.places(game, index) if place.key in keys}
    for gap in gaps_of(game):
        key = gap["key"]
        if key in keys or key in affecting or (key.startswith("gap:") and (
                any(owner in keys for owner in index.backlinks.get(key, []))
                or any(k in keys for k in _gap_refs(index, key)))):
            found.append(gap)
    return found


def _gap_refs(index: Index, gap_key: str) -> list[str]:
    """Items a stand-alone gap's own text refers to."""
    return [target for target, owners in index.backlinks.items() if gap_key in owners]


def grouped_gaps(gaps: list[dict]) -> list[dict]:
    """Gaps that say the same thing of neighbouring places printed once: the same item, status
    and note, their titles merged where they differ ("Popular support track: -2, -1, 0 / Final
    PP" for three cells of one column). The notes are printed as written; only the repetition
    goes."""
    groups: list[list[dict]] = []
    for gap in gaps:
        same = lambda g, gap=gap: (g["key"], g["status"], g["note"]) == (gap["key"], gap["status"], gap["note"])  # noqa: E731
        group = next((g for g in groups if same(g[0])), None)
        if group is None:
            groups.append([gap])
        else:
            group.append(gap)
    return [{**group[0], "title": _merged_title([g["title"] for g in group]) if len(group) > 1 else group[0]["title"],
             "places": [note_place(g) for g in group]} for group in groups]


def note_place(note: dict) -> str:
    """Where a note's mark stands on an aid: the item ("table:x", "gap:y"), or the field or cell
    of it ("table:x#row.column"); the templates put a placeholder there (AidContext.note_at)."""
    return note["key"] + (f"#{note['inner']}" if note.get("inner") else "")


def _merged_title(titles: list[str]) -> str:
    """'T: a / C', 'T: b / C' → 'T: a, b / C'; titles with nothing in common, joined by '; '."""
    prefix = os.path.commonprefix(titles)
    prefix = prefix[:prefix.rfind(" ") + 1] if " " in prefix else ""
    suffix = os.path.commonprefix([t[len(prefix):][::-1] for t in titles])[::-1]
    suffix = suffix[suffix.find(" "):] if " " in suffix else ""
    middles = [t[len(prefix):len(t) - len(suffix)].strip() for t in titles]
    if not prefix or any(not m for m in middles):
        return "; ".join(titles)
    return prefix + ", ".join(middles) + suffix

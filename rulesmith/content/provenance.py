"""Provenance: the rulebook lines each item comes from. The one home of item -> source, lines, marks.

The source map (content/<game>/source-map.yaml) is the reverse pass over the rulebook texts: each
range of lines and the items that carry it. Read the other way round, it says where every item
comes from: the ranges that name it, joined where they follow one another into passages. A
passage knows its lines (the text exactly as the source has it, when the game may show its texts:
`game.show_source_texts`) and the marks the source map sets at them: a gap it names in the same
range stands at that range's first line. The item's own marks (its status: reconstructed, our
reading …) concern it as a whole: content/marks.py says which they are.

Every output asks here: the site's "From the rulebook" (site/rulebook.py), the Bot turn page and
the walker (a step's lines are its procedure's), the card reference's compact line references
(aids) and the search index (the rulebook's own words of an item, where they may be shown).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesmith.content import marks
from rulesmith.content.sources import SourceTextError, line_range, source_lines

if TYPE_CHECKING:
    from rulesmith.content import model
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index


@dataclass(frozen=True)
class Line:
    number: int
    text: str | None  # exactly as the source has it; None where the game does not show its texts
    gaps: tuple[model.Gap, ...] = ()  # the gaps the source map names from this line on


@dataclass(frozen=True)
class Passage:
    """Lines that follow one another in one rulebook text, all carrying the item."""

    source: model.SourceText
    first: int
    last: int
    lines: tuple[Line, ...]

    @property
    def gaps(self) -> list[model.Gap]:
        return [g for line in self.lines for g in line.gaps]


@dataclass(frozen=True)
class Provenance:
    key: str
    passages: tuple[Passage, ...]
    shown: bool  # whether the game may show its texts (the lines carry them)
    marks: tuple[marks.Mark, ...] = field(default=())  # the item's own, and its gaps the lines do not place

    def by_source(self) -> list[tuple[model.SourceText, list[Passage]]]:
        """The passages grouped by their text, in the order the game declares its texts."""
        found: dict[str, tuple[model.SourceText, list[Passage]]] = {}
        for passage in self.passages:
            found.setdefault(passage.source.id, (passage.source, []))[1].append(passage)
        return list(found.values())


def short_name(source: model.SourceText) -> str:
    """A text's short name for compact line references on paper ("GC"): its `short`, else the
    initials of its title's capitalised words (before any parenthesis), at most four."""
    if source.short:
        return source.short
    words = re.findall(r"[A-Z][\w'’-]*", source.title.split("(")[0])
    return "".join(w[0] for w in words)[:4] or source.title[:4]


def spans(numbers: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges joined where they touch or overlap, in order."""
    joined: list[tuple[int, int]] = []
    for first, last in sorted(numbers):
        if joined and first <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(last, joined[-1][1]))
        else:
            joined.append((first, last))
    return joined


class Provenances:
    """Every item's provenance in one game, worked out once from its source map."""

    def __init__(self, game: Game, index: Index):
        self.game, self.index = game, index
        self.shown = bool(game.info.show_source_texts)
        self._texts: dict[str, list[str] | None] = {}
        sources = {s.id: s for s in game.info.sources}
        self._entries: dict[str, list[tuple[model.SourceText, int, int, tuple[model.Gap, ...]]]] = {}
        gaps = {g.id: g for g in game.gaps}
        for entry in game.source_map:
            source = sources.get(entry.source)
            if source is None:
                continue
            first, last = line_range(entry.lines)
            named = tuple(gaps[k.partition(":")[2]] for k in entry.items
                          if k.startswith("gap:") and k.partition(":")[2] in gaps)
            for key in entry.items:
                self._entries.setdefault(key, []).append((source, first, last, named))
        self._order = {s.id: n for n, s in enumerate(game.info.sources)}
        self._cache: dict[str, Provenance] = {}

    def text(self, source_id: str) -> list[str] | None:
        """The lines of a text (read once), or None where it is not there or may not be shown."""
        if not self.shown:
            return None
        if source_id not in self._texts:
            try:
                self._texts[source_id] = source_lines(self.game, source_id)
            except SourceTextError:  # the check reports it
                self._texts[source_id] = None
        return self._texts[source_id]

    def keys(self) -> list[str]:
        return list(self._entries)

    def of(self, key: str) -> Provenance:
        """Where an item (kind:id, or a part of the bot's declaration) comes from."""
        if key in self._cache:
            return self._cache[key]
        entries = sorted(self._entries.get(key, []), key=lambda e: (self._order[e[0].id], e[1]))
        passages: list[Passage] = []
        by_source: dict[str, list[tuple[int, int, tuple[model.Gap, ...]]]] = {}
        for source, first, last, named in entries:
            by_source.setdefault(source.id, []).append((first, last, named))
        sources = {s.id: s for s in self.game.info.sources}
        own_gap = key.partition(":")[2] if key.startswith("gap:") else None
        for source_id, ranges in by_source.items():
            text = self.text(source_id)
            at: dict[int, list[model.Gap]] = {}
            for first, _last, named in ranges:
                at.setdefault(first, []).extend(g for g in named if g.id != own_gap and g not in at[first])
            for first, last in spans([(a, b) for a, b, _ in ranges]):
                lines = tuple(Line(n, text[n - 1] if text is not None and n <= len(text) else None,
                                   tuple(at.get(n, ()))) for n in range(first, last + 1))
                passages.append(Passage(sources[source_id], first, last, lines))
        placed = {g.id for p in passages for g in p.gaps}
        own: list[marks.Mark] = []
        if key in self.index.targets:
            own = [m for m in marks.at(self.game, self.index, key) if m.gap is None or m.gap.id not in placed]
        found = Provenance(key, tuple(passages), self.shown and any(ln.text is not None for p in passages
                                                                      for ln in p.lines), tuple(own))
        self._cache[key] = found
        return found

    def words(self, key: str) -> str:
        """The rulebook's own words of an item, for search: empty where the texts may not be shown."""
        found = self.of(key)
        if not found.shown:
            return ""
        return "\n".join(line.text or "" for p in found.passages for line in p.lines)


def reference(passages: list[Passage] | tuple[Passage, ...]) -> list[tuple[int, int]]:
    """The line ranges of some passages of one text: [(233, 240), (250, 251)]."""
    return [(p.first, p.last) for p in passages]

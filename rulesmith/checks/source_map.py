"""The source map: every line of a game's rulebook texts, mapped to the items that carry it.

A game's `source_map:` entries (by convention in `content/<game>/source-map.yaml`) record the
reverse pass over its texts: a line range of one source text and either the content items that
carry those lines or why they are not rules content. `check_source_map` runs in the check stage;
`coverage` is what the tests hold at 100 %.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.content.items import BOT, bot_keys
from rulesmith.content.sources import (  # noqa: F401 (where the check's users find them)
    SourceTextError,
    line_range,
    project_root,
    seeds_dir,
    source_lines,
    source_path,
)
from rulesmith.format.topics import see
from rulesmith.problems import Problems, nearest
from rulesmith.values import addresses, ranges

if TYPE_CHECKING:
    from pathlib import Path

    from rulesmith.content import model
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index


def source_where(game: Game, source) -> tuple[str, int, int]:
    n = game.info.sources.index(source)
    return game.info.where("sources", n, "file")


def check_source_map(game: Game, index: Index, problems: Problems) -> None:
    """Every entry names a declared text, a range within it and items that exist; no two ranges
    overlap; and, with the texts found, every line is mapped. Without a text: a warning."""
    sources = {s.id: s for s in game.info.sources}
    texts: dict[str, list[str] | None] = {}
    for sid, source in sources.items():
        try:
            texts[sid] = source_lines(game, sid)
        except SourceTextError as error:
            texts[sid] = None
            problems.add(source_where(game, source), str(error), error.hint)
            continue
        if texts[sid] is None:
            problems.warn(source_where(game, source),
                          f"source text '{source.id}' not found at {_shown(source_path(game, source))}: the source "
                          f"map is unchecked against it", "put the rulebook text there, or give game.sources_folder "
                          "(relative to the project) or $RULESMITH_SOURCES; " + see("game"))
    spans: dict[str, list[tuple[int, int, model.SourceLines]]] = {}
    bot = bot_keys(game)
    for entry in game.source_map:
        if entry.source not in sources:
            problems.add(entry.where("source"), f"unknown source '{entry.source}'",
                         nearest(entry.source, sources) or "use an id declared under game.sources in game.yaml")
            continue
        first, last = line_range(entry.lines)
        if last < first:
            problems.add(entry.where("lines"), f"line range {entry.lines} runs backwards",
                         f"write {last}-{first}")
            continue
        text = texts[entry.source]
        if text is not None and last > len(text):
            problems.add(entry.where("lines"),
                         f"line range {entry.lines} goes past the end of {sources[entry.source].file} "
                         f"({len(text)} lines)", f"the last line is {len(text)}")
        spans.setdefault(entry.source, []).append((first, last, entry))
        for i, key in enumerate(entry.items):
            if key in bot:
                continue
            place = addresses.parse(key)
            if key in index.targets or place.id in game.invalid_ids:
                continue
            unread = game.missing_because_unread(f"source-map item {key}", key)
            if unread:
                problems.add(entry.where("items", i), *unread)
                continue
            # The hint offers an item of the same kind only: one of another kind is another thing
            # (a table is not the bot's state, though both may be called `difficulty`).
            same_kind = [k for k in (*index.targets, *bot) if k.startswith(place.kind + ":")]
            hint = nearest(key, same_kind) or (
                f"the bot's parts are {', '.join(bot)}" if place.kind == BOT.prefix and bot
                else f"no {place.kind}:… item is named so: check the id" if same_kind
                else f"this game has no {place.kind}:… items; write kind:id of an item of this game")
            problems.add(entry.where("items", i), f"unknown item {key} in the source map", hint)
    for mapped in spans.values():
        for n, earlier_n in ranges.overlaps([(first, last) for first, last, _ in mapped]):
            entry, earlier = mapped[n][2], mapped[earlier_n][2]
            file, line, _ = earlier.where()
            problems.add(entry.where("lines"), f"line range {entry.lines} of {entry.source} overlaps {earlier.lines} "
                         f"(mapped at {file}:{line})", "map each line once: list every item that carries it in one entry")
    for found in coverage(game):
        if not found.uncovered:
            continue
        source = sources[found.source]
        unread = game.missing_because_unread(f"the source map of lines {_ranges(found.uncovered)} of "
                                             f"{source.file}", collection="source_map")
        if unread:
            problems.add(game.info.where("sources"), *unread)
            continue
        shown = _shown(source_path(game, source))
        for first, last in found.uncovered:
            lines = f"{first}-{last}" if last > first else f"{first}"
            problems.add((shown, first, 1), f"line{'s' if last > first else ''} {lines} of source '{source.id}' "
                         f"{'are' if last > first else 'is'} not in the source map",
                         f"map {'them' if last > first else 'it'}: {{source: {source.id}, lines: \"{lines}\", "
                         "items: [kind:id, …]}, or not_content: \"why\" (" + see("source_map") + ")")


def _shown(path: Path) -> str:
    """A text's path as the user can follow it from the current folder."""
    return os.path.relpath(path)


def _ranges(ranges: list[tuple[int, int]]) -> str:
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in ranges)


@dataclass
class Coverage:
    source: str
    file: str
    total: int
    covered: int
    uncovered: list[tuple[int, int]]

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.total if self.total else 100.0


def coverage(game: Game) -> list[Coverage]:
    """Per source text: how many of its lines the map covers, and the ranges it does not."""
    result = []
    for source in game.info.sources:
        try:
            text = source_lines(game, source.id)
        except SourceTextError:  # reported by the check
            continue
        if text is None:
            continue
        # The entries' ranges in order of their first line, walked once: a line is covered when a
        # range holds it (not line by line for every entry: 30,000 entries over a long text).
        clipped = ((max(first, 1), min(last, len(text))) for first, last in
                   (line_range(e.lines) for e in game.source_map if e.source == source.id))
        spans = sorted((first, last) for first, last in clipped if first <= last)
        gaps, covered, next_line = [], 0, 1  # next_line: the first line no range so far covers
        for first, last in spans:
            if first > next_line:
                gaps.append((next_line, first - 1))
            if last >= max(first, next_line):
                covered += last - max(first, next_line) + 1
                next_line = last + 1
        if next_line <= len(text):
            gaps.append((next_line, len(text)))
        result.append(Coverage(source.id, source.file, len(text), covered, gaps))
    return result

"""`rulesmith check`: validate all content and print every problem as file:line:column; a passed
check is kept (checks/cache.py) and given again while nothing it depends on changed."""

from __future__ import annotations

import datetime
import logging
import time
from typing import TYPE_CHECKING

from rulesmith.problems import RESULTS

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

log = logging.getLogger(__name__)

def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-cache", action="store_true",
                        help="check everything again, even when nothing changed since the last passed check "
                             "(its answer is kept in .cache/check.json)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from rulesmith.checks.cache import CheckCache

    started = time.perf_counter()
    content, today = args.project.content, datetime.date.today()
    cache = None if args.no_cache else CheckCache(args.project.cache, content, today)
    result = cache.lookup() if cache else None
    if result is None:
        known = cache.known_games() if cache else {}
        result, games = _check(content, today, known)
        if cache and CheckCache(args.project.cache, content, today).key == cache.key:  # nothing edited meanwhile
            cache.store(result, games)
        kept = [answer["id"] for name, answer in games.items() if known.get(name) is answer]
        how = f" ({', '.join(kept)}: unchanged since {'its' if len(kept) == 1 else 'their'} last check, " \
            "answered from .cache/)" if kept else ""
    else:
        how = " (unchanged since the last check: its answer, from .cache/; --no-cache checks again)"
    for line in result["warnings"]:
        log.warning("%s", line)
    RESULTS.info("%s\n", f"ok: {result['games']} game(s) checked in {time.perf_counter() - started:.2f} s{how}: "
                 f"{result['summary']}")
    for line in result["notes"]:
        RESULTS.info("%s\n", line)
    return 0


def _check(content: Path, today, known: dict[str, dict]) -> tuple[dict, dict[str, dict]]:
    """The check: what it prints, and each game's own answer by folder name, with the rulebook
    texts it read (resolved, found or not, by digest). The games in `known` (checks/cache.py: unchanged
    since their answer was kept) are not read again; should their answers and the others not pass
    together, everything is checked again, so that what is printed is always the whole check's."""
    from rulesmith import fingerprint
    from rulesmith.checks.source_map import source_path
    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError, warning_line
    from rulesmith.project import game_folders

    try:
        checked = check_content(content, today, skip=frozenset(known))
    except ContentError:
        if not known:
            raise
        return _check(content, today, {})
    games = dict(known)
    for c in checked:
        games[c.game.folder.name] = {
            "id": c.game.id, "summary": f"{c.game.id} ({len(c.index.targets)} items)",
            "warnings": [warning_line(w) for w in c.warnings],
            "notes": [f"note: {c.game.id}: {line}" for line in c.notes],
            "extra": {str(path): fingerprint.digest(path)
                      for path in (source_path(c.game, s).resolve() for s in c.game.info.sources)}}
    ids = [answer["id"] for answer in games.values()]
    if known and len(set(ids)) < len(ids):  # two games with one id: the whole check says where
        return _check(content, today, {})
    ordered = [games[folder.name] for folder in game_folders(content) if folder.name in games]
    result = {"games": len(ordered), "summary": ", ".join(answer["summary"] for answer in ordered),
              "warnings": [line for answer in ordered for line in answer["warnings"]],
              "notes": [line for answer in ordered for line in answer["notes"]]}
    return result, games



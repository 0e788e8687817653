"""load → model → link → check, for every game: the part of the build that needs no output."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from .check import check_game
from .game import Game, load_games
from .link import Index, build_index, resolve
from .problems import ContentError, Problems


@dataclass
class Checked:
    """A game that passed every check, with its reference index."""

    game: Game
    index: Index


def check_content(content_dir: Path, today: datetime.date | None = None) -> list[Checked]:
    """Every game, linked and checked; raises ContentError with all problems at once."""
    problems = Problems()
    if not content_dir.is_dir():
        problems.add((str(content_dir), 1, 1), "content folder not found", "run from the project root or pass --content")
        raise ContentError(problems.sorted())
    games = load_games(content_dir, problems)
    checked = []
    ids = {}
    for game in games:
        if game.id in ids:
            problems.add(game.info.where("id"), f"two games have id '{game.id}'", "rename one")
        ids[game.id] = game
        index = build_index(game, problems)
        resolve(game, index, problems)
        check_game(game, index, problems, today)
        checked.append(Checked(game, index))
    if problems:
        raise ContentError(problems.sorted())
    return checked

"""load → model → link → check, for every game: the part of the build that needs no output."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from .check import check_game
from .game import Game, load_games
from .items import without_module
from .link import Index, build_index, resolve
from .problems import ContentError, Problems


@dataclass
class Checked:
    """A game that passed every check, with its reference index."""

    game: Game
    index: Index
    warnings: list = field(default_factory=list)  # problems.Problem: what could not be checked (the source map …)

    @property
    def notes(self) -> list[str]:
        """What the check says about defaults it applied: items of a game with several modules
        that should name one and belong to none (they apply with every module): items.without_module."""
        if len(self.game.modules) < 2:
            return []
        without = without_module(self.game)
        if not without:
            return []
        shown = ", ".join(without[:3]) + (" …" if len(without) > 3 else "")
        one = len(without) == 1
        return [f"{len(without)} {'item names' if one else 'items name'} no module ({shown}): "
                f"{'it applies' if one else 'they apply'} with every module (`rulesmith format modules`)"]


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
        before = len(problems.warnings)
        check_game(game, index, problems, today)
        checked.append(Checked(game, index, sorted(set(problems.warnings[before:]))))
    if problems:
        raise ContentError(problems.sorted(), sorted(set(problems.warnings)))
    return checked

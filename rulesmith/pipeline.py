"""load → model → link → check, for every game: the part of the build that needs no output."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesmith.checks.check import check_game
from rulesmith.content.game import Game, load_games
from rulesmith.content.items import without_module
from rulesmith.content.link import Index, build_index, resolve
from rulesmith.format.topics import see
from rulesmith.problems import ContentError, Problems, one_run
from rulesmith.project import game_folders

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

    from rulesmith.translations.freshness import Translation


@dataclass
class Checked:
    """A game that passed every check, with its reference index."""

    game: Game
    index: Index
    warnings: list = field(default_factory=list)  # problems.Problem: what could not be checked (the source map …)
    # In another language (commands/build.in_language): the game's translation in it (None: the
    # game has no catalog in that language and is shown in English), and that language.
    translation: Translation | None = None
    language: str | None = None

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
                f"{'it applies' if one else 'they apply'} with every module ({see('modules')})"]


def check_content(content_dir: Path, today: datetime.date | None = None,
                  kept: dict[str, tuple[str, Checked]] | None = None,
                  skip: frozenset[str] = frozenset()) -> list[Checked]:
    """Every game, linked and checked; raises ContentError with all problems at once.

    `kept` (the preview's, kept between its builds) holds each game that passed, by its folder's
    name, with a digest of what its check read (game_inputs): a game whose digest is the same is
    not read, linked or checked again. A game is checked on its own (only two games with one id
    concern two), so the others are not affected by one game's edit. The game folders named in
    `skip` are not read either (the check command knows their answer: checks/cache.py); the
    caller compares their ids."""
    with one_run():  # the preview checks again and again in one process: each check its own guesses
        return _check_content(content_dir, today, kept, skip)


def _check_content(content_dir: Path, today: datetime.date | None, kept: dict[str, tuple[str, Checked]] | None,
                   skip: frozenset[str]) -> list[Checked]:
    problems = Problems()
    if not content_dir.is_dir():
        problems.add((str(content_dir), 1, 1), "content folder not found", "run from the project root or pass --content")
        raise ContentError(problems.sorted())
    reused: dict[str, Checked] = {}
    if kept is not None:
        from rulesmith import fingerprint

        software = fingerprint.software_digest()
        for folder in game_folders(content_dir):
            if folder.name in kept and kept[folder.name][0] == game_inputs(kept[folder.name][1].game, today, software):
                reused[folder.name] = kept[folder.name][1]
    fresh = {game.folder.name: game for game in load_games(content_dir, problems, skip | reused.keys())}
    checked = []
    ids: dict[str, Game] = {}
    for folder in game_folders(content_dir):
        if folder.name in reused:
            log.debug("check %s: kept from the last check (its files, rulebook texts, the software and the date as before)",
                      folder.name)
            known = reused[folder.name]
            checked.append(known)
            problems.warnings += known.warnings
            game = known.game
        elif folder.name in fresh:
            game = fresh[folder.name]
            log.debug("check %s: read and checked", game.id)
            digest = game_inputs(game, today, software) if kept is not None else ""
            errors, before = len(problems.items), len(problems.warnings)
            index = build_index(game, problems)
            resolve(game, index, problems)
            check_game(game, index, problems, today)
            problems.follow_from(errors, game.unreadable)
            checked.append(Checked(game, index, sorted(set(problems.warnings[before:]))))
            if kept is not None:
                kept.pop(folder.name, None)
                if len(problems.items) == errors:
                    kept[folder.name] = (digest, checked[-1])
        else:
            continue
        if game.id in ids:
            problems.add(game.info.where("id"), f"two games have id '{game.id}'", "rename one")
        ids[game.id] = game
    if problems:
        raise ContentError(problems.sorted(), sorted(set(problems.warnings)))
    return checked


def game_inputs(game: Game, today: datetime.date | None, software: str | None = None) -> str:
    """What one game's check reads, hashed: its folder's inputs as the check command keys them
    (checkcache.game_key: every file of the folder, the software, the date) and its rulebook texts.
    `software`: the digest, when the caller has it."""
    import hashlib

    from rulesmith import fingerprint
    from rulesmith.checks.cache import game_key
    from rulesmith.checks.source_map import source_path

    parts = [game_key(game.folder.parent, game.folder, today, software or fingerprint.software_digest())]
    parts += [f"{s.id} {fingerprint.digest(source_path(game, s))}" for s in game.info.sources]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()

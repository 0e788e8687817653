"""The rulebook texts a game is transcribed from: where they are and their lines, read once.

The source map's check (checks/source_map.py) and what readers are shown of the texts
(content/provenance.py) read them through here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesmith.content.game import Game


def project_root(game: Game) -> Path:
    """The project a game belongs to: the folder that holds its content folder."""
    return game.folder.resolve().parent.parent


def seeds_dir(game: Game) -> Path:
    """Where the game's rulebook texts live: $RULESMITH_SOURCES, else the game's `sources_folder`
    relative to the project, else the project itself."""
    if os.environ.get("RULESMITH_SOURCES"):
        return Path(os.environ["RULESMITH_SOURCES"])
    return project_root(game) / (game.info.sources_folder or ".")


def source_path(game: Game, source) -> Path:
    """The file of one declared source text (it may not exist)."""
    return seeds_dir(game) / source.file


def source_lines(game: Game, source_id: str) -> list[str] | None:
    """The lines of one source text, or None when the text is not where game.yaml says."""
    source = next((s for s in game.info.sources if s.id == source_id), None)
    if source is None:
        return None
    folder = seeds_dir(game).resolve()
    path = (folder / source.file).resolve()
    if not path.is_relative_to(folder):  # a link that leads out of the sources folder
        raise SourceTextError(f"source text '{source.file}' lies outside the sources folder",
                              "keep the rulebook texts inside the sources folder")
    if not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise SourceTextError(f"source text '{source.file}' is not UTF-8 (byte {error.start + 1})",
                              "save the rulebook text as UTF-8") from None
    except OSError as error:  # there, but not to be read (its permissions): said, never passed over
        raise SourceTextError(f"cannot read source text '{source.file}': {error.strerror}",
                              "check that you may read it: its permissions?") from None


class SourceTextError(Exception):
    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def line_range(lines: str) -> tuple[int, int]:
    first, _, last = lines.partition("-")
    return int(first), int(last or first)



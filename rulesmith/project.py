"""Where things are: the package's own resources, and the project a command works on.

The package ships its templates, fonts, default icons and MkDocs configuration as package data
(the repository's top-level `templates/` folder is installed as `rulesmith.templates`). A project
is a folder with a `content/` folder in it; `rulesmith` finds it from the current folder or a
parent, as git and mkdocs do, and keeps its work, cache and outputs inside it.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from functools import lru_cache
import os
from pathlib import Path

from .problems import UsageError


@lru_cache(maxsize=1)
def templates() -> Path:
    """The package's templates folder (site pages, aids, flowchart style, fonts, icons, mkdocs.yml)."""
    return Path(str(importlib.resources.files("rulesmith.templates")))


@dataclass(frozen=True)
class Project:
    root: Path
    content_dir: Path | None = None  # --content DIR; by default <root>/content

    @property
    def content(self) -> Path:
        return self.content_dir or self.root / "content"

    @property
    def work(self) -> Path:
        """Generated pages (the MkDocs docs folder)."""
        return self.root / ".build"

    @property
    def cache(self) -> Path:
        """Flowcharts and PDFs cached by content hash."""
        return self.root / ".cache"

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def schema(self) -> Path:
        return self.root / "schema"

    @property
    def mkdocs_config(self) -> Path | None:
        """The project's own mkdocs.yml (settings over the package's defaults), if it has one."""
        path = self.root / "mkdocs.yml"
        return path if path.is_file() else None


def find_project(start: Path | None = None) -> Project:
    """The nearest folder, from `start` (default: the current folder) up, that holds `content/`."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "content").is_dir():
            return Project(folder)
    raise UsageError(f"no content/ folder in {here} or any folder above it",
                     "run rulesmith inside a project (a folder with content/<game>/game.yaml), "
                     "or pass --content DIR")


def project_of_content(content: Path) -> Project:
    """The project whose content folder is `content` (--content DIR): outputs go beside it."""
    return Project(content.resolve().parent, content)  # content as given: messages show paths as the user wrote them


def game_folders(content: Path) -> list[Path]:
    """The folders of a content folder that are games, or should be (one without game.yaml is a
    problem the check reports), in the order every command lists them. A folder that cannot be
    read is listed (and the content folder, when unreadable, lists none): loading reports it."""
    try:
        names = sorted(os.listdir(content))
    except OSError:
        return []
    found = []
    for name in names:
        path = content / name
        try:
            if name.startswith(".") or not path.is_dir():
                continue
        except OSError:
            pass
        found.append(path)
    return found

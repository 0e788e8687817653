"""Where things are: the package's own resources, and the project a command works on.

The package ships its templates, fonts, default icons and MkDocs configuration as package data
(the repository's top-level `templates/` folder is installed as `rulesmith.templates`). A project
is a folder with a `content/` folder in it; `rulesmith` finds it from the current folder or a
parent, as git and mkdocs do, and keeps its work, cache and outputs inside it.
"""

from __future__ import annotations

import importlib.resources
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rulesmith.problems import UsageError

# The names the build gives its own files beside the games' folders (each game's pages and files are
# in a folder named after its id): in the site and the docs folder (a page <name>.md, a folder
# <name>/), in the site's search folder (search/<name>.js) and in the schema folder
# (<name>.schema.json). A game id may not be one of them; each writer takes its name from here.
HOME = "index"  # index.md: the home page
DOWNLOADS = "downloads"  # downloads.md, and downloads/<game>/ with each game's PDFs
CHANGELOG = "changelog"  # changelog.md: every game's changes
FORMAT = "format"  # format.md: the content format reference
ASSETS = "assets"  # the site's and the engine's styles, scripts and fonts
SEARCH = "search"  # search/<game>.js: each game's search index
SITE_SEARCH = "site"  # search/site.js: the index of the pages outside any game, and the list of games
NOT_FOUND = "404"  # 404.html, the engine's
SITEMAP = "sitemap"  # sitemap.xml and sitemap.xml.gz, the engine's
ROOT_WORKER = "sw"  # sw.js at the site's root: offline, a page of a game not saved says so (site/webapp.py)
SHARED_SCHEMA = "content"  # schema/content.schema.json, the format every game shares, beside schema/<game>.schema.json
SITE_NAMES = {
    HOME: "the home page", DOWNLOADS: "the downloads page and the PDFs' folder", CHANGELOG: "the site's changelog",
    FORMAT: "the content format reference", ASSETS: "the styles, scripts and fonts",
    SEARCH: "the search indexes' folder", SITE_SEARCH: "the search index of the pages outside any game",
    NOT_FOUND: "the page for an address that is not found", SITEMAP: "the sitemap",
    SHARED_SCHEMA: "the editor schema every game shares", ROOT_WORKER: "the site's offline worker",
}


def site_name_problem(game_id: str) -> str | None:
    """Why a game cannot have this id (it is one of the site's own names), or None."""
    if game_id not in SITE_NAMES:
        return None
    return f"'{game_id}' is the site's own name for {SITE_NAMES[game_id]}, so it cannot be a game's id"


def site_name_hint(game_id: str) -> str:
    return (f"give the game another id, e.g. {game_id}-game, and its folder the same name; "
            f"the site's own names are {', '.join(sorted(SITE_NAMES))}")


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
    def shared_schema(self) -> Path:
        """The editor schema every game shares (each game's is beside it)."""
        return self.schema / f"{SHARED_SCHEMA}.schema.json"

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

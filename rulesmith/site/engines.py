"""Site engines: build the generated MkDocs project (<work>/mkdocs.yml and its docs/) into a folder.

MkDocs (with Material) is the default: pinned, strict (every link and anchor checked), with the
offline plugin that makes the site work from disk. Zensical, from Material's authors, is its
successor (Material for MkDocs reaches end of life on 2027-05-05) and reads the same project.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import jinja2

from rulesmith.problems import BuildError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

DEFAULT_ENGINE = "mkdocs"


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled theme templates, kept in memory for every MkDocs build of this process.

    MkDocs makes a new Jinja environment for every build, so Material's templates were compiled
    again each time: about half of the preview's rebuild after an edit, and a second or so of
    every build after the first in one process (the build's and the preview's alike). Jinja compares each template's source checksum
    with the cached one, so an edited template is still compiled afresh. The environments are
    alike (the one theme, with MkDocs' own settings), as a bytecode cache needs."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def keeping_compiled(config) -> None:
    """Make a loaded MkDocs configuration's theme give environments that keep their compiled
    templates in COMPILED (every build of this process: `mkdocs_build`, the preview's)."""
    theme = config.theme
    make = theme.get_env

    def get_env() -> jinja2.Environment:
        env = make()
        env.bytecode_cache = COMPILED
        return env

    theme.get_env = get_env


def mkdocs_build(config_file: Path, site_dir: Path, dirty: bool = False) -> None:
    """MkDocs through its API, in this process, strict as the configuration says. `dirty`: only
    the pages whose Markdown is newer than their HTML in `site_dir` (and changed static files)."""
    from mkdocs.commands.build import build as run_mkdocs
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.setLevel(logging.WARNING)
    warnings = _Collect()
    logger.addHandler(warnings)
    notice = DirtyNotice()
    logging.getLogger("mkdocs.commands.build").addFilter(notice)
    try:
        config = load_config(str(config_file), site_dir=str(site_dir))
        keeping_compiled(config)
        run_mkdocs(config, dirty=dirty)
    except MkDocsException as error:
        reasons = "\n".join(warnings.messages) or str(error)
        raise BuildError(f"mkdocs build failed: {error}\n{reasons}") from None
    finally:
        logging.getLogger("mkdocs.commands.build").removeFilter(notice)
        logger.removeHandler(warnings)
        logger.setLevel(level)  # as it was: a caller's own MkDocs logging is left alone


class DirtyNotice(logging.Filter):
    """MkDocs warns on every dirty build, and strict mode (mkdocs.yml) would fail the build on it.
    Rulesmith builds dirty on purpose, only when every page's frame is as before: that one
    message is lowered; every other warning still counts."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("A 'dirty' build is being performed"):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class _Collect(logging.Handler):
    """Keeps MkDocs' warnings so a strict-mode abort can say why."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())



def zensical_build(config_file: Path, site_dir: Path) -> None:
    """Zensical as a command: it builds only inside the project's folder, so into <work>/site,
    which then moves to `site_dir`."""
    if importlib.util.find_spec("zensical") is None:
        raise UsageError("the zensical engine is not installed",
                         "pip install 'rulesmith[zensical]', or build with --engine mkdocs")
    built = config_file.parent / "site"
    shutil.rmtree(built, ignore_errors=True)
    result = subprocess.run([sys.executable, "-m", "zensical", "build", "--clean", "-f", str(config_file)],
                            cwd=config_file.parent, capture_output=True, text=True)
    if result.returncode != 0 or not (built / "index.html").is_file():
        raise BuildError(f"zensical build failed:\n{result.stdout}{result.stderr}".rstrip())
    shutil.rmtree(site_dir, ignore_errors=True)
    shutil.move(str(built), str(site_dir))


ENGINES: dict[str, Callable[[Path, Path], None]] = {"mkdocs": mkdocs_build, "zensical": zensical_build}
# Engines that can rebuild only the changed pages into a copy of the last site.
def mkdocs_dirty_build(config_file: Path, site_dir: Path) -> None:
    mkdocs_build(config_file, site_dir, dirty=True)


INCREMENTAL: dict[str, Callable[[Path, Path], None]] = {"mkdocs": mkdocs_dirty_build}

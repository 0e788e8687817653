"""The result of the last successful `rulesmith check`, kept on disk so that a check of content
that did not change since answers without loading it again (as ruff's and mypy's caches do).

The key is everything the check's result depends on, read afresh every time:

- every file under the content folder, by its bytes (a link by where it points);
- the rulebook texts the games declare (the paths the last full check resolved, by their bytes,
  a missing one as missing: game.yaml, where they are declared, is content, so a change of the
  declaration changes the key first);
- Rulesmith's own code and templates, by their bytes, and the installed distributions (their
  `.dist-info` names carry their versions: pydantic, Markdown, mkdocs-material's icons …);
- the Python running it, the `RULESMITH_*` environment, the content folder as given (messages
  show paths as written), and today's date (an erratum dated in the future is refused until it
  is not).

Only a check that passed is kept; a failed one is checked again every time. The stored answer is
printed as it was, said to come from the cache. Nothing here imports the model, so a check that
finds its answer costs little more than Python starting.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import stat
import sys
from pathlib import Path

from .files import write_atomic

FORMAT = 1  # of the cache file; a file of another format is not read
FILE_NAME = "check.json"


def _digest(path: str | Path) -> str | None:
    """The bytes of a regular file, hashed; None when it is missing or not a regular file."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:
        return None


def _tree(folder: str | Path, into, skip_dirs: frozenset[str] = frozenset(), relative: str = "") -> None:
    """Every entry under `folder`, in a fixed order, into the hash: its relative path, and its
    bytes (a file), where it points (a link) or its type (anything else). Plain os calls, no
    pathlib: this runs on every check."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        into.update(f"unreadable {relative or folder}\n".encode())
        return
    for entry in entries:
        name = f"{relative}{entry.name}"
        if entry.is_symlink():
            into.update(f"link {name} {os.readlink(entry.path)}\n".encode())
        elif entry.is_dir(follow_symlinks=False):
            if entry.name not in skip_dirs:
                into.update(f"dir {name}\n".encode())
                _tree(entry.path, into, skip_dirs, f"{name}/")
        elif entry.is_file(follow_symlinks=False):
            into.update(f"file {name} {_digest(entry.path)}\n".encode())
        else:
            into.update(f"other {name} {stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode)}\n".encode())


def _distributions() -> list[str]:
    """The `.dist-info` (and `.egg-info`) names on sys.path: each installed distribution and its
    version (not in sys.path[0], the folder of the script or the current one: no installation)."""
    found = []
    for entry in sys.path[1:]:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found += [n for n in names if n.endswith((".dist-info", ".egg-info"))]
    return sorted(found)


def key(content: Path, today: datetime.date | None = None) -> str:
    """Everything the check's result depends on but the rulebook texts (`extra` in the entry)."""
    from .project import templates

    into = hashlib.blake2b(digest_size=20)
    into.update(f"format {FORMAT}\npython {sys.version} {sys.prefix}\ncontent {content}\n"
                f"today {(today or datetime.date.today()).isoformat()}\n".encode())
    for name, value in sorted(os.environ.items()):
        if name.startswith("RULESMITH_"):
            into.update(f"env {name}={value}\n".encode())
    for name in _distributions():
        into.update(f"dist {name}\n".encode())
    into.update(b"package\n")
    _tree(os.path.dirname(os.path.realpath(__file__)), into, frozenset({"__pycache__", "templates"}))
    into.update(b"templates\n")
    _tree(os.path.realpath(templates()), into, frozenset({"__pycache__"}))
    into.update(b"content\n")
    _tree(content, into)
    return into.hexdigest()


class CheckCache:
    """One project's stored check result: `<project>/.cache/check.json`."""

    def __init__(self, folder: Path, content: Path, today: datetime.date | None = None):
        self.path = folder / FILE_NAME
        self.key = key(content, today)

    def lookup(self) -> dict | None:
        """The stored answer, when every input is as it was; else None."""
        try:
            entry = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != self.key:
            return None
        extra = entry.get("extra")
        if not isinstance(extra, dict) or any(_digest(Path(p)) != d for p, d in extra.items()):
            return None
        return entry.get("result")

    def store(self, result: dict, extra_files: list[Path]) -> None:
        """Keep a passed check's answer with the rulebook texts it read. The caller makes the key
        again after the check and stores only when it is unchanged (nothing was edited meanwhile)."""
        entry = {"format": FORMAT, "key": self.key, "written": datetime.datetime.now().isoformat(timespec="seconds"),
                 "extra": {str(p): _digest(p) for p in extra_files}, "result": result}
        try:
            write_atomic(self.path, (json.dumps(entry, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
        except OSError:
            pass  # a read-only project still checks; it just never answers from the cache

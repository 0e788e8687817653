"""What Rulesmith's outputs depend on besides the content, hashed: one home for the caches that
skip work when nothing changed (the check's answer, checks/cache.py; the player aids, aids/pdf.py).

- `tree`: every entry under a folder, by its bytes (a file), where it points (a link) or its
  type (anything else), in a fixed order;
- `software`: the Python running, Rulesmith's own code and templates by their bytes (an editable
  install keeps its version when edited), the installed distributions (their `.dist-info` names
  carry their versions: pydantic, Markdown, mkdocs-material's icons, WeasyPrint …) and the
  `RULESMITH_*` environment.

Plain os calls, no pathlib and nothing of the model: these run on every check.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def digest(path: str | Path) -> str | None:
    """The bytes of a regular file, hashed; None when it is missing or not a regular file."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:
        return None


def tree(folder: str | Path, into, skip_dirs: frozenset[str] = frozenset(), relative: str = "") -> None:
    """Every entry under `folder` into the hash `into`, with its path relative to `folder`."""
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
                tree(entry.path, into, skip_dirs, f"{name}/")
        elif entry.is_file(follow_symlinks=False):
            into.update(f"file {name} {digest(entry.path)}\n".encode())
        else:
            into.update(f"other {name} {stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode)}\n".encode())


def distributions() -> list[str]:
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


def software(into) -> None:
    """Everything of the software that an output may depend on, into the hash `into`."""
    from rulesmith.project import templates

    into.update(f"python {sys.version} {sys.prefix}\n".encode())
    for name, value in sorted(os.environ.items()):
        if name.startswith("RULESMITH_"):
            into.update(f"env {name}={value}\n".encode())
    for name in distributions():
        into.update(f"dist {name}\n".encode())
    into.update(b"package\n")
    tree(os.path.dirname(os.path.realpath(__file__)), into, frozenset({"__pycache__", "templates"}))
    into.update(b"templates\n")
    tree(os.path.realpath(templates()), into, frozenset({"__pycache__"}))


def software_digest() -> str:
    """`software`, as one hex digest (made afresh each time: serve sees a template edited)."""
    into = hashlib.sha256()
    software(into)
    return into.hexdigest()


def tree_digest(folder: str | Path, skip_dirs: frozenset[str] = frozenset()) -> str:
    """`tree` of one folder, as one hex digest; without the folders named in `skip_dirs` (a
    game's translation catalogs, for the outputs in the game's own language, which do not read them)."""
    into = hashlib.sha256()
    tree(folder, into, skip_dirs)
    return into.hexdigest()

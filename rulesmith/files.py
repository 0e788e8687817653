"""Writing outputs safely: one atomic write for every file Rulesmith produces.

A reader (MkDocs, a browser, a second build) never sees half a file: the bytes go to a temporary
file with a unique name in the same folder, which then replaces the target in one rename.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes, mode_from: Path | None = None) -> None:
    """Write `data` to `path` in one rename; `mode_from` gives the file permissions to keep."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        if mode_from is not None and mode_from.exists():
            os.chmod(tmp, mode_from.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write only when the bytes differ: unchanged files keep their mtime (MkDocs, live reload)."""
    if path.exists() and path.read_bytes() == data:
        return False
    write_atomic(path, data)
    return True


def exchange(new: Path, old: Path) -> None:
    """Put folder `new` where `old` is, in one step: Linux exchanges the two names atomically
    (renameat2 RENAME_EXCHANGE), so a reader finds the old folder or the new one, never none.
    Afterwards `new`'s name holds the old folder. Where the system cannot exchange, two renames."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is not None and old.exists():
        at_fdcwd, rename_exchange = -100, 2
        if renameat2(at_fdcwd, os.fsencode(new), at_fdcwd, os.fsencode(old), rename_exchange) == 0:
            return
    aside = old.with_name(f"{old.name}.{os.getpid()}.aside")
    if old.exists():
        old.rename(aside)
    new.rename(old)
    if aside.exists():
        aside.rename(new)


def make_readable(folder: Path) -> None:
    """Folders 0755 and files 0644 at least: a web server running as another user can serve them
    (temporary folders are created 0700)."""
    for root, dirs, files in os.walk(folder):
        os.chmod(root, os.stat(root).st_mode | 0o755)
        for name in files:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o644)

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

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


class Staged:
    """New bytes for some files, written beside them (same folder, temporary names, their
    permissions, flushed to disk) while the files themselves stay as they are: `swap` then puts
    them all in place, `discard` removes them. A failure at any point, a full disk included,
    leaves every file byte for byte as it was: all the writing is done before anything is
    replaced, and replacing is renaming, which takes no room."""

    def __init__(self, changes: dict[Path, bytes]):
        self.files: list[tuple[Path, str]] = []  # (file, its new bytes' temporary name)
        try:
            for path, data in changes.items():
                self.files.append((path, _beside(path, ".new")))
                with open(self.files[-1][1], "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                os.chmod(self.files[-1][1], path.stat().st_mode & 0o7777 if path.exists() else 0o644)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        for _path, new in self.files:
            Path(new).unlink(missing_ok=True)
        self.files = []

    def swap(self) -> None:
        """Every file replaced by its new bytes. Each file there before is first kept under a
        second name (a hard link: no copy), so that if one rename fails, those already made are
        undone and every file is as it was."""
        kept: dict[Path, str] = {}
        done: list[Path] = []
        try:
            for path, _new in self.files:
                if path.exists():
                    kept[path] = _beside(path, ".old")
                    os.unlink(kept[path])
                    os.link(path, kept[path])
            for path, new in self.files:
                os.replace(new, path)
                done.append(path)
        except BaseException:
            for path in reversed(done):
                if path in kept:
                    os.replace(kept.pop(path), path)
                else:
                    path.unlink(missing_ok=True)
            self.discard()
            raise
        finally:
            for old in kept.values():
                Path(old).unlink(missing_ok=True)
        self.files = []
        for folder in {path.parent for path in done}:
            _sync_folder(folder)


def _beside(path: Path, suffix: str) -> str:
    """A new, empty file of a unique name in the folder of `path`."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(handle)
    return name


def _sync_folder(folder: Path) -> None:
    """The renames in a folder on disk (where the system allows a folder to be synced)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


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
    for root, _dirs, files in os.walk(folder):
        os.chmod(root, os.stat(root).st_mode | 0o755)
        for name in files:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o644)

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
from pathlib import Path

from . import fingerprint
from .files import write_atomic

FORMAT = 1  # of the cache file; a file of another format is not read
FILE_NAME = "check.json"


def key(content: Path, today: datetime.date | None = None) -> str:
    """Everything the check's result depends on but the rulebook texts (`extra` in the entry)."""
    into = hashlib.blake2b(digest_size=20)
    into.update(f"format {FORMAT}\ncontent {content}\ntoday {(today or datetime.date.today()).isoformat()}\n".encode())
    fingerprint.software(into)
    into.update(b"content\n")
    fingerprint.tree(content, into)
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
        extra, result = entry.get("extra"), entry.get("result")
        if not isinstance(extra, dict) or any(fingerprint.digest(Path(p)) != d for p, d in extra.items()):
            return None
        shape = {"games": int, "summary": str, "warnings": list, "notes": list}
        if not isinstance(result, dict) or any(not isinstance(result.get(k), t) for k, t in shape.items()):
            return None
        return result

    def store(self, result: dict, extra_files: list[Path]) -> None:
        """Keep a passed check's answer with the rulebook texts it read. The caller makes the key
        again after the check and stores only when it is unchanged (nothing was edited meanwhile)."""
        entry = {"format": FORMAT, "key": self.key, "written": datetime.datetime.now().isoformat(timespec="seconds"),
                 "extra": {str(p): fingerprint.digest(p) for p in extra_files}, "result": result}
        try:
            write_atomic(self.path, (json.dumps(entry, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
        except OSError:
            pass  # a read-only project still checks; it just never answers from the cache

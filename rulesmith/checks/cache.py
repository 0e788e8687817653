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

Each game's own answer is kept too, under the same inputs narrowed to its folder (its files, its
rulebook texts, the software, the date): after an edit to one game, the check reads and checks
that game only and gives the others' kept answers, as the preview does (pipeline.check_content).
A game is checked on its own; the one thing two games share, their ids, is compared by the caller.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import logging
from pathlib import Path

from rulesmith import fingerprint
from rulesmith.files import write_atomic
from rulesmith.project import game_folders

log = logging.getLogger(__name__)

FORMAT = 2  # of the cache file; a file of another format is not read
FILE_NAME = "check.json"


GAME_ANSWER = {"id": str, "summary": str, "warnings": list, "notes": list, "key": str, "extra": dict}


def key(content: Path, today: datetime.date | None = None, software: str | None = None) -> str:
    """Everything the check's result depends on but the rulebook texts (`extra` in the entry)."""
    into = hashlib.blake2b(digest_size=20)
    into.update(f"format {FORMAT}\ncontent {content}\ntoday {(today or datetime.date.today()).isoformat()}\n".encode())
    into.update(f"software {software or fingerprint.software_digest()}\ncontent\n".encode())
    fingerprint.tree(content, into)
    return into.hexdigest()


def game_key(content: Path, folder: Path, today: datetime.date | None, software: str) -> str:
    """`key` narrowed to one game folder."""
    into = hashlib.blake2b(digest_size=20)
    into.update(f"format {FORMAT}\ncontent {content}\ntoday {(today or datetime.date.today()).isoformat()}\n".encode())
    into.update(f"software {software}\ngame {folder.name}\n".encode())
    fingerprint.tree(folder, into)
    return into.hexdigest()


def _unchanged(extra) -> bool:
    """The rulebook texts an answer was given with are as they were."""
    return isinstance(extra, dict) and all(fingerprint.digest(Path(p)) == d for p, d in extra.items())


class CheckCache:
    """One project's stored check result: `<project>/.cache/check.json`."""

    def __init__(self, folder: Path, content: Path, today: datetime.date | None = None):
        self.path = folder / FILE_NAME
        self.content, self.today = content, today
        self.software = fingerprint.software_digest()
        self.key = key(content, today, self.software)
        try:
            entry = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entry = None
        self.entry = entry if isinstance(entry, dict) and entry.get("format") == FORMAT else {}
        self._game_keys: dict[str, str] = {}

    def game_key(self, name: str) -> str:
        """`game_key` of the game folder `name`, as it was when it was first asked for."""
        if name not in self._game_keys:
            self._game_keys[name] = game_key(self.content, self.content / name, self.today, self.software)
        return self._game_keys[name]

    def lookup(self) -> dict | None:
        """The stored answer, when every input is as it was; else None."""
        entry = self.entry
        if entry.get("key") != self.key or not _unchanged(entry.get("extra")):
            log.debug("check: no kept answer for the whole content (%s)", "something it read changed"
                      if entry else "none kept yet")
            return None
        result = entry.get("result")
        shape = {"games": int, "summary": str, "warnings": list, "notes": list}
        if not isinstance(result, dict) or any(not isinstance(result.get(k), t) for k, t in shape.items()):
            return None
        return result

    def known_games(self) -> dict[str, dict]:
        """The kept answers of the game folders whose inputs are as they were: {folder name: answer}."""
        kept = self.entry.get("games")
        if not isinstance(kept, dict) or not self.content.is_dir():
            return {}
        found = {}
        for folder in game_folders(self.content):
            answer = kept.get(folder.name)
            if not isinstance(answer, dict) or any(not isinstance(answer.get(k), t) for k, t in GAME_ANSWER.items()):
                continue
            if answer["key"] == self.game_key(folder.name) and _unchanged(answer["extra"]):
                found[folder.name] = answer
        log.debug("check: kept answers of %s", ", ".join(found) or "no game (each changed since its last check)")
        return found

    def store(self, result: dict, games: dict[str, dict]) -> None:
        """Keep a passed check's answer and each game's own (`games`, by folder name, each with
        the rulebook texts it read as `extra`: {path: digest}). The caller makes the key again
        after the check and stores only when it is unchanged (nothing was edited meanwhile), so
        the keys made before the check are the keys of what was checked."""
        answers = {name: {**answer, "key": self.game_key(name)} for name, answer in games.items()}
        extra = {path: digest for answer in games.values() for path, digest in answer["extra"].items()}
        entry = {"format": FORMAT, "key": self.key, "written": datetime.datetime.now().isoformat(timespec="seconds"),
                 "extra": extra, "result": result, "games": answers}
        with contextlib.suppress(OSError):  # a read-only project still checks; it just never answers from the cache
            write_atomic(self.path, (json.dumps(entry, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))

"""A game's translation catalogs on disk: one gettext PO file per language,
`content/<game>/translations/<lang>.po`, read and written with polib (never parsed by hand), each
entry's context the text's address and its msgid the English.

Besides what gettext itself keeps (a fuzzy flag, the previous English as `#| msgid`, obsolete
entries as `#~`), a catalog records two things Rulesmith reads back:

- in an entry's extracted comment (`#.`, which `rulesmith translate update` writes and translators'
  tools show as notes), the line `current since YYYY-MM-DD`: when the entry was last found
  translated from the current English (translations/merge.py);
- in the header, its review: `X-Reviewed-By` (who) and `X-Review-Date` (YYYY-MM-DD).

A syntax error, a file that is not UTF-8 or a catalog named for no language is a located problem.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polib

from rulesmith.content.load import display_path
from rulesmith.files import write_atomic
from rulesmith.values import ids

if TYPE_CHECKING:
    from pathlib import Path

FOLDER = "translations"  # under the game's folder
SUFFIX = ".po"
WIDTH = 79  # msgmerge's line width: a catalog written here and one written by gettext's tools look alike
STAMP = re.compile(r"^current since (\d{4}-\d{2}-\d{2})$")
REVIEWED_BY, REVIEW_DATE = "X-Reviewed-By", "X-Review-Date"
REVISION_DATE = "PO-Revision-Date"
# A line that opens or continues a string must close it: polib reads `msgstr "Hallo` as "Hall".
STRING_LINE = re.compile(r'^\s*(?:#[~|]\s*)?(?:(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"')
CLOSED = re.compile(r'"(?:[^"\\]|\\.)*"\s*$')
SYNTAX = re.compile(r"\(line (\d+)\)(?::\s*(.*))?")


class CatalogProblem(Exception):
    """A catalog that cannot be read: where, what and a hint."""

    def __init__(self, where: tuple[str, int, int], message: str, hint: str):
        super().__init__(message)
        self.where, self.message, self.hint = where, message, hint


@dataclass(frozen=True)
class Review:
    """A catalog's recorded review (its header's X-Reviewed-By and X-Review-Date)."""

    by: str
    date: datetime.date


def folder_of(game_folder: Path) -> Path:
    return game_folder / FOLDER


def path_of(game_folder: Path, language: str) -> Path:
    """The catalog of one language: content/<game>/translations/<lang>.po."""
    return folder_of(game_folder) / f"{language}{SUFFIX}"


def catalog_files(game_folder: Path) -> list[Path]:
    """Every catalog of a game, by language (files other than *.po are not catalogs)."""
    folder = folder_of(game_folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())


def language_of(path: Path) -> str:
    return path.stem


def language_problem(language: str) -> str | None:
    """Why a language code is refused, said after it, or None."""
    return ids.LANGUAGE.problem(language)


def gettext_language(language: str) -> str:
    """The code as gettext's header writes it: pt-br is pt_BR, zh-hant is zh_Hant."""
    base, _, rest = language.partition("-")
    if not rest:
        return base
    return f"{base}_{rest.upper() if len(rest) == 2 else rest.title()}"


def where(path: Path, line: int, column: int = 1) -> tuple[str, int, int]:
    return (str(display_path(path)), max(line, 1), max(column, 1))


def read(path: Path, data: bytes | None = None) -> polib.POFile:
    """One catalog, read by polib; raises CatalogProblem, located, when it cannot be read."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CatalogProblem(where(path, 1), f"cannot read the catalog: {error.strerror}",
                                 "check the file's permissions") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise CatalogProblem(where(path, line, column), "the catalog is not UTF-8 text",
                             "save it as UTF-8 (and say `charset=UTF-8` in its Content-Type)") from None
    for number, line_text in enumerate(text.splitlines(), start=1):
        opened = STRING_LINE.match(line_text)
        if opened and not CLOSED.match(line_text, opened.end() - 1):
            raise CatalogProblem(where(path, number, len(line_text.rstrip()) + 1), "a string is not closed",
                                 'end the line with an unescaped " (write \\" for a quote inside the text)')
    try:
        catalog = polib.pofile(text, wrapwidth=WIDTH)
    except (OSError, ValueError) as error:
        found = SYNTAX.search(str(error))
        line = int(found.group(1)) if found else 1
        detail = (found.group(2) if found and found.group(2) else "").strip()
        raise CatalogProblem(where(path, line), f"PO syntax error{': ' + detail if detail else ''}",
                             "each entry is msgctxt, msgid and msgstr lines of quoted text, comments start "
                             "with '#' (see `rulesmith format translations`)") from None
    charset = re.search(r"charset=([\w-]+)", catalog.metadata.get("Content-Type", ""))
    if charset and charset.group(1).lower().replace("-", "") != "utf8":
        raise CatalogProblem(where(path, header_line(text, "Content-Type")),
                             f"the catalog says its charset is {charset.group(1)}",
                             "catalogs are UTF-8: write `Content-Type: text/plain; charset=UTF-8`")
    return catalog


def to_bytes(catalog: polib.POFile) -> bytes:
    catalog.wrapwidth = WIDTH
    return (str(catalog).rstrip("\n") + "\n").encode("utf-8")


def write(path: Path, catalog: polib.POFile) -> None:
    """Write a catalog in one rename (files.write_atomic): never half a file."""
    write_atomic(path, to_bytes(catalog), mode_from=path)


def locate(path: Path, text: str, entry: polib.POEntry, part: str = "") -> tuple[str, int, int]:
    """Where an entry's translation is in the file: the line and column of `part` in its msgstr, or
    its msgstr line. (The file is read by polib; this only finds a line, as a text search would.)"""
    lines = text.splitlines()
    start = max(entry.linenum or 1, 1) - 1
    msgstr = next((n for n in range(start, len(lines)) if lines[n].lstrip().startswith("msgstr")), start)
    if part:
        escaped = polib.escape(part.split("\n", 1)[0])
        for n in range(msgstr, len(lines)):
            if n > msgstr and not lines[n].strip().startswith('"'):
                break
            column = lines[n].find(escaped)
            if column >= 0 and escaped:
                return where(path, n + 1, column + 1)
    return where(path, msgstr + 1)


def entry_line(path: Path, entry: polib.POEntry) -> tuple[str, int, int]:
    """Where an entry starts (its first comment or its msgctxt)."""
    return where(path, entry.linenum or 1)


def header_line(text: str, field: str) -> int:
    """The line of a header field (for a problem about it), else 1."""
    return next((n for n, line in enumerate(text.splitlines(), start=1) if f'"{field}:' in line), 1)


def stamp_of(entry: polib.POEntry) -> datetime.date | None:
    """The `current since` date `translate update` wrote in the entry's extracted comment."""
    for line in (entry.comment or "").splitlines():
        found = STAMP.match(line.strip())
        if found:
            try:
                return datetime.date.fromisoformat(found.group(1))
            except ValueError:
                return None
    return None


def date_in(value: str | None) -> datetime.date | None:
    """The day a header date says (`2026-03-01` or gettext's `2026-03-01 14:05+0100`), or None."""
    found = re.match(r"\s*(\d{4}-\d{2}-\d{2})", value or "")
    if not found:
        return None
    try:
        return datetime.date.fromisoformat(found.group(1))
    except ValueError:
        return None


def review_of(catalog: polib.POFile) -> Review | None:
    """The catalog's recorded review, or None (no review, or one the check refuses)."""
    by = catalog.metadata.get(REVIEWED_BY, "").strip()
    date = date_in(catalog.metadata.get(REVIEW_DATE))
    return Review(by, date) if by and date else None


def revision_date(catalog: polib.POFile) -> datetime.date | None:
    """When a translator's tool last saved the catalog (PO-Revision-Date), when it says a real day."""
    return date_in(catalog.metadata.get(REVISION_DATE))

"""A game's translation catalogs on disk: one gettext PO file per language,
`content/<game>/translations/<lang>.po`, read and written with polib (never parsed by hand), each
entry's context the text's address and its msgid the English.

Besides what gettext itself keeps (a fuzzy flag, the previous English as `#| msgid`, obsolete
entries as `#~`), a catalog records two things Rulesmith reads back:

- in an entry's extracted comment (`#.`, which `rulesmith translate update` writes and translators'
  tools show as notes), the line `current since YYYY-MM-DD`: when the entry was last found
  translated from the current English (translations/merge.py);
- in an entry's translator comment (`#`, which every PO tool keeps), its review:
  `reviewed by <name> on YYYY-MM-DD (<fingerprint>)`, written by `rulesmith translate review`; the
  fingerprint is of the English and the translation reviewed, so an entry whose English or
  translation changed since is no longer reviewed;
- in a fuzzy entry's extracted comment, `suggested: the same English is translated elsewhere`:
  `translate update` proposed the translation of the same English made elsewhere; until a translator accepts it (removes `fuzzy`), the
  text is missing, never translated;
- plural entries (`msgid_plural`, `msgstr[n]`) for a text that says a count (`{value}`: "The
  Automa performs {value} Actions"), as many forms as the header's `Plural-Forms` says;
- in the header, the last review recorded: `X-Reviewed-By` (who) and `X-Review-Date` (YYYY-MM-DD).

A syntax error, a file that is not UTF-8 or a catalog named for no language is a located problem.
"""

from __future__ import annotations

import datetime
import functools
import gettext
import hashlib
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polib

from rulesmith.content.load import display_path
from rulesmith.files import write_atomic
from rulesmith.translations import layout
from rulesmith.values import ids

if TYPE_CHECKING:
    from pathlib import Path

FOLDER = "translations"  # under the game's folder
SUFFIX = ".po"
TEMPLATE_SUFFIX = ".pot"
WIDTH = layout.PAGE_WIDTH  # msgmerge's line width: a catalog written here and one written by gettext's tools look alike
STAMP = re.compile(r"^current since (\d{4}-\d{2}-\d{2})$")
REVIEWED_BY, REVIEW_DATE = "X-Reviewed-By", "X-Review-Date"
REVISION_DATE = "PO-Revision-Date"
PLURAL_FORMS = "Plural-Forms"
PLURAL_RULE = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+?)\s*;?\s*$")
# A proposal, not a translation (one short line: polib wraps a longer comment when it saves).
SUGGESTED = "suggested: the same English is translated elsewhere"
ENTRY_REVIEW = re.compile(r"^reviewed by (?P<by>.+) on (?P<date>\d{4}-\d{2}-\d{2}) \((?P<print>[0-9a-f]{8})\)$")
# A language as a catalog's name or header may spell it: `de`, `pt-br`, `pt_BR`, `es_ES`, `zh_Hant`.
GETTEXT_CODE = re.compile(r"^([a-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))?$")
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
    """The catalog of one language: content/<game>/translations/<lang>.po, or the file there
    spelled as gettext spells it (`pt_BR.po` for pt-br: normal_language)."""
    language = normal_language(language)
    for path in catalog_files(game_folder):
        if language_of(path) == language:
            return path
    return folder_of(game_folder) / f"{language}{SUFFIX}"


def template_path(game_folder: Path) -> Path:
    """The game's template: every text, untranslated (content/<game>/translations/<game>.pot), what
    Weblate, Crowdin or `msginit` start a new language from."""
    return folder_of(game_folder) / f"{game_folder.name}{TEMPLATE_SUFFIX}"


def catalog_files(game_folder: Path) -> list[Path]:
    """Every catalog of a game, by language (files other than *.po are not catalogs)."""
    folder = folder_of(game_folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())


def language_of(path: Path) -> str:
    """The language a catalog's file name says, in its one spelling (normal_language)."""
    return normal_language(path.stem)


def normal_language(code: str) -> str:
    """The one spelling of a language code (ids.LANGUAGE's: lower case, '-' before a region or
    script): gettext's `es_ES`, `pt_BR`, `zh_Hant` and the web's `es-ES` are es-es, pt-br, zh-hant.
    A code of another shape is returned as given, for language_problem to refuse."""
    found = GETTEXT_CODE.match(code.strip())
    if found is None:
        return code
    return found.group(1) + (f"-{found.group(2).lower()}" if found.group(2) else "")


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
    return (_shown(path, os.getcwd()), max(line, 1), max(column, 1))


@functools.lru_cache(maxsize=64)
def _shown(path: Path, _working_folder: str) -> str:
    """The catalog's path as messages show it, worked out once per catalog (not once per entry:
    a check locates every entry of a catalog of thousands). Keyed by the path and the working
    folder it is shown from."""
    return str(display_path(path))


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
    """The catalog's file as gettext's tools would write it (translations/layout.py)."""
    catalog.wrapwidth = 0  # polib writes each string on one line; layout wraps it as gettext does
    try:
        text = str(catalog)
    finally:
        catalog.wrapwidth = WIDTH
    return (layout.relayout(text).rstrip("\n") + "\n").encode("utf-8")


def write(path: Path, catalog: polib.POFile) -> None:
    """Write a catalog in one rename (files.write_atomic): never half a file."""
    write_atomic(path, to_bytes(catalog), mode_from=path)


def write_if_changed(path: Path, catalog: polib.POFile) -> bool:
    """Write a catalog (as `write`) unless the file already holds these bytes; whether it wrote."""
    data = to_bytes(catalog)
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    write_atomic(path, data, mode_from=path)
    return True


class Locator:
    """Where an entry's translation is in the file: the line and column of a part of its msgstr,
    or its msgstr line. The file is split into lines once and each entry's msgstr lines are found
    once; a part said again is looked for after the place it was last found (the second problem
    of a kind points at the second place), so locating every problem of a catalog is one pass over
    it, not one per problem. (The file is read by polib; this only finds a line, as a text search
    would.)"""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()
        self._blocks: dict[int, tuple[int, int]] = {}  # entry's first line: (msgstr line, end)
        self._after: dict[tuple[int, str], tuple[int, int]] = {}  # (entry, part): where to look next

    def _block(self, entry: polib.POEntry) -> tuple[int, int]:
        start = max(entry.linenum or 1, 1) - 1
        if start not in self._blocks:
            lines = self.lines
            msgstr = next((n for n in range(start, len(lines)) if lines[n].lstrip().startswith("msgstr")), start)
            end = next((n for n in range(msgstr + 1, len(lines))  # a plural entry's msgstr[1] … belong to it
                        if not lines[n].strip().startswith(('"', "msgstr["))), len(lines))
            self._blocks[start] = (msgstr, end)
        return self._blocks[start]

    def locate(self, entry: polib.POEntry, part: str = "") -> tuple[str, int, int]:
        msgstr, end = self._block(entry)
        escaped = polib.escape(part.split("\n", 1)[0]) if part else ""
        if escaped:
            key = (msgstr, escaped)
            line, column = self._after.get(key, (msgstr, 0))
            for n in range(line, end):
                found = self.lines[n].find(escaped, column if n == line else 0)
                if found >= 0:
                    self._after[key] = (n, found + 1)
                    return where(self.path, n + 1, found + 1)
            self._after[key] = (end, 0)  # not (or no more) in it: the msgstr line, at once, from now on
        return where(self.path, msgstr + 1)


def locate(path: Path, text: str, entry: polib.POEntry, part: str = "") -> tuple[str, int, int]:
    """Where one entry's translation (or `part` of it) is in the file (Locator, for one problem)."""
    return Locator(path, text).locate(entry, part)


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


def fingerprint(entry: polib.POEntry) -> str:
    """What a review vouches for: the English and its translation (plural forms included)."""
    said = "\0".join([entry.msgid, entry.msgid_plural or "", entry.msgstr,
                      *(entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural))])
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:8]


def entry_review(entry: polib.POEntry) -> Review | None:
    """The entry's recorded review, when it is of the English and translation it holds now."""
    for line in (entry.tcomment or "").splitlines():
        found = ENTRY_REVIEW.match(line.strip())
        if found and found.group("print") == fingerprint(entry):
            try:
                return Review(found.group("by"), datetime.date.fromisoformat(found.group("date")))
            except ValueError:
                return None
    return None


def mark_reviewed(entry: polib.POEntry, by: str, date: datetime.date) -> None:
    """Record a review of the entry as it is now in its translator comment (replacing an older one)."""
    kept = [line for line in (entry.tcomment or "").splitlines() if not ENTRY_REVIEW.match(line.strip())]
    entry.tcomment = "\n".join([*kept, f"reviewed by {by} on {date.isoformat()} ({fingerprint(entry)})"])


def is_suggestion(entry: polib.POEntry) -> bool:
    """Whether the entry holds a translation `translate update` proposed from the same English
    elsewhere, not yet accepted (the entry still fuzzy, with no previous English of its own)."""
    return bool(entry.fuzzy and not entry.previous_msgid and entry.msgstr
                and SUGGESTED in (entry.comment or "").splitlines())


def forms_of(entry: polib.POEntry) -> list[str]:
    """A plural entry's translations, form by form (msgstr[0], msgstr[1] …); [] for other entries."""
    if not entry.msgid_plural:
        return []
    return [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural, key=int)]


def is_translated(entry: polib.POEntry) -> bool:
    """Whether the entry holds a translation: its msgstr, or (a plural entry) every one of its forms."""
    if entry.msgid_plural:
        forms = forms_of(entry)
        return bool(forms) and all(forms)
    return bool(entry.msgstr)


def plural_rule(catalog: polib.POFile) -> tuple[int, str] | None:
    """(number of forms, the C expression choosing a form for n) from the header's Plural-Forms, as
    gettext reads it; None when it has none. Raises ValueError, saying why, for one gettext refuses."""
    said = catalog.metadata.get(PLURAL_FORMS, "").strip()
    if not said:
        return None
    found = PLURAL_RULE.match(said)
    if found is None or not 1 <= int(found.group(1)) <= 6:
        raise ValueError(f"'{said}' is not 'nplurals=N; plural=EXPRESSION;' with N from 1 to 6")
    try:
        gettext.c2py(found.group(2))
    except (ValueError, SyntaxError, RecursionError):
        raise ValueError(f"'{found.group(2)}' is not a plural expression gettext reads") from None
    return int(found.group(1)), found.group(2)


def form_for(expression: str, count: int) -> int:
    """Which plural form the rule chooses for a count (gettext's own evaluation of the expression)."""
    return int(gettext.c2py(expression)(count))

"""A catalog made or refreshed from the current English, the way gettext's `msgmerge` does it.

Every translatable text (translations/english.py) is an entry, in reading order: a new text is
added untranslated; an entry whose English changed keeps its translation, marked fuzzy, with the
English it was translated from as its previous msgid (`#| msgid`, shown by translators' tools
beside the new one); an entry whose text is gone becomes obsolete (`#~`, kept for when it comes
back, as msgmerge keeps it). Entries are matched by their context, the text's address, never by
their English, so a corrected text keeps its translation.

What the translators wrote stays theirs: translations, their comments, their flags and the
header (its PO-Revision-Date, its review). What is Rulesmith's is written anew each time: the
extracted comment (what the text is, its format, and `current since <date>` for an entry
translated from the current English) and the reference to the content file it is in. The date
is the catalog's PO-Revision-Date (when a translator's tool last saved it) when it says a day not
after today, else today: the day by which the entry was brought up to date.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import polib

from rulesmith.translations import catalog as catalogs
from rulesmith.translations.english import PLACEHOLDER, English, english

if TYPE_CHECKING:
    from pathlib import Path

    from rulesmith.content.game import Game

FUZZY = "fuzzy"
BRACE_FORMAT = "python-brace-format"  # a text with {value}: translators' tools check it is kept


@dataclass
class Updated:
    """What a refresh did to one catalog."""

    path: Path
    language: str
    created: bool
    written: bool  # the file's bytes changed
    added: list[str] = field(default_factory=list)  # addresses new to the catalog
    outdated: list[str] = field(default_factory=list)  # translations kept, marked fuzzy: the English changed
    obsolete: list[str] = field(default_factory=list)  # entries whose text is gone, now `#~`
    revived: list[str] = field(default_factory=list)  # obsolete entries whose text came back


def update(game: Game, language: str, today: datetime.date | None = None) -> Updated:
    """Make or refresh a game's catalog of one language and write it atomically (only if it changed).
    Raises catalog.CatalogProblem when the catalog there cannot be read."""
    today = today or datetime.date.today()
    path = catalogs.path_of(game.folder, language)
    created = not path.exists()
    before = None if created else path.read_bytes()
    old = None if before is None else catalogs.read(path, before)
    merged, updated = refresh(old, english(game), game, language, today)
    updated.path, updated.created = path, created
    data = catalogs.to_bytes(merged)
    if data != before:
        catalogs.write(path, merged)
        updated.written = True
    return updated


def refresh(old: polib.POFile | None, texts: dict[str, English], game: Game, language: str,
            today: datetime.date) -> tuple[polib.POFile, Updated]:
    """The catalog as msgmerge would leave it, and what changed (without writing anything)."""
    updated = Updated(path=catalogs.path_of(game.folder, language), language=language, created=old is None,
                      written=False)
    live: dict[str, polib.POEntry] = {}
    gone: list[polib.POEntry] = []  # live entries that name no text: obsolete from now on
    kept_obsolete: dict[str, polib.POEntry] = {}
    for found in old or []:
        if found.obsolete:
            kept_obsolete.setdefault(found.msgctxt or "", found)
        elif found.msgctxt in texts and found.msgctxt not in live:
            live[found.msgctxt] = found
        else:
            gone.append(found)
    revised = catalogs.revision_date(old) if old is not None else None
    stamp_day = revised if revised is not None and revised <= today else today

    result = polib.POFile(wrapwidth=catalogs.WIDTH)
    result.header = old.header if old is not None and old.header else (
        f"The {language} translation of {game.info.name}.\n"
        f"Made and refreshed by `rulesmith translate update {game.id} {language}`: every entry's context\n"
        "is where its text is in the content, its msgid the English (`rulesmith format translations`).")
    result.metadata = _header(old, game, language)
    for address, text in texts.items():
        entry: polib.POEntry | None = live.get(address)
        if entry is None and address in kept_obsolete:
            entry = kept_obsolete.pop(address)
            entry.obsolete = False
            updated.revived.append(address)
        if entry is None:
            entry = polib.POEntry(msgctxt=address, msgid=text.text, msgstr="")
            updated.added.append(address)
        elif entry.msgid != text.text:
            if entry.msgstr:
                if not (entry.fuzzy and entry.previous_msgid):  # the English it was translated from
                    entry.previous_msgid = entry.msgid
                if FUZZY not in entry.flags:
                    entry.flags.append(FUZZY)
                updated.outdated.append(address)
            entry.msgid = text.text
        if not entry.fuzzy:
            entry.previous_msgid = None
        entry.previous_msgctxt = None
        current = bool(entry.msgstr) and not entry.fuzzy
        since = (catalogs.stamp_of(entry) or stamp_day) if current else None
        entry.comment = _comment(text, since)
        entry.occurrences = [(text.file, "")] if text.file else []
        has_braces = bool(PLACEHOLDER.search(text.text))
        if has_braces and BRACE_FORMAT not in entry.flags:
            entry.flags.append(BRACE_FORMAT)
        elif not has_braces and BRACE_FORMAT in entry.flags:
            entry.flags.remove(BRACE_FORMAT)
        result.append(entry)
    for found in gone:
        if found.msgstr:  # an untranslated entry of a text that is gone holds nothing to keep
            found.obsolete = True
            updated.obsolete.append(found.msgctxt or found.msgid)
            kept_obsolete.setdefault(f"\0{len(kept_obsolete)}", found)
    for found in kept_obsolete.values():
        found.obsolete = True
        result.append(found)
    return result, updated


def _header(old: polib.POFile | None, game: Game, language: str) -> dict[str, str]:
    """The header: the translators' fields kept, the ones that say what the catalog is set."""
    header = dict(old.metadata) if old is not None else {}
    header["Project-Id-Version"] = f"{game.info.name} {game.info.data_version}"
    header.setdefault("Language", catalogs.gettext_language(language))
    header["MIME-Version"] = "1.0"
    header["Content-Type"] = "text/plain; charset=UTF-8"
    header["Content-Transfer-Encoding"] = "8bit"
    for name, unset in (("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"), ("Last-Translator", ""), ("Language-Team", "")):
        header.setdefault(name, unset)  # as gettext's msginit leaves them, for the translator's tool to fill
    return header


def _comment(text: English, since: datetime.date | None) -> str:
    lines = [text.label, "Markdown: keep every [[…]] reference as written." if text.markdown
             else "Plain text: shown as written, never as Markdown."]
    if since is not None:
        lines.append(f"current since {since.isoformat()}")
    return "\n".join(lines)

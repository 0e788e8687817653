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
    template_written: bool = False  # the game's template (.pot) changed
    added: list[str] = field(default_factory=list)  # addresses new to the catalog
    outdated: list[str] = field(default_factory=list)  # translations kept, marked fuzzy: the English changed
    obsolete: list[str] = field(default_factory=list)  # entries whose text is gone, now `#~`
    revived: list[str] = field(default_factory=list)  # obsolete entries whose text came back
    suggested: list[str] = field(default_factory=list)  # untranslated entries given a fuzzy suggestion


def update(game: Game, language: str, today: datetime.date | None = None) -> Updated:
    """Make or refresh a game's catalog of one language and write it atomically (only if it changed).
    Raises catalog.CatalogProblem when the catalog there cannot be read."""
    today = today or datetime.date.today()
    path = catalogs.path_of(game.folder, language)
    created = not path.exists()
    before = None if created else path.read_bytes()
    old = None if before is None else catalogs.read(path, before)
    texts = english(game)
    merged, updated = refresh(old, texts, game, language, today)
    updated.path, updated.created = path, created
    data = catalogs.to_bytes(merged)
    if data != before:
        catalogs.write(path, merged)
        updated.written = True
    updated.template_written = write_template(game, texts)
    return updated


def write_template(game: Game, texts: dict[str, English] | None = None) -> bool:
    """Write the game's template (catalog.template_path) when it changed; whether it wrote."""
    return catalogs.write_if_changed(catalogs.template_path(game.folder), template(game, texts or english(game)))


def template(game: Game, texts: dict[str, English]) -> polib.POFile:
    """Every text untranslated, as xgettext would extract it: what a new language starts from
    (`msginit`, Weblate's "add language"). It carries no date, so it changes only with the English."""
    result = polib.POFile(wrapwidth=catalogs.WIDTH)
    result.header = (f"Every text of {game.info.name} to translate: a new language starts from this template.\n"
                     f"Written by `rulesmith translate update` (`rulesmith translate template {game.id}`).")
    result.metadata = {"Project-Id-Version": f"{game.info.name} {game.info.data_version}", "MIME-Version": "1.0",
                       "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    for address, text in texts.items():
        entry = polib.POEntry(msgctxt=address, msgid=text.text, msgstr="", comment=_comment(text, None))
        entry.occurrences = _occurrences(text)
        if PLACEHOLDER.search(text.text):
            entry.flags.append(BRACE_FORMAT)
        result.append(entry)
    return result


def _occurrences(text: English) -> list[tuple[str, str]]:
    """The `#:` reference: the content file relative to the game's folder, and the text's line."""
    return [(text.file, str(text.line) if text.line else "")] if text.file else []


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
            if catalogs.is_translated(entry):
                if not (entry.fuzzy and entry.previous_msgid):  # the English it was translated from
                    entry.previous_msgid = entry.msgid
                if FUZZY not in entry.flags:
                    entry.flags.append(FUZZY)
                updated.outdated.append(address)
            entry.msgid = text.text
            if entry.msgid_plural:  # a plural entry's English is its msgid and msgid_plural alike
                if entry.fuzzy and entry.previous_msgid and not entry.previous_msgid_plural:
                    entry.previous_msgid_plural = entry.msgid_plural
                entry.msgid_plural = text.text
        if not entry.fuzzy:
            entry.previous_msgid_plural = None
            entry.previous_msgid = None
        entry.previous_msgctxt = None
        current = catalogs.is_translated(entry) and not entry.fuzzy
        since = (catalogs.stamp_of(entry) or stamp_day) if current else None
        entry.comment = _comment(text, since, catalogs.is_suggestion(entry))
        entry.occurrences = _occurrences(text)
        has_braces = bool(PLACEHOLDER.search(text.text))
        if has_braces and BRACE_FORMAT not in entry.flags:
            entry.flags.append(BRACE_FORMAT)
        elif not has_braces and BRACE_FORMAT in entry.flags:
            entry.flags.remove(BRACE_FORMAT)
        result.append(entry)
    _suggest(result, texts, updated)
    for found in gone:
        if catalogs.is_translated(found) or found.msgstr:  # an untranslated entry of a text that is gone holds nothing to keep
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


def _suggest(result: polib.POFile, texts: dict[str, English], updated: Updated) -> None:
    """Propose for an untranslated entry the translation already made of the same English elsewhere
    in the catalog (Yes, No, a name said in many places), as msgmerge proposes a near match: marked
    fuzzy and `suggested` (catalog.SUGGESTED), so it is shown and counted as missing until a translator
    accepts it (removes the fuzzy mark)."""
    made: dict[tuple[str, bool], str] = {}  # (English, Markdown): the address of its first current translation
    for entry in result:
        if entry.msgstr and not entry.fuzzy and not entry.msgid_plural and entry.msgctxt in texts:
            made.setdefault((entry.msgid, texts[entry.msgctxt].markdown), entry.msgctxt)
    translated = {entry.msgctxt: entry.msgstr for entry in result}
    for entry in result:
        if entry.msgstr or entry.msgid_plural or entry.msgctxt not in texts:
            continue
        source = made.get((entry.msgid, texts[entry.msgctxt].markdown))
        if source is None:
            continue
        entry.msgstr = translated[source]
        entry.flags.insert(0, FUZZY)
        entry.comment += f"\n{catalogs.SUGGESTED}"
        updated.suggested.append(entry.msgctxt)


def _comment(text: English, since: datetime.date | None, suggested: bool = False) -> str:
    lines = [text.label, "Markdown: keep every [[…]] reference as written." if text.markdown
             else "Plain text: shown as written, never as Markdown."]
    if since is not None:
        lines.append(f"current since {since.isoformat()}")
    if suggested:
        lines.append(catalogs.SUGGESTED)
    return "\n".join(lines)

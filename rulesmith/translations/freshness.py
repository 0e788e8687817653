"""What a translation says, text by text, and how fresh it is: the one place every output asks.

For a game and a language (`Translation`), each text's address gives a `Text`:

- translated: the catalog translates the current English (not fuzzy); `current_since` is when it
  was last brought up to date, when known (the `current since` date `translate update` writes,
  else the day the catalog was last saved, its PO-Revision-Date);
- outdated: the entry is fuzzy, or its English is no longer the current English; the translation is
  still shown, with the English it was made from (`previous_english`, when the catalog keeps it)
  and the day the English changed (`english_changed`, when an erratum records it);
- missing: no translation; the text is the English, never passed off as translated.

A catalog's recorded review (`review`, None when there is none) says whether a reviewer has
checked it. `made_outdated` says what recording a change made outdated (errata, rulings), and
`compare` what changed in the catalogs between two versions of the content (the diff).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesmith.translations import catalog as catalogs
from rulesmith.translations.english import English, address_of_erratum, english

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

    import polib

    from rulesmith.content.game import Game

TRANSLATED, OUTDATED, MISSING = "translated", "outdated", "missing"
STATES = (TRANSLATED, OUTDATED, MISSING)


@dataclass(frozen=True)
class Text:
    """One text in one language, as an output shows it."""

    address: str
    state: str  # translated | outdated | missing
    text: str  # what to show: the translation (translated, outdated), else the English
    english: str  # the current English
    markdown: bool  # Markdown, else plain text (as the English)
    previous_english: str | None = None  # outdated: the English the translation was made from, when known
    english_changed: datetime.date | None = None  # outdated: the day the English changed, when an erratum says
    current_since: datetime.date | None = None  # translated: when it was last brought up to date, when known


@dataclass(frozen=True)
class Counts:
    translated: int
    outdated: int
    missing: int

    @property
    def total(self) -> int:
        return self.translated + self.outdated + self.missing


class Translation:
    """A game's content in one language: its catalog (or none yet), asked text by text."""

    def __init__(self, game: Game, language: str, catalog: polib.POFile | None,
                 texts: dict[str, English] | None = None):
        self.game, self.language, self.catalog = game, language, catalog
        self.path: Path = catalogs.path_of(game.folder, language)
        self.english = texts if texts is not None else english(game)
        self.entries: dict[str, polib.POEntry] = {}
        for entry in catalog or []:
            if not entry.obsolete and entry.msgctxt is not None:
                self.entries.setdefault(entry.msgctxt, entry)
        self.review = catalogs.review_of(catalog) if catalog is not None else None
        self.saved = catalogs.revision_date(catalog) if catalog is not None else None
        self._texts: dict[str, Text] = {}

    @property
    def reviewed(self) -> bool:
        """Whether a reviewer recorded a review in the catalog's header."""
        return self.review is not None

    def text(self, address: str) -> Text:
        """One text in this language; KeyError for an address that names no text of the game."""
        if address not in self._texts:
            self._texts[address] = self._text(self.english[address])
        return self._texts[address]

    def get(self, address: str) -> Text | None:
        """One text in this language, or None for an address with nothing to translate (a number,
        a citation of the rulebook: shown as written in every language)."""
        return self.text(address) if address in self.english else None

    def texts(self) -> list[Text]:
        """Every text of the game in this language, in reading order."""
        return [self.text(address) for address in self.english]

    def of_item(self, key: str) -> list[Text]:
        """The texts of one item (kind:id), in order."""
        return [self.text(a) for a, found in self.english.items() if found.key == key]

    def counts(self) -> Counts:
        states = [t.state for t in self.texts()]
        return Counts(states.count(TRANSLATED), states.count(OUTDATED), states.count(MISSING))

    def brought_up_to_date(self, key: str) -> datetime.date | None:
        """When the item's translation was last brought up to date: the latest day one of its texts
        became current (None when none is translated, or no day is known)."""
        days = [t.current_since for t in self.of_item(key) if t.state == TRANSLATED and t.current_since]
        return max(days, default=None)

    def _text(self, source: English) -> Text:
        entry = self.entries.get(source.address)
        if entry is None or not entry.msgstr:
            return Text(source.address, MISSING, source.text, source.text, source.markdown)
        if entry.fuzzy or entry.msgid != source.text:
            previous = (entry.previous_msgid if entry.fuzzy else entry.msgid) or None
            return Text(source.address, OUTDATED, entry.msgstr, source.text, source.markdown, previous,
                        self._english_changed(source.address, previous))
        return Text(source.address, TRANSLATED, entry.msgstr, source.text, source.markdown,
                    current_since=catalogs.stamp_of(entry) or self.saved)

    def _english_changed(self, address: str, previous: str | None) -> datetime.date | None:
        """The day of the erratum that changed the English away from what was translated: the
        first whose old text is that English (without one known, the latest of the text's errata)."""
        errata = sorted((e for e in self.game.errata if address_of_erratum(e) == address), key=lambda e: (e.date, e.id))
        if previous is None:
            return errata[-1].date if errata else None
        return next((e.date for e in errata if isinstance(e.old, str) and e.old.strip("\n") == previous), None)


def languages(game: Game) -> list[str]:
    """The languages a game has catalogs for (by file name; the check refuses a name of no language)."""
    return [catalogs.language_of(path) for path in catalogs.catalog_files(game.folder)
            if catalogs.language_problem(catalogs.language_of(path)) is None]


def translation(game: Game, language: str, texts: dict[str, English] | None = None) -> Translation:
    """A game in one language, from its catalog (none yet: every text missing); raises
    catalog.CatalogProblem for a catalog that cannot be read."""
    path = catalogs.path_of(game.folder, language)
    return Translation(game, language, catalogs.read(path) if path.exists() else None, texts)


def translations(game: Game) -> dict[str, Translation]:
    """Every language of a game, by code; raises catalog.CatalogProblem as `translation`."""
    texts = english(game)
    return {language: translation(game, language, texts) for language in languages(game)}


# ---------------------------------------------------------------- what a change did to the translations

@dataclass
class Affected:
    """What recording a change did to one language's translation."""

    language: str
    path: Path
    outdated: list[str] = field(default_factory=list)  # addresses translated before, outdated now
    untranslated: list[str] = field(default_factory=list)  # new texts, not yet translated


def made_outdated(before: Game, after: Game) -> list[Affected]:
    """For every language of the game: the translations a change of the English made outdated,
    and the new texts it added untranslated. A catalog that cannot be read is left out (the
    check reports it)."""
    found = []
    old_texts, new_texts = english(before), english(after)
    for language in languages(after):
        try:
            was, now = translation(before, language, old_texts), translation(after, language, new_texts)
        except catalogs.CatalogProblem:
            continue
        affected = Affected(language, now.path)
        for address in new_texts:
            state = now.text(address).state
            if address not in old_texts:
                if state == MISSING:
                    affected.untranslated.append(address)
            elif state == OUTDATED and was.text(address).state == TRANSLATED:
                affected.outdated.append(address)
        if affected.outdated or affected.untranslated:
            found.append(affected)
    return found


@dataclass(frozen=True)
class Change:
    """One change of one translated text between two versions of the content."""

    language: str
    address: str
    what: str  # added | changed | made outdated | brought up to date | removed
    old: str | None  # the translation before (None: there was none)
    new: str | None  # the translation now


CHANGE_KINDS = ("added", "changed", "made outdated", "brought up to date", "removed")


def states(game: Game) -> dict[str, dict[str, tuple[str, str]]]:
    """language → address → (state, translation) of every translated or outdated text: what
    `compare` compares. A catalog that cannot be read counts as empty."""
    found: dict[str, dict[str, tuple[str, str]]] = {}
    texts = english(game)
    for language in languages(game):
        try:
            shown = translation(game, language, texts)
        except catalogs.CatalogProblem:
            found[language] = {}
            continue
        found[language] = {t.address: (t.state, t.text) for t in shown.texts() if t.state != MISSING}
    return found


def compare(old: dict[str, dict[str, tuple[str, str]]], new: dict[str, dict[str, tuple[str, str]]]) -> list[Change]:
    """What changed in the translations from one version of a game to another (`states` of each)."""
    changes = []
    for language in list(new) + [lang for lang in old if lang not in new]:
        before, after = old.get(language, {}), new.get(language, {})
        for address in list(after) + [a for a in before if a not in after]:
            was, now = before.get(address), after.get(address)
            what = _what(was, now)
            if what:
                changes.append(Change(language, address, what, was[1] if was else None, now[1] if now else None))
    return changes


def _what(was: tuple[str, str] | None, now: tuple[str, str] | None) -> str | None:
    if was is None:
        return "added" if now is not None else None
    if now is None:
        return "removed"
    if was[0] == TRANSLATED and now[0] == OUTDATED:
        return "made outdated"
    if was[0] == OUTDATED and now[0] == TRANSLATED:
        return "brought up to date"
    return "changed" if was[1] != now[1] else None

"""What a translation says, text by text, and how fresh it is: the one place every output asks.

For a game and a language (`Translation`), each text's address gives a `Text`:

- translated: the catalog translates the current English (not fuzzy); `current_since` is when it
  was last brought up to date, when known (the `current since` date `translate update` writes,
  else the day the catalog was last saved, its PO-Revision-Date);
- outdated: the entry is fuzzy, or its English is no longer the current English; the translation is
  still shown, with the English it was made from (`previous_english`, when the catalog keeps it)
  and the day the English changed (`english_changed`, when an erratum records it);
- missing: no translation (or only a translation `translate update` proposed from the same English
  elsewhere, not yet accepted); the text is the English, never passed off as translated.

Each translated text says whether a reviewer checked it as it is now (`reviewed`, from the entry's
recorded review); a catalog is `reviewed` only when every text of the game is translated from the
current English and reviewed. `review` is the last review recorded in its header (None when none).
`counts` and `words` say how far it has come, by entries and by the English's words. `made_outdated` says what recording a change made outdated (errata, rulings), and
`compare` what changed in the catalogs between two versions of the content (the diff).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesmith.content.link import REFERENCE
from rulesmith.translations import catalog as catalogs
from rulesmith.translations.english import English, address_of_erratum, english

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

    import polib

    from rulesmith.content.game import Game

TRANSLATED, OUTDATED, MISSING = "translated", "outdated", "missing"
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")  # a word of a text (Markdown marks and references' brackets are not)
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
    reviewed: bool = False  # translated, and a reviewer checked this translation of this English
    forms: tuple[str, ...] = ()  # a text that says a count, translated in plural forms: each form
    plural: str | None = None  # with forms: the catalog's rule choosing a form for a count (Plural-Forms)

    def for_count(self, count: int) -> str:
        """The text for a count it says ({value}): the plural form the language's rule chooses, else `text`."""
        if not self.forms or self.plural is None:
            return self.text
        form = catalogs.form_for(self.plural, count)
        return self.forms[form] if 0 <= form < len(self.forms) else self.text


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
        try:
            rule = catalogs.plural_rule(catalog) if catalog is not None else None
        except ValueError:
            rule = None  # the check reports it; plural entries are then shown by their last form
        self.plural = rule[1] if rule else None
        self._texts: dict[str, Text] = {}

    @property
    def reviewed(self) -> bool:
        """Whether the whole translation is reviewed: every text translated from the current English,
        and each translation reviewed as it is (a review of part of it is not a review of it)."""
        shown = self.texts()
        return bool(shown) and all(t.state == TRANSLATED and t.reviewed for t in shown)

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

    def words(self) -> Counts:
        """The English's words in texts translated, outdated and missing (as translators' tools count)."""
        found = dict.fromkeys(STATES, 0)
        for shown in self.texts():
            found[shown.state] += len(WORD.findall(REFERENCE.sub(lambda m: m.group(2) or " ", shown.english)))
        return Counts(found[TRANSLATED], found[OUTDATED], found[MISSING])

    def reviewed_count(self) -> int:
        """How many texts are translated and reviewed as they are."""
        return sum(t.state == TRANSLATED and t.reviewed for t in self.texts())

    def brought_up_to_date(self, key: str) -> datetime.date | None:
        """When the item's translation was last brought up to date: the latest day one of its texts
        became current (None when none is translated, or no day is known)."""
        days = [t.current_since for t in self.of_item(key) if t.state == TRANSLATED and t.current_since]
        return max(days, default=None)

    def _text(self, source: English) -> Text:
        entry = self.entries.get(source.address)
        if entry is None or not catalogs.is_translated(entry) or catalogs.is_suggestion(entry):
            return Text(source.address, MISSING, source.text, source.text, source.markdown)  # a proposal is not one
        every = tuple(catalogs.forms_of(entry))
        said = every[-1] if every else entry.msgstr  # a plural entry without a count: its most general form
        forms = every if self.plural else ()
        if entry.fuzzy or entry.msgid != source.text:
            previous = (entry.previous_msgid if entry.fuzzy else entry.msgid) or None
            return Text(source.address, OUTDATED, said, source.text, source.markdown, previous,
                        self._english_changed(source.address, previous), forms=forms,
                        plural=self.plural if forms else None)
        return Text(source.address, TRANSLATED, said, source.text, source.markdown,
                    current_since=catalogs.stamp_of(entry) or self.saved,
                    reviewed=catalogs.entry_review(entry) is not None, forms=forms,
                    plural=self.plural if forms else None)

    def _english_changed(self, address: str, previous: str | None) -> datetime.date | None:
        """The day of the erratum that changed the English away from what was translated: the
        first whose old text is that English (without one known, the latest of the text's errata)."""
        errata = sorted((e for e in self.game.errata if address_of_erratum(e) == address), key=lambda e: (e.date, e.id))
        if previous is None:
            return errata[-1].date if errata else None
        return next((e.date for e in errata if isinstance(e.old, str) and e.old.strip("\n") == previous), None)


def languages(game: Game) -> list[str]:
    """The languages a game has catalogs for (by file name; the check refuses a name of no language)."""
    found = [catalogs.language_of(path) for path in catalogs.catalog_files(game.folder)]
    return list(dict.fromkeys(language for language in found if catalogs.language_problem(language) is None))


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

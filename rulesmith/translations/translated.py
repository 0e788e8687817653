"""A game in another language: the loaded game with each text of its catalog put at the text's
address (english.places), every text knowing how it stands (freshness.Text).

Each text of the translated game is a `Said`: a `str` (what the outputs show: the translation, or
the English where it is missing) that carries its `freshness.Text`, so the one place that shows a
text (the site's `PageContext.html`, an aid's context) can ask `of(text)` how it stands and show
its mark (`mark`): outdated (the translation, with the current English beside it and the day the
English changed), missing (the English, marked "not yet translated"), or translated. Whether the
translation is reviewed is the catalog's (`Translation.reviewed`), said once per page.

The English game is never changed: the translated game is a copy, linked again (its names are the
translated names), and not checked again (the check judged the English and each catalog's entries).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesmith.translations.english import places
from rulesmith.translations.freshness import MISSING, OUTDATED, TRANSLATED, Text, Translation
from rulesmith.values.fieldtypes import Value

if TYPE_CHECKING:
    import datetime

    from rulesmith.content.game import Game


class Said(str):
    """A text as a language shows it, knowing how it stands."""

    translation: Text

    def __new__(cls, shown: Text) -> Said:
        said = super().__new__(cls, shown.text)
        said.translation = shown
        return said

    def __deepcopy__(self, memo: dict) -> Said:
        return self


def of(text: Any) -> Text | None:
    """How a text of a translated game stands (None: an English game's text)."""
    return getattr(text, "translation", None) if isinstance(text, Said) else None


@dataclass(frozen=True)
class Mark:
    """What a reader is shown beside a text that is not plainly translated."""

    state: str  # outdated | missing
    english: str | None  # outdated: the current English, shown beside the translation
    changed: datetime.date | None  # outdated: the day the English changed, when known


def mark(text: Any) -> Mark | None:
    """The mark a text carries in its language: None for an English text or a translated one."""
    shown = of(text)
    if shown is None or shown.state == TRANSLATED:
        return None
    if shown.state == OUTDATED:
        return Mark(OUTDATED, shown.english, shown.english_changed)
    return Mark(MISSING, None, None)


def missing(text: Any) -> bool:
    """Whether a text is shown in English because its translation is missing (said to be English
    wherever it is shown: `lang="en"`)."""
    found = mark(text)
    return found is not None and found.state == MISSING


def untranslated(game: Game, language: str) -> bool:
    """Whether a game is shown in a site in `language` without a catalog in it: every text of it
    in the game's own language (said once per page; the texts carry no mark each)."""
    return language != game.info.language and of(game.info.name) is None


def in_source(text: Any, game: Game, language: str) -> bool:
    """Whether a text of `game`, shown in a site in `language`, is shown in the game's own
    language (its translation missing, or the game not translated into `language`): the element
    that holds it says so (`lang`: read aloud, hyphenated and searched in that language)."""
    return untranslated(game, language) or missing(text)


def translated(game: Game, translation: Translation) -> Game:
    """A copy of the game with every text in the translation's language (see the module)."""
    copied = copy.deepcopy(game)
    for address, (_english, holder, path) in places(copied).items():
        _put(holder, path, Said(translation.text(address)))
    return copied


def _put(holder: Any, path: tuple, value: str) -> None:
    """Write a text at its place: an attribute, a list's element or a mapping's entry; a value
    with a status ({value, status, note}) keeps its status and note."""
    *head, last = path
    for at, step in enumerate(head):
        holder = _step(holder, step)
        following = path[at + 1]
        if isinstance(holder, dict) and following != "note" and Value.of(holder).wrapped:
            holder = holder.get("value")  # the value inside a {value, status, note}
    if isinstance(holder, (list, dict)):
        current = holder[last]
        if last != "note" and isinstance(current, dict) and Value.of(current).wrapped:
            current["value"] = value
        else:
            holder[last] = value
    else:
        setattr(holder, last, value)


def _step(holder: Any, step: Any) -> Any:
    return holder[step] if isinstance(holder, (list, dict)) else getattr(holder, step)


__all__ = ["MISSING", "OUTDATED", "TRANSLATED", "Mark", "Said", "in_source", "mark", "of", "translated", "untranslated"]

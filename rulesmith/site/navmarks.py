"""The navigation of a site in another language says which of its titles are English.

The site engine writes the navigation from the titles it is given (pages.render_game's nav): on
a site in another language, the title of a page whose text is not yet translated (a rules
section, a kind of cards, a procedure, the game's own name) is the English. The page says so of
its texts (`lang="en"` and the mark "not yet translated", pages.PageContext.translation_mark);
this says it of the navigation's links and labels to such a page (`lang="en"`: read aloud,
hyphenated and searched as English), once the engine has written the pages. Which titles are
English is the translated game's to say (translations/translated.mark).
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
from typing import TYPE_CHECKING

from rulesmith.files import write_if_changed
from rulesmith.site import layout
from rulesmith.translations import translated

if TYPE_CHECKING:
    from pathlib import Path

    from rulesmith.content.game import Game

log = logging.getLogger(__name__)

# A link or label of the navigation, up to its title: (the tag so far, its href or its label's
# `for`, the rest up to the title, the title)
_ITEM = re.compile(r'(<(?:a href="([^"]*)"|label) class="md-nav__link[^"]*"(?: for="([^"]+)")?[^>]*)'
                   r'(>\s*<span class="md-ellipsis">\s*)([^<]*?)(?=\s*</span>)')


def english_titles(game: Game, language: str) -> tuple[set[str], set[str]]:
    """(the pages, as built .html paths, whose navigation title is English; the group labels
    that are: the game's name) of a game shown in a site in `language`: the titles not yet
    translated, or every title of a game with no catalog in that language (shown in English)."""
    def english(title: str) -> bool:
        return translated.in_source(title, game, language)

    pages: set[str] = set()
    titled = [(f"rule:{s.id}", s.title) for s in game.sections] + [(f"kind:{k.id}", k.plural) for k in game.kinds]
    titled += [(f"procedure:{p.id}", p.title) for p in game.procedures]
    for key, title in titled:
        if english(title):
            pages.add(layout.page_of(game, key)[0].removesuffix(".md") + ".html")
    labels = {game.info.name} if english(game.info.name) else set()
    return pages, labels


def mark_english_titles(site: Path, games: list[Game], language: str) -> None:
    """Every page of a built site in `language` with `lang="en"` on the navigation's links and
    labels whose title is English (english_titles)."""
    pages: set[str] = set()
    labels: set[str] = set()
    for game in games:
        found, named = english_titles(game, language)
        pages |= found
        labels |= {html.escape(name, quote=False) for name in named}
    if not pages and not labels:
        return
    written = 0
    for path in site.rglob("*.html"):
        here = path.relative_to(site).as_posix()
        folder = posixpath.dirname(here)

        def item(m: re.Match, here: str = here, folder: str = folder) -> str:
            href, label = m.group(2), m.group(3)
            if href is not None:  # a link to a page (a link to a heading of this page, "#…", is the page's own contents)
                path = href.partition("#")[0]
                target = posixpath.normpath(posixpath.join(folder, html.unescape(path))) if path else None
            else:  # a label: the current page's (for="__toc"), or a group's
                target = here if label == "__toc" else None
            english = target in pages or m.group(5).strip() in labels
            if not english or 'lang="' in m.group(1):
                return m.group(0)
            return m.group(1) + ' lang="en"' + m.group(4) + m.group(5)

        page = path.read_text(encoding="utf-8")
        written += write_if_changed(path, _ITEM.sub(item, page).encode("utf-8"))
    log.debug("navigation: English titles said to be English in %d page(s)", written)

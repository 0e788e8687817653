"""Where every target lives on the site: the one place that knows the page layout."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from rulesmith.content import items
from rulesmith.project import CHANGELOG, DOWNLOADS, FORMAT, HOME

if TYPE_CHECKING:
    from rulesmith.content.game import Game

# The site's own pages, beside the games' folders (project.SITE_NAMES).
HOME_PAGE, DOWNLOADS_PAGE, CHANGELOG_PAGE, FORMAT_PAGE = (f"{name}.md" for name in (HOME, DOWNLOADS, CHANGELOG, FORMAT))


def N_(text: str) -> str:
    """A word readers see, marked for the tool's catalog (rulesmith/words.py) and translated where it is shown."""
    return text


# Who an erratum or a ruling comes from, as readers call it (translated where shown: `_(…)`).
SOURCE_LABELS = {
    "publisher-faq": N_("Publisher FAQ"),
    "reader-report": N_("Reader report"),
    "transcription-fix": N_("Transcription fix"),
    "designer-answer": N_("Designer's answer"),
    "tournament-ruling": N_("Tournament ruling"),
    "forum-answer": N_("Answer on the forum"),
    "rules-team": N_("Rules team"),
}


def page_of(game: Game, key: str) -> tuple[str, str]:
    """(page path relative to the docs folder, anchor) of a target key such as alliance:interpol:
    the item registry's place of its type (content/items.py)."""
    prefix, _, ident = key.partition(":")
    return items.key_type(prefix).place(game, prefix, ident)


def shared_page(game_id: str, prefix: str) -> str:
    """The one page every target of a type is on: "table" is the tables page, "erratum" the changelog."""
    return items.BY_PREFIX[prefix].shared_page(game_id)


def kind_page(game_id: str, kind_id: str) -> str:
    return items.KIND.page_of_item(game_id, kind_id)


def procedure_page(game_id: str, procedure_id: str) -> str:
    return items.PROCEDURE.page_of_item(game_id, procedure_id)


def flowchart_file(game_id: str, procedure_id: str) -> str:
    return f"{game_id}/flowcharts/{procedure_id}.svg"


def bot_key(what: str, ident: str = "") -> str:
    """The key of a part of the bot's declaration (bot:turn, bot:part-2, bot:state-difficulty,
    bot:deck-automa-cards); page_of gives its place on the Bot turn page (#mark-part-2)."""
    return f"bot:{what}-{ident}" if ident else f"bot:{what}"


def gap_row_anchor(key: str) -> str:
    """The anchor of a marked place's row on the Gaps in the source page (kind:id → listed-kind-id)."""
    return "listed-" + key.replace(":", "-")


def link(from_page: str, to_page: str, anchor: str = "") -> str:
    """Relative Markdown link from one page to another (MkDocs resolves and checks it)."""
    rel = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"{rel}#{anchor}" if anchor else rel


def built_link(from_page: str, to_page: str, anchor: str = "") -> str:
    """Relative address from one page to another as the built site has them (pages are files:
    `x.md` is `x.html`): for links inside HTML, which the engine neither rewrites nor checks (the
    site's final gate checks them, site/gate.py)."""
    return link(from_page.removesuffix(".md") + ".html", to_page.removesuffix(".md") + ".html", anchor)

"""Where every target lives on the site: the one place that knows the page layout."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from rulesmith.project import CHANGELOG, DOWNLOADS, FORMAT, HOME

if TYPE_CHECKING:
    from rulesmith.content.game import Game

# The site's own pages, beside the games' folders (project.SITE_NAMES).
HOME_PAGE, DOWNLOADS_PAGE, CHANGELOG_PAGE, FORMAT_PAGE = (f"{name}.md" for name in (HOME, DOWNLOADS, CHANGELOG, FORMAT))


# Who an erratum or a ruling comes from, as readers call it.
SOURCE_LABELS = {
    "publisher-faq": "Publisher FAQ",
    "reader-report": "Reader report",
    "transcription-fix": "Transcription fix",
    "designer-answer": "Designer's answer",
    "tournament-ruling": "Tournament ruling",
    "forum-answer": "Answer on the forum",
    "rules-team": "Rules team",
}


def kind_page(game_id: str, kind_id: str) -> str:
    return f"{game_id}/kinds/{kind_id}.md"


def section_page(game_id: str, section_id: str) -> str:
    return f"{game_id}/rules/{section_id}.md"


def procedure_page(game_id: str, procedure_id: str) -> str:
    return f"{game_id}/solo/{procedure_id}.md"


def flowchart_file(game_id: str, procedure_id: str) -> str:
    return f"{game_id}/flowcharts/{procedure_id}.svg"


def page_of(game: Game, key: str) -> tuple[str, str]:
    """(page path relative to the docs folder, anchor) of a target key such as alliance:interpol."""
    g = game.id
    kind, _, ident = key.partition(":")
    if kind == "rule":
        page = game.section_pages[ident]
        return (section_page(g, page), "" if page == ident else ident)
    if kind == "table":
        return (f"{g}/tables.md", ident)
    if kind == "procedure":
        return (procedure_page(g, ident), "")
    if kind == "example":
        return (f"{g}/examples.md", ident)
    if kind == "term":
        return (f"{g}/glossary.md", ident)
    if kind == "gap":
        return (f"{g}/gaps.md", ident)
    if kind == "bot":  # a part of the bot's declaration (bot_key): its place on the Bot turn page
        return (f"{g}/bot-turn.md", "mark-" + ident)
    if kind == "module":
        return (f"{g}/index.md", f"module-{ident}")
    if kind == "erratum":
        return (f"{g}/changelog.md", f"erratum-{ident}")
    if kind == "ruling":
        return (f"{g}/changelog.md", f"ruling-{ident}")
    if kind == "kind":
        return (kind_page(g, ident), "")
    if kind == "game":
        return (f"{g}/index.md", "")
    return (kind_page(g, kind), ident)




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

"""Content text to output text: references become links, icons become inline SVG, markup is escaped.

Content is Markdown written by contributors; the site and the PDFs must never receive live
markup from it. So `<` and `{` (raw HTML, attribute lists) are escaped before anything else,
and only this module adds HTML: the icon spans and status markers it builds itself.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from markupsafe import Markup

from .. import values
from ..markdown_config import literal_brackets
from ..glyphs import glyph_svg
from ..link import REFERENCE, Index



def icon_html(index: Index, name: str) -> str:
    icon = index.icons[name]
    label = html.escape(icon["label"])
    glyphs = "".join(glyph_svg(g) for g in icon["glyphs"])
    return f'<span class="rs-icon" role="img" aria-label="{label}" title="{label}">{glyphs}</span>'


def escape_markup(text: str) -> str:
    """Neutralise raw HTML and attribute lists in content text; Markdown stays Markdown."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("{", "&#123;")


# Every character that Markdown (with the extensions of markdown_config) or HTML could read as
# syntax, as a character reference: a reference is never syntax in either, so one escape serves
# Markdown text, table cells, headings and double-quoted HTML attribute values alike.
_SYNTAX = {c: f"&#{ord(c)};" for c in "\\`*_[]#|!{}<>\""}
_SYNTAX["&"] = "&amp;"
_SYNTAX_CHARS = re.compile("[" + re.escape("".join(_SYNTAX)) + "]")


def escape_inline(text) -> str:
    """Any value (a name, a number, a URL, an id) as text inside generated Markdown or HTML: no
    markup at all, on one line. The site's templates apply it to every value they print that is
    not Markup (checked Markdown, or markup this package built and marked so)."""
    if hasattr(text, "__html__"):
        return text.__html__()
    text = " ".join(str(text).splitlines())
    return _SYNTAX_CHARS.sub(lambda m: _SYNTAX[m.group(0)], text)


def markdown_value(value) -> Markup:
    """The site templates' default for `{{ value }}` (their `finalize`): Markup passes as it is,
    anything else is escaped. Python builds text as str and marks it Markup only where it hands
    it to a template, so no str concatenation ever escapes markup twice."""
    return Markup(escape_inline(value))


def render_text(text: str, index: Index, href: Callable[[str], str | None],
                icon: Callable[[str], str] | None = None) -> str:
    """Markdown with references as [label](href) links and icons as inline HTML; brackets that
    never close are text (markdown_config.literal_brackets), as the check reads them."""
    icon = icon or (lambda name: icon_html(index, name))
    text = literal_brackets(text)

    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return icon(ident)
        if kind == "value":
            return escape_inline(values.shown(values.lookup(index, ident)))
        shown = escape_inline(label if label else index.name(target))
        url = href(target)
        link = f"[{shown}]({escape_url(url)})" if url else shown
        if kind == "gap":  # the reader meets a gap here: the same marker glyph as a status marker
            return f'<span class="rs-gap-ref" role="img" aria-label="Gap in the source">{glyph_svg("material/alert")}</span>{link}'
        return link

    parts, last = [], 0
    for match in REFERENCE.finditer(text):
        parts.append(escape_markup(text[last:match.start()]))
        parts.append(replace(match))
        last = match.end()
    parts.append(escape_markup(text[last:]))
    return "".join(parts)


def plain_text(text: str, index: Index) -> str:
    """Text without markup: references become their labels, icons their labels (flowcharts)."""
    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return f"[{index.icons[ident]['label']}]"
        if kind == "value":
            return values.shown(values.lookup(index, ident))
        return label or index.name(target)

    text = REFERENCE.sub(replace, text)
    return re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text)


def table_cell(markdown: str) -> str:
    """Markdown safe inside one pipe-table cell."""
    # A '|' already escaped stays as it is; any other one is escaped here.
    markdown = re.sub(r"(?<!\\)\|", r"\\|", str(markdown).strip())
    return markdown.replace("\n\n", "<br><br>").replace("\n", " ")


_URL_SAFE = re.compile(r"[^A-Za-z0-9\-._~:/?#@!$&*+,;=%]")


def escape_url(url: str) -> str:
    """A link target inside Markdown's (…) or an HTML attribute: every character that could end
    the target or the attribute is percent-encoded (our own relative links and https URLs that
    passed model.https_url_problem only ever need the rest)."""
    return _URL_SAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode()), str(url))

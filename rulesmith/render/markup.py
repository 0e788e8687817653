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

from .. import outcomes, values
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


def fold_echoes(text: str, index: Index) -> str:
    """A reference that says again what the words beside it say, said once: "a conflict
    ([[rule:conflict]])" reads "a conflict" (linked), "the [[module:weather]] cards" (the module
    being "Weather cards") reads "the Weather cards", "see [[gap:x]]." after a gap titled
    "Which Supplies?" reads "see Which Supplies?". A labelled reference stays as written."""
    def name(target: str) -> str | None:
        kind = target.partition(":")[0]
        return None if kind in ("icon", "value") or target not in index.targets else index.name(target)

    def before(match: re.Match) -> str:
        words, emphasis, target = match.group(1), match.group(2) or "", match.group(3)
        shown = name(target)
        said = shown and re.search(r"(?i)(?<![\w-])" + r"\s+".join(map(re.escape, shown.split())) + "$", words)
        if not said:
            return match.group(0)
        return f"{words[:said.start()]}[[{target}|{words[said.start():]}]]{emphasis}"

    def after(match: re.Match) -> str:
        target, word = match.group(1), match.group(2)
        shown = name(target)
        if shown is None or not re.search(rf"(?i)(?<![\w-]){re.escape(word)}$", shown):
            return match.group(0)
        return f"[[{target}]]"

    def stop(match: re.Match) -> str:
        shown = match.group(2) or name(match.group(1)) or ""
        return match.group(0)[:-1] if shown[-1:] in ("?", "!", ".") else match.group(0)

    if "[[" not in text:
        return text
    text = _sub_before(text, before)
    text = re.sub(r"\[\[([^\[\]|]+)\]\][ \t]+(\w+)(?![\w-])", after, text)
    # a name that ends a sentence itself ("which Supplies?") takes no full stop after it
    return re.sub(r"\[\[([^\[\]|]+)(?:\|([^\[\]]*))?\]\]\.(?!\w)", stop, text)


# Words, then maybe emphasis and spaces, then a bare reference in brackets: "a conflict ([[rule:conflict]])".
_BEFORE = re.compile(r"([^()\[\]*_]{1,120}?)(\*{1,2}|_{1,2})?[ \t]*\(\[\[([^\[\]|]+)\]\]\)")
_BRACKETED = re.compile(r"\(\[\[([^\[\]|]+)\]\]\)")


def _sub_before(text: str, replace: Callable[[re.Match], str]) -> str:
    """`_BEFORE.sub(replace, text)`, searched only just before each bracketed reference: the
    same matches (the words cannot span a bracket, so a match ends at the first reference after
    the previous one, and starts at most 120 characters, emphasis and spaces before it), without
    trying the lazy 120-character run at every position of every text (most of the site's
    rendering time before)."""
    out, last = [], 0
    for ref in _BRACKETED.finditer(text):
        start = ref.start()
        while start > last and text[start - 1] in " \t":
            start -= 1
        found = _BEFORE.search(text, max(last, start - 122), ref.end())
        if found is None:
            continue
        out += [text[last:found.start()], replace(found)]
        last = found.end()
    return "".join(out) + text[last:] if out else text


def render_text(text: str, index: Index, href: Callable[[str], str | None],
                icon: Callable[[str], str] | None = None,
                marker: Callable[[str, str], str] | None = None) -> str:
    """Markdown with references as [label](href) links and icons as inline HTML; brackets that
    never close are text (markdown_config.literal_brackets), as the check reads them. A value
    reference to a field or cell the data marks (missing, unverified …) is followed by
    `marker(status, note)`, so the doubt is shown wherever the value is printed."""
    icon = icon or (lambda name: icon_html(index, name))
    text = literal_brackets(fold_echoes(text, index))

    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return icon(ident)
        if kind == "value":
            shown_value = escape_inline(values.shown(values.lookup(index, ident))) + _printed(index, ident, href)
            status, note = values.status(index, ident)
            return shown_value + (" " + marker(status, note) if marker and status != "verified" else "")
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


def _printed(index: Index, ref: str, href: Callable[[str], str | None] | None) -> str:
    """After a value errata changed: what the rulebook prints and which erratum changed it, so
    readers see both numbers ("2 (the rulebook prints 3; erratum e1)"). Plain text without href."""
    found = outcomes.printed_value(index, ref)
    if found is None:
        return ""
    printed, chain = found
    names = []
    for erratum in chain:
        label = escape_inline(f"erratum {erratum.id}") if href else f"erratum {erratum.id}"
        url = href(f"erratum:{erratum.id}") if href else None
        names.append(f"[{label}]({escape_url(url)})" if url else label)
    shown = values.shown(printed) if printed is not None else "—"
    return f" (the rulebook prints {escape_inline(shown) if href else shown}; {', '.join(names)})"


def plain_text(text: str, index: Index) -> str:
    """Text without markup: references become their labels, icons their labels (flowcharts)."""
    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return f"[{index.icons[ident]['label']}]"
        if kind == "value":
            return values.shown(values.lookup(index, ident)) + _printed(index, ident, None)
        if kind == "gap":  # the same mark as the site's gap marker: the reader meets a gap here
            return "▲\u00a0" + (label or index.name(target))
        return label or index.name(target)

    text = REFERENCE.sub(replace, fold_echoes(text, index))
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

"""Escaping, one rule per output context: a value written into generated Markdown, HTML, an
HTML attribute or a link target. (JavaScript and JSON are written with `json.dumps`.)

Each function takes any value and returns text that reads as that value and nothing else in its
context; a `Markup` value (HTML this package built or sanitized) passes as it is.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

# Every character that Markdown (with the extensions of markdown_config) or HTML could read as
# syntax, as a character reference: a reference is never syntax in either, so one escape serves
# Markdown text, table cells, headings and double-quoted HTML attribute values alike. The two
# private-use characters delimit the site's placed HTML (text/placed.py): content never writes them.
_SYNTAX = {c: f"&#{ord(c)};" for c in "\\`*_[]#|!{}<>\"\ue000\ue001"}
_SYNTAX["&"] = "&amp;"
_SYNTAX_CHARS = re.compile("[" + re.escape("".join(_SYNTAX)) + "]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def markdown_inline(text) -> str:
    """Any value (a name, a number, a URL, an id) as text inside generated Markdown or HTML: no
    markup at all, on one line. The site's templates apply it to every value they print that is
    not Markup."""
    if hasattr(text, "__html__"):
        return text.__html__()
    text = " ".join(str(text).splitlines())
    return _SYNTAX_CHARS.sub(lambda m: _SYNTAX[m.group(0)], text)


def markdown_value(value) -> Markup:
    """The site templates' default for `{{ value }}` (their `finalize`): Markup passes as it is,
    anything else is escaped. Python builds text as str and marks it Markup only where it hands
    it to a template, so no str concatenation ever escapes markup twice."""
    return Markup(markdown_inline(value))


def html_text(text) -> str:
    """Any value as HTML text or a double-quoted attribute value (the aids, our own HTML)."""
    if hasattr(text, "__html__"):
        return text.__html__()
    return html.escape(_CONTROL.sub("", str(text)), quote=True)


# `&`, `<` and `{` of content stand, while Markdown reads it, for private-use characters that
# neither Markdown nor HTML reads as anything (content never has them: text/html.py turns any it
# holds into U+FFFD first); the converted HTML then gets them back as character references. Read
# this way, they are text wherever they stand: in prose (no raw HTML, no attribute list, no
# entity) and in code (`a & b` is `a & b`, not `a &amp; b`: a reference written into the source
# would have been escaped again inside code).
_AS_TEXT = {"&": "\ue002", "<": "\ue003", "{": "\ue004"}
_BACK = {"\ue002": "&amp;", "\ue003": "&lt;", "\ue004": "&#123;"}
_STANDS_IN = re.compile("[\ue002-\ue004]")


def content_source(text: str) -> str:
    """Content Markdown before conversion: raw HTML, entities and attribute lists become text
    (`&`, `<` and `{` stand-ins, given back by `converted_text`); Markdown stays Markdown."""
    return text.replace("&", _AS_TEXT["&"]).replace("<", _AS_TEXT["<"]).replace("{", _AS_TEXT["{"])


def converted_text(html_of_source: str) -> str:
    """The HTML Markdown made of a `content_source`: each stand-in as the character reference of
    the character it stands for (text, in prose and in code alike)."""
    return _STANDS_IN.sub(lambda m: _BACK[m.group(0)], html_of_source)


_URL_SAFE = re.compile(r"[^A-Za-z0-9\-._~:/?#@!$&*+,;=%]")


def url(value) -> str:
    """A link target inside Markdown's (…) or an HTML attribute: every character that could end
    the target or the attribute is percent-encoded (our own relative links and https URLs that
    passed model.https_url_problem only ever need the rest)."""
    return _URL_SAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode()), str(value))

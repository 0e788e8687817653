"""HTML placed in the site's Markdown pages as it is.

The site's pages are Markdown that the engine (MkDocs or Zensical) converts. A content text is
never pasted into them as Markdown: it is converted to HTML once (text/html.py), and the page
carries that HTML in a token, `placed(html)`. This Python-Markdown extension, part of the site's
Markdown configuration, hands each token's HTML to Markdown's own store of raw HTML before any
Markdown is read, so the page shows exactly that HTML wherever the template put it: a table cell,
an admonition, after a label, a trimmed or joined line. (Markdown's own rule then sets a
block of HTML alone on its line without a paragraph around it.)

The token is the HTML in base64 between two private-use characters: nothing in it is Markdown
syntax, and no content can write one (escape.markdown_inline escapes those two characters).
"""

from __future__ import annotations

import base64
import binascii
import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markupsafe import Markup

OPEN, CLOSE = "\ue000", "\ue001"
TOKEN = re.compile(OPEN + "([A-Za-z0-9_=-]*)" + CLOSE)


def placed(html: str) -> Markup:
    """A token that the site's pages show as this HTML, exactly."""
    if not html:
        return Markup("")
    return Markup(OPEN + base64.urlsafe_b64encode(str(html).encode("utf-8")).decode("ascii") + CLOSE)


def unplaced(text: str) -> str:
    """Text with every token replaced by its HTML (for tests and tools that read a page's source)."""
    return TOKEN.sub(lambda m: _decode(m.group(1)), text)


def _decode(token: str) -> str:
    try:
        return base64.urlsafe_b64decode(token.encode("ascii")).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ""  # not one of ours: shown as nothing


class _Place(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if OPEN not in text:
            return lines
        stash = self.md.htmlStash
        return TOKEN.sub(lambda m: stash.store(_decode(m.group(1))), text).split("\n")


class PlacedHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # After normalize_whitespace (30), which removes the stash's own delimiters from the
        # source, and before the raw-HTML block reader (20), so a token inside raw HTML works too.
        md.preprocessors.register(_Place(md), "rulesmith_placed_html", 25)


def makeExtension(**kwargs) -> PlacedHtmlExtension:
    return PlacedHtmlExtension(**kwargs)

"""Markdown (already made safe by render/markup.py) to HTML as printed on an aid.

With the one Markdown configuration (markdown_config), and two differences for paper: a page-number placeholder
after every link to something in the same aid, and list markers printed as written (a rulebook's
"+ 1 Model" is a plus, not a bullet).
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser

from markupsafe import Markup

from ... import markdown_config
from .pagerefs import page_mention

LINK = re.compile(r'<a href="#([^"]+)">.*?</a>')
PLUS_ITEM = re.compile(r"^(\s*)\+ (?=\S)", re.MULTILINE)
PLUS_MARK = '<span class="list-mark">+</span>'
PLUS_LI = re.compile(r"<li>((?:\s*<p>)?" + re.escape(PLUS_MARK) + ")")


def to_html(text: str) -> Markup:
    return Markup(_to_html(text or ""))


@lru_cache(maxsize=16384)  # the same texts come again in the other paper size and other aids
def _to_html(text: str) -> str:
    text = PLUS_ITEM.sub(lambda m: f"{m.group(1)}- {PLUS_MARK} ", text)
    out = markdown_config.to_html(text)
    out = PLUS_LI.sub(r'<li class="as-written">\1', out)
    return LINK.sub(lambda m: m.group(0) + str(page_mention(m.group(1))), out)


def to_inline_html(text: str) -> Markup:
    """Markdown for inside a table cell or a line: the one paragraph without its <p>."""
    out = str(to_html(text)).strip()
    if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return Markup(out)


PARAGRAPH_BREAK = "<br><br>"  # a blank line of a cell's Markdown (markup.table_cell)
VOID = {"br", "img", "wbr", "hr"}


def to_cell_html(text: str, marks: str = "") -> Markup:
    """Markdown for inside a table cell on paper, with the gap markers of the cell after it
    (`marks`, Markdown too): as to_inline_html, and a cell of several paragraphs (a blank line in
    its Markdown, which the site's tables show as an empty line) set as paragraphs a small gap
    apart, so a long cell does not take an empty line per break; the markers end the last one."""
    out = str(to_inline_html(text)) + (" " + str(to_inline_html(marks)) if marks else "")
    parts = out.split(PARAGRAPH_BREAK)
    if len(parts) == 1 or not all(_balanced(part) for part in parts):
        return Markup(out)
    return Markup("".join(f'<p class="cell-para">{part.strip()}</p>' for part in parts))


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.broken = False

    def handle_starttag(self, tag, _attrs):  # attributes do not change the nesting
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.broken = True
        else:
            self.open.pop()


def _balanced(html: str) -> bool:
    """Does this piece of inline HTML close every element it opens (a break between paragraphs
    is at the top level, not inside a link or a bold run)?"""
    tags = _Tags()
    tags.feed(html)
    tags.close()
    return not tags.broken and not tags.open

"""Markdown (already made safe by render/markup.py) to HTML as printed on an aid.

With the one Markdown configuration (markdown_config), and two differences for paper: a page-number placeholder
after every link to something in the same aid, and list markers printed as written (a rulebook's
"+ 1 Model" is a plus, not a bullet).
"""

from __future__ import annotations

import re
from functools import lru_cache

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

"""Page numbers on paper: every reference to something in the same aid shows its page.

WeasyPrint can do that with target-counter(), but then it lays most of the document out again.
Instead the HTML carries a placeholder as wide as a two-digit number; aids/pdf.py lays the aid
out once, reads where every anchor landed and writes the numbers into the laid-out placeholders
(aids/weasy.py), closing up the rest of the line after a one-digit number. Should a number not
fit, the numbers go into the HTML instead (number_pages) and the aid is laid out again.
"""

from __future__ import annotations

import re

from markupsafe import Markup

from rulesmith import words

PAGEREF = re.compile(r'(<span class="pageref" data-for="([^"]+)"[^>]*>)[^<]*(</span>)')
PAGEREF_CLASS = "pageref"
PLACEHOLDER = "00"


def pageref(anchor: str, align: str = "start") -> Markup:
    """A page-number placeholder; align="end" keeps the number at the placeholder's end (a
    column of numbers, as in a contents list), else the text after it closes up."""
    end = ' data-align="end"' if align == "end" else ""
    return Markup(f'<span class="{PAGEREF_CLASS}" data-for="{anchor}"{end}>{PLACEHOLDER}</span>')


# "p." before a page number, as the aid's language abbreviates "page" (German "S.")
PAGE = words.N_("p.")


def page_mention(anchor: str, language: str = words.ENGLISH) -> Markup:
    """What follows a reference to something in the same aid: "p." (in the aid's language) and the page number's
    placeholder, after a no-break space that is inside the span. A plain space between the link
    and the span would be laid out but not drawn (WeasyPrint drops a space that ends a text
    box), so the text layer would read "Antiterrorp.3"; a no-break space is drawn, and keeps
    the page number on the line of the name it belongs to."""
    said = Markup.escape(words.gettext(PAGE, language))
    return Markup(f'<span class="{PAGEREF_CLASS}-at">\u00a0{said}{pageref(anchor)}</span>')


def page_number_text(number: int | None) -> str:
    """What a placeholder becomes: the page number, or '?' for an anchor not in the aid."""
    return "?" if number is None else str(number)


def number_pages(html: str, pages: dict[str, int]) -> str:
    """The HTML with the page numbers written in (the fallback when they do not fit)."""
    return PAGEREF.sub(lambda m: f"{m.group(1)}{page_number_text(pages.get(m.group(2)))}{m.group(3)}", html)

"""Notes at the foot of the page that holds their mark.

An aid prints a note (why a place is marked: a gap in the source, a reconstructed value …) as a
footnote (WeasyPrint's `float: footnote`, print.css.j2): the note is written where its mark is,
and the layout moves it to the foot of the page that holds that mark, leaving a numbered call
beside the mark. So a note never runs onto another page than its mark, whatever the balancing
(aids/balance.py) and the page breaks do.

The templates put an empty placeholder at every place a note may be called from (`at`: an item's
heading or name, a field, a cell, a gap's mark in any text); `placed` puts each note of a block
after the first placeholder of its places (a note said once for several cells stands at the first
of them), else after the item's own, else at the end of the block's first heading; `clear` takes
the placeholders no note used out of the finished HTML.
"""

from __future__ import annotations

import html
import re

_AT = re.compile(r'<span class="rs-note-at" data-note="[^"]*"></span>')
_HEADING_END = re.compile(r"</h[1-6]>")


def at(place: str) -> str:
    """The placeholder a note about `place` ("table:x", "gap:y", "table:x#row.column") is called from."""
    return f'<span class="rs-note-at" data-note="{html.escape(place, quote=True)}"></span>'


def placed(block: str, notes: list[tuple[list[str], str]]) -> str:
    """The block's HTML with each note (its places, its HTML) after the first placeholder of one
    of its places (or of their item), else at the end of the block's first heading, else first."""
    inserts: list[tuple[int, int, str]] = []
    for order, (places, note) in enumerate(notes):
        found = [i for i in (block.find(at(p)) for p in places) if i >= 0]
        if not found:
            found = [i for i in (block.find(at(p.partition("#")[0])) for p in places) if i >= 0]
        if found:
            start = min(found)
            position = block.index("</span>", start) + len("</span>")
        else:
            heading = _HEADING_END.search(block)
            position = heading.start() if heading else 0
        inserts.append((position, order, note))
    for position, _order, note in sorted(inserts, reverse=True):
        block = block[:position] + note + block[position:]
    return block


def clear(document: str) -> str:
    """The finished HTML without the placeholders no note used."""
    return _AT.sub("", document)

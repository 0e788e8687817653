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


_NOTE = '<span class="note">'
NUMBER = "data-note"  # each note's number in the aid, from 1 (the layout checks where each went)


def clear(document: str) -> str:
    """The finished HTML without the placeholders no note used, each note numbered."""
    parts = _AT.sub("", document).split(_NOTE)
    return parts[0] + "".join(f'<span class="note" {NUMBER}="{n}">{part}' for n, part in enumerate(parts[1:], start=1))


def to_next_page(document: str, late: set[int]) -> str:
    """The HTML with each row of balanced columns (aids/balance.py) that holds the mark of a
    note the layout set on a later page than its mark starting a new page, mark and note with it.
    WeasyPrint moves the line of a mark whose note does not fit to the next page, but not inside
    a row kept whole (a table cell), where it sets the note alone on the next page instead."""
    for number in sorted(late, reverse=True):
        at = document.find(f'{NUMBER}="{number}"')
        band = document.rfind('<div class="band ', 0, at)
        if at < 0 or band < 0:
            continue
        # the first row of a section goes with its heading (the two are one `led` block)
        led = document.rfind('<div class="led">', 0, band)
        between = document[led:band] if led >= 0 else ""
        if between and '<div class="band ' not in between and '<div class="balanced">' not in between:
            document = document[:led] + '<div class="page-first led">' + document[led + len('<div class="led">'):]
        else:
            document = document[:band] + '<div class="page-first band ' + document[band + len('<div class="band '):]
    return document

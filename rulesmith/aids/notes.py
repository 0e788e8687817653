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

A note is said in full once on the aid: said again on a later page, it prints its title and the
number and page of the note that says it in full (`said_before`, the note macro's short form);
called again on a page that holds it already, it is only a call of that note (`repeated`: the
layout tells which, aids/pdf.py laid_out). Each note prints the number `shown` gives it.
"""

from __future__ import annotations

import html
import re

from rulesmith import words

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


_ROW = re.compile(r'<div class="(page-first )?(band |table-pair|led)')
_DIV = re.compile(r"<div\b|</div>")


def _encloses(document: str, start: int, at: int) -> bool:
    """Whether the div opened at `start` is still open at `at`."""
    depth, end = 0, start
    while True:
        tag = _DIV.search(document, end)
        if tag is None or tag.start() >= at:
            return depth > 0
        depth += 1 if tag.group(0) == "<div" else -1
        end = tag.end()
        if depth == 0:
            return False


def to_next_page(document: str, late: set[int]) -> str:
    """The HTML with the outermost row kept whole that holds the mark of a note the layout set on
    a later page than its mark (a row of balanced columns, aids/balance.py, with its section's
    heading when it is the first row: a `led` block; a pair of tables side by side) starting a
    new page, mark and note with it. WeasyPrint moves the line of a mark whose note does not fit
    to the next page, but not inside a row kept whole, where it sets the note alone on the next
    page instead. A row that starts a page already stays as it is."""
    for number in sorted(late, reverse=True):
        at = document.find(f'{NUMBER}="{number}"')
        if at < 0:
            continue
        rows = [m for m in _ROW.finditer(document, 0, at) if _encloses(document, m.start(), at)]
        if not rows or rows[0].group(1):
            continue
        row = rows[0]
        document = document[:row.start()] + '<div class="page-first ' + document[row.start() + len('<div class="'):]
    return document


# ---- a note said once per page: a second call of the same note on its page refers to the first

SHOWN = "data-shown"  # the number a note (or a call of a note above it) prints, from 1 in print order
_OPEN = re.compile(rf'<span class="note" {NUMBER}="(\d+)">')
_SPAN = re.compile(r"<span\b|</span>")


def _notes(document: str) -> list[tuple[int, int, int, str]]:
    """Each note of the HTML in order: (its number, where its span starts, where it ends, what it says)."""
    found = []
    for match in _OPEN.finditer(document):
        depth, end = 1, match.end()
        while depth:
            tag = _SPAN.search(document, end)
            if tag is None:
                raise ValueError(f"note {match.group(1)} is not closed")
            depth += 1 if tag.group(0) == "<span" else -1
            end = tag.end()
        found.append((int(match.group(1)), match.start(), end, document[match.end():end - len("</span>")]))
    return found


def numbers(document: str, repeats: dict[int, int]) -> dict[int, int]:
    """The number each note prints: the notes that are not repeats numbered from 1 in order,
    a repeat the number of the note it repeats."""
    shown: dict[int, int] = {}
    for number, _start, _end, _said in _notes(document):
        if number not in repeats:
            shown[number] = len(shown) + 1
    return {**shown, **{number: shown[first] for number, first in repeats.items()}}


def said_before(document: str) -> dict[int, int]:
    """The notes that say what a note before them says: {note: the first note that says it}.
    Each prints in short on a later page (its title, and the number and page of the first)."""
    first: dict[str, int] = {}
    found: dict[int, int] = {}
    for number, _start, _end, said in _notes(document):
        if said in first:
            found[number] = first[said]
        else:
            first[said] = number
    return found


FULL, SHORT, FIRST = "note-full", "note-short", "note-first"  # the note macro's parts (_macros.html.j2)
# What the short form of a note says after its title (the note macro: FIRST is the number, then
# page_mention gives "p." and the page): "(in full: note 2 p.2)".
IN_FULL = words.N_("(in full: note %(number)s)")


def _without(html: str, part: str) -> str:
    """The HTML without the span of class `part` (and what it holds)."""
    opening = html.find(f'<span class="{part}">')
    if opening < 0:
        return html
    depth, end = 1, opening + len(f'<span class="{part}">')
    while depth:
        tag = _SPAN.search(html, end)
        if tag is None:
            return html
        depth += 1 if tag.group(0) == "<span" else -1
        end = tag.end()
    return html[:opening] + html[end:]


def anchor(number: int) -> str:
    """The anchor at the call of a note that a later note refers to (its page is the note's)."""
    return f"rs-note-{number}"


def shown(document: str, repeats: dict[int, int], shorts: dict[int, int] | None = None,
          language: str = words.ENGLISH) -> str:
    """The HTML as it prints: each note with the number it prints (SHOWN, print.css.j2 shows it);
    each repeat (a note {its number: the number of the same note, called earlier on the same
    page}) only a call of that note: the reader finds it at the foot of the page; each of
    `shorts` ({note: the first note that says the same}, said_before) its title and the number
    and page of the first, where it is in full ("p." in the aid's `language`)."""
    from rulesmith.aids.pagerefs import page_mention

    shorts = shorts or {}
    printed = numbers(document, repeats)
    referred = set(shorts.values())
    parts, at = [], 0
    for number, start, end, said in _notes(document):
        parts.append(document[at:start])
        if number in repeats:
            parts.append(f'<span class="note-call" {NUMBER}="{number}" {SHOWN}="{printed[number]}">{printed[number]}</span>')
        else:
            if number in shorts:
                first = shorts[number]
                body = _without(said, FULL).replace(
                    f'<span class="{FIRST}"></span>', f"{printed[first]}{page_mention(anchor(first), language)}")
            else:
                body = _without(said, SHORT)
            if number in referred:
                parts.append(f'<span id="{anchor(number)}"></span>')
            parts.append(f'<span class="note" {NUMBER}="{number}" {SHOWN}="{printed[number]}">{body}</span>')
        at = end
    return "".join(parts) + document[at:]


def repeated(document: str, calls: dict[int, int], pages: dict[int, int], repeats: dict[int, int]) -> dict[int, int]:
    """The notes that say what a note before them says, whose call (`calls`: the page of each
    note's call) is on the page that holds that note (`pages`: the page each printed note is
    set on), beyond the `repeats` already found: {note: the note it repeats}. A note another one
    repeats stays a note."""
    found: dict[int, int] = {}
    first: dict[tuple[str, int], int] = {}
    targets = set(repeats.values())
    for number, _start, _end, said in _notes(document):
        if number in repeats:
            continue
        page = calls.get(number)
        earlier = first.get((said, page)) if page is not None else None
        if earlier is not None and number not in targets:
            found[number] = earlier
        elif number in pages and pages[number] == page:  # a note set on its mark's page
            first.setdefault((said, page), number)
    return found

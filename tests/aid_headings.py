"""Where a player aid's headings fall on its pages, read as a reader sees them: the headings
and the words that only go with a heading (what a section is short for, the gaps that affect
it, its status) are taken from the aid's HTML, the pages from the PDF's text layer
(tests/pdf_text.py). A heading is parted from what it heads when nothing but such words
(and the notes at the page's foot) follows it on its page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pdf_text

from rulesmith.aids import kinds as aidkinds

HEADINGS = {"h2", "h3", "h4"}
BESIDE = {"affected", "status", "condensed-of"}  # what is printed under a heading about it, not its text
FOOTER = re.compile(r"\b\d+/\d+\b")  # the footer's "Page 3/8"


def squash(text: str) -> str:
    """Letters and digits only, lower case: immune to line breaks, hyphenation and spacing."""
    return re.sub(r"[^\w]+|_", "", re.sub(r"-\s*\n\s*", "", text).lower())


class _Texts(HTMLParser):
    """The text of every heading, of every block printed beside a heading, of every note."""

    def __init__(self):
        super().__init__()
        self.headings: list[str] = []
        self.beside: list[str] = []
        self.notes: list[str] = []
        self.open: list[tuple[str, str | None, list[str]]] = []  # (tag, what it is, its text)
        self.hidden = 0  # inside an svg (its title is not printed)

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.hidden += 1
        classes = (dict(attrs).get("class") or "").split()
        what = "heading" if tag in HEADINGS else "beside" if BESIDE & set(classes) else \
            "note" if "note" in classes and tag == "span" else None
        if tag not in ("br", "img", "hr", "meta", "link", "input", "col", "wbr"):
            self.open.append((tag, what, []))

    def handle_endtag(self, tag):
        if tag == "svg":
            self.hidden -= 1
        while self.open:
            open_tag, what, text = self.open.pop()
            if what == "heading":
                self.headings.append("".join(text))
            elif what == "beside":
                self.beside.append("".join(text))
            elif what == "note":
                self.notes.append("".join(text))
            if open_tag == tag:
                return

    def handle_data(self, data):
        if self.hidden:
            return
        # a note's text prints at the page's foot, not in the heading or block that calls it
        inside_note = any(what == "note" for _tag, what, _text in self.open)
        for _tag, what, text in self.open:
            if what == "note" or not inside_note:
                text.append(data)


def parted_headings(html: str, pdf: bytes) -> list[str]:
    """Each page (but the last) whose lowest heading is followed on it by nothing it heads:
    "page N: <heading>"."""
    found = _Texts()
    found.feed(html)
    headings = {squash(h) for h in found.headings if squash(h)}
    beside = [squash(b) for b in found.beside if squash(b)]
    notes = [squash(n) for n in found.notes if squash(n)]
    parted = []
    body = aidkinds.geometry().body_pt
    pages = pdf_text.page_layouts(pdf)
    for number, page in enumerate(pages[:-1], start=1):
        sized = [(line, size) for line, size in zip(page["lines"], page["line_sizes"], strict=True) if squash(line)]
        if sized and FOOTER.search(sized[-1][0]):
            sized = sized[:-1]
        lines = [line for line, _size in sized]
        lowest = None
        for first in range(len(lines)):
            for count in (1, 2, 3):  # a heading may wrap; it prints at least as large as body text
                if squash(" ".join(lines[first:first + count])) in headings and \
                        all(size >= body - 0.01 for _line, size in sized[first:first + count]):
                    lowest = (first + count - 1, " ".join(lines[first:first + count]))
        if lowest is None:
            continue
        after = [squash(line) for line in lines[lowest[0] + 1:]]
        # a note's line at the foot: its number, its text (or its title and where it is in full)
        after = [line for line in after
                 if not any(line in b for b in beside)
                 and not any(_note_line(line) in n for n in notes)]
        if not after:
            parted.append(f"page {number}: {lowest[1]}")
    return parted


def _note_line(line: str) -> str:
    """A line of a note as its HTML has it: without the number it prints before it."""
    return re.sub(r"^\d+", "", line) or line

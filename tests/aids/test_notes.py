"""Notes at the foot of the page of their mark (rulesmith/aids/notes.py): read from the aids' text
layer, every note (why a place is marked) is printed on the page that holds its mark, right after
which its number stands."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from rulesmith.aids import notes


@pytest.fixture(params=["fixture", "real"])
def each(request):
    return request.getfixturevalue("built" if request.param == "fixture" else "real")


def squash(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", re.sub(r"-\s*\n\s*", "", text).lower())


class _Notes(HTMLParser):
    """Each note of an aid's HTML: its number, its text, and the text printed before its call
    (with the numbers of the notes called at the same place just before it)."""

    SKIP = ("style", "title", "svg", "script")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[dict] = []
        self.before, self.depth, self.skip, self.chain = "", 0, 0, []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        self.skip += tag in self.SKIP
        if self.depth:
            self.depth += tag == "span"
        elif tag == "span" and found.get("class") == "note":
            self.depth = 1
            self.found.append({"number": int(found[notes.NUMBER]), "text": "", "before": self.before,
                               "chain": list(self.chain)})

    def handle_endtag(self, tag):
        self.skip -= tag in self.SKIP
        if self.depth and tag == "span":
            self.depth -= 1
            if not self.depth:
                self.chain.append(self.found[-1]["number"])

    def handle_data(self, data):
        if self.skip:
            return
        if self.depth:
            self.found[-1]["text"] += data
        else:
            self.before = (self.before + data)[-200:]
            if data.strip():
                self.chain = []


def notes_of(html: str) -> list[dict]:
    parser = _Notes()
    parser.feed(html)
    return parser.found


def misplaced(aids) -> tuple[list[str], int]:
    """Notes not printed on the page of their mark, and how many notes there are."""
    wrong, count = [], 0
    for job in aids.jobs:
        pages = aids.texts(job.path)
        for note in notes_of(job.html):
            count += 1
            number, text = note["number"], squash(note["text"])[:40]
            where = [n for n, page in enumerate(pages) if any(
                squash(page[m.end():m.end() + 400]).startswith(text) for m in re.finditer(rf"(?m)^{number}\. ?", page))]
            call = squash(note["before"])[-12:] + "".join(map(str, note["chain"])) + str(number)
            if len(where) != 1:
                wrong.append(f"{job.path}: note {number} ({text}…) printed on {len(where)} pages")
            elif call not in squash(pages[where[0]]):
                elsewhere = [n + 1 for n, page in enumerate(pages) if call in squash(page)]
                wrong.append(f"{job.path}: note {number} ({text}…) on page {where[0] + 1}, its mark on {elsewhere}")
    return wrong, count


def test_every_note_is_on_the_page_of_its_mark(each):
    wrong, count = misplaced(each)
    assert count, "no aid prints a note"
    assert not wrong, wrong


def test_a_note_stands_at_the_first_mark_of_its_places_else_its_item_else_its_heading():
    block = (f"<h2>Table{notes.at('table:t')}</h2><p>a{notes.at('gap:g')} b{notes.at('table:t#r.c')}"
             f" c{notes.at('gap:g')}</p>")
    placed = notes.clear(notes.placed(block, [(["gap:g"], "<span class=\"note\">G</span>"),
                                              (["table:t#x.y", "table:t#r.c"], "<span class=\"note\">C</span>"),
                                              (["table:u"], "<span class=\"note\">U</span>"),
                                              (["table:t#q.z"], "<span class=\"note\">T</span>")]))
    assert placed == ('<h2>Table<span class="note" data-note="1">U</span><span class="note" data-note="2">T</span></h2>'
                      '<p>a<span class="note" data-note="3">G</span> b<span class="note" data-note="4">C</span> c</p>')


def test_a_note_set_on_another_page_than_its_mark_is_reported(real):
    job = next(j for j in real.jobs if "solo-aid" in j.path and notes_of(j.html))
    note = notes_of(job.html)[0]

    class Moved:
        jobs = (job,)

        @staticmethod
        def texts(path):
            pages = list(real.texts(path))
            # the note's own line moved to the next page (as WeasyPrint does with a note that does not fit)
            for n, page in enumerate(pages):
                found = re.search(rf"(?m)^{note['number']}\. ?.*$", page)
                if found and n + 1 < len(pages):
                    pages[n] = page[:found.start()] + page[found.end():]
                    pages[n + 1] = found.group(0) + "\n" + pages[n + 1]
                    break
            return tuple(pages)

    wrong, _count = misplaced(Moved)
    assert any(f"note {note['number']} " in w for w in wrong), wrong

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
    """Each note of an aid's HTML: its number, its text in full, its title (what precedes its
    full text: its mark and title), and the text printed before its call (with the numbers of
    the notes called at the same place just before it)."""

    SKIP = ("style", "title", "svg", "script")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[dict] = []
        self.before, self.depth, self.skip, self.chain = "", 0, 0, []
        self.part, self.part_depth = "", 0  # inside the note's full text ("full") or short form ("short")

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        self.skip += tag in self.SKIP
        if self.depth:
            self.depth += tag == "span"
            if tag == "span" and not self.part and found.get("class") in (notes.FULL, notes.SHORT):
                self.part, self.part_depth = found["class"], self.depth
        elif tag == "span" and found.get("class") == "note":
            self.depth = 1
            self.found.append({"number": int(found[notes.NUMBER]), "text": "", "title": "", "before": self.before,
                               "chain": list(self.chain)})

    def handle_endtag(self, tag):
        self.skip -= tag in self.SKIP
        if self.depth and tag == "span":
            if self.part and self.depth == self.part_depth:
                self.part = ""
            self.depth -= 1
            if not self.depth:
                self.chain.append(self.found[-1]["number"])

    def handle_data(self, data):
        if self.skip:
            return
        if self.depth:
            if self.part != notes.SHORT:
                self.found[-1]["text"] += data
            if not self.part:
                self.found[-1]["title"] += data
        else:
            self.before = (self.before + data)[-200:]
            if data.strip():
                self.chain = []


def notes_of(html: str) -> list[dict]:
    parser = _Notes()
    parser.feed(html)
    return parser.found


def misplaced(aids) -> tuple[list[str], int]:
    """Notes not printed on the page of their mark, and how many notes there are. A note said
    again on a page that holds it already is only a call of it there; a note said on an earlier
    page prints its title and where it is in full, which must be that note's number and page
    (aids/pdf.py laid_out tells how each note of the HTML prints: Rendered.notes)."""
    wrong, count = [], 0
    for job in aids.jobs:
        pages = aids.texts(job.path)
        printed = aids.results[job.path].notes
        found = notes_of(job.html)
        first_of = {}  # the first note of the HTML that says each text: where a short one is in full
        for note in found:
            first_of.setdefault(note["text"], note["number"])
        at = {}
        for note in found:
            count += 1
            number, form = printed[str(note["number"])]
            # in full: its first 40 letters; in short or only called: its mark and title
            text = squash(note["text"])[:40] if form == "full" else squash(note["title"])[:40]
            where = [n for n, page in enumerate(pages) if any(
                squash(page[m.end():m.end() + 400]).startswith(text) for m in re.finditer(rf"(?m)^{number}\. ?", page))]
            call = squash(note["before"])[-12:] + "".join(str(printed[str(n)][0]) for n in note["chain"]) + str(number)
            if len(where) != 1:
                wrong.append(f"{job.path}: note {number} ({text}…) printed on {len(where)} pages")
            elif call not in squash(pages[where[0]]):
                elsewhere = [n + 1 for n, page in enumerate(pages) if call in squash(page)]
                wrong.append(f"{job.path}: note {number} ({text}…) on page {where[0] + 1}, its mark on {elsewhere}")
            else:
                at[note["number"]] = where[0]
        for note in found:
            number, form = printed[str(note["number"])]
            first = first_of[note["text"]]
            if form == "short" and note["number"] in at and first in at:
                said = f"infullnote{printed[str(first)][0]}p{at[first] + 1}"
                page = squash(pages[at[note["number"]]])
                if not any(said in page[m.start():m.start() + 400]
                           for m in re.finditer(re.escape(f"{number}{squash(note['title'])[:30]}"), page)):
                    wrong.append(f"{job.path}: note {number} in short does not say where it is in full ({said})")
            if form == "short" and printed[str(first)][1] != "full":
                wrong.append(f"{job.path}: note {number} in short refers to note {first}, not printed in full")
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
    note = next(n for n in notes_of(job.html) if real.results[job.path].notes[str(n["number"])][1] == "full")
    shown = real.results[job.path].notes[str(note["number"])][0]

    class Moved:
        jobs = (job,)
        results = real.results

        @staticmethod
        def texts(path):
            pages = list(real.texts(path))
            # the note's own line moved to the next page (as WeasyPrint does with a note that does not fit)
            for n, page in enumerate(pages):
                found = re.search(rf"(?m)^{shown}\. ?.*$", page)
                if found and n + 1 < len(pages):
                    pages[n] = page[:found.start()] + page[found.end():]
                    pages[n + 1] = found.group(0) + "\n" + pages[n + 1]
                    break
            return tuple(pages)

    wrong, _count = misplaced(Moved)
    assert any(f"note {shown} " in w for w in wrong), wrong


def _note(number: int, title: str, said: str) -> str:
    return (f'<span class="note" {notes.NUMBER}="{number}">? <b>{title}</b><span class="{notes.FULL}">: {said}</span>'
            f'<span class="{notes.SHORT}"> (in full: note <span class="{notes.FIRST}"></span>)</span></span>')


def test_a_note_said_before_prints_in_short_and_a_repeat_on_its_page_only_as_a_call():
    document = (f"<p>a{_note(1, 'Cards', 'Not given.')} b{_note(2, 'Dens', 'Not said.')}"
                f" c{_note(3, 'Cards', 'Not given.')} d{_note(4, 'Cards', 'Not given.')}</p>")
    shorts = notes.said_before(document)
    assert shorts == {3: 1, 4: 1}
    # note 4's call is on the page of note 3 (page 1), notes 1 and 2 on page 0
    calls, pages = {1: 0, 2: 0, 3: 1, 4: 1}, {1: 0, 2: 0, 3: 1, 4: 1}
    repeats = notes.repeated(document, calls, pages, {})
    assert repeats == {4: 3}
    assert notes.numbers(document, repeats) == {1: 1, 2: 2, 3: 3, 4: 3}
    printed = notes.shown(document, repeats, shorts)
    assert f'<span id="{notes.anchor(1)}"></span><span class="note" {notes.NUMBER}="1" {notes.SHOWN}="1">? <b>Cards</b><span class="{notes.FULL}">: Not given.</span></span>' in printed
    assert f'{notes.SHOWN}="3">? <b>Cards</b><span class="{notes.SHORT}"> (in full: note 1<span class="pageref-at">' in printed
    assert f'data-for="{notes.anchor(1)}"' in printed
    assert f'<span class="note-call" {notes.NUMBER}="4" {notes.SHOWN}="3">3</span>' in printed
    assert "Not given." not in printed.split(f'{notes.NUMBER}="3"')[1]  # said once in full


def test_a_late_note_takes_the_outermost_row_kept_whole_once():
    document = ('<div class="led"><h2>x</h2><div class="band b"><div>a<span class="note" data-note="1">n</span></div></div></div>'
                '<div class="band c">b<span class="note" data-note="2">m</span></div>'
                '<div class="table-pair"><div>t<span class="note" data-note="3">q</span></div></div>'
                '<p>z<span class="note" data-note="4">r</span></p>')
    moved = notes.to_next_page(document, {1, 2, 3, 4})
    assert moved.count("page-first") == 3
    assert '<div class="page-first led"><h2>x</h2><div class="band b">' in moved
    assert '<div class="page-first table-pair">' in moved
    assert notes.to_next_page(moved, {1, 2, 3, 4}) == moved  # a row that starts a page stays

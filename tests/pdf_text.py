"""A PDF's text layer, read once per test run and shared by every test that reads it: the text
of each page (PDFium's, the engine of Chrome's PDF viewer: what a reader who copies or searches
gets) and its printed layout (page size, character sizes, how far down the page is used, its
lines as they sit on the page). Both are keyed by the PDF's bytes, so a test that renders a PDF
of its own reads its own; what one pytest-xdist worker read, the other finds in the run's shared
folder (SHARED: conftest's `Shared`, set by its `shared` fixture).

PDFium parses a page in C (milliseconds); pypdf and pdfplumber, in Python, took 0.2-0.5 s a page,
about 200 s of a run over the 18 real aids. The lines are grouped as pdfplumber groups them
(its extract_text: characters within 3 pt are one word, words whose tops are within 3 pt one line)."""

from __future__ import annotations

import ctypes
import functools
import hashlib
import itertools
import pickle
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from rulesmith.aids import kinds as aidkinds
from rulesmith.aids.kinds import PT_PER_MM

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest import Shared

SHARED: Shared | None = None  # the run's shared folder, for what one worker read (set by conftest's `shared`)

Read = TypeVar("Read")


def shared(read: Callable[[bytes], Read]) -> Callable[[bytes], Read]:
    """`read(pdf)` once per test run: in this process from memory, across the workers from SHARED
    (the first worker to ask reads the PDF under a lock while the other waits, then loads it)."""

    @functools.cache
    def once(pdf: bytes) -> Read:
        if SHARED is None:  # outside the suite's run (a test module run by hand)
            return read(pdf)
        with SHARED.lock(f"pdf-text-{read.__name__}-{hashlib.sha256(pdf).hexdigest()}.pickle") as stored:
            if stored.is_file():
                return pickle.loads(stored.read_bytes())
            found = read(pdf)
            stored.write_bytes(pickle.dumps(found))
            return found

    return functools.wraps(read)(once)


@shared
def page_texts(pdf: bytes) -> tuple[str, ...]:
    """Each page's text, as PDFium extracts it (in the order the page draws it), with a hyphen
    that ends a line kept as the hyphen and line break it prints (PDFium marks it U+FFFE)."""
    document = pdfium.PdfDocument(pdf)
    try:
        return tuple(page.get_textpage().get_text_range().replace("\r\n", "\n").replace("\ufffe", "-\n")
                     for page in document)
    finally:
        document.close()


def text(pdf: bytes) -> str:
    """The whole text layer, page after page."""
    return "\n".join(page_texts(pdf))


TOLERANCE = 3  # pt: within this, characters are one word and word tops one line (pdfplumber's)


class Char(NamedTuple):
    """A printed character, in points from the page's top left."""
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # the size it is printed at: the font size times the text's scale


def _chars(page) -> list[Char]:
    """Every character the page prints (PDFium's own inserted spaces and line breaks left out)."""
    height, textpage = page.get_height(), page.get_textpage()
    box, matrix, found = pdfium_c.FS_RECTF(), pdfium_c.FS_MATRIX(), []
    for i in range(pdfium_c.FPDFText_CountChars(textpage.raw)):
        if pdfium_c.FPDFText_IsGenerated(textpage.raw, i):
            continue
        pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, i, ctypes.byref(box))
        pdfium_c.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix))
        size = pdfium_c.FPDFText_GetFontSize(textpage.raw, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        bottom = height - box.bottom
        # a hyphen that ends a line PDFium reads as U+0002 (marked IsHyphen): it prints "-"
        char = "-" if pdfium_c.FPDFText_IsHyphen(textpage.raw, i) else chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i))
        found.append(Char(char, box.left, box.right, bottom - size, bottom, size))
    return found


def _clusters(items: list, key) -> list[list]:
    """`items` grouped where their keys chain within TOLERANCE, groups in key order (pdfplumber's
    cluster_objects)."""
    values, group_of = sorted({key(item) for item in items}), {}
    group = 0
    for before, value in zip([None, *values], values, strict=False):
        group += before is not None and value > before + TOLERANCE
        group_of[value] = group
    ordered = sorted(items, key=lambda item: group_of[key(item)])
    return [list(members) for _, members in itertools.groupby(ordered, key=lambda item: group_of[key(item)])]


def _lines(chars: list[Char]) -> list[tuple[str, float]]:
    """The page's lines top to bottom, words left to right (pdfplumber's extract_text), each with
    the size of its largest character."""
    words: list[tuple[float, str, float]] = []  # (top, text, size), each line's words left to right
    for line in _clusters(chars, lambda c: c.top):
        word: list[Char] = []
        for char in [*sorted(line, key=lambda c: c.x0), None]:
            if char is not None and not char.text.isspace() and (
                    not word or (word[-1].x0 <= char.x0 <= word[-1].x1 + TOLERANCE
                                 and abs(char.top - word[-1].top) <= TOLERANCE)):
                word.append(char)
                continue
            if word:
                words.append((min(c.top for c in word), "".join(c.text for c in word), max(c.size for c in word)))
            word = [char] if char is not None and not char.text.isspace() else []
    return [(" ".join(w[1] for w in line), max(w[2] for w in line)) for line in _clusters(words, lambda w: w[0])]


@shared
def page_layouts(pdf: bytes) -> tuple[dict, ...]:
    """Per page: its size, the sizes of its characters, the lowest thing printed above the footer
    (pt from the top), its text (its lines joined), its lines (and the size of each one's largest
    character: `line_sizes`), and its lines read column by column."""
    geometry = aidkinds.geometry()
    found = []
    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            width, height = page.get_size()
            footer_top = height - geometry.papers[0].margin[2] * PT_PER_MM
            every = _chars(page)
            chars = [c for c in every if c.text.strip()]
            images = [obj.get_pos() for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])]
            bottoms = [c.bottom for c in chars if c.top < footer_top] + [
                height - bottom for _left, bottom, _right, top in images if height - top < footer_top]
            sized = _lines(every)
            lines = [text for text, _size in sized]
            found.append({"size": (round(width), round(height)), "sizes": [c.size for c in chars],
                          "bottom": max(bottoms, default=0), "height": height,
                          "text": "\n".join(lines), "lines": lines, "line_sizes": [size for _text, size in sized],
                          # left and right half apart: a two-column list reads column by column
                          "column_lines": [line for left, right in ((0, width / 2), (width / 2, width))
                                           for line, _size in _lines([c for c in every if c.x0 < right and c.x1 > left])]})
    finally:
        document.close()
    return tuple(found)

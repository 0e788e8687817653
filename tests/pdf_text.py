"""A PDF's text layer, read once per test run and shared by every test that reads it: the text
of each page (pypdf, in content-stream order: what a reader who copies or searches gets) and its
printed layout (pdfplumber: page size, character sizes, how far down the page is used). Both are
keyed by the PDF's bytes, so a test that renders a PDF of its own reads its own; what one
pytest-xdist worker read, the other finds in the run's shared folder (SHARED, set by conftest)."""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
from typing import TYPE_CHECKING, TypeVar

import pdfplumber
import pypdf
from filelock import FileLock

from rulesmith.aids import kinds as aidkinds
from rulesmith.aids.kinds import PT_PER_MM

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

SHARED: Path | None = None  # the run's folder for what one worker read (set by conftest's `shared`)

Read = TypeVar("Read")


def shared(read: Callable[[bytes], Read]) -> Callable[[bytes], Read]:
    """`read(pdf)` once per test run: in this process from memory, across the workers from SHARED
    (the first worker to ask reads the PDF under a lock while the other waits, then loads it)."""

    @functools.cache
    def once(pdf: bytes) -> Read:
        if SHARED is None:  # outside the suite's run (a test module run by hand)
            return read(pdf)
        SHARED.mkdir(parents=True, exist_ok=True)
        stored = SHARED / f"{read.__name__}-{hashlib.sha256(pdf).hexdigest()}.pickle"
        with FileLock(str(stored) + ".lock"):
            if stored.is_file():
                return pickle.loads(stored.read_bytes())
            found = read(pdf)
            stored.write_bytes(pickle.dumps(found))
            return found

    return functools.wraps(read)(once)


@shared
def page_texts(pdf: bytes) -> tuple[str, ...]:
    """Each page's text, as pypdf extracts it."""
    return tuple(page.extract_text() or "" for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def text(pdf: bytes) -> str:
    """The whole text layer, page after page."""
    return "\n".join(page_texts(pdf))


@shared
def page_layouts(pdf: bytes) -> tuple[dict, ...]:
    """Per page: its size, the sizes of its characters, the lowest thing printed above the footer
    (pt from the top), its text (pdfplumber's), its lines, and its lines read column by column."""
    geometry = aidkinds.geometry()
    found = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            footer_top = page.height - geometry.papers[0].margin[2] * PT_PER_MM
            body = [c for c in page.chars if c["top"] < footer_top and c["text"].strip()]
            bottoms = [c["bottom"] for c in body] + [i["bottom"] for i in page.images if i["top"] < footer_top]
            words = page.extract_text() or ""
            found.append({"size": (round(page.width), round(page.height)),
                          "sizes": [c["size"] for c in page.chars if c["text"].strip()],
                          "bottom": max(bottoms, default=0), "height": page.height,
                          "text": words, "lines": words.splitlines(),
                          # left and right half apart: a two-column list reads column by column
                          "column_lines": [line for box in ((0, 0, page.width / 2, page.height),
                                                            (page.width / 2, 0, page.width, page.height))
                                           for line in (page.crop(box).extract_text() or "").splitlines()]})
    return tuple(found)

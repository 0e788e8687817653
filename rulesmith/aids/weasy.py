"""Every use of WeasyPrint's private API, in one place, for the pinned version only.

Page numbers are written into the laid-out document (fill_page_numbers) and the layout is
inspected for cut or cramped content (layout_problems) through WeasyPrint's box tree, which is
not a public API: tests/aids/test_pdf.py fails loudly when the installed version is not PINNED, so
that an upgrade is a decision, made with these functions checked again.
"""

from __future__ import annotations

import weasyprint

from rulesmith.aids import pagerefs
from rulesmith.aids.kinds import geometry

PINNED = "70.0"  # pyproject.toml pins the same version


def version_problem() -> str | None:
    """Why this module cannot be trusted with the installed WeasyPrint, or None."""
    if weasyprint.__version__ != PINNED:
        return (f"WeasyPrint {weasyprint.__version__} is installed, rulesmith/aids/weasy.py was written "
                f"for {PINNED}: check fill_page_numbers and layout_problems against the new box tree, "
                "then change PINNED and pyproject.toml together")
    return None


def page_boxes(document: weasyprint.Document):
    """The laid-out page boxes (private: Page._page_box)."""
    return [page._page_box for page in document.pages]


MIN_TEXT_PX = geometry().min_text_pt * 96 / 72
TOLERANCE = 2.0  # px (0.5 mm): WeasyPrint lets a bordered inline box at a line end overhang by ~1 px


def layout_problems(document: weasyprint.Document) -> list[str]:
    """What a reader would find cut, cramped or lost, from WeasyPrint's layout boxes: anything
    painted (text, images, borders, backgrounds) outside the page area (margin boxes: outside
    the page) or wider than the column or cell it sits in, text smaller than the geometry's min_text_pt, a table
    continued on a page without its header row."""
    from weasyprint.formatting_structure import boxes

    found = []

    def describe(box) -> str:
        text = getattr(box, "text", None)
        if text is None:
            text = " ".join(b.text for b in box.descendants() if isinstance(b, boxes.TextBox))
        return f"<{box.element_tag or type(box).__name__}> {text.strip()[:50]!r}"

    def paints(box) -> bool:
        """Text, images, and boxes with a border or a background: what shows on paper (an
        empty block's extent past the page shows nothing)."""
        if isinstance(box, (boxes.TextBox, boxes.ReplacedBox)):
            return True
        style = box.style
        visible_border = any(style[f"border_{side}_width"] and style[f"border_{side}_style"] not in ("none", "hidden")
                             for side in ("top", "right", "bottom", "left"))
        return visible_border or style["background_color"].alpha > 0

    def walk(box, page: int, area, block) -> None:
        if isinstance(box, boxes.TextBox) and box.text.strip() and box.style["font_size"] < MIN_TEXT_PX - 0.01:
            found.append(f"page {page}: text smaller than the geometry's min_text_pt ({box.style['font_size'] * 0.75:.1f} pt): {describe(box)}")
        if paints(box) and getattr(box, "width", None) is not None and getattr(box, "position_x", None) is not None:
            x, y = box.border_box_x(), box.border_box_y()
            right, bottom = x + box.border_width(), y + box.border_height()
            if box.border_width() > 0 and box.border_height() > 0:
                if x < area[0] - TOLERANCE or right > area[2] + TOLERANCE or y < area[1] - TOLERANCE \
                        or bottom > area[3] + TOLERANCE:
                    found.append(f"page {page}: {describe(box)} runs off the page area "
                                 f"({x:.0f},{y:.0f})-({right:.0f},{bottom:.0f}) outside "
                                 f"({area[0]:.0f},{area[1]:.0f})-({area[2]:.0f},{area[3]:.0f})")
                elif block is not None and right > block[1] + TOLERANCE:
                    found.append(f"page {page}: {describe(box)} is {right - block[1]:.1f}px wider than its column or cell")
        if isinstance(box, boxes.TableBox):
            groups = [g for g in box.children if isinstance(g, boxes.TableRowGroupBox)]
            source_has_header = any(getattr(child, "tag", None) == "thead" for child in box.element) \
                if box.element is not None else False
            if source_has_header and groups and not any(g.is_header for g in groups):
                found.append(f"page {page}: table continued without its header row: {describe(box)}")
        if isinstance(box, boxes.BlockContainerBox) and getattr(box, "width", None) is not None:
            block = (box.padding_box_x(), box.content_box_x() + box.width)
        for child in getattr(box, "children", []):
            walk(child, page, area, block)

    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box  # private
        area = (page_box.content_box_x(), page_box.content_box_y(),
                page_box.content_box_x() + page_box.width, page_box.content_box_y() + page_box.height)
        whole = (0, 0, page_box.margin_width(), page_box.margin_height())
        for child in page_box.children:
            walk(child, number, whole if isinstance(child, boxes.MarginBox) else area, None)
    return found


def anchor_pages(document: weasyprint.Document) -> dict[str, int]:
    """The page (from 1) every anchor of the aid landed on."""
    return {name: number for number, page in enumerate(document.pages, start=1) for name in page.anchors}


def fill_page_numbers(document: weasyprint.Document, pages: dict[str, int]) -> bool:
    """Write the page numbers into the laid-out placeholders, in place, as if they had been
    laid out: a number narrower than its placeholder pulls the rest of its line back (or, for
    an end-aligned one such as in the contents list, sits at the placeholder's end). False,
    with the document unchanged, when a number is wider than its placeholder. Relies on
    WeasyPrint 70 drawing a TextBox from its pango_layout's text and positions."""
    from weasyprint.anchors import gather_anchors

    placeholders = _placeholders(document)
    texts = [pagerefs.page_number_text(pages.get(box.element.get("data-for"))) for box, _line in placeholders]
    widths = [(box.width, _text_width(box, text)) for (box, _line), text in zip(placeholders, texts, strict=True)]
    if any(box.text != pagerefs.PLACEHOLDER for box, _line in placeholders) or any(new > old + 0.1 for old, new in widths):
        return False
    for (box, line), text, (old, new) in zip(placeholders, texts, widths, strict=True):
        box.text = box.pango_layout.text = text
        shift = old - new
        if box.element.get("data-align") == "end":
            box.translate(dx=shift)
        else:
            _pull_back(line, box, box.position_x + old, shift)
        box.width = new
    for page in document.pages:  # link areas and anchors from the new positions
        page.anchors, page.links, page.bookmarks, page.forms = {}, [], [], {None: []}
        gather_anchors(page._page_box, page.anchors, page.links, page.bookmarks, page.forms)
    return True


def _placeholders(document: weasyprint.Document) -> list[tuple]:
    """Every laid-out page-number placeholder: (its text box, [its line box, …, its parent])."""
    from weasyprint.formatting_structure import boxes

    found = []

    def walk(box, line: list) -> None:
        if isinstance(box, boxes.LineBox):
            line = [box]
        elif line:
            line = line + [box]
        if isinstance(box, boxes.TextBox):
            if box.element_tag == "span" and box.element is not None \
                    and pagerefs.PAGEREF_CLASS in (box.element.get("class") or "").split():
                found.append((box, line[:-1]))
            return
        for child in getattr(box, "children", ()):
            walk(child, line)

    for page in document.pages:
        walk(page._page_box, [])
    return found


def _text_width(box, text: str) -> float:
    """The width (px) that `text` would take in the text box's style."""
    from weasyprint.text.line_break import line_size

    placeholder = box.pango_layout.text
    box.pango_layout.text = text
    box.pango_layout.reactivate(box.style)
    width = line_size(box.pango_layout.get_first_line()[0], box.style)[0]
    box.pango_layout.deactivate()
    box.pango_layout.text = placeholder
    return width


def _pull_back(line: list, box, end: float, shift: float) -> None:
    """Move what follows the text box on its line left by `shift` and narrow the inline boxes
    that hold it: the line then reads as if the shorter text had been laid out."""
    for parent, inner in zip(line, line[1:] + [box], strict=True):
        for child in parent.children:
            if child is not inner and child.position_x >= end - 0.01:
                child.translate(dx=-shift)
        if parent is not line[0]:
            parent.width -= shift




def note_pages(document: weasyprint.Document, number: str) -> tuple[dict[int, int], dict[int, int]]:
    """By the numbers (attribute `number`) of the notes: the page (from 0) of each note's call
    (a footnote's call, or a `note-call` span that calls a note printed above it), and the page
    each footnote is set on."""
    calls: dict[int, int] = {}
    notes: dict[int, int] = {}

    def walk(box, page: int) -> None:
        element = box.element
        if element is not None and element.get(number) is not None:
            tag = getattr(box, "element_tag", "") or ""
            if tag.endswith("::footnote-call") or "note-call" in (element.get("class") or "").split():
                calls.setdefault(int(element.get(number)), page)
            elif not tag.endswith("::footnote-marker"):
                notes.setdefault(int(element.get(number)), page)
        for child in getattr(box, "children", []):
            walk(child, page)

    for page, box in enumerate(page_boxes(document)):
        walk(box, page)
    return calls, notes


def measured_positions(document: weasyprint.Document, piece: str, block: str) -> tuple[dict[int, float], dict[int, float]]:
    """From a measuring layout (aids/balance.py): the top (px) of the first box of every
    element marked `piece`, and the bottom of every element marked `block`, by their numbers."""
    tops: dict[int, float] = {}
    bottoms: dict[int, float] = {}

    def walk(box) -> None:
        element = box.element
        if element is not None and getattr(box, "element_tag", None) and getattr(box, "position_y", None) is not None:
            number = element.get(piece)
            if number is not None and int(number) not in tops:
                tops[int(number)] = box.position_y
            number = element.get(block)
            if number is not None and int(number) not in bottoms:
                bottoms[int(number)] = box.position_y + box.margin_height()
        for child in getattr(box, "children", []):
            walk(child)

    for page in page_boxes(document):
        walk(page)
    return tops, bottoms

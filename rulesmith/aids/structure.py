"""The aids as a screen reader gets them: what WeasyPrint's tagged PDF leaves out, completed.

WeasyPrint (pinned, aids/weasy.py) tags the PDF (PDF/UA-1) and gives a figure its alternate text
from an SVG's <title> or an <img>'s alt, but writes no /Scope on a table's header cells. After
layout, `complete` adds it with pikepdf: a header cell in a table's head row heads its column, any
other heads its row. `alt_texts` gives every inline icon the words it stands for, before layout:
an icon is a <span role="img" aria-label="…"> around SVG glyphs (text/references.py), and each
glyph gets that label as its <title>. tests/aids/test_structure.py reads the structure tree of
every aid.
"""

from __future__ import annotations

import io
import re

import pikepdf

from rulesmith.values import status as statuses

ICON = re.compile(r'(<span\b[^>]*\brole="img"[^>]*\baria-label="([^"]*)"[^>]*>)(.*?)(</span>)', re.S)
# A status marker printed with its word (a table cell's "not in source"): its icon reads as the status.
MARKER = re.compile(r'(<span class="rs-gap rs-gap--([a-z]+)">)(<svg\b[^>]*>)(?!<title>)')
SVG_OPEN = re.compile(r"(<svg\b[^>]*>)(?!<title>)")


def alt_texts(html: str) -> str:
    """Every SVG glyph inside a labelled icon carries the icon's label as its <title>."""
    def label(match: re.Match) -> str:
        words = match.group(2)
        inner = SVG_OPEN.sub(lambda m: m.group(1) + f"<title>{words}</title>", match.group(3))
        return match.group(1) + inner + match.group(4)

    html = ICON.sub(label, html)
    return MARKER.sub(lambda m: m.group(1) + m.group(3) + f"<title>{statuses.of(m.group(2)).label}</title>"
                      if m.group(2) in statuses.TABLE else m.group(0), html)


def _elements(node, seen: set[int]):
    """Every structure element under a node of the structure tree, depth first."""
    kids = node.get("/K")
    if kids is None:
        return
    for kid in (kids if isinstance(kids, pikepdf.Array) else [kids]):
        if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type", pikepdf.Name.StructElem) == pikepdf.Name.StructElem \
                and "/S" in kid:
            if kid.objgen != (0, 0) and kid.objgen in seen:
                continue
            seen.add(kid.objgen)  # type: ignore[arg-type]
            yield kid
            yield from _elements(kid, seen)


def elements(pdf: pikepdf.Pdf):
    root = pdf.Root.get("/StructTreeRoot")
    return [] if root is None else list(_elements(root, set()))


def scope_of(cell: pikepdf.Dictionary) -> pikepdf.Name:
    """A header cell in a table's head (TR inside THead) heads a column, else a row."""
    row = cell.get("/P")
    section = row.get("/P") if row is not None else None
    return pikepdf.Name.Column if section is not None and section.get("/S") == pikepdf.Name.THead else pikepdf.Name.Row


def complete(pdf_bytes: bytes) -> bytes:
    """The PDF with every header cell's /Scope written; unchanged bytes where none lacks one."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        changed = False
        for element in elements(pdf):
            if element.get("/S") != pikepdf.Name.TH:
                continue
            attributes = element.get("/A")
            if attributes is None:
                element.A = pikepdf.Dictionary(O=pikepdf.Name.Table, Scope=scope_of(element))
            elif isinstance(attributes, pikepdf.Dictionary):
                if "/Scope" in attributes:
                    continue
                attributes.Scope = scope_of(element)
            else:
                element.A = pikepdf.Array([*attributes, pikepdf.Dictionary(O=pikepdf.Name.Table, Scope=scope_of(element))])
            changed = True
        if not changed:
            return pdf_bytes
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()

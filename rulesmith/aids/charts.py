"""Flowcharts laid out for the page: one procedure per page, chart and numbered steps together,
never split, never scaled so that node text prints below the geometry's min_font_pt.

The chart is laid out again for the page where the site's layout does not fit: narrower labels,
left to right, or, for a chart too big to print readably with its text, the step numbers only
(the numbered steps beside it carry the text). Sizes are estimates from the one print geometry
(aidkinds.geometry()); the PDF tests measure the result from the text layer.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.aids.kinds import PT_PER_MM, Geometry, Paper
from rulesmith.flowchart.chart import procedure_svg, size_pt
from rulesmith.text.references import plain_text

if TYPE_CHECKING:
    from pathlib import Path

    from rulesmith.content import model
    from rulesmith.content.link import Index

CAPTION_MM = 2
SAFETY = 0.93  # the heights are estimates: keep a margin so a page never runs over
MAX_SCALE = 1.25  # a small chart may grow to fill its page
STEPS_MIN_MM = 62  # the narrowest column of numbered steps beside a chart
# steps_height() is generous (it must keep a page from running over) by about this factor, as
# measured on the games' aids; to compare layouts with each other (_tight) the likely height counts.
STEPS_GENEROSITY = 1.3


@dataclass
class Placement:
    mode: str  # beside (steps in a column right of the chart) | above (steps below, two columns)
    src: str  # data: URL of the SVG
    width: float  # mm, as printed
    height: float
    scale: float
    text: bool  # node text in the chart (False: step numbers only)
    steps_columns: int


def data_url(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def text_lines(text: str, width_mm: float, pt: float) -> int:
    per_line = max(10, width_mm / (pt * 0.55 / PT_PER_MM))
    return sum(math.ceil(max(1, len(part)) / per_line) for part in text.split("\n") if part.strip()) or 1


def text_height(texts: list[str], width_mm: float, geometry: Geometry, gap_mm: float = 1.0) -> float:
    """A generous estimate (mm) of paragraphs of body text set in a column of this width."""
    return sized_text_height(texts, width_mm, geometry.body_pt, geometry.line_height, gap_mm)


def sized_text_height(texts: list[str], width_mm: float, pt: float, line_height: float, gap_mm: float) -> float:
    line = pt * line_height / PT_PER_MM
    return sum(text_lines(t, width_mm, pt) * line + gap_mm for t in texts if t)


def step_texts(procedure: model.Procedure, index: Index) -> list[str]:
    return [f"00 {plain_text(node.text, index)}" + "".join(f" {b.when} → 00 ·" for b in node.branches)
            for node in procedure.nodes]


def steps_height(procedure: model.Procedure, index: Index, width_mm: float, columns: int,
                 geometry: Geometry) -> float:
    gap = geometry.column_gap_mm
    column = (width_mm - gap * (columns - 1)) / columns - 6
    # The steps are set at small_pt (print.css.j2: .steps).
    texts = step_texts(procedure, index)
    return sized_text_height(texts, column, geometry.small_pt, geometry.line_height, 0.8) / columns * 1.12 + 3


def place(procedure: model.Procedure, index: Index, paper: Paper, geometry: Geometry, cache: Path,
          heading_mm: float, extras_mm: float, say=None) -> Placement:
    """The best layout of the procedure's chart on one page below its heading (`heading_mm`) and
    above what follows the steps (`extras_mm`: the tables it uses, its gaps): the first variant
    whose node text prints at min_font_pt or more, beside its steps or above them; when none
    does, the layout that takes least height at min_font_pt."""
    chart = geometry.chart
    cw = paper.content_width
    ch = (paper.content_height - heading_mm - extras_mm - CAPTION_MM) * SAFETY
    gap = geometry.column_gap_mm
    variants = [("TB", chart.wrap, True), ("TB", chart.wrap_wide, True), ("LR", chart.wrap_wide, True),
                ("TB", chart.wrap, False), ("LR", chart.wrap, False)]
    tight = []  # every variant's layouts at the smallest readable scale, with the height they take
    for rankdir, wrap, text in variants:
        svg = procedure_svg(procedure, index, cache, grow=False, rankdir=rankdir, wrap=wrap, font_pt=chart.font_pt,
                            edge_pt=chart.edge_pt, text=text, compact=not text, **({"say": say} if say else {}))
        w, h = (v / PT_PER_MM for v in size_pt(svg))
        options = []
        # Beside: the chart as large as it may be, the steps in the rest of the width.
        scale = min(MAX_SCALE, ch / h, (cw - STEPS_MIN_MM - gap) / w)
        if steps_height(procedure, index, cw - w * scale - gap, 1, geometry) <= ch:
            options.append(("beside", scale, 1))
        for columns in (2, 3):
            room = ch - steps_height(procedure, index, cw, columns, geometry)
            if room > 0:
                options.append(("above", min(MAX_SCALE, cw / w, room / h), columns))
        # Of this variant's layouts, the one that prints largest (a small chart fills its page).
        for mode, scale, columns in sorted(options, key=lambda o: -o[1]):
            if scale >= chart.min_scale:
                return Placement(mode, data_url(svg), round(w * scale, 2), round(h * scale, 2),
                                 round(scale, 3), text, columns)
        tight += _tight(procedure, index, geometry, svg, w, h, text, cw)
    # Nothing fits readably by the estimates (a page with long tables or many gaps): the layout
    # that takes the least height at the smallest readable scale, so that what follows keeps as
    # much of the page as can be had.
    return min(tight, key=lambda found: found[0])[1]


def _tight(procedure: model.Procedure, index: Index, geometry: Geometry, svg: bytes, w: float, h: float,
           text: bool, cw: float) -> list[tuple[float, Placement]]:
    """(height taken by chart and steps, layout) of a chart at the smallest readable scale (or
    the page width): beside its steps when a column of steps fits beside it, and above them in
    two or three columns."""
    scale = min(geometry.chart.min_scale, cw / w)
    width, height = w * scale, h * scale
    found = []
    # too wide for the page at the smallest readable scale: the last resort only (its text would print too small)
    penalty = 1000 if scale < geometry.chart.min_scale else 0
    likely = lambda width_mm, columns: steps_height(procedure, index, width_mm, columns, geometry) / STEPS_GENEROSITY  # noqa: E731
    beside = cw - width - geometry.column_gap_mm
    if beside >= STEPS_MIN_MM:
        found.append((max(height, likely(beside, 1)), "beside", 1))
    for columns in (2, 3):
        found.append((height + CAPTION_MM + likely(cw, columns), "above", columns))
    return [(taken + penalty, Placement(mode, data_url(svg), round(width, 2), round(height, 2), round(scale, 3), text, columns))
            for taken, mode, columns in found]

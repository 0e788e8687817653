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
import re
from dataclasses import dataclass
from pathlib import Path

from ... import model
from ...aidkinds import PT_PER_MM, Geometry, Paper
from ...link import Index
from ..flowchart import render_svg, to_dot
from ..markup import plain_text

SIZE = re.compile(r'<svg\b[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"', re.S)
CAPTION_MM = 2


@dataclass
class Placement:
    mode: str  # beside (steps in a column right of the chart) | above (steps below, two columns)
    src: str  # data: URL of the SVG
    width: float  # mm, as printed
    height: float
    scale: float
    text: bool  # node text in the chart (False: step numbers only)
    steps_columns: int


def size_pt(svg: bytes) -> tuple[float, float]:
    match = SIZE.search(svg.decode("utf-8"))
    return float(match.group(1)), float(match.group(2))


def data_url(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def _lines(text: str, width_mm: float, pt: float) -> int:
    per_line = max(10, width_mm / (pt * 0.55 / PT_PER_MM))
    return sum(math.ceil(max(1, len(part)) / per_line) for part in text.split("\n") if part.strip()) or 1


def text_height(texts: list[str], width_mm: float, geometry: Geometry, gap_mm: float = 1.0) -> float:
    """A generous estimate (mm) of paragraphs of body text set in a column of this width."""
    line = geometry.body_pt * geometry.line_height / PT_PER_MM
    return sum(_lines(t, width_mm, geometry.body_pt) * line + gap_mm for t in texts if t)


def step_texts(procedure: model.Procedure, index: Index) -> list[str]:
    return [f"00 {plain_text(node.text, index)}" + "".join(f" {b.when} → 00 ·" for b in node.branches)
            for node in procedure.nodes]


def steps_height(procedure: model.Procedure, index: Index, width_mm: float, columns: int,
                 geometry: Geometry) -> float:
    gap = geometry.column_gap_mm
    column = (width_mm - gap * (columns - 1)) / columns - 6
    return text_height(step_texts(procedure, index), column, geometry) / columns * 1.1 + 4


def place(procedure: model.Procedure, index: Index, paper: Paper, geometry: Geometry, cache: Path,
          heading_mm: float, extras_mm: float) -> Placement:
    """The best layout of the procedure's chart on one page below its heading (`heading_mm`) and
    above what follows the steps (`extras_mm`: the tables it uses, its gaps)."""
    chart = geometry.chart
    cw, ch = paper.content_width, paper.content_height - heading_mm - extras_mm - CAPTION_MM
    variants = [("TB", chart.wrap, True), ("TB", chart.wrap_wide, True), ("LR", chart.wrap_wide, True),
                ("TB", chart.wrap, False), ("LR", chart.wrap, False)]
    best = None
    for rankdir, wrap, text in variants:
        svg = render_svg(to_dot(procedure, index, rankdir=rankdir, wrap=wrap, font_pt=chart.font_pt,
                                edge_pt=chart.edge_pt, text=text), cache)
        w, h = (v / PT_PER_MM for v in size_pt(svg))
        for mode, columns in (("beside", 1), ("above", 2)):
            if mode == "beside":
                steps_w = cw * 0.42
                room_w, room_h = cw - steps_w - geometry.column_gap_mm, ch
                if steps_height(procedure, index, steps_w, 1, geometry) > ch:
                    continue
            else:
                room_w, room_h = cw, ch - steps_height(procedure, index, cw, columns, geometry)
            if room_h <= 0:
                continue
            scale = min(1.0, room_w / w, room_h / h)
            candidate = Placement(mode, data_url(svg), round(w * scale, 2), round(h * scale, 2),
                                  round(scale, 3), text, columns)
            if scale >= chart.min_scale:
                return candidate
            if best is None or scale > best.scale:
                best = candidate
    # Nothing fits readably: print at the smallest readable scale (the page tests will say so).
    factor = chart.min_scale / best.scale
    best.width, best.height, best.scale = round(best.width * factor, 2), round(best.height * factor, 2), chart.min_scale
    return best

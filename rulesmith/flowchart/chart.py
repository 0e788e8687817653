"""Procedures to flowcharts: DOT from a template, laid out by Graphviz `dot` into SVG.

The same SVG file serves the site and the PDFs. Outputs are cached by a hash of the DOT
source, so an unchanged procedure is never laid out twice.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar
from xml.sax.saxutils import escape as xml_escape

import jinja2

from rulesmith.files import write_atomic
from rulesmith.problems import BuildError, ContentError, Problem
from rulesmith.project import templates
from rulesmith.site.fonts import font_face_css
from rulesmith.text.references import plain_text
from rulesmith.words import N_

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from rulesmith.content import model
    from rulesmith.content.link import Index

log = logging.getLogger(__name__)

TEMPLATES = templates()
WRAP = 34


class GraphvizError(BuildError):
    pass


class LayoutTimeout(GraphvizError):
    """Graphviz did not lay a chart out within LAYOUT_SECONDS."""


LAYOUT_SECONDS = 60


def _same(text: str) -> str:
    return text


def procedure_svg(procedure: model.Procedure, index: Index, cache_dir: Path, *, grow: bool = True, **dot_options) -> bytes:
    """A procedure's chart (to_dot, render_svg); a chart Graphviz cannot lay out in time is a
    problem of that procedure, located in its content file, not a failure of the build."""
    try:
        return render_svg(to_dot(procedure, index, **dot_options), cache_dir, grow=grow)
    except LayoutTimeout:
        raise ContentError([Problem(*procedure.where("nodes", key=True),
                                    f"procedure '{procedure.id}': Graphviz could not lay its flowchart out in "
                                    f"{LAYOUT_SECONDS} s", "split it: move a part into a procedure of its own and "
                                    "run it from a step with call: {procedure: <id>}")]) from None


T = TypeVar("T")


def at_once(lay_out: Callable[..., T], *arguments: Iterable) -> list[T]:
    """lay_out(*each set of arguments), in order, several at once: Graphviz runs as a process of
    its own, so calls that lay charts out overlap, one per core."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(lay_out, *arguments))


def procedure_svgs(charts: list[tuple[model.Procedure, Index]], cache_dir: Path, **dot_options) -> list[bytes]:
    """Each procedure's chart (procedure_svg), in order; those not in the cache laid out at once."""
    return at_once(lambda chart: procedure_svg(chart[0], chart[1], cache_dir, **dot_options), charts)


def _label(text: str, index: Index, width: int = WRAP) -> str:
    """Plain, escaped, wrapped text for a Graphviz HTML-like label: no DOT injection possible."""
    lines = []
    for paragraph in plain_text(text, index).split("\n"):
        lines += textwrap.wrap(paragraph, width) or [""]
    # Graphviz expands \N, \G, \L … even inside HTML-like labels: double every backslash.
    return "<br/>".join(html.escape(line, quote=True).replace("\\", "\\\\") for line in lines).strip()


def numbering(procedure: model.Procedure) -> dict[str, str]:
    """Step numbers shared by the flowchart, the numbered text, the walker and the Bot turn page:
    the procedure's one numbering (its rulebook labels, else list order: Procedure.numbers)."""
    return procedure.numbers


def to_dot(procedure: model.Procedure, index: Index, rankdir: str = "TB", wrap: int = WRAP,
           font_pt: float = 11, edge_pt: float = 10, text: bool = True, compact: bool = False,
           say: Callable[[str], str] = _same) -> str:
    """DOT for a procedure. The defaults are the site's chart; a player aid may lay the same
    chart out for its page: left to right, narrower labels, or (text=False) step numbers only,
    the steps' text then being printed beside the chart. `say`: the tool's own words (a calling
    step's "Run …, then go on", an end's "End") in the output's language (rulesmith/words.py)."""
    numbers = numbering(procedure)
    nodes = [{"id": n.id, "type": n.type, "number": numbers[n.id],
              "label": _label(n.text, index, wrap) if text else "",
              "call": _label(_called(n.call, index, say), index, wrap) if n.call else ""}
             for n in procedure.nodes]
    edges = []
    for node in procedure.nodes:
        if node.type == "step" and node.next:
            edges.append({"source": node.id, "target": node.next, "label": ""})
        for branch in node.branches:
            edges.append({"source": node.id, "target": branch.to,
                          "label": _label(branch.when, index, 18)})
    return _template().render(procedure_id=procedure.id, nodes=nodes, edges=edges, rankdir=rankdir, end=say(N_("End")),
                              font_pt=font_pt, edge_pt=edge_pt,
                              spacing=("0.2", "0.25") if compact else ("0.35", "0.4"), compact=compact)


def _called(call: model.Call, index: Index, say: Callable[[str], str] = _same) -> str:
    """What a calling step's box says of its call: the procedure it runs (and that it may be left
    out), its title in quotes, as a title in running text is (one may end in "?" or hold a colon:
    'Run “Automa: which Units are Free Units?”, then go on')."""
    target = index.targets.get(f"procedure:{call.procedure}")
    title = target.name if target is not None else call.procedure
    words = say(N_("If needed, run “%(title)s”, then go on")) if call.optional else say(N_("Run “%(title)s”, then go on"))
    return words % {"title": title}


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES / "flowchart"),
                             autoescape=False, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return env.get_template("flowchart.dot.j2")


@lru_cache(maxsize=1)
def _fontconfig(cache_dir: Path) -> dict[str, str]:
    """Make Graphviz measure and name the project's shipped font, not whatever the machine has."""
    cache_dir = cache_dir.resolve()  # fontconfig reads a relative FONTCONFIG_FILE from /etc/fonts
    cache_dir.mkdir(parents=True, exist_ok=True)
    config = cache_dir / "fonts.conf"
    fonts, cache = (xml_escape(str(path)) for path in (TEMPLATES / "fonts", cache_dir / "fontcache"))
    text = (f'<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
            f'  <dir>{fonts}</dir>\n  <cachedir>{cache}</cachedir>\n</fontconfig>\n')
    if not config.exists() or config.read_text() != text:
        write_atomic(config, text.encode("utf-8"))  # charts laid out at once (procedure_svgs) may each check it
    return {**os.environ, "FONTCONFIG_FILE": str(config)}


@lru_cache(maxsize=1)
def layout_tools() -> bytes:
    """What else decides the layout besides the DOT source: Graphviz's version and the fonts it
    measures with. Part of the cache key, so an upgrade or a new font lays every chart out again."""
    try:
        version = subprocess.run(["dot", "-V"], capture_output=True, timeout=30).stderr
    except (FileNotFoundError, subprocess.TimeoutExpired):
        version = b"no dot"
    fonts = hashlib.sha256()
    for font in sorted((TEMPLATES / "fonts").iterdir()):
        fonts.update(font.name.encode() + font.read_bytes())
    return version + fonts.digest()


# Graphviz sets a branch's answer ("Yes", "No", …) beside the middle of its edge without looking at
# the other edges: it can land on another edge, whose answer a reader would then take it for. The
# layouts tried in turn (graph attributes that change how dot orders and spaces the steps) until
# no answer touches another edge; when none is clear, the first.
# An answer's box, in ems below and above its baseline (Inter's ascender is 0.97 em).
LABEL_BOX = (0.3, 1.0)
CLEAR_LABEL_LAYOUTS = ("", "mclimit=0.5", "mclimit=2", "ordering=out", "nodesep=0.3", "nodesep=0.45", "mclimit=0.5, nodesep=0.6")


def render_svg(dot: str, cache_dir: Path, *, grow: bool = True) -> bytes:
    """SVG for a DOT source, from the cache when the same source was laid out before with the
    same Graphviz and fonts: the first of CLEAR_LABEL_LAYOUTS whose edge labels are clear, else
    the first. With grow=False (a chart sized to fit a printed page), only a clear layout no
    larger than the first is taken."""
    key = layout_tools() + repr((CLEAR_LABEL_LAYOUTS, LABEL_BOX, grow)).encode() + dot.encode()
    cached = cache_dir / f"{hashlib.sha256(key).hexdigest()[:24]}.svg"
    if cached.exists():
        log.debug("flowchart %s: from the cache (the same DOT, Graphviz and fonts laid out before)", _title(dot))
        return cached.read_bytes()
    log.debug("flowchart %s: laid out by Graphviz (no chart of this DOT, Graphviz and fonts in the cache)", _title(dot))
    if shutil.which("dot") is None:
        raise GraphvizError("Graphviz `dot` not found; install it with `apt-get install graphviz` "
                            "(./scripts/build does this)")
    first, first_drawing = _lay_out(with_graph_attributes(dot, CLEAR_LABEL_LAYOUTS[0]), cache_dir)

    def taken(svg: bytes, drawing: dict) -> bool:
        return not labels_on_other_edges(drawing) and (grow or _no_larger(svg, first))

    svg = first
    if not taken(first, first_drawing):
        for attributes in CLEAR_LABEL_LAYOUTS[1:]:
            other, drawing = _lay_out(with_graph_attributes(dot, attributes), cache_dir)
            if taken(other, drawing):
                svg = other
                break
    write_atomic(cached, svg)
    return svg


def _title(dot: str) -> str:
    """The chart's name for a log line: its graph's label, else its id."""
    found = re.search(r'^\s*(?:label|id)="([^"]*)"', dot, re.M) or re.search(r"digraph\s+\"?([\w-]+)", dot)
    return found.group(1) if found else "(unnamed)"


_SIZE = re.compile(r'<svg\b[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"', re.S)


def size_pt(svg: bytes) -> tuple[float, float]:
    """The width and height Graphviz gives an SVG, in points."""
    match = _SIZE.search(svg.decode("utf-8"))
    if match is None:
        raise ValueError("the flowchart SVG has no width and height in pt (is it Graphviz's output?)")
    return float(match.group(1)), float(match.group(2))


def _no_larger(svg: bytes, than: bytes) -> bool:
    return all(a <= b for a, b in zip(size_pt(svg), size_pt(than), strict=True))


def with_graph_attributes(dot: str, attributes: str) -> str:
    """The DOT source with graph attributes set last (over the template's own)."""
    if not attributes:
        return dot
    body = dot.rstrip()
    return body[:-1] + f"  graph [{attributes}];\n}}\n"


def _lay_out(dot: str, cache_dir: Path) -> tuple[bytes, dict]:
    """One layout by `dot`, as SVG and as its drawing (Graphviz's JSON: every edge's curve and
    label with their coordinates)."""
    cache_dir.mkdir(parents=True, exist_ok=True)  # also when removed since _fontconfig (cached) made it
    env = _fontconfig(cache_dir)
    with tempfile.TemporaryDirectory(dir=cache_dir) as folder:
        svg, drawing = Path(folder) / "chart.svg", Path(folder) / "chart.json"
        try:
            result = subprocess.run(["dot", "-Tsvg", "-o", str(svg), "-Tjson", "-o", str(drawing)], input=dot.encode(),
                                    capture_output=True, env=env, timeout=LAYOUT_SECONDS)
        except subprocess.TimeoutExpired:
            raise LayoutTimeout(f"Graphviz did not lay a chart out in {LAYOUT_SECONDS} s") from None
        if result.returncode != 0:
            raise GraphvizError(f"dot failed: {result.stderr.decode(errors='replace').strip()}")
        return svg.read_bytes(), json.loads(drawing.read_bytes())


def labels_on_other_edges(drawing: dict) -> list[str]:
    """Each edge label of a layout (Graphviz's JSON) that touches another edge's curve or arrow:
    "'Yes' of below->next-action lies on place->enough"."""
    names = {o["_gvid"]: o["name"] for o in drawing.get("objects", [])}
    edges = drawing.get("edges", [])
    drawn = {e["_gvid"]: [op for op in e.get("_draw_", []) + e.get("_hdraw_", []) if op["op"] in "bBpP"] for e in edges}
    # A B-spline lies within its control points' hull, a polygon within its corners: a label box
    # outside an edge's box of those points touches none of its line, which is then never sampled.
    bounds = {gvid: _bounds([point for op in ops for point in op["points"]]) for gvid, ops in drawn.items()}
    lines: dict[int, list[tuple[float, float]]] = {}

    def line(gvid: int) -> list[tuple[float, float]]:
        if gvid not in lines:
            lines[gvid] = [point for op in drawn[gvid] for point in _along(op["points"], curve=op["op"] in "bB")]
        return lines[gvid]

    found = []
    for edge in edges:
        size = 10.0
        for op in edge.get("_ldraw_", []):
            if op["op"] == "F":
                size = op["size"]
            if op["op"] != "T":
                continue
            (x, y), width = op["pt"], op["width"]
            left = x - {"l": 0, "c": width / 2, "r": width}[op["align"]]
            # y goes up: from below the baseline to the font's ascender, the box a browser gives the
            # text (getBBox); up to the cap height only, an answer just above another edge passed
            box = (left - 1, y - LABEL_BOX[0] * size, left + width + 1, y + LABEL_BOX[1] * size)
            for other in edges:
                gvid = other["_gvid"]
                if other is edge or not _overlap(box, bounds[gvid]):
                    continue
                if any(box[0] <= px <= box[2] and box[1] <= py <= box[3] for px, py in line(gvid)):
                    found.append(f"{op['text']!r} of {names[edge['tail']]}->{names[edge['head']]} lies on "
                                 f"{names[other['tail']]}->{names[other['head']]}")
    return found


def _bounds(points: list[list[float]]) -> tuple[float, float, float, float] | None:
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(box: tuple[float, float, float, float], bounds: tuple[float, float, float, float] | None) -> bool:
    return bounds is not None and box[0] <= bounds[2] and bounds[0] <= box[2] and box[1] <= bounds[3] and bounds[1] <= box[3]


@lru_cache(maxsize=4)
def _cubic_weights(steps: int) -> tuple[tuple[float, float, float, float], ...]:
    """The cubic Bernstein weights at each of steps + 1 evenly spaced points of a segment."""
    return tuple(((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3)
                 for t in (k / steps for k in range(steps + 1)))


def _along(points: list[list[float]], curve: bool, steps: int = 24) -> list[tuple[float, float]]:
    """Points along a drawn line: a cubic B-spline's segments (Graphviz's "b"), or a polygon's sides."""
    if not curve:
        ring = points + points[:1]
        return [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
                for a, b in itertools.pairwise(ring) for k in range(steps)]
    out = []
    for i in range(0, len(points) - 3, 3):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[i:i + 4]
        out += [(a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)
                for a, b, c, d in _cubic_weights(steps)]
    return out


_PROLOGUE = re.compile(rb"\A.*?(?=<svg\b)", re.S)
_COMMENT = re.compile(rb"<!--.*?-->\n?", re.S)
_GRAPH_TITLE = re.compile(r'(<g id="graph0" class="graph"[^>]*>\s*<title>)[^<]*(</title>)')
# Graphviz numbers its groups graph0, node1, edge1 … in every SVG: a page with several charts (the
# bot's turn) would repeat them, and nothing links to them (scripts find a node by data-chart-node).
_GRAPHVIZ_ID = re.compile(r' id="(?:a_)?(?:graph|node|edge|clust)\d+"')
# Graphviz titles each node group with the node's id and each edge with "a->b": a browser shows
# them as tooltips. The node's id moves to an attribute for scripts; the edge's title goes.
_NODE_TITLE = re.compile(r'(<g class="node[^"]*")>\s*<title>([^<]*)</title>')
_EDGE_TITLE = re.compile(r'(<g class="edge">)\s*<title>[^<]*</title>')


def inline_svg(svg: bytes, title: str, *, beside: str | None = None, say: Callable[[str], str] = _same) -> str:
    """A flowchart SVG ready to sit inside a page: no XML prologue or comments, no blank line (a
    Markdown raw-HTML block ends at one), the reader's title instead of the procedure id, and a
    text alternative (ending with `beside`, what the page offers besides the chart). The text stays
    text (found by the browser's find, drawn in the page's font); Graphviz's node groups (class
    "node") are kept for scripts that walk them, each with its node's id as `data-chart-node`
    instead of a <title> (which a browser shows as a tooltip); its numbered ids and its edges'
    "a->b" titles are dropped. `say`: the tool's own words in the page's language (rulesmith/words.py)."""
    if beside is None:
        beside = say(N_("The same steps are listed as text below."))
    body = _COMMENT.sub(b"", _PROLOGUE.sub(b"", svg, count=1)).decode("utf-8")
    body = _GRAPH_TITLE.sub(lambda m: m.group(1) + html.escape(title) + m.group(2), body, count=1)
    body = _GRAPHVIZ_ID.sub("", body)
    body = _NODE_TITLE.sub(lambda m: f'{m.group(1)} data-chart-node="{html.escape(html.unescape(m.group(2)))}">', body)
    body = _EDGE_TITLE.sub(r"\1", body)
    stop = "" if title[-1:] in "?!." else "."
    flowchart = say(N_("Flowchart:"))
    label = html.escape(f"{flowchart} {title}{stop} {beside}".strip(), quote=True)
    body = body.replace("<svg ", f'<svg class="rs-flowchart__svg" role="img" aria-label="{label}" ', 1)
    return "\n".join(line for line in body.splitlines() if line.strip())


def standalone_svg(svg: bytes, title: str, fonts: str | None = None, say: Callable[[str], str] = _same) -> bytes:
    """The chart as a file of its own (a page's "Whole chart", to zoom): the same reader's text as
    the inline chart (its title, no node ids as tooltips), as an SVG document that carries its
    font and palette (templates/flowchart/standalone.css): Inter, the font Graphviz measured the
    labels in, from the site's own web fonts under `fonts` (a path relative to the chart's file,
    the same files the pages load and the offline copy keeps), else the nearest fallbacks."""
    faces = font_face_css(TEMPLATES / "fonts", folder=fonts, display="swap") if fonts is not None else ""
    style = faces + (TEMPLATES / "flowchart" / "standalone.css").read_text(encoding="utf-8")
    body = inline_svg(svg, title, beside="", say=say)
    opening = body.index(">", body.index("<svg")) + 1
    body = body[:opening] + "\n<style><![CDATA[\n" + style.strip() + "\n]]></style>" + body[opening:]
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body.encode() + b"\n"

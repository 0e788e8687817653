"""Player aids, HTML side: what each aid contains, its page geometry, and the HTML from templates/pdf/.

Two aids per game, each in two paper sizes from one template: a rules summary (front page,
every rules section, every reference table, every entity list, the glossary) and, for a game
with procedures, a solo-bot aid (every procedure as a flowchart with its numbered text, then
the bot's tables). Templates decide how things look; this module decides what goes in, where
references point (an anchor when the target is in the same aid, plain text otherwise), and how
big each flowchart may be on the page, because that needs the page size in numbers.
"""

from __future__ import annotations

import base64
import html
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache

import jinja2
import markdown
from markupsafe import Markup

from .. import model
from ..game import Game, latest_erratum
from ..project import templates
from ..link import Index
from ..pipeline import Checked
from . import layout
from .markup import escape_inline, icon_html, plain_text, render_text
from .site import PageContext, gaps_of

TEMPLATES = templates()
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Paper:
    key: str  # in file names: rules-summary-<key>.pdf
    name: str  # shown to readers
    width: float  # mm, portrait
    height: float
    margin: tuple[float, float, float, float] = (10, 11, 15, 11)  # top right bottom left, mm; footer below

    @property
    def content_width(self) -> float:
        return self.width - self.margin[1] - self.margin[3]

    @property
    def content_height(self) -> float:
        return self.height - self.margin[0] - self.margin[2]

    def landscape(self) -> Paper:
        return Paper(self.key, self.name, self.height, self.width, self.margin)


PAPERS = (Paper("a4", "A4", 210, 297), Paper("letter", "US Letter", 215.9, 279.4))


@dataclass(frozen=True)
class AidKind:
    key: str  # in file names
    title: str
    template: str


RULES_SUMMARY = AidKind("rules-summary", "Rules summary", "rules-summary.html.j2")
SOLO_AID = AidKind("solo-aid", "Solo-bot aid", "solo-aid.html.j2")


def aid_kinds(game: Game) -> list[AidKind]:
    """The aids a game gets: a rules summary always, a solo aid when it has procedures."""
    return [RULES_SUMMARY] + ([SOLO_AID] if game.procedures else [])


def aid_path(game_id: str, kind: AidKind, paper: Paper) -> str:
    return f"downloads/{game_id}/{kind.key}-{paper.key}.pdf"


# --- what goes in ------------------------------------------------------------------------------

def bot_tables(game: Game, index: Index) -> list[model.Table]:
    """The tables the solo bot needs, in file order: those a procedure refers to, and those the
    solo rules refer to (the rules pages, with their subsections, that mention a procedure)."""
    procedures = {f"procedure:{p.id}" for p in game.procedures}
    mentions = {owner for key in procedures for owner in index.backlinks.get(key, [])}
    solo_pages = {page.id for section, page in game.all_sections() if f"rule:{section.id}" in mentions}
    solo_rules = {f"rule:{section.id}" for section, page in game.all_sections() if page.id in solo_pages}
    return [table for table in game.tables
            if any(owner in procedures or owner in solo_rules
                   for owner in index.backlinks.get(f"table:{table.id}", []))]


def contents(game: Game, index: Index, kind: AidKind) -> set[str]:
    """Keys of everything the aid shows with an anchor (references to them become links)."""
    if kind is SOLO_AID:
        return ({f"procedure:{p.id}" for p in game.procedures}
                | {f"table:{t.id}" for t in bot_tables(game, index)})
    keys = {f"rule:{s.id}" for s, _ in game.all_sections()}
    keys |= {f"table:{t.id}" for t in game.tables}
    keys |= {f"{e.kind}:{e.id}" for e in game.entities}
    keys |= {f"term:{t.id}" for t in game.glossary}
    keys |= {f"module:{m.id}" for m in game.modules}
    return keys


def listed_names(game: Game, index: Index, kind: AidKind) -> list[str]:
    """Names of every entity/table/procedure the aid lists (the tests look for each in the text)."""
    if kind is SOLO_AID:
        return [p.title for p in game.procedures] + [t.title for t in bot_tables(game, index)]
    return ([e.name for e in game.entities] + [t.title for t in game.tables]
            + [s.title for s, _ in game.all_sections()] + [t.term for t in game.glossary])


# --- Markdown to HTML -------------------------------------------------------------------------

def to_html(text: str) -> Markup:
    """Markdown (already made safe by markup.render_text) to HTML, as the site's MkDocs does it,
    with the page number after every link to something in the aid."""
    return Markup(_to_html(text or ""))


@lru_cache(maxsize=16384)  # the same texts come again in the other paper size and the other aid
def _to_html(text: str) -> str:
    out = _markdown().reset().convert(text)
    return LINK.sub(lambda m: m.group(0) + ("" if m.group(1).startswith(NO_PAGEREF) else " " + str(pageref(m.group(1)))), out)


@lru_cache(maxsize=1)
def _markdown() -> markdown.Markdown:
    """One converter for every text: building one costs more than converting a text."""
    return markdown.Markdown(extensions=["tables"], output_format="html")


def to_inline_html(text: str) -> Markup:
    """Markdown for inside a table cell or a line: the one paragraph without its <p>."""
    out = str(to_html(text)).strip()
    if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return Markup(out)


# --- page numbers ------------------------------------------------------------------------------
# A printed aid shows the page every reference leads to, and a contents list with pages.
# WeasyPrint can do that with target-counter(), but then it lays most of the document out again
# (each pass takes seconds). Instead the HTML carries a placeholder as wide as a two-digit
# number; render/pdf.py lays the aid out once, reads where every anchor landed and writes the
# numbers into the laid-out placeholders (fill_page_numbers), closing up the rest of the line
# after a one-digit number. Should a number not fit its placeholder, the numbers go into the HTML
# instead (number_pages) and the aid is laid out again. The page total in the footer is
# counter(pages): margin boxes are made after pagination, so it costs nothing.

LINK = re.compile(r'<a href="#([^"]+)">.*?</a>')
PAGEREF = re.compile(r'(<span class="pageref" data-for="([^"]+)"[^>]*>)[^<]*(</span>)')
PAGEREF_CLASS = "pageref"
PLACEHOLDER = "00"
NO_PAGEREF = ("x-term--", "x-module--")  # the glossary is alphabetical: no page numbers for terms


def pageref(anchor: str, align: str = "start") -> Markup:
    """A page-number placeholder; align="end" keeps the number at the placeholder's end (a
    column of numbers, as in the contents list), else the text after it closes up."""
    end = ' data-align="end"' if align == "end" else ""
    return Markup(f'<span class="{PAGEREF_CLASS}" data-for="{anchor}"{end}>{PLACEHOLDER}</span>')


def page_number_text(number: int | None) -> str:
    """What a placeholder becomes: the page number, or '?' for an anchor not in the aid."""
    return "?" if number is None else str(number)


def number_pages(html: str, pages: dict[str, int]) -> str:
    """The HTML with the page numbers written in (the fallback when they do not fit)."""
    return PAGEREF.sub(lambda m: f"{m.group(1)}{page_number_text(pages.get(m.group(2)))}{m.group(3)}", html)


class AidContext(PageContext):
    """PageContext for one aid: a reference is an in-document link when its target is in this
    aid, plain text otherwise (there is no site to link to on paper)."""

    def __init__(self, game: Game, index: Index, anchors: set[str]):
        super().__init__(game, index, page="")
        self.anchors = anchors

    @staticmethod
    def anchor(key: str) -> str:
        return "x-" + key.replace(":", "--")

    def href(self, key: str) -> str | None:
        return "#" + self.anchor(key) if key in self.anchors else None

    def md(self, text: str | None) -> str:
        return render_text(text or "", self.index, self.href, icon=self.icon)

    def icon(self, name: str) -> str:
        return titled(icon_html(self.index, name), self.index.icons[name]["label"])

    def marker(self, status: str, note: str, short: bool = False) -> str:
        return titled(super().marker(status, note, short), layout.STATUS_LABELS.get(status, status))

    def ref(self, key: str) -> str:
        shown = escape_inline(self.index.name(key))
        url = self.href(key)
        return f"[{shown}]({url})" if url else shown

    def kind_of(self, entity: model.Entity) -> model.Kind:
        return self.game.kind(entity.kind)

    def known(self, kind: model.Kind) -> int:
        return len([e for e in self.game.entities_of(kind.id) if e.status != "missing"])

    def source_title(self, file_id: str | None) -> str:
        for source in self.game.info.sources:
            if source.id == file_id:
                return source.title
        return ""

    def table_width(self, table: model.Table) -> str:
        """'narrow' (fits a third of the page), 'medium' (half) or 'wide' (the whole width),
        from the characters its columns need: a table is never squeezed below its longest words."""
        needed = 0
        for index, column in enumerate(table.columns):
            cells = [plain_value(row[index]) for row in table.rows if index < len(row)]
            longest = max((len(word) for text in cells + [column.title] for word in text.split()), default=1)
            typical = sorted(len(text) for text in cells)[len(cells) // 2] if cells else 0
            if column.type in ("ref", "ref-list"):
                typical += 5  # the page number after a reference
            needed += max(longest, min(typical, 24), 3) + 2
        return "narrow" if needed <= 36 else "medium" if needed <= 60 else "wide"

    def split_fields(self, entity: model.Entity, text: bool) -> tuple[list[model.FieldDef], list[model.FieldDef]]:
        """(fields with a value, fields marked missing) of an entity, text fields or the others."""
        shown, missing = [], []
        for spec in self.kind_of(entity).fields:
            if (spec.type in ("text", "text-list")) != text or spec.id not in entity.fields:
                continue
            raw = entity.fields[spec.id]
            is_missing = isinstance(raw, dict) and raw.get("status") == "missing"
            (missing if is_missing else shown).append(spec)
        return shown, missing

    def field_notes(self, entity: model.Entity) -> list[dict]:
        """Notes of field values kept as printed but doubtful (missing ones are listed by name)."""
        return [{"name": spec.name, "status": raw["status"], "note": raw.get("note", "")}
                for spec in self.kind_of(entity).fields
                for raw in [entity.fields.get(spec.id)]
                if isinstance(raw, dict) and raw.get("status") not in (None, "verified", "missing")]

    def cell_notes(self, table: model.Table) -> list[dict]:
        """Cells that carry a status of their own: shown short in the cell, with the note below."""
        notes = []
        for row in table.rows:
            for index, value in enumerate(row):
                if isinstance(value, dict) and value.get("status", "verified") != "verified":
                    notes.append({"row": plain_value(row[0]), "column": table.columns[index].title,
                                  "status": value["status"], "note": value.get("note", "")})
        return notes

    def table_lines(self, table: model.Table) -> int:
        """About how many lines a table takes in a text column (to keep short ones in one piece)."""
        width = 36 / max(1, len(table.columns))
        return 3 + sum(max([1, *(math.ceil(len(plain_value(cell)) / max(width, 8)) for cell in row)]) for row in table.rows)

    def by_width(self, tables: list[model.Table], merge_medium: bool = False) -> list[tuple[str, list[model.Table]]]:
        """The tables grouped by table_width, in file order within a group: narrow ones flow in
        three text columns, medium ones in two, wide ones take the full width. One container
        per group, filled column after column: balancing columns makes WeasyPrint 70 lay the
        tables out hundreds of times, and it loses the part of a column-spanning element that
        falls on the next page, so neither is used."""
        groups: dict[str, list[model.Table]] = {"narrow": [], "medium": [], "wide": []}
        for table in tables:
            width = self.table_width(table)
            groups["narrow" if merge_medium and width == "medium" else width].append(table)
        return [(width, items) for width, items in groups.items() if items]


def titled(svg_html: str, label: str) -> str:
    """Inline SVG with a <title>: the text alternative of a figure in the tagged PDF."""
    title = f"<title>{html.escape(label)}</title>"
    return re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + title, svg_html)


def plain_value(value) -> str:
    value = layout_plain(value)
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def layout_plain(value):
    if isinstance(value, dict):
        return value.get("value", "")
    return "" if value is None else value


# --- flowcharts on paper ---------------------------------------------------------------------

# The smallest a flowchart may be scaled and still read (its node text is 11 pt at 1.0).
MIN_SCALE_BESIDE = 0.72
MIN_SCALE_FULL = 0.58
MIN_SCALE_LANDSCAPE = 0.55
BODY_PT = 9  # the solo aid's body text size (templates/pdf/solo-aid.html.j2)
CAPTION_MM = 8  # room for a chart's caption
SVG = "{http://www.w3.org/2000/svg}"


@dataclass
class Chart:
    """A Graphviz SVG with its size in pt and the extent of every node and label on both axes."""

    svg: bytes
    width: float
    height: float
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)  # left, top, right, bottom (pt)

    @classmethod
    def parse(cls, svg: bytes) -> Chart:
        root = ET.fromstring(svg)
        width = float(root.get("width", "0").removesuffix("pt"))
        height = float(root.get("height", "0").removesuffix("pt"))
        graph = root.find(f"{SVG}g")
        transform = graph.get("transform", "") if graph is not None else ""
        scale = re.search(r"scale\(([-\d.]+)[ ,]+([-\d.]+)\)", transform)
        shift = re.search(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", transform)
        sx, sy = (float(scale.group(1)), float(scale.group(2))) if scale else (1.0, 1.0)
        tx, ty = (float(shift.group(1)), float(shift.group(2))) if shift else (0.0, 0.0)
        boxes = []
        for group in root.iter(f"{SVG}g"):
            kind = group.get("class")
            if kind not in ("node", "edge"):
                continue
            xs, ys = [], []
            for element in group.iter():
                tag = element.tag.removeprefix(SVG)
                if tag == "text" and kind == "edge" and element.get("y"):
                    x, y = float(element.get("x", 0)), float(element.get("y"))
                    size = float(element.get("font-size", 11))
                    half = len(element.text or "") * size * 0.3  # text is centred on x
                    xs += [x - half, x + half]
                    ys += [y - size, y + size * 0.3]
                elif kind == "node" and tag in ("polygon", "path", "ellipse"):
                    pairs = re.findall(r"(-?[\d.]+),(-?[\d.]+)", element.get("points") or element.get("d") or "")
                    xs += [float(x) for x, _ in pairs]
                    ys += [float(y) for _, y in pairs]
            if xs and ys:
                boxes.append((sx * (min(xs) + tx) - 3, sy * (min(ys) + ty) - 3,
                              sx * (max(xs) + tx) + 3, sy * (max(ys) + ty) + 3))
        return cls(svg, width, height, sorted(boxes))

    def cuts(self, length: float, axis: str = "y", first: float | None = None) -> list[float] | None:
        """Where to cut the chart into pieces no longer than `length` (pt) along the axis (the
        first piece no longer than `first`), never through a node or a label; None when that
        cannot be done."""
        total = self.height if axis == "y" else self.width
        spans = [(b[1], b[3]) if axis == "y" else (b[0], b[2]) for b in self.boxes]
        cuts, start = [], 0.0
        while total - start > (length if cuts or first is None else first):
            piece = length if cuts or first is None else first
            limit = start + piece
            candidates = sorted({limit} | {end for _s, end in spans if start < end <= limit}, reverse=True)
            best = next((y for y in candidates
                         if y > start + piece * 0.3 and not any(a < y < b for a, b in spans)), None)
            if best is None:
                return None
            cuts.append(best)
            start = best
        return cuts

    def crop(self, start: float, end: float, axis: str = "y") -> bytes:
        """The same drawing showing only the band start..end (pt) along the axis: only the root
        element's size and viewBox change."""
        text = self.svg.decode("utf-8")
        match = re.search(r"<svg\b[^>]*>", text)
        tag = match.group(0)
        box = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', tag)
        x0, y0, vw, vh = (float(v) for v in box.groups())
        if axis == "y":
            ratio = vh / self.height
            new = re.sub(r'height="[\d.]+pt"', f'height="{end - start:.2f}pt"', tag)
            view = f"{x0:.2f} {y0 + start * ratio:.2f} {vw:.2f} {(end - start) * ratio:.2f}"
        else:
            ratio = vw / self.width
            new = re.sub(r'width="[\d.]+pt"', f'width="{end - start:.2f}pt"', tag)
            view = f"{x0 + start * ratio:.2f} {y0:.2f} {(end - start) * ratio:.2f} {vh:.2f}"
        new = new.replace(box.group(0), f'viewBox="{view}"')
        return (text[:match.start()] + new + text[match.end():]).encode("utf-8")


def data_url(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def heading_height(procedure: model.Procedure, index: Index, paper: Paper) -> float:
    """A generous estimate (mm) of a procedure's title, status, description and source lines,
    so that its chart is sized to fit on the page below them."""
    per_line = paper.content_width / (BODY_PT * 0.58 / PT_PER_MM)  # characters per line
    texts = [plain_text(procedure.description or "", index)]
    if procedure.status != "verified":
        texts.append("Not in the source: check the printed card. " + plain_text(procedure.note or "", index))
    lines = sum(math.ceil(len(part) / per_line) for text in texts for part in text.split("\n") if part.strip())
    return 12 + lines * BODY_PT * 1.24 / PT_PER_MM + 2 * len(texts) + 6


def steps_height(procedure: model.Procedure, index: Index, paper: Paper) -> float:
    """A generous estimate (mm) of the numbered steps set in two columns below a chart."""
    column = (paper.content_width - 6) / 2 - 6.5
    per_line = column / (BODY_PT * 0.58 / PT_PER_MM)
    lines = 0
    for node in procedure.nodes:
        text = plain_text(node.text, index) + " ".join(f" {b.when} → 00" for b in node.branches)
        lines += math.ceil((len(text) + 8) / per_line)
    return (lines * BODY_PT * 1.3 / PT_PER_MM + len(procedure.nodes) * 1.2) / 2 + 8


def place_chart(chart: Chart, paper: Paper, heading: float = 22, steps: float = 0) -> dict:
    """How a flowchart goes on the page below its heading (`heading` mm), sizes in mm for the
    template. In order of preference: beside its steps; full width; on a landscape page; or,
    when none of these is readable, cut between nodes into pieces of one page each (portrait
    for a tall chart, landscape for a wide one)."""
    mm = 1 / PT_PER_MM
    w, h = chart.width * mm, chart.height * mm
    cw, ch = paper.content_width, paper.content_height - CAPTION_MM
    land = paper.landscape()
    lw, lh = land.content_width, land.content_height - CAPTION_MM

    def fit(avail_w, avail_h):
        return min(1.0, avail_w / w, avail_h / h)

    def sized(mode, scale, slices=()):
        return {"mode": mode, "scale": round(scale, 3), "width": round(w * scale, 2),
                "height": round(h * scale, 2), "slices": list(slices)}

    beside, full, landscape = fit(cw * 0.56, ch - heading), fit(cw, ch - heading), fit(lw, lh - heading)
    if beside >= MIN_SCALE_BESIDE:
        return sized("beside", beside)
    together = fit(cw, ch - heading - steps)  # full width with its steps on the same page
    if steps and together >= MIN_SCALE_FULL:
        return sized("full", together)
    if full >= MIN_SCALE_FULL:
        return sized("full", full)
    if landscape >= MIN_SCALE_LANDSCAPE:
        return sized("landscape", landscape)
    # Cut it: along its length, at the scale that fills the page across.
    axis = "y" if h / cw > w / lw else "x"
    if axis == "y":
        mode, scale, room, first = "split", min(1.0, cw / w), ch - 4, ch - heading
    else:
        mode, scale, room, first = "split-landscape", min(1.0, (lh - heading) / h), lw, lw
    to_pt = PT_PER_MM / scale
    cuts = chart.cuts(room * to_pt, axis, first * to_pt)
    if cuts:
        edges = [0.0] + cuts + [chart.height if axis == "y" else chart.width]
        slices = []
        for a, b in zip(edges, edges[1:]):
            size = round((b - a) * mm * scale, 2)
            slices.append({"src": data_url(chart.crop(a, b, axis)),
                           "width": size if axis == "x" else round(w * scale, 2),
                           "height": size if axis == "y" else round(h * scale, 2)})
        return sized(mode, scale, slices=slices)
    return sized("landscape", landscape) if landscape > full else sized("full", full)


# --- the HTML ----------------------------------------------------------------------------------

def css_string(value: str) -> Markup:
    """A value as a quoted CSS string (for the footer's margin boxes)."""
    escaped = "".join(c if c.isalnum() or c in " .,:;-_/()%+#&'·–—" else f"\\{ord(c):x} " for c in str(value))
    return Markup(f'"{escaped}"')


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES / "pdf"),
                             autoescape=jinja2.select_autoescape(["html", "html.j2", "css.j2"], default=True),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["html"] = to_html
    env.filters["inline_html"] = to_inline_html
    env.filters["css_string"] = css_string
    env.globals["pageref"] = pageref
    env.globals["STATUS_LABELS"] = layout.STATUS_LABELS
    return env


def errata_in(checked: Checked, kind: AidKind) -> list[model.Erratum]:
    """The errata that change what this aid shows; the aid is stamped with the latest of them.
    The rules summary shows everything of the game. The solo aid shows its procedures and bot
    tables (with their gaps) and the names of what they refer to; an erratum to an entity,
    table or term outside it leaves its text as it was, so it is neither re-stamped nor
    re-rendered (tests/test_errata.py checks that against the HTML). Errata to anything else
    (rules text decides which tables are the bot's) count as changing it."""
    game, index = checked.game, checked.index
    if kind is not SOLO_AID:
        return list(game.errata)
    shown = contents(game, index, kind)
    outside_kinds = {"table", "term"} | {k.id for k in game.kinds}

    def changes_it(erratum: model.Erratum) -> bool:
        return (erratum.target.split(":", 1)[0] not in outside_kinds
                or erratum.target in shown
                or any(owner in shown for owner in index.backlinks.get(erratum.target, [])))

    return [erratum for erratum in game.errata if changes_it(erratum)]


def latest_erratum_in(checked: Checked, kind: AidKind) -> model.Erratum | None:
    return latest_erratum(errata_in(checked, kind))


def latest_erratum_text(latest: model.Erratum | None) -> str:
    """The footer's "Errata: …": date and id of the latest erratum that changed the aid, or none."""
    return f"{latest.date.isoformat()} ({latest.id})" if latest else "none"


def render_html(checked: Checked, kind: AidKind, paper: Paper, charts: dict[str, bytes]) -> str:
    """The complete HTML of one aid on one paper size."""
    game, index = checked.game, checked.index
    shown = contents(game, index, kind)
    ctx = AidContext(game, index, shown)
    latest = latest_erratum_in(checked, kind)
    # The solo aid counts only its own gaps, so that errata elsewhere leave it unchanged.
    gaps = [gap for gap in gaps_of(game) if kind is RULES_SUMMARY or gap["key"] in shown]
    procedures = []
    if kind is SOLO_AID:
        for procedure in game.procedures:
            svg = charts[layout.flowchart_file(game.id, procedure.id)]
            placement = place_chart(Chart.parse(svg), paper, heading_height(procedure, index, paper),
                                    steps_height(procedure, index, paper))
            procedures.append({"procedure": procedure, "chart": placement, "src": data_url(svg)})
    return environment().get_template(kind.template).render(
        game=game, index=index, c=ctx, aid=kind, paper=paper, landscape=paper.landscape(),
        latest=latest, latest_text=latest_erratum_text(latest), gaps=gaps,
        procedures=procedures, bot_tables=bot_tables(game, index) if kind is SOLO_AID else [],
        date=latest.date.isoformat() if latest else None)

"""Every place a gap affects shows its marker where readers meet it: on the built site pages and
in every aid that prints the place (read from the PDF's text layer).

A gap lists its places under `affects` (content/<game>/gaps.yaml; rulesmith/content/affects.py): an
item (rule:…, an entity, table:…, procedure:…), an entity's field, a table cell or a procedure's
step. Here the built pages are read as a reader gets them (the text of the item's block, its
table row, its step), never the Markdown we generate, and the PDFs page by page.
"""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# fixtures `built` and `real` (conftest): the PDFs of the made-up game and of the games)
from rulesmith.aids import contents
from rulesmith.aids import kinds as aidkinds
from rulesmith.content import affects, model
from rulesmith.flowchart.chart import numbering
from rulesmith.pipeline import check_content
from rulesmith.site import layout
from rulesmith.text.references import plain_text
from rulesmith.values.expressions import plain

if TYPE_CHECKING:
    from rulesmith.values.addresses import Address

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "pdf" / "content"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


# ---------------------------------------------------------------- reading built pages

class Element:
    def __init__(self, tag: str, attrs: dict, parent: Element | None):
        self.tag, self.attrs, self.parent, self.children = tag, attrs, parent, []

    def text(self) -> str:
        if self.tag in ("svg", "script", "style"):
            return ""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def elements(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def find(self, tag: str | None = None, **attrs):
        return [e for e in self.elements() if (tag is None or e.tag == tag)
                and all(e.attrs.get(k) == v for k, v in attrs.items())]


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def page_tree(path: Path) -> Element:
    builder = _Builder()
    builder.feed(path.read_text(encoding="utf-8"))
    return builder.root


def squash(text: str) -> str:
    """Letters and digits only, lower case: immune to line breaks, hyphenation and spacing."""
    return re.sub(r"[^0-9a-z]+", "", re.sub(r"-\s*\n\s*", "", text).lower())


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def block(tree: Element, anchor: str) -> list[Element]:
    """A heading (by its id, or the page's h1) and what follows it up to the next heading: the
    item's own block as a reader sees it (a subsection's marker does not count for its parent)."""
    found = tree.find(id=anchor) if anchor else tree.find("h1")
    assert found, f"no element #{anchor or 'h1'}"
    heading = found[0]
    siblings = [c for c in heading.parent.children if isinstance(c, Element)]
    out = [heading]
    ends = ("dt",) if heading.tag == "dt" else HEADINGS  # a glossary term: its definition
    for sibling in siblings[siblings.index(heading) + 1:]:
        if sibling.tag in ends:
            break
        out.append(sibling)
    return out


def block_text(elements: list[Element]) -> str:
    return " ".join(e.text() for e in elements)


def in_block(elements: list[Element], tag: str):
    for e in elements:
        if e.tag == tag:
            yield e
        yield from e.find(tag)


def site_text_at(site: Path, game, index, place: Address) -> str:
    """The text a reader sees at a place on the site: its item's block, its table cell, its
    entity field (in the list on the kind page and in its row of the summary table) or its step."""
    page, anchor = layout.page_of(game, place.key)
    tree = page_tree(site / page.replace(".md", ".html"))
    item = index.targets[place.key].item
    if place.step is not None:
        position = [node.id for node in item.nodes].index(place.step)  # the list's order (numbering: what it reads)
        steps = block(tree, "step-by-step")
        labelled = any(node.label for node in item.nodes)
        items = [li for ol in in_block(steps, "ul" if labelled else "ol") for li in ol.children
                 if isinstance(li, Element) and li.tag == "li"]
        assert items[position].text().startswith(f"{numbering(item)[place.step]}.") or not labelled
        return items[position].text()
    if place.row is not None:
        table = next(in_block(block(tree, anchor), "table"))
        rows = [tr for tr in table.find("tr") if tr.find("td")]
        keys = [str(plain(row[0])) for row in item.rows]
        column = [c.id for c in item.columns].index(place.column)
        return rows[keys.index(place.row)].find("td")[column].text()
    if place.field is not None:
        spec = next(f for f in model_kind(game, item).fields if f.id == place.field)
        texts = [li.text() for li in in_block(block(tree, anchor), "li") if li.text().strip().startswith(spec.name + ":")]
        summary = [tr for tr in tree.find("tr") if tr.find("td") and tr.find("td")[0].text().strip() == item.name]
        if summary and spec.type not in ("text", "text-list"):
            shown = [f for f in model_kind(game, item).fields if f.type not in ("text", "text-list")]
            texts.append(summary[0].find("td")[1 + shown.index(spec)].text())
        assert texts, f"{place}: field not found on {page}"
        return " | ".join(texts) if all(squash(t) for t in texts) else ""
    return block_text(block(tree, anchor))


def model_kind(game, entity):
    return game.kind(entity.kind)


def site_misses(site: Path, checked) -> list[str]:
    missing = []
    for item in checked:
        for gap, place in affects.places(item.game, item.index):
            text = site_text_at(site, item.game, item.index, place)
            if squash(gap.title) not in squash(text):
                missing.append(f"{item.game.id}: {place} does not show gap '{gap.id}' on the site")
            if place.field is not None and " | " in text:
                for part in text.split(" | "):
                    if squash(gap.title) not in squash(part):
                        missing.append(f"{item.game.id}: {place} (one of its places) lacks gap '{gap.id}'")
    return missing


# ---------------------------------------------------------------- reading the PDFs

def aid_keys(game, index, kind) -> set[str]:
    """Keys of what an aid prints: its entries and, for a condensed section, what it stands for."""
    return contents.shown_keys(game, index, kind) | set(contents.condensed_cover(game, index, kind))


def pdf_misses(aids, checked) -> list[str]:
    missing = []
    papers = aidkinds.geometry().papers
    for item in checked:
        game, index = item.game, item.index
        for kind in aidkinds.kinds():
            # the first paper only: in Letter, pypdf reads a two-column page 1 of the Deep State solo
            # aid in another order, and a condensed block's mark comes out before its heading (the
            # mark is there; the reading cannot place it); each note's page is checked on both
            # papers by tests/aids/test_notes.py
            for paper in papers[:1]:
                path = f"downloads/{game.id}/{kind.key}-{paper.key}.pdf"
                if path not in aids.results:
                    continue
                pages = [squash(p) for p in aids.texts(path)]
                # a section that runs onto the next page prints its text, and its mark, there too
                # (read as one: the heading's page, then the next)
                pages += [f"{page} {after}" for page, after in itertools.pairwise(pages)]
                printed = aid_keys(game, index, kind)
                for gap, place in affects.places(game, index):
                    if place.key not in printed:
                        continue
                    if not any(_marked(page, game, index, kind, gap, place) for page in pages):
                        missing.append(f"{game.id}: {kind.title} ({paper.name}): {place} does not show gap '{gap.id}'")
    return missing


def _follows(page: str, text: str, title: str, slack: int = 400) -> bool:
    """Is `title` printed within the place's own text and a little after it (page references
    such as "p.3" the aid adds, a decision's branches, other gaps' markers, the lines of a
    table row that pypdf interleaves)?"""
    head = text[:25]
    return any(title in page[m.start():m.start() + len(text) + slack] for m in re.finditer(re.escape(head), page))


def _own_text(item, index) -> str:
    """The words an item prints under its heading (not its subsections)."""
    parts = [getattr(item, name, "") or "" for name in ("body", "text", "description", "definition")]
    if isinstance(item, model.Procedure):
        parts += [node.text for node in item.nodes]
    if isinstance(item, model.Table):
        parts += [str(plain(cell)) for row in item.rows for cell in row]
    if isinstance(item, model.Entity):
        parts += [str(plain(v)) for v in item.fields.values()]
    return squash(" ".join(plain_text(part, index) for part in parts))


def _marked(page: str, game, index, kind, gap, place: Address) -> bool:
    """Does this page (squashed text) show the gap at the place: after the step's text, the
    cell's or field's value, or under the item's heading, within what the item prints there
    (a marker "Gap in the source here: …" or the gap named in the item's own text)?"""
    title = squash(gap.title)
    target = index.targets[place.key].item
    if place.step is not None:
        node = next(n for n in target.nodes if n.id == place.step)
        return _follows(page, squash(plain_text(node.text, index)), title)
    if place.row is not None or place.field is not None:
        raw = (target.rows[[str(plain(r[0])) for r in target.rows].index(place.row)]
               [[c.id for c in target.columns].index(place.column)] if place.row is not None
               else target.fields.get(place.field))
        value = plain(raw)
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        return _follows(page, squash(plain_text(shown, index)), title)
    covering = contents.condensed_cover(game, index, kind).get(place.key)
    entries = [e for part in contents.planned(game, index, kind.key).values() for e in part]
    condensed = next((e.condensed for e in entries if e.key == (covering or place.key) and e.condensed), None)
    own = squash(plain_text(condensed, index)) if condensed else _own_text(target, index)
    heading = squash(index.name(covering or place.key))
    return any(title in page[m.start():m.start() + len(heading) + len(own) + 600]
               for m in re.finditer(re.escape(heading), page))


# ---------------------------------------------------------------- the made-up game: every shape of place

@pytest.fixture(scope="module")
def fixture_site(pdf_fixture_site):
    """The made-up games' site (the session's build, with their PDFs) and the checked games."""
    return pdf_fixture_site, check_content(FIXTURE)


def test_the_fixture_gap_affects_every_shape_of_place():
    harbour = next(c for c in check_content(FIXTURE) if c.game.id == "harbour")
    shapes = {("step" if p.step else "cell" if p.row else "field" if p.field else p.key.partition(":")[0])
              for _, p in affects.places(harbour.game, harbour.index)}
    assert shapes >= {"rule", "ship", "table", "step", "cell", "field"}


def test_every_affected_place_shows_its_gap_on_the_site(fixture_site):
    site, checked = fixture_site
    assert site_misses(site, checked) == []


def test_a_place_without_the_gap_is_reported(fixture_site):
    site, checked = fixture_site
    harbour = next(c for c in checked if c.game.id == "harbour")
    place = affects.parse(harbour.index, "ship:sloop.speed")  # not affected: no marker there
    assert "Board illustration".lower() not in site_text_at(site, harbour.game, harbour.index, place).lower()
    place = affects.parse(harbour.index, "ship:cutter.speed")
    assert "board illustration" in site_text_at(site, harbour.game, harbour.index, place).lower()


def test_every_affected_place_shows_its_gap_in_every_aid_that_prints_it(built):
    assert pdf_misses(built, built.checked) == []
    # the made-up game prints its affected places on all three aids
    assert {k.key for k in aidkinds.kinds()} <= {p.split("/")[-1].rsplit("-", 1)[0] for p in built.results}


def test_a_value_reference_to_a_marked_cell_shows_the_mark_where_it_is_printed(tmp_path):
    from rulesmith.text.html import convert
    from rulesmith.text.references import Output

    harbour = next(c for c in check_content(FIXTURE) if c.game.id == "harbour")
    out = convert("Speed [[value:ship:junk.speed]].", Output(harbour.index, lambda key: None,
                                                            marker=lambda status, note: f"<i>{status}</i>"))
    assert out == "<p>Speed 2 <i>unverified</i>.</p>"


# ---------------------------------------------------------------- the games

def test_every_gap_of_every_game_shows_on_the_site_where_it_is_met(real_site, shipped_games):
    site, checked = real_site, list(shipped_games.values())
    assert site_misses(site, checked) == []


def test_every_gap_of_every_game_shows_in_every_aid_that_prints_it(real):
    assert pdf_misses(real, real.checked) == []


def test_every_gap_of_every_game_says_what_it_affects(shipped_games):
    for item in shipped_games.values():
        assert all(g.affects is not None for g in item.game.gaps)
        assert any(g.affects for g in item.game.gaps), f"{item.game.id}: no gap affects anything"


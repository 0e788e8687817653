"""Balanced columns without CSS multi-column layout.

WeasyPrint lays a multi-column container out again for every column and every balancing try,
about five times the work of the text itself. An aid marks a block to be set in columns as
`class="balance" data-columns="N"` (and `data-band="mm"` where a page may break inside it); its
children are the pieces a column may end after (a paragraph, a list item, a step). Here:

1. `measuring(html)` is the aid with every such block one column wide on a very tall page
   (`body.measuring` in print.css.j2) and each piece marked, so one layout gives each piece's height;
2. `balanced(html, heights)` sets each block as rows ("bands") of N side-by-side columns, split
   between pieces so that the columns of a band come out as even as the pieces allow.

The markup is our own templates' output, so a small HTML scanner is enough: it finds each
block's pieces and copies their text unchanged.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

PX_PER_MM = 96 / 25.4
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# A piece that is one of these is opened up: its children become the pieces (a long list or a
# subsection may break between columns), and each column repeats the wrapper around its share.
# So is a text's wrapper that only says its language (a text shown in English on an aid in another
# language, PageContext._in_english): else its whole list is one piece, and a band ends before it.
OPEN_UP = {"section", "ul", "ol"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# What is printed under a heading about it (the gaps that affect it, its status, what it is short
# for): like the heading, it stays with what follows it (never the last piece of a column or band).
ABOUT_HEADING = {"affected", "status", "condensed-of"}
BALANCE = re.compile(r'\bclass="([^"]*\bbalance\b[^"]*)"')
MARK = "data-piece"
BLOCK_MARK = "data-block"


@dataclass
class Node:
    """An element of a balanced block: a piece (leaf) or a wrapper opened up into pieces."""

    tag: str
    start: int  # offsets of its start tag and of the end of its end tag in the HTML
    start_end: int
    end: int = -1
    children: list[Node] = field(default_factory=list)
    opened: bool = False
    about_heading: bool = False  # printed under a heading about it (ABOUT_HEADING)
    language_only: bool = False  # a wrapper that only says its text's language

    def leaves(self) -> list[Node]:
        if not self.opened:
            return [self]
        return [leaf for child in self.children for leaf in child.leaves()]


@dataclass
class Block:
    root: Node
    columns: int
    band_mm: float | None
    ancestors: list[Node]  # the elements it sits in (their classes style it), outermost first
    even: bool = False  # its pieces are taken as equally tall (one-line entries): nothing to measure
    lead: list[Node] = field(default_factory=list)  # its first children of class `lead` (a heading): full width, kept with the first band


class _Scanner(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.html = html
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", html)]
        self.blocks: list[Block] = []
        self.stack: list[tuple[Node, bool]] = []  # (node, inside a balanced block)

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        start = self.position()
        node = Node(tag, start, start + len(self.get_starttag_text() or ""))
        attributes = dict(attrs)
        parent = self.stack[-1][0] if self.stack else None
        inside = bool(self.stack and self.stack[-1][1])
        if not inside and "balance" in (attributes.get("class") or "").split():
            node.opened = True
            band = attributes.get("data-band")
            ancestors = [n for n, _inside in self.stack if n.tag not in ("html", "body")]
            self.blocks.append(Block(node, int(attributes.get("data-columns", "2")), float(band) if band else None,
                                     ancestors, "data-even" in attributes))
            inside = True
        elif inside and parent is not None and parent is self.blocks[-1].root and not parent.children \
                and "lead" in (attributes.get("class") or "").split():
            self.blocks[-1].lead.append(node)
        elif inside and parent is not None and parent.opened:
            parent.children.append(node)
            node.about_heading = bool(ABOUT_HEADING & set((attributes.get("class") or "").split()))
            # Only where pages may break (a band limit) is a piece opened up any further.
            node.language_only = tag == "div" and set(attributes) == {"lang"}
            node.opened = (tag in OPEN_UP or node.language_only) and self.blocks[-1].band_mm is not None
        if tag in VOID:
            node.end = node.start_end
            return
        self.stack.append((node, inside))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0].tag == tag and tag not in VOID:
            node = self.stack.pop()[0]
            node.end = node.start_end

    def handle_endtag(self, tag):
        start = self.position()
        while self.stack:
            node, _inside = self.stack.pop()
            if node.tag == tag:
                node.end = self.html.index(">", start) + 1
                return


def blocks_of(html: str) -> list[Block]:
    scanner = _Scanner(html)
    scanner.feed(html)
    scanner.close()
    return [b for b in scanner.blocks if b.root.end > 0]


def _insert(html: str, edits: list[tuple[int, str]], start: int, end: int) -> str:
    """html[start:end] with each text inserted at its offset."""
    out, last = [], start
    for at, text in sorted(edits):
        out += [html[last:at], text]
        last = at
    return "".join(out) + html[last:end]


def measuring(html: str, blocks: list[Block] | None = None) -> str:
    """The document to measure: the aid's head (its stylesheet), then only its balanced blocks,
    each inside copies of the elements it sits in (so the same rules style it), with the block
    and each of its pieces marked with its number; the body's class `measuring` sets each block
    one column wide on pages tall enough for any (print.css.j2)."""
    body = html.index("<body")
    parts = [html[:body], '<body class="measuring">']
    number = 0
    for count, block in enumerate(blocks_of(html) if blocks is None else blocks):
        root = block.root
        if block.even:
            number += len(root.leaves())
            continue
        edits = [(_tag_end(html, root), f' {BLOCK_MARK}="{count}"')]
        for leaf in root.leaves():
            edits.append((_tag_end(html, leaf), f' {MARK}="{number}"'))
            number += 1
        parts += [_plain_start_tag(html, a) for a in block.ancestors]
        parts.append(_insert(html, edits, root.start, root.end))
        parts += [f"</{a.tag}>" for a in reversed(block.ancestors)]
    parts.append("</body></html>")
    return "".join(parts)


def _tag_end(html: str, node: Node) -> int:
    """Where attributes may be added to a node's start tag."""
    return node.start_end - (2 if html[node.start_end - 2] == "/" else 1)


def heights(tops: dict[int, float], bottoms: dict[int, float], html: str,
            blocks: list[Block] | None = None) -> list[float]:
    """Each piece's height (px, its share of its column) from the measured layout: the top of
    every piece and the bottom of every block, by the numbers `measuring` gave them."""
    found, number = [], 0
    for count, block in enumerate(blocks_of(html) if blocks is None else blocks):
        numbers = list(range(number, number + len(block.root.leaves())))
        number += len(numbers)
        if block.even:
            found += [1.0] * len(numbers)
            continue
        ends = [tops.get(k + 1) for k in numbers[:-1]] + [bottoms.get(count)]
        found += [max(0.0, end - tops[k]) if end is not None and k in tops else 0.0
                  for k, end in zip(numbers, ends, strict=True)]
    return found


def balanced(html: str, heights: list[float], blocks: list[Block] | None = None) -> str:
    """The aid with every balanced block set as bands of side-by-side columns; `heights` are the
    measured heights (px) of its pieces, in document order, as `measuring` numbered them.
    `blocks` is `blocks_of(html)`, when the caller has it already."""
    out, last, number = [], 0, 0
    for block in blocks_of(html) if blocks is None else blocks:
        leaves = block.root.leaves()
        sizes = heights[number:number + len(leaves)]
        number += len(leaves)
        out.append(html[last:block.root.start])
        out.append(_set(html, block, leaves, sizes))
        last = block.root.end
    return "".join(out) + html[last:]


def _set(html: str, block: Block, leaves: list[Node], sizes: list[float]) -> str:
    """One balanced block: its bands, each a row of columns, each column the block's own element
    (class `balance` dropped) around its share of the pieces."""
    root = block.root
    keep = [leaf.tag in HEADINGS or leaf.about_heading for leaf in leaves]  # a heading stays with what follows it
    parents = _parents(root)
    nested = [any(not wrapper.language_only for wrapper in parents[id(leaf)]) for leaf in leaves]
    bands = _bands(sizes, keep, block.band_mm * PX_PER_MM * block.columns if block.band_mm else None, nested)
    rows = []
    for band in bands:
        columns = _split([sizes[i] for i in band], [keep[i] for i in band], block.columns)
        cells = "".join(_column(html, root, [leaves[band[i]] for i in part], parents) for part in columns)
        rows.append(f'<div class="band band-{block.columns}">{cells}</div>')
    if block.lead:  # the heading never ends a page: it and the first band are one unit
        lead = "".join(html[node.start:node.end] for node in block.lead)
        rows[0] = f'<div class="led">{lead}{rows[0]}</div>'
    return f'<div class="balanced">{"".join(rows)}</div>'


def _bands(sizes: list[float], keep: list[bool], limit: float | None,
           nested: list[bool] | None = None) -> list[list[int]]:
    """The pieces of each band: about `limit` (px, all its columns together) tall each, in as
    many bands as the block holds limits (rounded), equally tall; a band ends after a piece that
    is not a heading nor about one (`keep`), rather between paragraphs than inside a list (`nested`)."""
    count = round(sum(sizes) / limit) if limit else 1
    if count <= 1:
        return [list(range(len(sizes)))]
    target = sum(sizes) / count
    nested = nested or [False] * len(sizes)
    tops = [sum(sizes[:i]) for i in range(len(sizes) + 1)]  # tops[i]: the height above piece i
    cuts: list[int] = []
    for k in range(1, count):
        allowed = [i for i in range(1, len(sizes)) if not keep[i - 1] and (not cuts or i > cuts[-1])]
        if not allowed:
            break
        # nearest to the k-th target; a cut inside a list counts as a third of a band further away
        cuts.append(min(allowed, key=lambda i: abs(tops[i] - k * target) + (target / 3 if nested[i] and nested[i - 1] else 0)))
    bounds = [0, *cuts, len(sizes)]
    return [list(range(a, b)) for a, b in itertools.pairwise(bounds) if b > a]


def _split(sizes: list[float], keep: list[bool], columns: int) -> list[list[int]]:
    """Indices of the pieces in each of the `columns` columns (a column may be empty):
    contiguous runs with the tallest column as short as it can be, never ending a column just
    after a heading or what is about it (`keep`; dynamic programming over the few pieces of a band)."""
    n = len(sizes)
    prefix = [0.0]
    for size in sizes:
        prefix.append(prefix[-1] + size)
    may_end = [True] + [not keep[i - 1] for i in range(1, n)] + [True]  # a column may end before piece i
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(columns + 1)]  # best[k][i]: tallest of k columns holding pieces < i
    cut = [[0] * (n + 1) for _ in range(columns + 1)]
    best[0][0] = 0.0
    for k in range(1, columns + 1):
        for i in range(n + 1):
            if not may_end[i]:
                continue
            for j in range(i, -1, -1):  # on a tie, the later columns stay empty
                if best[k - 1][j] == inf:
                    continue
                tallest = max(best[k - 1][j], prefix[i] - prefix[j])
                if tallest < best[k][i] - 1e-6:
                    best[k][i], cut[k][i] = tallest, j
    bounds, i = [], n
    for k in range(columns, 0, -1):
        j = cut[k][i]
        bounds.append((j, i))
        i = j
    return [list(range(a, b)) for a, b in reversed(bounds)]


def _parents(root: Node) -> dict[int, list[Node]]:
    """For each piece (by id), the wrappers between the block and it, outermost first."""
    found: dict[int, list[Node]] = {}

    def walk(node: Node, chain: list[Node]) -> None:
        for child in node.children:
            if child.opened:
                walk(child, chain + [child])
            else:
                found[id(child)] = chain

    walk(root, [])
    return found


def _column(html: str, root: Node, pieces: list[Node], parents: dict[int, list[Node]]) -> str:
    """One column: the block's start tag (without `balance`), the pieces in their wrappers."""
    parts = [_start_tag(html, root, None, root)]
    open_chain: list[Node] = []
    for piece in pieces:
        chain = parents[id(piece)]
        shared = 0
        while shared < min(len(chain), len(open_chain)) and chain[shared] is open_chain[shared]:
            shared += 1
        for wrapper in reversed(open_chain[shared:]):
            parts.append(f"</{wrapper.tag}>")
        for wrapper in chain[shared:]:
            parts.append(_start_tag(html, wrapper, piece, root))
        open_chain = chain
        parts.append(html[piece.start:piece.end])
    parts += [f"</{wrapper.tag}>" for wrapper in reversed(open_chain)]
    parts.append(f"</{root.tag}>")
    return "".join(parts)


def _plain_start_tag(html: str, node: Node) -> str:
    """A node's start tag without its id (a copy must not take the original's anchor)."""
    return re.sub(r'\sid="[^"]*"', "", html[node.start:node.start_end])


def _start_tag(html: str, node: Node, first_piece: Node | None, root: Node) -> str:
    """A start tag repeated in a column: no id (ids stay unique: they are on the pieces); the
    block's own tag has class `column` for `balance`; a numbered list continued from an
    earlier column keeps its numbering."""
    tag = _plain_start_tag(html, node)
    if node is root:
        tag = BALANCE.sub(lambda m: f'class="{" ".join(c for c in m.group(1).split() if c != "balance")} column"', tag)
    if node.tag == "ol" and first_piece is not None and "start=" not in tag:
        items = [child for child in node.children if child.tag == "li"]
        position = next((k for k, item in enumerate(items) if item is first_piece), 0)
        if position:  # WeasyPrint reads the counter, browsers and the tag tree `start`
            tag = tag[:3] + f' start="{position + 1}" style="counter-reset: list-item {position}"' + tag[3:]
    return tag

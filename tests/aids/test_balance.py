"""Balanced columns without CSS columns (rulesmith/aids/balance.py): every piece is set once,
in order, the columns of a band come out even, a column never ends on a heading, numbered lists
keep their numbers across columns, and the measuring document holds only what it measures."""

from __future__ import annotations

import re
from pathlib import Path

from rulesmith.aids import balance


def page(body: str) -> str:
    return "<html><head><style>p { margin: 0 }</style></head><body>" + body + "</body></html>"


def texts(html: str) -> list[str]:
    return re.findall(r">(piece \d+)<", html)


def test_every_piece_is_set_once_in_order_and_ids_stay_unique():
    body = ('<section class="rule"><h2 id="x-a">A</h2><div class="ruled balance" data-columns="2" data-band="50">'
            + "".join(f'<p id="p{i}">piece {i}</p>' for i in range(7)) + "</div></section><p>after</p>")
    html = page(body)
    out = balance.balanced(html, [10.0] * 7)
    assert texts(out) == [f"piece {i}" for i in range(7)]
    ids = re.findall(r'\sid="([^"]+)"', out)
    assert len(ids) == len(set(ids)) and "x-a" in ids
    assert out.count('class="band band-2"') >= 1 and not re.search(r"\bbalance\b", out)
    assert out.endswith("<p>after</p></body></html>")


def test_columns_of_a_band_come_out_even_and_never_end_on_a_heading():
    assert balance._split([10, 10, 10, 10], [False] * 4, 2) == [[0, 1], [2, 3]]
    assert balance._split([30, 10, 10, 10], [False] * 4, 2) == [[0], [1, 2, 3]]
    # piece 1 is a heading: the cut after it would be the most even, but it would end a column
    assert balance._split([15, 10, 10, 10], [False] * 4, 2) == [[0, 1], [2, 3]]
    assert balance._split([15, 10, 10, 10], [False, True, False, False], 2) == [[0], [1, 2, 3]]
    assert balance._split([10], [False], 3) == [[0], [], []]  # a short block fills the first column


def test_a_long_block_is_cut_into_bands_about_equally_tall_rather_between_paragraphs():
    bands = balance._bands([10.0] * 10, [False] * 10, limit=34.0)  # 100 / 34: three bands
    assert sorted(len(b) for b in bands) == [3, 3, 4]
    assert [i for b in bands for i in b] == list(range(10))
    assert balance._bands([10.0] * 4, [False] * 4, None) == [[0, 1, 2, 3]]
    assert balance._bands([10.0] * 4, [False] * 4, 30.0) == [[0, 1, 2, 3]]  # 40 is about one band
    # pieces 3-6 are the items of one list: the cut moves to where the list starts
    nested = [False, False, False, True, True, True, True, False]
    assert balance._bands([10.0] * 8, [False] * 8, 40.0, nested) == [[0, 1, 2], [3, 4, 5, 6, 7]]
    assert balance._bands([10.0] * 8, [False] * 8, 40.0) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_a_numbered_list_split_over_columns_keeps_counting():
    body = ('<div class="ruled balance" data-columns="2" data-band="500"><ol>'
            + "".join(f"<li>piece {i}</li>" for i in range(4)) + "</ol></div>")
    out = balance.balanced(page(body), [10.0] * 4)
    assert texts(out) == [f"piece {i}" for i in range(4)]
    assert '<ol start="3" style="counter-reset: list-item 2"><li>piece 2</li>' in out
    assert out.count("<ol") == 2 and out.count("</ol>") == 2


def test_measuring_holds_only_the_blocks_in_their_styled_ancestors_with_every_piece_numbered():
    body = ('<section class="procedure"><h2 id="x-p">P</h2><ol class="steps balance" data-columns="3">'
            + "".join(f"<li>piece {i}</li>" for i in range(5)) + "</ol></section>"
            + '<nav class="toc"><ol class="balance" data-columns="2" data-even><li>piece 9</li></ol></nav>'
            + "<table><tr><td>not measured</td></tr></table>")
    html = page(body)
    measuring = balance.measuring(html)
    assert '<body class="measuring">' in measuring and "not measured" not in measuring
    assert '<section class="procedure">' in measuring and 'id="x-p"' not in measuring
    assert [int(n) for n in re.findall(r'data-piece="(\d+)"', measuring)] == list(range(5))
    assert "piece 9" not in measuring  # an even block is split by count, not measured
    tops = {i: 10.0 * i for i in range(5)}
    heights = balance.heights(tops, {0: 55.0}, html)
    assert heights == [10.0, 10.0, 10.0, 10.0, 15.0, 1.0]


def test_html_without_balanced_blocks_is_left_alone():
    html = page("<p>piece 1</p>")
    assert balance.blocks_of(html) == [] and balance.balanced(html, []) == html


def test_the_print_stylesheet_sets_no_css_columns():
    """CSS multi-column layout was most of the aids' layout time; balanced blocks replace it."""
    css = (Path(__file__).resolve().parents[2] / "templates" / "pdf" / "print.css.j2").read_text()
    assert not re.search(r"(?<![\w-])columns\s*:", css) and "column-count" not in css


def test_a_heading_and_what_is_said_under_it_stay_with_the_first_text_it_heads():
    """The German rules summary's page 1 ended with a section's heading and the line naming the
    gaps that affect it, its list (in English, not yet translated: wrapped in its language's div)
    all on page 2: the list was one piece, and the first band held only that line. The wrapper is
    opened up like the list it holds, and a band or column never ends after what is said under a
    heading (`affected`, `status`), as it never ends after the heading."""
    body = ('<section class="rule"><div class="ruled balance" data-columns="2" data-band="30">'
            '<h2 class="lead" id="x-a">A</h2><div class="affected">piece 0</div><div lang="en"><ul>'
            + "".join(f"<li>piece {i}</li>" for i in range(1, 9)) + "</ul></div></div></section>")
    html = page(body)
    block = balance.blocks_of(html)[0]
    leaves = block.root.leaves()
    assert [leaf.tag for leaf in leaves] == ["div"] + ["li"] * 8  # the list's items are the pieces
    out = balance.balanced(html, [40.0] * 9)  # 360 px: about three bands of 2 x 30 mm
    assert texts(out) == [f"piece {i}" for i in range(9)]
    led = re.search(r'<div class="led">.*?</div></div></div>', out)
    assert led is not None and "piece 0" in led.group(0) and "piece 1" in led.group(0)
    # a column is never only the line about the heading
    assert '<div class="affected">piece 0</div></div>' not in out
    # each column repeats the language's wrapper around its share of the list
    assert out.count('<div lang="en"><ul>') == out.count("</ul></div>") >= 2
    assert balance._split([40.0, 40.0, 40.0], [True, False, False], 2) == [[0, 1], [2]]

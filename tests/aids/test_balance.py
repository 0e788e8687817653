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

"""A table cell reads the same on paper as on the site (issue 35: one conversion, one escaping).

A plain-text cell is escaped HTML on both, never read as Markdown: "2. then 3" stays 2 (the card
reference printed "1. then 3", a numbered list). Every string cell of every table of the shipped
games is then found, as written, in the card reference's text layer and on the site's tables page.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from gamekit import write_game

from rulesmith.aids import document
from rulesmith.aids.kinds import geometry, kinds
from rulesmith.pipeline import check_content
from rulesmith.site.pages import render_site
from rulesmith.values.fieldtypes import Value

TABLE = """\
tables:
  - id: steps
    title: Steps
    columns: [{id: step, title: Step, type: integer}, {id: plain, title: Plain, type: string},
              {id: rich, title: Rich, type: text}]
    rows: [[1, "2. then 3", "2. then 3"], [2, "*not emphasis*", "*emphasis*"]]
"""


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def text_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def site_html(page: str) -> str:
    """A site page's Markdown as the site's engine converts it (the site's Markdown configuration)."""
    import markdown

    from rulesmith.text.markdown_config import mkdocs_extensions

    names = [e if isinstance(e, str) else next(iter(e)) for e in mkdocs_extensions()]
    configs = {next(iter(e)): next(iter(e.values())) for e in mkdocs_extensions() if isinstance(e, dict)}
    return markdown.Markdown(extensions=names, extension_configs=configs).convert(page)


def test_a_plain_cell_is_written_text_on_the_site_and_on_paper(tmp_path):
    [checked] = check_content(write_game(tmp_path, **{"tables.yaml": TABLE}))
    card_reference = next(k for k in kinds() if k.key == "card-reference")
    aid = document.render_html(checked, card_reference, geometry().papers[0], tmp_path / "charts", {"name": "", "url": ""})
    source = next(p for p in render_site([checked], []).pages if p.path.endswith("tables.md")).text
    page = site_html(source)
    for html in (aid, page):
        row = re.search(r"<td[^>]*>2\. then 3</td>", html)
        assert row, "the plain cell is not its text"
        assert '<ol start="2">' in html  # the Markdown cell: a list that starts at 2, as written
        assert "<td>*not emphasis*</td>" in html.replace(' class="num"', "")
        assert "<em>emphasis</em>" in html


@pytest.mark.pdf
def test_every_string_cell_prints_as_the_site_shows_it(real, real_site):
    """Every cell of a plain-text column of every shipped table, as written, in the card
    reference (A4) and on the game's tables page."""
    missing = []
    for game_id, checked in real.games.items():
        printed = " ".join(real.texts(f"downloads/{game_id}/card-reference-a4.pdf"))
        printed = " ".join(printed.replace("-\n", "").split())
        site = text_of((real_site / game_id / "tables.html").read_text(encoding="utf-8"))
        for table in checked.game.tables:
            for row in table.rows:
                for column, raw in zip(table.columns, row, strict=False):
                    value = Value.of(raw).value
                    if column.type != "string" or not isinstance(value, str) or not value.strip():
                        continue
                    kind = checked.game.kind(value) if column.id in table.kind_columns else None
                    shown = kind.plural if kind else " ".join(value.split())  # a kind id reads as its kind
                    for where, text in (("card reference", printed), ("site", site)):
                        if shown not in text:
                            missing.append(f"{game_id} {table.id}: {shown!r} not in the {where}")
    assert missing == []

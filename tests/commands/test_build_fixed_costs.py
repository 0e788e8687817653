"""The fixed costs of a build, cut without changing what is built: each shortcut gives what the
slow way gave, on the real content."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rulesmith.content.link import texts
from rulesmith.site import search
from rulesmith.text import references as markup

if TYPE_CHECKING:
    import re

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def checked(shipped_games):
    return list(shipped_games.values())


def test_echoes_are_found_as_the_plain_regular_expression_finds_them(checked):
    def shown(match: re.Match) -> str:
        return "<" + "|".join(g or "" for g in match.groups()) + ">"

    samples = [t.value for c in checked for t in texts(c.game)]
    samples += ["a  ([[x:y]])", "word** ([[a:b]]) and ([[c:d]])", "(([[a:b]]))", "x" * 300 + "  \t ([[a:b]])",
                "([[a:b]])", "ab*([[x:y]])", "foo ([[a:b|c]]) bar ([[c:d]])", "a([[b:c]])([[c:d]])", "  ([[x:y]])"]
    # Every match of either ends in a bracketed reference "([[…]])": a text without one is left as
    # it is by both (the plain expression would take seconds to say so over every text).
    samples = [s for s in samples if "([[" in s]
    assert len(samples) > 50  # the content has many such references
    for sample in samples:
        assert markup._sub_before(sample, shown) == markup._BEFORE.sub(shown, sample), sample


def test_the_search_reads_the_same_entries_from_the_title_and_article_alone():
    page = ("<!doctype html><html><head><title>Alliances - Deep State</title><script>var a = '<b>';</script></head>"
            "<body><header>Menu <h2 id='nav'>Navigation</h2></header><nav><ul><li>Alliances</li></ul></nav>"
            "<article><h1 id='alliances'>Alliances</h1><p>Each alliance <em>card</em> gives</p>"
            "<dl><dt id='term'><strong>Term</strong> (also Word)</dt><dd>Meaning.</dd></dl>"
            "<h2 id='more'>More<a class='headerlink'>¶</a></h2><p>Text.</p></article>"
            "<footer><h2 id='foot'>Footer</h2></footer></body></html>")

    def whole(html):
        parser = search._Article()
        parser.feed(html)
        parser.close()
        return search._clean(parser.page_title).rsplit(" - ", 1)[0], parser.entries

    assert search._parts_read(page) != page
    assert search.page_entries(page) == whole(page)
    title, entries = search.page_entries(page)
    assert title == "Alliances" and [e.anchor for e in entries] == ["alliances", "term", "more"]

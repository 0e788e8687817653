"""The site as a player uses it at the table, in Chromium (issue 14): flowcharts that render the
same for every reader, accessibility (axe-core), phone tables and the weight of a first load.

Browser tests: marked `browser`, so `pytest -m "not browser"` leaves them out and `-m browser`
runs them as a tier.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from test_browser import CHROMIUM, ROOT

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is installed by ./scripts/test")
pytestmark = pytest.mark.browser

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"  # axe-core 4.10.3 from npm, MPL-2.0 (LICENSE beside it)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site: Path):
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def build(content: Path, folder: Path) -> Path:
    site = folder / "site"
    result = subprocess.run([sys.executable, "-m", "rulesmith.cli", "--content", str(content), "build", "--quiet",
                             "--no-pdf", "--site", str(site), "--work", str(folder / "work")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build(ROOT / "content", tmp_path_factory.mktemp("at-table"))


@pytest.fixture(scope="module")
def url(site):
    httpd, base = serve(site)
    yield base
    httpd.shutdown()


@pytest.fixture(scope="module")
def dejavu_only(tmp_path_factory) -> dict:
    """A fontconfig that knows DejaVu and nothing else: a reader without Inter installed."""
    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <dir>/usr/share/fonts/truetype/dejavu</dir>\n'
        f'  <cachedir>{folder / "cache"}</cachedir>\n</fontconfig>\n')
    return {"FONTCONFIG_FILE": str(folder / "fonts.conf")}


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed; ./scripts/test installs it with apt-get")
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield instance
        instance.close()


def open_page(browser, url: str, width: int, scheme: str = "light"):
    context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready.then(() => true)")
    return context, page, errors


def procedure_pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.glob("*/solo/*.html"))


# Every text of a node inside the node's shape, and which font drew it.
TEXT_OUTSIDE = """() => {
  const out = [];
  for (const node of document.querySelectorAll('svg.rs-flowchart__svg g.node')) {
    const shape = node.querySelector('path, polygon').getBoundingClientRect();
    for (const text of node.querySelectorAll('text')) {
      const box = text.getBoundingClientRect();
      if (box.left < shape.left - 0.5 || box.right > shape.right + 0.5 ||
          box.top < shape.top - 0.5 || box.bottom > shape.bottom + 0.5)
        out.push(node.querySelector('title').textContent + ': ' + text.textContent);
    }
  }
  return out;
}"""


def test_flowchart_text_stays_inside_its_nodes_without_inter_installed(site, url, dejavu_only):
    """A reader whose system has only DejaVu: the inline flowcharts draw with the page's Inter,
    so every line of every node fits the box Graphviz measured for it, at print size and fitted."""
    pages = procedure_pages(site)
    assert pages
    problems, nodes = [], 0
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=dejavu_only)
        for path in pages:
            for width in (390, 1280):
                context, page, errors = open_page(chromium, f"{url}/{path}", width)
                nodes += page.locator("svg.rs-flowchart__svg g.node").count()
                problems += [f"{path} @{width}: {t}" for t in page.evaluate(TEXT_OUTSIDE)]
                page.locator("label.rs-flowchart__button").click()  # full size
                problems += [f"{path} @{width} full size: {t}" for t in page.evaluate(TEXT_OUTSIDE)]
                problems += [f"{path}: {e}" for e in errors]
                context.close()
        chromium.close()
    assert nodes > 0
    assert problems == []


def test_flowcharts_keep_graphviz_node_groups_with_their_ids(site):
    """The bot walker finds a node by its id: each <g class="node"> keeps its <title>."""
    from rulesmith.pipeline import check_content

    problems = []
    for checked in check_content(ROOT / "content"):
        for procedure in checked.game.procedures:
            html = (site / checked.game.id / "solo" / f"{procedure.id}.html").read_text(encoding="utf-8")
            for node in procedure.nodes:
                if f"<title>{node.id.replace('-', '&#45;')}</title>" not in html:
                    problems.append(f"{checked.game.id}/{procedure.id}: node {node.id}")
    assert problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_flowchart_follows_the_palette(url, browser, scheme):
    context, page, errors = open_page(browser, f"{url}/dei/solo/automa-move.html", 1280, scheme)
    colours = page.evaluate("""() => ({
      page: getComputedStyle(document.body).backgroundColor,
      node: getComputedStyle(document.querySelector('.rs-flowchart__svg .rs-step path')).fill,
      text: getComputedStyle(document.querySelector('.rs-flowchart__svg .rs-step text')).fill,
      body: getComputedStyle(document.querySelector('.md-typeset')).color})""")
    context.close()
    assert errors == []
    assert colours["node"] == colours["page"] and colours["text"] == colours["body"], colours

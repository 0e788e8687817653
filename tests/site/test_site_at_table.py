"""The site as a player uses it at the table, in Chromium (issue 14): flowcharts that render the
same for every reader, accessibility (axe-core), phone tables and the weight of a first load.

Browser tests: marked `browser`, so `pytest -m "not browser"` leaves them out and `-m browser`
runs them as a tier.
"""

from __future__ import annotations

import collections
import contextlib
import json
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, CONTRAST, ROOT, build_site, page_ready, served, warm_work

from rulesmith.translations import catalog

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.browser

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"  # axe-core 4.14.1 from npm, MPL-2.0 (LICENSE beside it)
# The Nu HTML Checker (the W3C's validator), from npm's vnu-jar; ./scripts/setup --test installs it.
VNU = ROOT / ".venv" / "node" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


@pytest.fixture(scope="module")
def site(real_site):
    return real_site  # the session's build of content/, without PDFs (read-only)


@pytest.fixture(scope="module")
def url(site):
    with served(site) as base:
        yield base


@pytest.fixture(scope="module")
def dejavu_only(tmp_path_factory) -> dict:
    """A fontconfig that knows DejaVu and nothing else: a reader without Inter installed."""
    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <dir>/usr/share/fonts/truetype/dejavu</dir>\n'
        f'  <cachedir>{folder / "cache"}</cachedir>\n</fontconfig>\n')
    return {"FONTCONFIG_FILE": str(folder / "fonts.conf")}




def open_page(browser, url: str, width: int, scheme: str = "light"):
    context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page_ready(page)
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


def test_flowchart_text_stays_inside_its_nodes_without_inter_installed(site, url, dejavu_only, playwright_driver):
    """A reader whose system has only DejaVu: the inline flowcharts draw with the page's Inter,
    so every line of every node fits the box Graphviz measured for it, at print size and fitted."""
    pages = procedure_pages(site)
    assert pages
    problems, nodes = [], 0
    # a Chromium of its own, that sees DejaVu only
    chromium = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=dejavu_only)
    for width in (390, 1280):
        context, page, errors = open_page(chromium, f"{url}/{pages[0]}", width)  # one context per width
        for path in pages:
            errors.clear()
            page.goto(f"{url}/{path}")
            page_ready(page)
            nodes += page.locator("svg.rs-flowchart__svg g.node").count()
            problems += [f"{path} @{width}: {t}" for t in page.evaluate(TEXT_OUTSIDE)]
            page.locator("label.rs-flowchart__button").click()  # full size
            problems += [f"{path} @{width} full size: {t}" for t in page.evaluate(TEXT_OUTSIDE)]
            problems += [f"{path}: {e}" for e in errors]
        context.close()
    chromium.close()
    assert nodes > 0
    assert problems == []


def test_flowchart_text_fits_its_boxes_when_the_web_font_does_not_load(site, url, dejavu_only, playwright_driver):
    """Inter blocked and only DejaVu (wider) on the system: each line is fitted to its box."""
    pages = procedure_pages(site)[:6]
    problems, nodes = [], 0
    # a Chromium of its own, that sees DejaVu only
    chromium = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=dejavu_only)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.route("**/*.woff2", lambda route: route.abort())
    page = context.new_page()
    for path in pages:
        page.goto(f"{url}/{path}")
        page_ready(page)
        assert not page.evaluate("document.fonts.check('16px Inter')"), "Inter loaded although blocked"
        # drawn in the page's own font stack (a sans-serif after Inter), not the browser's default
        fonts = page.evaluate("""() => [getComputedStyle(document.body).fontFamily,
          ...new Set([...document.querySelectorAll('svg.rs-flowchart__svg text')].map(t => getComputedStyle(t).fontFamily))]""")
        assert fonts[1:] == fonts[:1] and fonts[0].rstrip().endswith("sans-serif"), fonts
        nodes += page.locator("svg.rs-flowchart__svg g.node").count()
        problems += [f"{path}: {t}" for t in page.evaluate(TEXT_OUTSIDE)]
    context.close()
    chromium.close()
    assert nodes > 0
    assert problems == []


def test_flowcharts_keep_graphviz_node_groups_with_their_ids(site):
    """The bot walker finds a node by its id: each <g class="node"> carries it as data-chart-node
    (not as a <title>, which a browser shows as a tooltip: issue 29)."""
    from rulesmith.pipeline import check_content

    problems = []
    for checked in check_content(ROOT / "content"):
        for procedure in checked.game.procedures:
            html = (site / checked.game.id / "solo" / f"{procedure.id}.html").read_text(encoding="utf-8")
            for node in procedure.nodes:
                if f'data-chart-node="{node.id}"' not in html:
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



@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_walkers_step_numbers_have_a_contrast_of_at_least_4_5(site, url, browser, scheme):
    """The walker's step number (its badge), for every step and end of every game's first procedure
    page, in light and dark: at least 4.5:1 against the badge, whatever size the text is (axe asks
    only 3:1 of text this large)."""
    games = sorted({path.split("/")[0] for path in procedure_pages(site)})
    found, low = [], []
    for game in games:
        path = next(p for p in procedure_pages(site) if p.startswith(game + "/"))
        context, page, errors = open_page(browser, f"{url}/{path}", 390, scheme)
        for badge in page.evaluate(CONTRAST, ".rs-walker__badge"):
            found.append(badge)
            if badge["ratio"] < 4.5:
                low.append(f"{path} step {badge['text']}: {badge['ratio']:.2f}:1")
        context.close()
        assert errors == []
    assert len(games) >= 2 and any(b["end"] for b in found) and any(not b["end"] for b in found)
    print(f"{scheme}: {len(found)} step numbers, lowest {min(b['ratio'] for b in found):.2f}:1")
    assert low == []


# --- accessibility, phone tables, weight -------------------------------------------------------

def sample_pages(site: Path) -> list[str]:
    """Home, downloads, changelog and, for every game, every page but the rules sections (one kept)."""
    pages = ["index.html", "downloads.html", "changelog.html"]
    for game in sorted(p.parent.name for p in site.glob("*/index.html")):
        pages += sorted(str(p.relative_to(site)) for p in (site / game).glob("*.html"))
        pages += sorted(str(p.relative_to(site)) for p in (site / game).glob("kinds/*.html"))
        pages += sorted(str(p.relative_to(site)) for p in (site / game).glob("solo/*.html"))[:1]
        pages += sorted(str(p.relative_to(site)) for p in (site / game).glob("rules/*.html"))[:1]
    return pages


AXE_RUN = """async (rules) => {
  const options = rules ? {resultTypes: ['violations'], runOnly: {type: 'rule', values: rules}} : {resultTypes: ['violations']};
  const result = await axe.run(document.querySelector('article.md-content__inner'), options);
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .flatMap(v => v.nodes.map(n => v.id + ': ' + n.html.slice(0, 100)));
}"""

# The axe rules whose verdict depends on colours. A page's markup and layout at a width are the same
# in light and dark (the scheme is a media query on colours only), so every other rule's verdict in
# dark is its verdict in light: the dark pass asks only these (a third of axe's time was spent
# asking the rest again).
AXE_COLOUR_RULES = ["color-contrast", "link-in-text-block"]


SIDEWAYS = """() => [...document.querySelectorAll('article table')].map(table => {
  const frame = table.closest('.md-typeset__scrollwrap');
  const cell = table.querySelector('td');
  const stacked = table.hasAttribute('data-rs-stacked'), heads = [...table.querySelectorAll('thead th')].map(h => h.textContent.trim());
  return {scrolls: !!frame && frame.scrollWidth > frame.clientWidth + 1, stacked: stacked,
          // a stacked row's cells each led by their column's heading, drawn before the cell's text
          unlabelled: stacked ? [...table.querySelectorAll('tbody tr')].flatMap(row => [...row.cells].slice(1)
            .filter((cell, k) => heads[k + 1] && (cell.dataset.label !== heads[k + 1]
                                 || getComputedStyle(cell, '::before').content !== JSON.stringify(heads[k + 1])))
            .map(cell => cell.textContent.slice(0, 30))) : [],
          cue: !!frame && getComputedStyle(frame).backgroundImage.includes('gradient')
               && !!cell && getComputedStyle(cell).position === 'sticky'};
})"""


LAYOUT = """() => {
  const problems = [], W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1)
    problems.push('the page is ' + (document.documentElement.scrollWidth - W) + 'px wider than the window');
  for (const svg of document.querySelectorAll('article svg:not(.rs-flowchart__svg)')) {
    const size = parseFloat(getComputedStyle(svg.parentElement).fontSize), box = svg.getBoundingClientRect();
    if (box.height > 2 * size) problems.push('an icon ' + Math.round(box.height) + 'px tall in ' + size + 'px text: '
                                             + svg.parentElement.outerHTML.slice(0, 80));
  }
  for (const heading of document.querySelectorAll('article :is(h1, h2, h3)')) {
    const texts = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT), range = document.createRange();
    let bottom = -Infinity;  // where the heading's words end, its permalink left out
    while (texts.nextNode()) {
      if (texts.currentNode.parentElement.closest('.headerlink')) continue;
      range.selectNodeContents(texts.currentNode);
      for (const r of range.getClientRects()) if (r.width > 0) bottom = Math.max(bottom, r.bottom);
    }
    if (heading.getBoundingClientRect().bottom - bottom > parseFloat(getComputedStyle(heading).lineHeight) / 2)
      problems.push('a blank line under the heading ' + heading.textContent.slice(0, 40));
  }
  return problems;
}"""


# The page switched to dark where it stands, as a reader's system switching does: the palette's
# script follows the media query, and the colours' transitions run out before anything is read.
TO_DARK = """async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  await Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)));
  return {scheme: document.body.getAttribute('data-md-color-scheme'),
          background: getComputedStyle(document.body).backgroundColor};
}"""


@pytest.fixture(scope="module")
def sweep(site, url, browser):
    """Every sampled page read once at a width, for every test that reads those pages at that
    size, in light and then in dark: one context per width with axe-core injected once (as the
    browser's own script: the page's policy lets no inline script in), each page loaded and
    settled (its fonts and Material's table frames), then measured in light (the phone layout
    and tables, axe's serious and critical violations in the content area, the console's
    errors), then switched to dark where it stands and measured again (axe's rules that read
    colours: AXE_COLOUR_RULES, and the console's errors). A page's markup and layout are the same
    in both schemes (the scheme is a media query on colours only), so the dark pass asks only
    what colours decide; loading each page a second time for it cost a fifth of the sweep.
    Storage is emptied before each load, so a page never opens in a palette a page before it
    stored. {(width, scheme): {page: what it found}}."""
    axe = AXE.read_text(encoding="utf-8")
    swept: dict[tuple[int, str], dict[str, dict]] = {}

    def at(width: int, scheme: str) -> dict[str, dict]:
        if (width, scheme) not in swept:
            context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme="light")
            context.add_init_script(axe)
            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            light, dark = {}, {}
            for path in sample_pages(site):
                errors.clear()
                page.emulate_media(color_scheme="light")
                page.goto(f"{url}/{path}")
                page_ready(page)
                light[path] = {"tables": page.evaluate(SIDEWAYS), "layout": page.evaluate(LAYOUT),
                               "axe": page.evaluate(AXE_RUN), "errors": list(errors),
                               "background": page.evaluate("getComputedStyle(document.body).backgroundColor")}
                errors.clear()
                page.emulate_media(color_scheme="dark")
                switched = page.evaluate(TO_DARK)
                dark[path] = {"axe": page.evaluate(AXE_RUN, AXE_COLOUR_RULES), "errors": list(errors), **switched}
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            context.close()
            swept[(width, "light")], swept[(width, "dark")] = light, dark
        return swept[(width, scheme)]

    return at


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_no_serious_accessibility_violations_in_the_content(sweep, width, scheme):
    """axe-core on the content area of every sampled page: no serious or critical violation (in
    dark, of the rules that read colours: AXE_COLOUR_RULES; the others' verdicts are light's)."""
    found, pages = [], sweep(width, scheme)
    if scheme == "dark":  # really read in dark: Material's dark scheme, and every page's colours changed
        light = sweep(width, "light")
        assert {seen["scheme"] for seen in pages.values()} == {"slate"}
        assert [p for p, seen in pages.items() if seen["background"] == light[p]["background"]] == []
    for path, seen in pages.items():
        found += [f"{path}: {v}" for v in seen["axe"]]
        found += [f"{path}: console: {e}" for e in seen["errors"]]
    print(f"axe serious/critical at {width}px {scheme}: {len(found)}")
    assert found == []


def test_phone_tables_fit_or_stack_and_the_few_that_scroll_show_a_cue(sweep):
    """At 390 px: at most 1 table in 20 scrolls sideways; the rest fit the screen or are stacked
    (a row a block, each cell led by its column's heading); each that scrolls keeps its first
    column in view and shows an edge shadow."""
    scrolling, without_cue, unlabelled, stacked, tables = [], [], [], 0, 0
    for path, seen in sweep(390, "light").items():
        for n, table in enumerate(seen["tables"]):
            tables += 1
            stacked += table["stacked"]
            unlabelled += [f"{path} table {n + 1}: {cell}" for cell in table["unlabelled"]]
            if table["scrolls"]:
                scrolling.append(f"{path} table {n + 1}")
                if not table["cue"]:
                    without_cue.append(f"{path} table {n + 1}")
    print(f"390 px: {len(scrolling)} of {tables} tables scroll sideways, {stacked} stacked, {len(without_cue)} without a cue")
    assert tables > 0 and stacked > 0
    assert len(scrolling) * 20 <= tables, scrolling
    assert without_cue == [] and unlabelled == []


def test_phone_pages_have_no_stray_space_giant_icons_or_sideways_overflow(sweep):
    """At 390 px on every sampled page: the page never scrolls sideways, icons in text are the size of
    the text, and no heading ends in an empty line (an invisible permalink wrapped onto its own)."""
    problems = []
    for path, seen in sweep(390, "light").items():
        problems += [f"{path}: {p}" for p in seen["layout"]]
    assert problems == []


def first_load_bytes(browser, url: str) -> int:
    """Bytes of every response a first visit loads (no cache), until the network is idle."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sizes: dict[str, int] = {}

    def record(response):
        with contextlib.suppress(Exception):  # redirects and aborted requests have no body
            sizes[response.url] = len(response.body())

    page.on("response", record)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    context.close()
    return sum(sizes.values())


def test_first_load_of_a_game_page_is_at_most_one_megabyte(url, browser):
    for path in ["statecraft/index.html", "statecraft/kinds/country.html", "dei/solo/automa-move.html"]:
        size = first_load_bytes(browser, f"{url}/{path}")
        print(f"{path}: {size / 1024:.0f} KB")
        assert size <= 1_000_000, f"{path}: {size} bytes"


def test_search_index_loads_on_the_first_search_only(url, browser):
    """The index is not part of a first load; the first search fetches it and finds a card."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    loaded = []
    page.on("response", lambda response: loaded.append(response.url) if "/search/" in response.url else None)
    page.goto(f"{url}/statecraft/index.html")
    page.wait_for_load_state("networkidle")
    assert loaded == []
    text = search_from(page, "Nigeria")
    context.close()
    assert [u.rsplit("/", 1)[1] for u in loaded] == ["site.js", "statecraft.js"] and "Nigeria" in text


def test_first_load_stays_under_one_megabyte_with_fifty_more_games(tmp_path_factory, real_site, browser):
    folder = tmp_path_factory.mktemp("fifty")
    content = folder / "content"
    # Without the translation catalogs: the size measured is the English page's (the site in
    # another language, a second build of all 53 games, is not what this test reads).
    shutil.copytree(ROOT / "content", content, ignore=shutil.ignore_patterns(catalog.FOLDER))
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_synthetic_games.py"), str(content), "--games", "50"],
                   check=True, capture_output=True)
    site = folder / "site"  # the shipped games' flowcharts and pages from the session's build: the 50 are new
    build_site(content, site, warm_work(real_site, folder / "work"))
    with served(site) as base:
        size = first_load_bytes(browser, f"{base}/statecraft/index.html")
    print(f"53 games, statecraft/index.html: {size / 1024:.0f} KB")
    assert size <= 1_000_000


# --- valid HTML, and from disk -----------------------------------------------------------------

# Errors the validator finds in Material's own theme markup (outside our templates), each matched by
# its message and by the markup it quotes, so the same error in markup of ours is still reported.
MATERIAL_MARKUP = [
    ("Bad value “” for attribute “tabindex” on element “label”", 'class="md-nav__link',
     "Material's navigation partial writes tabindex=\"\" on section labels that are not focusable"),
    ("Attribute “autocomplete” is only allowed when the input type is", 'class="md-',
     "Material's drawer, search and navigation toggles are checkboxes with autocomplete=\"off\""),
    ("The value of the “for” attribute of the “label” element must be the ID of a non-hidden form control",
     '<label class="md-nav__title" for="__toc">',
     "Material's table-of-contents title on a section's index page points at a toggle it only "
     "writes on other pages"),
]


def validate(site: Path) -> list[dict]:
    """Every error the Nu HTML Checker finds in the site's pages."""
    if not shutil.which("java"):
        pytest.fail("java is not installed; ./scripts/test installs it with apt-get")
    if not VNU.exists():
        pytest.fail(f"{VNU.relative_to(ROOT)} is missing; ./scripts/test installs it with npm")
    result = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--skip-non-html", "--exit-zero-always",
                             str(site)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    messages = json.loads(result.stderr)["messages"]
    return [m for m in messages if m["type"] == "error" or m.get("subType") == "fatal"]


def test_every_page_is_valid_html_apart_from_materials_markup(site):
    """The Nu HTML Checker on every page of the built site: no error comes from our templates; errors in
    Material's own markup are counted by reason (and only those listed above)."""
    ours, material = [], collections.Counter()
    for error in validate(site):
        reason = next((why for message, quoted, why in MATERIAL_MARKUP
                       if error["message"].startswith(message) and quoted in error.get("extract", "")), None)
        if reason:
            material[reason] += 1
        else:
            page = error.get("url", "").split(str(site), 1)[-1].lstrip("/")
            ours.append(f"{page}:{error.get('lastLine')}: {error['message']} | {error.get('extract', '').strip()[:120]}")
    print(f"HTML validator: {len(ours)} errors from our templates; from Material's markup: {dict(material)}")
    assert ours == []
    assert sum(1 for _ in site.rglob("*.html")) > 0


def search_from(page, query: str) -> str:
    page.locator(".rs-search-button").click()
    page.keyboard.type(query)
    results = page.locator(".rs-search__results li")
    results.first.wait_for(state="visible", timeout=15000)
    return " ".join(results.all_inner_texts()[:10])


@pytest.mark.parametrize("width", [390, 1280])
def test_works_from_disk(site, browser, width):
    """Opened from file:// without a server: home, an overview, a procedure page with its walker and
    inline chart, and a search that finds a card; no console errors on any of them."""
    pages = ["index.html", "statecraft/index.html", procedure_pages(site)[0]]
    problems = []
    for path in pages:
        context, page, errors = open_page(browser, (site / path).as_uri(), width)
        if not page.locator("h1").first.is_visible():
            problems.append(f"{path}: no visible title")
        if "/solo/" in path:
            if not page.locator("svg.rs-flowchart__svg").first.is_visible():
                problems.append(f"{path}: the flowchart is not visible")
            step = page.locator(".rs-walker [data-step]")
            if step.count() != 1 or not step.first.get_by_role("button").first.is_visible():
                problems.append(f"{path}: the walker shows no step with a choice")
        if path == "index.html":
            found = search_from(page, "Nigeria")
            if "Nigeria" not in found:
                problems.append(f"{path}: searching 'Nigeria' found {found[:200]!r}")
        problems += [f"{path}: console: {e}" for e in errors]
        context.close()
    assert problems == []

"""What a page does in its first second on a phone (issue 29, Lighthouse), in Chromium.

The colour palette is run by the page itself from the header (templates/theme/partials/
javascripts/palette.html), not by Material's bundle: it must do for the reader what Material's did.
And Material's bundle, in its first run, must not make the browser restyle the whole page: each
time it did (its palette's color-scheme tag, the focus-visible class on the root), every element
of the page was styled again inside one long task, longest on the longest pages. Chromium's own
trace says how many elements each style recalculation touched, so this is counted, not timed.

Browser tests: marked `browser`.
"""

from __future__ import annotations

import json

import pytest
from conftest import served
from playwright import sync_api as playwright  # noqa: F401 - a test dependency (pyproject.toml): never skipped

pytestmark = pytest.mark.browser

GLOSSARY = "statecraft/glossary.html"
LONG_PAGES = [GLOSSARY, "statecraft/tables.html", "statecraft/kinds/country.html"]

STATE = """() => ({
  scheme: document.body.getAttribute("data-md-color-scheme"),
  media: document.body.getAttribute("data-md-color-media"),
  toggles: [...document.querySelectorAll("form.md-header__option label")]
    .filter(label => !label.hidden && getComputedStyle(label).display !== "none").map(label => label.title),
  themeColor: [...document.head.querySelectorAll("meta[name=theme-color]")].map(m => m.content),
  colorScheme: [...document.head.querySelectorAll("meta[name=color-scheme]")].map(m => m.content),
  header: getComputedStyle(document.querySelector(".md-header")).backgroundColor,
  saved: Object.keys(localStorage).filter(k => k.endsWith(".__palette")).map(k => JSON.parse(localStorage[k])),
})"""


@pytest.fixture(scope="module")
def url(real_site):
    with served(real_site) as base:
        yield base


def _hex(rgb: str) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])


def _open(browser, address: str, scheme: str, block_bundle: bool = False):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    if block_bundle:
        page.route("**/assets/javascripts/bundle.*.js", lambda route: route.abort())
    page.goto(address)
    page.wait_for_load_state("load")
    return context, page, errors


@pytest.mark.parametrize("scheme, palette, other", [("light", "default", "slate"), ("dark", "slate", "default")])
def test_the_page_opens_in_the_readers_scheme_with_its_toggle_before_materials_script(url, browser, scheme, palette,
                                                                                     other):
    """Without Material's bundle at all (what the first paint has), the page is already in the
    reader's palette, shows the toggle to the other one and has its theme-color and color-scheme."""
    context, page, _ = _open(browser, f"{url}/{GLOSSARY}", scheme, block_bundle=True)
    state = page.evaluate(STATE)
    context.close()
    assert state["scheme"] == palette
    assert state["toggles"] == ["Switch to dark theme" if scheme == "light" else "Switch to light theme"]
    assert state["colorScheme"] == [scheme] and state["themeColor"] == [_hex(state["header"])]
    assert state["saved"] == []  # nothing chosen yet: nothing saved


def test_a_switch_of_palette_is_shown_saved_and_kept_as_materials_was(url, browser):
    context, page, errors = _open(browser, f"{url}/{GLOSSARY}", "light")
    first = page.evaluate(STATE)
    page.locator("form.md-header__option label:not([hidden])").click()
    switched = page.evaluate(STATE)
    page.goto(f"{url}/statecraft/index.html")  # another page of the site keeps the choice
    page.wait_for_load_state("load")
    kept = page.evaluate(STATE)
    page.locator("input[name=__palette]").first.focus()  # the toggle's radio, as the Tab key reaches it
    page.keyboard.press("Enter")  # Enter on the toggle goes to the next palette, as Material's does
    back = page.evaluate(STATE)
    context.close()
    assert errors == []
    assert first["scheme"] == "default" and first["saved"] == []
    assert switched["scheme"] == "slate" and switched["toggles"] == ["Switch to light theme"]
    assert switched["colorScheme"] == ["dark"] and switched["themeColor"] == [_hex(switched["header"])]
    assert switched["saved"] == [{"index": 1, "color": {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
                                                        "primary": "blue-grey", "accent": "deep-orange"}}]
    assert kept["scheme"] == "slate" and kept["toggles"] == ["Switch to light theme"] and kept["colorScheme"] == ["dark"]
    assert back["scheme"] == "default" and back["saved"][0]["index"] == 0 and back["colorScheme"] == ["light"]


def test_a_palette_saved_by_materials_script_is_honoured(url, browser):
    """A reader who chose a palette before this change keeps it (Material's "__palette" record)."""
    context, page, _ = _open(browser, f"{url}/{GLOSSARY}", "light")
    page.evaluate("""() => __md_set("__palette", {index: 1, color: {media: "(prefers-color-scheme: dark)",
                     scheme: "slate", primary: "blue-grey", accent: "deep-orange"}})""")
    page.reload()
    page.wait_for_load_state("load")
    state = page.evaluate(STATE)
    context.close()
    assert state["scheme"] == "slate" and state["toggles"] == ["Switch to light theme"]


def _switch_scheme(page, scheme: str) -> None:
    """The reader's phone changes its colour scheme; returns once the page has been told. Chromium
    tells a page of a media change at its next rendering step, not at once: a counter registered
    after the page's own listener (events go to the oldest media query first) says it happened."""
    page.evaluate("""() => { if (window.__schemeChanges === undefined) { window.__schemeChanges = 0;
        matchMedia("(prefers-color-scheme: light)").addEventListener("change", () => window.__schemeChanges++); } }""")
    seen = page.evaluate("window.__schemeChanges")
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function(f"() => window.__schemeChanges > {seen}")


def test_until_the_reader_chooses_the_page_follows_the_readers_scheme(url, browser):
    context, page, _ = _open(browser, f"{url}/{GLOSSARY}", "light")
    _switch_scheme(page, "dark")
    dark = page.evaluate(STATE)
    page.locator("form.md-header__option label:not([hidden])").click()  # now chosen: light
    _switch_scheme(page, "light")
    _switch_scheme(page, "dark")
    chosen = page.evaluate(STATE)
    context.close()
    assert dark["scheme"] == "slate" and dark["colorScheme"] == ["dark"] and dark["saved"] == []
    assert chosen["scheme"] == "default" and chosen["saved"][0]["index"] == 0


# --- Material's first run ---------------------------------------------------------------------

TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
# Drawn: a frame laid out (which asks for the page's web fonts), the fonts loaded, a frame after that.
DRAWN = """async () => {
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  await frame();
  await document.fonts.ready;
  await frame();
}"""


def _restyles_in_materials_first_run(browser, address: str) -> dict:
    """The elements each style recalculation touched while Material's bundle first ran ("run",
    the number of such runs in "runs": one expected) and while the page's scripts started on
    DOMContentLoaded ("start"), with the elements of the page and those inside its tables. The
    bundle (deferred) is held back until the page has been parsed and drawn with its fonts (on a
    phone its download takes longer than that): what it then restyles, it made the browser restyle.
    (A fixed second was a guess: on a loaded machine the page was drawn only 0.9 s in.)"""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light")
    page = context.new_page()

    def held_back(route):
        response = route.fetch()
        page.wait_for_function("() => document.readyState !== 'loading'")  # parsed
        page.evaluate(DRAWN)
        route.fulfill(response=response)

    page.route("**/assets/javascripts/bundle.*.js", held_back)
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    page.goto(address)
    page.wait_for_load_state("load")
    counts = page.evaluate("""() => ({elements: document.getElementsByTagName("*").length,
                                      tables: document.querySelectorAll(".md-typeset table, .md-typeset table *").length})""")
    trace = json.loads(browser.stop_tracing())
    context.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    runs = [e for e in events if e.get("name") == "EvaluateScript" and e.get("ph") == "X"
            and "/assets/javascripts/bundle." in e.get("args", {}).get("data", {}).get("url", "")]
    starts = [e for e in events if e.get("name") == "EventDispatch" and e.get("ph") == "X"
              and e.get("args", {}).get("data", {}).get("type") == "DOMContentLoaded"
              and runs and (e["pid"], e["tid"]) == (runs[0]["pid"], runs[0]["tid"])]

    def restyles(spans):
        return [e["args"].get("elementCount", 0) for span in spans for e in events
                if e.get("name") == "UpdateLayoutTree" and e.get("ph") == "X"
                and (e["pid"], e["tid"]) == (span["pid"], span["tid"])
                and span["ts"] <= e["ts"] <= span["ts"] + span["dur"]]
    return dict(counts, run=restyles(runs), runs=len(runs), start=restyles(starts))


@pytest.mark.parametrize("path", LONG_PAGES)
def test_materials_first_run_does_not_restyle_the_page(url, browser, path):
    seen = _restyles_in_materials_first_run(browser, f"{url}/{path}")
    assert seen["runs"] == 1 and seen["elements"] > 500
    assert [n for n in seen["run"] if n > seen["elements"] // 10] == [], seen


@pytest.mark.parametrize("path", LONG_PAGES)
def test_on_dom_content_loaded_only_the_tables_material_moves_are_restyled(url, browser, path):
    """Material moves each table into its scrolling frame: the tables are restyled, the rest of
    the page is not (each table stands in a box of its own: templates/theme/main.html)."""
    seen = _restyles_in_materials_first_run(browser, f"{url}/{path}")
    assert seen["start"], seen  # the trace saw the start
    assert max(seen["start"]) <= seen["tables"] + seen["elements"] // 10, seen

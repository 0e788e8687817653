"""The bot walker (issue 15) in a real browser: every procedure of every game, every edge taken.

The procedures, their step numbers, texts and edges are read from the content, never listed here:
a new game or procedure is walked without touching this file. One build and one Chromium serve the
whole module; every wait is on a condition (an attribute, a text), never on time.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections import deque
from pathlib import Path

import pytest

from conftest import build_site
from rulesmith.pipeline import check_content
from rulesmith.render import layout
from rulesmith.render.markup import plain_text

from playwright import sync_api as playwright  # noqa: E402 - a test dependency (pyproject.toml): never skipped
from playwright.sync_api import expect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHECKED = {c.game.id: c for c in check_content(ROOT / "content")}
PROCEDURES = [(g, p.id) for g, c in CHECKED.items() for p in c.game.procedures]
GAMES_WITH_PROCEDURES = [g for g, c in CHECKED.items() if c.game.procedures]
PHONE = {"width": 390, "height": 844}
TABLE_REFERENCE = re.compile(r"\[\[(?:value:)?table:([a-z0-9-]+)[\]|.]")  # [[table:x]], [[table:x|…]], [[value:table:x.…]]

STEP = ".rs-walker [data-step]"
STATE = """() => {
  const root = document.querySelector('.rs-walker');
  const steps = root.querySelectorAll('[data-step]');
  const step = steps[0];
  const text = step.querySelector('.rs-walker__text').cloneNode(true);
  text.querySelectorAll('.rs-icon').forEach(i => i.replaceWith('[' + i.getAttribute('aria-label') + ']'));
  text.querySelectorAll('.rs-gap-ref').forEach(i => i.remove());
  const shown = e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  return {
    procedure: root.getAttribute('data-procedure'), count: steps.length, step: step.getAttribute('data-step'),
    visible: shown(step), end: step.hasAttribute('data-end'),
    number: step.querySelector('.rs-walker__badge').textContent.trim(), text: text.textContent,
    choices: Array.from(step.querySelectorAll('button')).map(b => b.textContent.trim()),
    choicesShown: Array.from(step.querySelectorAll('button')).every(shown),
    tables: Array.from(step.querySelectorAll('details')).map(d => [d.querySelector('summary').textContent.trim(),
                                                                   d.querySelectorAll('table').length]),
    otherStepsShown: Array.from(root.querySelectorAll('[data-node]:not([data-step])')).some(shown),
    live: root.querySelector('[aria-live]').textContent, hash: location.hash,
  };
}"""


# ---------------------------------------------------------------- what the data says

def plain(text: str) -> str:
    # A gap reference is drawn as an icon on the page (its text alternative is not in the text),
    # as the ▲ mark in charts: the step's words are compared without it.
    return re.sub(r"\s+", " ", text.replace("▲\u00a0", "")).strip()


class Graph:
    """A procedure as the reader should meet it: numbers, texts and labelled edges from the data."""

    def __init__(self, game_id: str, procedure_id: str):
        checked = CHECKED[game_id]
        self.procedure = next(p for p in checked.game.procedures if p.id == procedure_id)
        self.start = self.procedure.start
        self.number = {n.id: i for i, n in enumerate(self.procedure.nodes, start=1)}
        self.text = {n.id: plain(plain_text(n.text, checked.index)) for n in self.procedure.nodes}
        self.ends = {n.id for n in self.procedure.nodes if n.type == "end"}
        tables = {t.id: t.title for t in checked.game.tables}
        self.tables = {n.id: list(dict.fromkeys(tables[m.group(1)] for m in TABLE_REFERENCE.finditer(n.text)))
                       for n in self.procedure.nodes}
        self.edges = {n.id: ([("Done", n.next)] if n.type == "step" else [(b.when, b.to) for b in n.branches])
                      for n in self.procedure.nodes}

    def all_edges(self) -> set:
        return {(source, i) for source, out in self.edges.items() for i in range(len(out))}

    def route(self, source: str, wanted) -> list[tuple[int, str]] | None:
        """Shortest list of (edge index, target) from `source` to a node where `wanted(node)`."""
        seen, queue = {source: []}, deque([source])
        while queue:
            node = queue.popleft()
            if wanted(node) and node != source:
                return seen[node]
            for i, (_, target) in enumerate(self.edges[node]):
                if target not in seen:
                    seen[target] = seen[node] + [(node, i)]
                    queue.append(target)
        return None


def assert_at(page, graph: Graph, node: str, moved: bool = False) -> dict:
    """The walker shows exactly `node`: its number, its text, one button per edge with its label."""
    state = page.evaluate(STATE)
    where = f"{graph.procedure.id} at {node}"
    assert state["procedure"] == graph.procedure.id, where
    assert state["count"] == 1 and state["step"] == node, f"{where}: the page shows {state['step']}"
    assert state["visible"] and not state["otherStepsShown"], f"{where}: not the one step shown"
    assert state["number"] == str(graph.number[node]), f"{where}: number {state['number']}, data {graph.number[node]}"
    assert plain(state["text"]) == graph.text[node], f"{where}: text {plain(state['text'])!r}, data {graph.text[node]!r}"
    assert state["choices"] == [label for label, _ in graph.edges[node]], f"{where}: choices {state['choices']}"
    assert state["choicesShown"], f"{where}: a choice is not visible"
    assert state["end"] == (node in graph.ends), f"{where}: data-end is {state['end']}"
    assert state["tables"] == [[title, 1] for title in graph.tables[node]], f"{where}: tables {state['tables']}"
    if moved:  # the screen reader hears the new step
        assert state["live"].startswith(f"Step {graph.number[node]}") and graph.text[node][:40] in plain(state["live"]), \
            f"{where}: live region says {state['live']!r}"
    return state


def choose(page, label: str) -> None:
    page.locator(STEP).get_by_role("button", name=label, exact=True).click()


# ---------------------------------------------------------------- the site and the browser

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("walker")
    build_site(ROOT / "content", folder / "site", folder / "work")
    return folder / "site"


@pytest.fixture(scope="module")
def server(site):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()




@pytest.fixture
def page(browser):
    page = browser.new_page(viewport=PHONE)
    page.errors = []
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    errors = page.errors
    page.close()
    assert not errors, f"console errors: {errors}"


def procedure_url(base: str, game_id: str, procedure_id: str) -> str:
    return f"{base}/{layout.procedure_page(game_id, procedure_id)[:-3]}.html"


# ---------------------------------------------------------------- the tests

def test_every_game_with_procedures_is_walked():
    assert PROCEDURES, "no procedures found in the content"
    assert all(len(Graph(g, p).all_edges()) for g, p in PROCEDURES)


@pytest.mark.parametrize("game_id, procedure_id", PROCEDURES, ids=[f"{g}/{p}" for g, p in PROCEDURES])
def test_walk_takes_every_edge(server, page, game_id, procedure_id):
    """From a server at 390 px: every edge is taken once at least, every step checked against the
    data; halfway, a reload lands on the same step and Back still goes where the walk came from."""
    graph = Graph(game_id, procedure_id)
    page.goto(procedure_url(server, game_id, procedure_id))
    node, path, labels = graph.start, [graph.start], []
    assert_at(page, graph, node)
    untaken = graph.all_edges()
    total, reloaded = len(untaken), False
    while untaken:
        out = [i for i in range(len(graph.edges[node])) if (node, i) in untaken]
        if out:
            i = out[0]
        else:
            route = graph.route(node, lambda n: any((n, j) in untaken for j in range(len(graph.edges[n]))))
            if route is None:  # an end, or nothing left from here: start again
                page.locator(".rs-walker [data-restart]").click()
                node, path, labels = graph.start, [graph.start], []
                assert_at(page, graph, node, moved=True)
                assert page.evaluate("location.hash") == f"#walk={procedure_id}.{graph.start}"
                continue
            i = route[0][1]
        label, target = graph.edges[node][i]
        choose(page, label)
        untaken.discard((node, i))
        node = target
        path.append(node)
        labels.append(label)
        assert_at(page, graph, node, moved=True)
        if node in graph.ends:
            assert_next_procedure_link(page, game_id, procedure_id)
        if graph.tables[node]:  # one tap opens the table the step refers to
            details = page.locator(f"{STEP} details").first
            if not details.evaluate("d => d.open"):
                details.locator("summary").click()
            expect(details.locator("table")).to_be_visible()
        if not reloaded and len(untaken) <= total // 2 and len(path) > 1:
            reloaded = True
            hash_before = page.evaluate("location.hash")
            assert hash_before == "#walk=" + ".".join([procedure_id] + path)
            page.reload()
            assert_at(page, graph, node)
            assert page.evaluate("location.hash") == hash_before
            page.locator(".rs-walker [data-back]").click()
            assert_at(page, graph, path[-2], moved=True)
            choose(page, labels[-1])
            assert_at(page, graph, node, moved=True)
    assert reloaded or total < 2


def assert_next_procedure_link(page, game_id: str, procedure_id: str) -> None:
    """At an end of a procedure page: a link on to the next procedure of the game, if there is one."""
    procedures = CHECKED[game_id].game.procedures
    k = [p.id for p in procedures].index(procedure_id)
    link = page.locator(".rs-walker a", has_text="Next procedure")
    if k + 1 == len(procedures):
        expect(link).to_have_count(0)
        return
    expect(link).to_be_visible()
    expect(link).to_have_text("Next procedure: " + procedures[k + 1].title)
    target = layout.procedure_page(game_id, procedures[k + 1].id)
    assert page.evaluate("a => a.href", link.element_handle()).endswith(target[:-3] + ".html")


def first_procedure_page_with_inline_chart(page, site: Path, game_id: str, procedure_id: str) -> None:
    """The page's flowchart as an inline <svg>: as it is once charts are inline, or made so here from
    the built SVG file when the page still shows it as an <img> (the walker must find it either way)."""
    if page.locator("svg g.node[data-chart-node]").count():
        return
    svg = (site / layout.flowchart_file(game_id, procedure_id)).read_text(encoding="utf-8")
    svg = svg[svg.index("<svg"):]
    page.evaluate("svg => { const img = document.querySelector('img.rs-flowchart');"
                  " const holder = document.createElement('div'); holder.innerHTML = svg;"
                  " img.replaceWith(holder.firstElementChild); }", svg)


@pytest.mark.parametrize("game_id", GAMES_WITH_PROCEDURES)
def test_the_current_node_is_highlighted_in_an_inline_flowchart(server, site, page, game_id):
    procedure_id = CHECKED[game_id].game.procedures[0].id
    graph = Graph(game_id, procedure_id)
    page.goto(procedure_url(server, game_id, procedure_id))
    first_procedure_page_with_inline_chart(page, site, game_id, procedure_id)
    route = graph.route(graph.start, lambda n: n in graph.ends)
    node = graph.start
    for source, i in route:
        label, node = graph.edges[source][i]
        choose(page, label)
        highlighted = page.evaluate("() => Array.from(document.querySelectorAll('svg g.node.rs-walker-current'),"
                                    " g => g.getAttribute('data-chart-node'))")
        assert highlighted == [node], f"{procedure_id}: highlighted {highlighted}, current {node}"


# The Bot turn page of a game that declares its bot's turn (every shipped game) is played by
# tests/test_bot_turn.py.


def test_keyboard_only(server, page):
    """Tab to the walker and walk one procedure to an end, back and restart, with keys alone: after
    each move the focus is on the new step's first choice."""
    game_id, procedure_id = PROCEDURES[0]
    graph = Graph(game_id, procedure_id)
    page.goto(procedure_url(server, game_id, procedure_id))
    focused = "() => { const e = document.activeElement; return e && e.closest('.rs-walker') ?" \
              " (e.getAttribute('data-to') ? 'choice:' : '') + e.textContent.trim() : null; }"
    for _ in range(400):
        page.keyboard.press("Tab")
        if (page.evaluate(focused) or "").startswith("choice:"):
            break
    else:
        pytest.fail("Tab never reaches the walker's choices")
    node = graph.start
    for source, i in graph.route(graph.start, lambda n: n in graph.ends):
        assert page.evaluate(focused) == "choice:" + graph.edges[source][0][0]
        for _ in range(i):
            page.keyboard.press("Tab")
        label, node = graph.edges[source][i]
        assert page.evaluate(focused) == "choice:" + label
        page.keyboard.press("Enter")
        assert_at(page, graph, node, moved=True)
    tab_to(page, focused, "Restart")  # from the end
    page.keyboard.press(" ")
    assert_at(page, graph, graph.start, moved=True)
    assert page.evaluate(focused) == "choice:" + graph.edges[graph.start][0][0]
    label, target = graph.edges[graph.start][0]
    page.keyboard.press("Enter")
    assert_at(page, graph, target, moved=True)
    tab_to(page, focused, "Back")
    page.keyboard.press("Enter")
    assert_at(page, graph, graph.start, moved=True)
    assert page.evaluate(focused) == "choice:" + label


def tab_to(page, focused: str, name: str) -> None:
    for _ in range(20):
        if page.evaluate(focused) == name:
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reaches {name}")

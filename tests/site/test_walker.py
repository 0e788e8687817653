"""The bot walker (issue 15) in a real browser: every procedure of every game, every edge taken.

The procedures, their step numbers, texts and edges are read from the content, never listed here:
a new game or procedure is walked without touching this file. One build and one Chromium serve the
whole module; every wait is on a condition (an attribute, a text), never on time.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from conftest import press_the_pages_back, served
from playwright import sync_api as playwright  # noqa: F401 - a test dependency (pyproject.toml): never skipped
from playwright.sync_api import expect

from rulesmith.pipeline import check_content
from rulesmith.site import layout
from rulesmith.text.references import plain_text

ROOT = Path(__file__).resolve().parents[2]
CHECKED = {c.game.id: c for c in check_content(ROOT / "content")}
PROCEDURES = [(g, p.id) for g, c in CHECKED.items() for p in c.game.procedures]
GAMES_WITH_PROCEDURES = [g for g, c in CHECKED.items() if c.game.procedures]
GAMES_WITH_CALLS = [g for g, c in CHECKED.items() if any(n.call for p in c.game.procedures for n in p.nodes)]
PHONE = {"width": 390, "height": 844}
TABLE_REFERENCE = re.compile(r"\[\[(?:value:)?table:([a-z0-9-]+)[\]|.]")  # [[table:x]], [[table:x|…]], [[value:table:x.…]]

STEP = ".rs-walker [data-step]"
STATE = """() => {
  const root = document.querySelector('.rs-walker');
  const steps = root.querySelectorAll('[data-step]');
  const step = steps[0];
  const text = step.querySelector('.rs-walker__text').cloneNode(true);
  text.querySelectorAll('.rs-icon').forEach(i => i.replaceWith('[' + i.getAttribute('aria-label') + ']'));
  text.querySelectorAll('.rs-gap-ref, .rs-walker__marks').forEach(i => i.remove());  // the step's words, apart from its marks (test_marks.py)
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
    where: root.querySelector('.rs-walker__where').textContent,
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
        titles = {p.id: p.title for p in checked.game.procedures}
        # A step that calls another procedure is entered ("Run: …") and goes on at its next once the
        # call is returned from; an optional call may be left out.
        self.calls = {n.id: n.call.procedure for n in self.procedure.nodes if n.call is not None}
        self.edges = {n.id: ([(b.when, b.to) for b in n.branches] if n.type == "decision"
                             else [] if n.type == "end"
                             else [("Run: " + titles[n.call.procedure], n.next)]
                             + ([("Go on without it", n.next)] if n.call.optional else []) if n.call
                             else [("Done", n.next)])
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


def assert_at(page, graph: Graph, node: str, moved: bool = False, back_to: str | None = None) -> dict:
    """The walker shows exactly `node`: its number, its text, one button per edge with its label
    (at the end of a called procedure, the one back to its caller)."""
    state = page.evaluate(STATE)
    where = f"{graph.procedure.id} at {node}"
    assert state["procedure"] == graph.procedure.id, where
    assert state["count"] == 1 and state["step"] == node, f"{where}: the page shows {state['step']}"
    assert state["visible"] and not state["otherStepsShown"], f"{where}: not the one step shown"
    assert state["number"] == str(graph.number[node]), f"{where}: number {state['number']}, data {graph.number[node]}"
    assert plain(state["text"]) == graph.text[node], f"{where}: text {plain(state['text'])!r}, data {graph.text[node]!r}"
    expected = [label for label, _ in graph.edges[node]] + ([f"Back to {back_to}"] if back_to and node in graph.ends else [])
    assert state["choices"] == expected, f"{where}: choices {state['choices']}, data {expected}"
    assert state["choicesShown"], f"{where}: a choice is not visible"
    assert state["end"] == (node in graph.ends), f"{where}: data-end is {state['end']}"
    assert state["tables"] == [[title, 1] for title in graph.tables[node]], f"{where}: tables {state['tables']}"
    if moved:  # the screen reader hears the new step
        assert state["live"].startswith(f"Step {graph.number[node]}") and graph.text[node][:40] in plain(state["live"]), \
            f"{where}: live region says {state['live']!r}"
    return state


def choose(page, label: str) -> None:
    page.locator(STEP).get_by_role("button", name=label, exact=True).click()


def take(page, game_id: str, graph: Graph, node: str, i: int, callers: tuple[Graph, ...] = ()) -> str:
    """Take edge i of node; a call is entered, walked the shortest way to an end (each step checked,
    with where the walker says it is) and returned from. Returns the node the edge leads to."""
    label, target = graph.edges[node][i]
    choose(page, label)
    if node in graph.calls and i == 0:
        walk_call(page, game_id, callers + (graph,), graph.calls[node])
    return target


def walk_call(page, game_id: str, callers: tuple[Graph, ...], called: str) -> None:
    inner = Graph(game_id, called)
    titles = [g.procedure.title for g in callers] + [inner.procedure.title]
    node = inner.start
    while True:
        state = assert_at(page, inner, node, moved=True, back_to=callers[-1].procedure.title)
        assert state["where"] == " › ".join(titles) + f", step {inner.number[node]}", state["where"]
        if node in inner.ends:
            break
        route = inner.route(node, lambda n: n in inner.ends)
        node = take(page, game_id, inner, node, route[0][1], callers)
    choose(page, "Back to " + callers[-1].procedure.title)


# ---------------------------------------------------------------- the site and the browser

@pytest.fixture(scope="module")
def site(real_site) -> Path:
    return real_site  # the session's build of content/ (read-only)


@pytest.fixture(scope="module")
def server(site):
    with served(site) as base:
        yield base




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
        called = node in graph.calls and i == 0
        take(page, game_id, graph, node, i)
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
        if not reloaded and len(untaken) <= total // 2 and len(path) > 1 and not called:
            reloaded = True
            hash_before = page.evaluate("location.hash")
            if not any(lb.startswith("Run: ") for lb in labels):  # a call's own steps are in the address too
                assert hash_before == "#walk=" + ".".join([procedure_id] + path)
            else:
                assert hash_before.startswith(f"#walk={procedure_id}.") and hash_before.endswith("." + node)
            page.reload()
            assert_at(page, graph, node)
            assert page.evaluate("location.hash") == hash_before
            press_the_pages_back(page, page.locator(".rs-walker [data-back]"))
            assert_at(page, graph, path[-2], moved=True)
            choose(page, labels[-1])
            assert_at(page, graph, node, moved=True)
    assert reloaded or total < 2


@pytest.mark.parametrize("fragment", ["#%", "#walk=%E0%A4%A", "#%zz"])
def test_a_malformed_address_does_not_stop_the_walker(server, page, fragment):
    """An address whose fragment is not well formed (a link mistyped or cut off) gives no place:
    the walker opens at the first step and its buttons work (decoding it threw and stopped them)."""
    game_id, procedure_id = PROCEDURES[0]
    graph = Graph(game_id, procedure_id)
    page.goto(procedure_url(server, game_id, procedure_id) + fragment)
    assert_at(page, graph, graph.start)
    assert_at(page, graph, take(page, game_id, graph, graph.start, 0), moved=True)


def test_some_game_calls_a_procedure_from_a_step():
    assert GAMES_WITH_CALLS, "no procedure of the content calls another: the call tests would walk nothing"


@pytest.mark.parametrize("game_id", GAMES_WITH_CALLS)
def test_a_call_is_entered_and_returned_from_and_back_undoes_it(server, page, game_id):
    """On the page of a procedure that calls another: the call is entered, the walker says where it
    is, Back from the called procedure's first step is back at the calling step, a reload inside
    the call stays there, and the end of the call goes back to the step after the calling one."""
    game = CHECKED[game_id].game
    caller = next(p for p in game.procedures if any(n.call for n in p.nodes))
    graph = Graph(game_id, caller.id)
    calling = next(n for n in graph.calls)
    page.goto(procedure_url(server, game_id, caller.id))
    route = graph.route(graph.start, lambda n: n == calling) if calling != graph.start else []
    for source, i in route:
        take(page, game_id, graph, source, i)
    assert_at(page, graph, calling)
    inner = Graph(game_id, graph.calls[calling])
    choose(page, graph.edges[calling][0][0])
    state = assert_at(page, inner, inner.start, moved=True, back_to=caller.title)
    assert state["where"] == f"{caller.title} › {inner.procedure.title}, step 1"
    assert "+" + inner.procedure.id + "." in state["hash"]
    page.reload()
    assert assert_at(page, inner, inner.start, back_to=caller.title)["where"] == state["where"]
    press_the_pages_back(page, page.locator(".rs-walker [data-back]"))
    assert assert_at(page, graph, calling, moved=True)["where"] == ""
    take(page, game_id, graph, calling, 0)
    after = assert_at(page, graph, graph.edges[calling][0][1], moved=True)
    assert after["where"] == "" and "," + caller.id + "." in after["hash"]
    press_the_pages_back(page, page.locator(".rs-walker [data-back]"))  # Back from after the call: the called procedure's end
    back = page.evaluate(STATE)
    assert back["procedure"] == inner.procedure.id and back["end"], back


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
        node = take(page, game_id, graph, source, i)
        highlighted = page.evaluate("() => Array.from(document.querySelectorAll('svg g.node.rs-walker-current'),"
                                    " g => g.getAttribute('data-chart-node'))")
        assert highlighted == [node], f"{procedure_id}: highlighted {highlighted}, current {node}"


# The Bot turn page of a game that declares its bot's turn (every shipped game) is played by
# tests/site/test_bot_turn.py.


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


# ---------------------------------------------------------------- Back is undo (issue 25)

def answers_without_calls(graph: Graph, count: int) -> list[tuple[str, int]] | None:
    """`count` answers from the start, none entering a call: [(node, edge index)], or None."""
    def walk(node: str, taken: list) -> list | None:
        if len(taken) == count:
            return taken
        for i, (_, target) in enumerate(graph.edges[node]):
            if not (node in graph.calls and i == 0):
                found = walk(target, taken + [(node, i)])
                if found:
                    return found
        return None
    return walk(graph.start, [])


HISTORY_CASES = [(g, next(p.id for p in CHECKED[g].game.procedures if answers_without_calls(Graph(g, p.id), 3)))
                 for g in GAMES_WITH_PROCEDURES]
IN_VIEW = """() => {
  const step = document.querySelector('.rs-walker [data-step]'), badge = step.querySelector('.rs-walker__badge');
  const box = badge.getBoundingClientRect(), focused = document.activeElement;
  return {inView: box.top >= 0 && box.bottom <= innerHeight,
          focus: focused && focused.closest('.rs-walker') ? focused.textContent.trim() : null};
}"""


@pytest.mark.parametrize("game_id, procedure_id", HISTORY_CASES, ids=[g for g, _ in HISTORY_CASES])
def test_the_phones_back_button_undoes_a_step(server, page, game_id, procedure_id):
    """As a solo player on a phone: answer three steps, Back twice is two steps back (the step in
    view and the focus on its first answer, wherever the page was scrolled), a reload stays there,
    Forward gives the answers again, the walker's own Back goes through the same history (Forward
    after it gives the answer again), and Back from the first step leaves the page."""
    graph = Graph(game_id, procedure_id)
    before = f"{server}/{game_id}/index.html"
    page.goto(before)
    page.goto(procedure_url(server, game_id, procedure_id))
    nodes, hashes = [graph.start], [""]  # the page opened at its first step: no place in its address
    assert_at(page, graph, graph.start)
    for node, i in answers_without_calls(graph, 3):
        nodes.append(take(page, game_id, graph, node, i))
        assert_at(page, graph, nodes[-1], moved=True)
        hashes.append(page.evaluate("location.hash"))
    assert hashes[1:] == ["#walk=" + ".".join([procedure_id] + nodes[:k + 1]) for k in range(1, 4)]

    def at(k: int, moved: bool = True) -> None:
        assert_at(page, graph, nodes[k], moved=moved)
        assert page.evaluate("location.hash") == hashes[k]
        if moved:  # the step in view, the focus on its first answer (for a screen reader, the live region says it)
            seen = page.evaluate(IN_VIEW)
            first = graph.edges[nodes[k]][0][0] if graph.edges[nodes[k]] else None  # an end: what goes on from it
            assert seen["inView"] and seen["focus"] and seen["focus"] == (first or seen["focus"]), (k, seen)

    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # reading the numbered steps below
    page.go_back()
    at(2)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.go_back()
    at(1)
    # Reading below the walker: what the reader sees there is where they left it after a reload.
    # Judged by what is on the screen, not by scrollY: the page above may lay out a line taller or
    # shorter from one load to the next (fonts, the header), and the browser keeps the text read in
    # place (scroll anchoring), so scrollY alone differs by a line while the reader's view does not.
    below = "document.querySelector('.rs-walker').nextElementSibling.getBoundingClientRect().top"
    seen = page.evaluate(f"() => {{ window.scrollTo(0, document.querySelector('.rs-walker').getBoundingClientRect().bottom"
                         f" + scrollY + 100); return {below}; }}")
    assert seen < 0  # the walker is scrolled out of view
    page.reload()  # the same step, and the page where the reader had scrolled it
    at(1, moved=False)
    page.wait_for_function(f"() => Math.abs({below} - ({seen})) <= 2")
    page.go_forward()
    at(2)
    page.go_forward()
    at(3)
    press_the_pages_back(page, page.locator(".rs-walker [data-back]"))  # the walker's own Back: the same history
    at(2)
    page.go_forward()
    at(3)
    for k in (2, 1, 0):
        page.go_back()
        at(k)
    expect(page.locator(".rs-walker [data-back]")).to_be_disabled()
    page.go_back()  # from the first step: the page before
    page.wait_for_url(before)


# ---------------------------------------------------------------- charts on a phone (issue 25)

CHART_FILES = [(g, p.id) for g, c in CHECKED.items() for p in c.game.procedures]
CHART = """async () => {
  await document.fonts.ready;
  const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const luminance = c => { const v = rgb(c).map(x => x / 255).map(x => x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
                           return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const svg = document.querySelector('svg'), page = getComputedStyle(svg).backgroundColor;
  const texts = [], spills = [];
  svg.querySelectorAll('g.node').forEach(node => {
    const shape = node.querySelector('path, polygon'), box = shape.getBBox(), fill = getComputedStyle(shape).fill;
    node.querySelectorAll('text').forEach(t => {
      const x = parseFloat(t.getAttribute('x')), w = t.getComputedTextLength(), anchor = t.getAttribute('text-anchor');
      const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
      if (left < box.x || left + w > box.x + box.width) spills.push(t.textContent + ': ' + (left + w - box.x - box.width).toFixed(1));
      texts.push(contrast(getComputedStyle(t).fill, fill));
    });
  });
  svg.querySelectorAll('g.edge text').forEach(t => texts.push(contrast(getComputedStyle(t).fill, page === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : page)));
  // A branch's answer that lies on another edge's line or arrow: a reader could take it for that edge's.
  const edges = Array.from(svg.querySelectorAll('g.edge')), misplaced = [];
  const along = edge => Array.from(edge.querySelectorAll('path, polygon'), shape => {
    const length = shape.getTotalLength();
    return Array.from({length: 201}, (_, k) => shape.getPointAtLength(length * k / 200));
  }).flat();
  const lines = edges.map(along);
  edges.forEach((edge, i) => edge.querySelectorAll('text').forEach(t => {
    const box = t.getBBox();
    edges.forEach((other, j) => {
      if (j !== i && lines[j].some(p => p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height))
        misplaced.push(t.textContent);
    });
  }));
  return {family: getComputedStyle(svg.querySelector('text')).fontFamily, spills: spills, misplaced: misplaced, lowest: Math.min(...texts),
          // at 1:1: as drawn, times the chart's own width over its width on the screen (fitted to a narrower window)
          smallest: Math.min(...Array.from(svg.querySelectorAll('text'), t => parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a)))
                    * svg.width.baseVal.value / svg.getBoundingClientRect().width,
          faces: Array.from(document.fonts).filter(f => f.status !== 'unloaded').map(f => f.family + ' ' + f.status),
          sources: Array.from(document.styleSheets).flatMap(s => Array.from(s.cssRules)).filter(r => r instanceof CSSFontFaceRule).map(r => r.style.getPropertyValue('src'))};
}"""


def drawn_in(page) -> set[tuple[str, bool]]:
    """The fonts Chromium draws the chart's text with: (family, whether it is a web font)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    found = set()
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "text"})["nodeIds"]:
        found |= {(f["familyName"], f["isCustomFont"]) for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}
    cdp.detach()
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_whole_chart_carries_its_font_and_its_text_fits_its_boxes(server, site, page, scheme):
    """Every chart's own file ("Whole chart"), opened alone on a phone: it names Inter, the font
    Graphviz laid it out in, first, loads it from the site's own web fonts and draws every label in
    it; each line of a box fits inside the box, and no branch's answer lies on another edge,
    measured in Chromium; its text is 12 px or more at
    1:1 and contrasts with what it is drawn on (4.5:1), in the light and the dark palette."""
    page.emulate_media(color_scheme=scheme)
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))  # the browser's own asking, not the chart's
    for game_id, procedure_id in CHART_FILES:
        path = layout.flowchart_file(game_id, procedure_id)
        page.goto(f"{server}/{path}")
        chart = page.evaluate(CHART)
        where = f"{path} ({scheme})"
        assert chart["family"].split(",")[0].strip('"') == "Inter", (where, chart["family"])
        fonts = [re.search(r'url\("([^"]+)"\)', src).group(1) for src in chart["sources"]]
        assert fonts and all((site / path).parent.joinpath(f).resolve().is_file() for f in fonts), (where, fonts)
        assert chart["faces"] and all(f == "Inter loaded" for f in chart["faces"]), (where, chart["faces"])
        assert drawn_in(page) == {("Inter", True)}, (where, drawn_in(page))
        assert not chart["spills"], (where, chart["spills"])
        assert not chart["misplaced"], (where, "answers on another edge", chart["misplaced"])
        assert chart["smallest"] >= 12 and chart["lowest"] >= 4.5, (where, chart)


def test_the_whole_chart_opens_fitted_to_a_phones_screen(server, browser):
    """Every chart's own file ("Whole chart"), opened on a 390 px phone (touch, the phone's own
    zoom): the whole chart in view across, none of it cut off at the right, the page panning down
    only; a chart narrower than the window keeps its print size."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    seen = {}
    for game_id, procedure_id in CHART_FILES:
        page.goto(f"{server}/{layout.flowchart_file(game_id, procedure_id)}")
        seen[procedure_id] = page.evaluate("""() => {
          const svg = document.documentElement, box = svg.getBoundingClientRect(), scale = visualViewport.scale;
          return {right: Math.round(box.right * scale), across: Math.round(document.scrollingElement.scrollWidth * scale),
                  drawn: box.width, natural: svg.width.baseVal.value, window: innerWidth};
        }""")
    context.close()
    cut = {p: s for p, s in seen.items() if s["right"] > PHONE["width"] + 1 or s["across"] > PHONE["width"] + 1}
    shrunk = {p: s for p, s in seen.items() if s["natural"] <= s["window"] and abs(s["drawn"] - s["natural"]) > 1}
    assert seen and cut == {} and shrunk == {}, (cut, shrunk)
    assert any(s["natural"] > s["window"] for s in seen.values())  # one at least was fitted


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game_id", GAMES_WITH_PROCEDURES)
def test_full_size_on_a_phone_pans_one_way_and_reads(server, browser, game_id, scheme):
    """On a 390 px phone, a procedure page's Full size chart is the whole chart at print size: its
    frame as tall as the chart (it pans sideways only, the page scrolls down: no frame panning
    two ways inside the page), the page itself no wider than the phone, its text 12 px or more and
    contrasting with the chart's ground (4.5:1), light and dark."""
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    procedure = max(CHECKED[game_id].game.procedures, key=lambda p: len(p.nodes))  # the tallest chart
    page.goto(procedure_url(server, game_id, procedure.id))
    page.locator("label.rs-flowchart__button").click()
    seen = page.evaluate("""() => {
      const frame = document.querySelector('.rs-flowchart__frame'), svg = frame.querySelector('svg');
      const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
      const luminance = c => { const v = rgb(c).map(x => x / 255).map(x => x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
                               return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
      const ground = getComputedStyle(frame).backgroundColor;
      const edges = Array.from(svg.querySelectorAll('g.edge text'), t => {
        const [x, y] = [luminance(getComputedStyle(t).fill), luminance(ground)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); });
      return {pansDown: frame.scrollHeight > frame.clientHeight + 1, pansSideways: frame.scrollWidth > frame.clientWidth + 1,
              page: document.documentElement.scrollWidth, lowest: Math.min(...edges, 21),
              smallest: Math.min(...Array.from(svg.querySelectorAll('text'), t => parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a)))};
    }""")
    context.close()
    assert not seen["pansDown"] and seen["page"] <= PHONE["width"], seen
    assert seen["smallest"] >= 12 and seen["lowest"] >= 4.5, seen

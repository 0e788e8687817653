"""The Bot turn page in a real browser at 390 px: a whole bot turn of every game that declares one.

The turn, its procedures, calls, rolls, draws and table answers are read from the content (the
game's `bot:` and its procedures), never listed here. The test keeps its own place (a stack of
procedures, from the data) beside the page's and checks after every answer that the page shows the
same step with the same answers; every table answer the page computes is looked up again here in
the table; the phone's Back undoes one answer; a reload comes back to the same step and state.
"""

from __future__ import annotations

import functools
import re
from collections import deque
from pathlib import Path

import pytest
import yaml
from conftest import CONTRAST, GAMES, build_site, press_the_pages_back
from playwright import sync_api as playwright

from rulesmith.content import marks, turn
from rulesmith.pipeline import check_content
from rulesmith.values import status as statuses

ROOT = Path(__file__).resolve().parents[2]



@functools.cache
def checked() -> dict:
    """The shipped games, checked when a test first asks (not while the tests are collected)."""
    return {c.game.id: c for c in check_content(ROOT / "content")}


PHONE = {"width": 390, "height": 844}
SEED = 20261201


@pytest.fixture(scope="module")
def site(real_site) -> Path:
    return real_site  # the session's build of content/ (read-only)


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


def bot_places(game) -> list[tuple[str, object]]:
    """(what, item) of every part of the bot's declaration that says how faithful it is: the turn,
    each part, each state, each deck."""
    bot = game.bot
    return ([("turn", bot.turn)] + [(f"part-{n}", p) for n, p in enumerate(bot.turn.parts, start=1)]
            + [(f"state-{v.id}", v) for v in bot.state] + [(f"deck-{d.id}", d) for d in bot.decks])


@pytest.mark.parametrize("game_id", GAMES)
def test_the_bots_marked_places_are_on_the_gaps_page_with_links_both_ways(site, game_id):
    """Every part of the bot's declaration the data marks (missing, reconstructed …: Deep State's
    Falcon turn, Statecraft's parts listed by our reading, D.E.I.'s Action Phase count, the decks
    the source does not reproduce) is a row of Gaps in the source, with its note, whose link lands
    on the place's mark on the Bot turn page; that mark links back to the row."""
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.links, self.items, self._li = set(), [], [], None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if attrs.get("id"):
                self.ids.add(attrs["id"])
            if tag == "a" and attrs.get("href"):
                self.links.append(attrs["href"])
                if self._li is not None:
                    self._li["links"].append(attrs["href"])
            if tag == "li":
                self._li = {"ids": [], "links": [], "text": ""}
                self.items.append(self._li)
            if self._li is not None and attrs.get("id"):
                self._li["ids"].append(attrs["id"])

        def handle_data(self, data):
            if self._li is not None:
                self._li["text"] += data

        def handle_endtag(self, tag):
            if tag == "li":
                self._li = None

    def parse(path):
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        return parser

    game = checked()[game_id].game
    gaps, bot_page = parse(site / game_id / "gaps.html"), parse(site / game_id / "bot-turn.html")
    marked = [(what, item) for what, item in bot_places(game) if item.status != "verified"]
    assert marked, f"{game_id}: the bot's declaration marks nothing (every shipped game's does)"
    problems = []
    for what, item in marked:
        rows = [li for li in gaps.items if f"listed-bot-{what}" in li["ids"]]
        if len(rows) != 1:
            problems.append(f"{what}: {len(rows)} rows on the gaps page")
            continue
        row = rows[0]
        note_start = " ".join(item.note.split())[:30]
        if note_start.split("[[")[0] not in " ".join(row["text"].split()):
            problems.append(f"{what}: the row does not give the note ({note_start!r})")
        if f"bot-turn.html#mark-{what}" not in row["links"]:
            problems.append(f"{what}: the row does not link to its mark on the Bot turn page ({row['links']})")
        if f"mark-{what}" not in bot_page.ids:
            problems.append(f"{what}: the Bot turn page has no place #mark-{what}")
        if f"gaps.html#listed-bot-{what}" not in bot_page.links:
            problems.append(f"{what}: the Bot turn page does not link back to its row")
    for what, item in bot_places(game):  # and nothing verified is listed as a gap
        if item.status == "verified" and any(f"listed-bot-{what}" in li["ids"] for li in gaps.items):
            problems.append(f"{what}: verified, yet listed as a gap")
    assert problems == []


def test_every_shipped_game_declares_its_bot():
    assert [g for g, c in checked().items() if c.game.bot is None] == [], "a game with procedures but no `bot:` turn"


class Turn:
    """The game's turn as the data gives it, and the test's own place in it."""

    def __init__(self, game_id: str):
        self.game = checked()[game_id].game
        self.bot = self.game.bot
        self.procedures = {p.id: p for p in self.game.procedures}
        self.states = {v.id: v for v in self.bot.state}

    def node(self, procedure: str, node: str):
        return next(n for n in self.procedures[procedure].nodes if n.id == node)

    def distance(self, procedure: str, to_calls: bool = False) -> dict[str, int]:
        """Steps from each node to the nearest end (or step that calls another procedure): the test
        walks the shortest way, into a call until it has entered one."""
        nodes = self.procedures[procedure].nodes
        reverse: dict[str, list[str]] = {}
        for n in nodes:
            for target in ([n.next] if n.type == "step" else [b.to for b in n.branches]):
                reverse.setdefault(target, []).append(n.id)
        found = {n.id: 0 for n in nodes if (n.call is not None if to_calls else n.type == "end")}
        queue = deque(found)
        while queue:
            here = queue.popleft()
            for source in reverse.get(here, []):
                if source not in found:
                    found[source] = found[here] + 1
                    queue.append(source)
        return found

    def number(self, procedure: str, node: str) -> int:
        return [n.id for n in self.procedures[procedure].nodes].index(node) + 1

    def state_text(self, state: dict, bot: int = 1) -> str:
        return (f"Bot {bot} · " if self.bot.up_to > 1 else "") + " · ".join(
            f"{v.name} {turn.value_name(v, state[v.id])}" for v in self.bot.state)

    def after(self, state: dict) -> dict:
        """The state the next turn starts with: the turn's changes applied."""
        found = dict(state)
        self.advance(found, self.bot.turn.after)
        return found

    def advance(self, state: dict, changes) -> bool:
        ok = True
        for change in changes:
            values = turn.state_values(self.states[change.state])
            if str(change.to) != "next":
                state[change.state] = str(change.to)
                continue
            at = values.index(state[change.state])
            if at + 1 < len(values):
                state[change.state] = values[at + 1]
            elif change.carry:
                state[change.state] = values[0]
                ok = self.advance(state, [type(change)(state=change.carry, to="next")]) and ok
            else:
                ok = False
        return ok


def opening_state(t: Turn) -> dict[str, str]:
    """A state that lets every part apply (the last value a part's `only` allows), else the last value
    of each state: a late turn, at the hardest level."""
    state = {v.id: turn.state_values(v)[-1] for v in t.bot.state}
    for part in t.bot.turn.parts:
        for state_id, allowed in part.only.items():
            state[state_id] = str(allowed[-1])
    return state


def shown(page) -> dict:
    return page.evaluate("""() => {
      const root = document.querySelector('.rs-bot'), view = root.querySelector('.rs-bot__view');
      const answer = view && view.querySelector('.rs-bot__answer');
      const roll = view && view.querySelector('[data-roll]'), drawn = view && view.querySelector('[data-drawn]');
      const chart = Array.from(root.querySelectorAll('[data-chart]')).find(c => !c.hidden);
      const current = chart && chart.querySelector('g.node.rs-walker-current');
      const frame = chart && chart.querySelector('.rs-bot__chart-frame');
      const text = chart ? Array.from(chart.querySelectorAll('text')).map(t => parseFloat(getComputedStyle(t).fontSize)
          * (t.getScreenCTM() ? Math.abs(t.getScreenCTM().a) : 1)) : [];
      let inFrame = null;
      if (current && frame) {
        const a = current.getBoundingClientRect(), b = frame.getBoundingClientRect();
        inFrame = a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
      }
      const tables = view ? Array.from(view.querySelectorAll('details')).map(d => ({
          title: d.querySelector('summary').textContent.trim(),
          headers: Array.from(d.querySelectorAll('thead th')).map(c => c.textContent.trim()),
          rows: Array.from(d.querySelectorAll('tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent.trim()))})) : [];
      return {view: view && view.getAttribute('data-view'), tables: tables,
              rollText: roll && roll.textContent.trim(), drawnText: drawn && drawn.textContent.trim(), where: root.querySelector('.rs-bot__where').textContent,
              state: root.querySelector('.rs-bot__state').textContent, hash: location.hash,
              number: view && view.querySelector('.rs-walker__badge') ? view.querySelector('.rs-walker__badge').textContent : null,
              buttons: view ? Array.from(view.querySelectorAll('button')).map(b => b.textContent.trim()) : [],
              answer: answer && answer.getAttribute('data-answer'), answerText: answer && answer.textContent,
              roll: roll && roll.getAttribute('data-roll'), drawn: drawn && drawn.getAttribute('data-drawn'),
              chart: chart ? chart.getAttribute('data-chart') : null, current: current ? current.getAttribute('data-chart-node') : null,
              inFrame: inFrame, smallestText: text.length ? Math.min(...text) : null,
              whole: chart ? chart.querySelector('a.rs-bot__whole').href : null,
              width: document.documentElement.scrollWidth};
    }""")


def table_answer(t: Turn, node, case: dict[str, str], tables: list[dict]) -> str:
    """The answer of a step's table read, read here from the table the step shows (one tap away):
    the row whose first cell is the state's value (or the row key), then the column of the state's
    value (or the column whose faces hold the roll), named as the data names it."""
    read = node.reads
    table = next(tb for tb in t.game.tables if tb.id == read.table)
    shown_ = [tb for tb in tables if tb["title"] == table.title]
    assert shown_, f"the step does not show the table {table.title!r} it reads (it shows {[tb['title'] for tb in tables]})"
    headers, rows = shown_[0]["headers"], shown_[0]["rows"]
    assert headers == [c.title for c in table.columns], headers
    value = lambda ref: case[ref[6:]] if ref.startswith("state:") else case["roll"] if ref == "roll" else ref  # noqa: E731
    row = [r for r in rows if r[0] == value(read.row)]
    assert len(row) == 1, f"{table.title}: {len(row)} rows for {value(read.row)!r}"
    if read.find == "roll":
        holding = [j for j, cell in enumerate(row[0])  # the columns of faces (lists), not a count that equals the roll
                   if j and table.columns[j].type.endswith("list") and case["roll"] in re.findall(r"\d+", cell)]
        assert len(holding) == 1, f"{table.title}: the roll {case['roll']} is in {len(holding)} columns"
        column = table.columns[holding[0]]
        return read.names.get(column.id) or column.title
    wanted = value(read.column)
    wanted = read.columns.get(wanted, wanted)
    return row[0][[c.id for c in table.columns].index(wanted)]


STOPS = ("events", "applies", "question", "loop", "call", "count", "confirm", "end")


def answer_any(page) -> None:
    """The first answer the page offers now (on an events screen: the first event ticked, Go on)."""
    before = page.evaluate("location.hash")
    if page.locator(".rs-bot__view").get_attribute("data-view") == "events":
        page.locator(".rs-bot__events input").first.check()
    page.locator(".rs-bot__choices button").first.click()
    page.wait_for_function("h => location.hash !== h", arg=before)


def click(page, label: str) -> None:
    page.locator(".rs-bot__view button", has_text=re.compile("^" + re.escape(label) + "$")).first.click()


def log_length(hash_: str) -> int:
    log = hash_.split("&log=", 1)[1]
    return len(log.split(".")) if log else 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_state_is_set_once_and_kept(site, page, game_id):
    """A first visit asks for the bot's state (its values from the data); it is kept on the phone:
    the page opened again without an address comes back to it."""
    t = Turn(game_id)
    url = (site / game_id / "bot-turn.html").as_uri()
    page.goto(url)
    form = page.locator(".rs-bot__setup")
    playwright.expect(form).to_be_visible()
    chosen = {}
    for v in t.bot.state:
        select = form.locator(f'select[name="{v.id}"]')
        options = select.locator("option").all_inner_texts()
        assert options == [turn.value_name(v, value) for value in turn.state_values(v)]
        chosen[v.id] = turn.state_values(v)[-1]
        select.select_option(chosen[v.id])
    form.locator("button[type=submit]").click()
    assert shown(page)["state"] == t.state_text(chosen)
    in_address = "state=" + ",".join(f"{v.id}:{chosen[v.id]}" for v in t.bot.state)
    assert in_address in page.evaluate("location.hash")
    stored = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('rulesmith-bot:') && !k.endsWith(':cards'))
                              .map(k => JSON.parse(localStorage.getItem(k)).state)""")
    assert stored == [chosen], stored  # kept on the phone
    answer_any(page)
    page.goto("about:blank")
    page.goto(url)  # opened again without an address: the state and the place come back from the phone
    assert shown(page)["state"] == t.state_text(chosen) and shown(page)["view"] in STOPS
    assert in_address in page.evaluate("location.hash")
    # changed once more (Change): the new state is kept, the answers so far stand
    page.locator(".rs-bot__change").click()
    first = t.bot.state[0]
    other = turn.state_values(first)[0]
    form.locator(f'select[name="{first.id}"]').select_option(other)
    form.locator("button[type=submit]").click()
    chosen[first.id] = other
    assert shown(page)["state"] == t.state_text(chosen) and shown(page)["view"] in STOPS
    page.reload()
    assert shown(page)["state"] == t.state_text(chosen)


@pytest.mark.parametrize("fragment", ["#%", "#bot&state=%E0%A4%A"])
def test_a_malformed_address_does_not_stop_the_bot_turn(site, page, fragment):
    """An address whose fragment is not well formed gives no place: the page asks for the bot's
    state, and its form and buttons work (decoding the address threw and stopped them)."""
    game_id = next(g for g in GAMES if Turn(g).bot.state)
    page.goto((site / game_id / "bot-turn.html").as_uri() + fragment)
    form = page.locator(".rs-bot__setup")
    playwright.expect(form).to_be_visible()
    form.locator("button[type=submit]").click()
    assert shown(page)["view"] in STOPS
    answer_any(page)
    assert log_length(page.evaluate("location.hash")) == 1


# ---- what storage holds is another page's to write too (issue 46): every shape of a forged saved turn

def _valid_state(t: Turn) -> dict:
    return {v.id: turn.state_values(v)[0] for v in t.bot.state}


def _saved(state, **fields) -> str:
    import json

    return json.dumps({"state": state, "seed": 1, "log": [], **fields})


FORGED = {
    "log null": lambda state: _saved(state, log=None),
    "log missing": lambda state: _saved(state).replace(',"log":[]', "").replace(', "log": []', ""),
    "log a number": lambda state: _saved(state, log=7),
    "log a string": lambda state: _saved(state, log="g.d"),
    "log of objects": lambda state: _saved(state, log=[{"a": 1}, 2]),
    "log too long": lambda state: _saved(state, log=["d"] * 5001),
    "seed a string": lambda state: _saved(state, seed="1"),
    "seed not a whole number": lambda state: _saved(state, seed=1.5),
    "state a string": lambda state: _saved("turn:1"),
    "state of numbers": lambda state: _saved(dict.fromkeys(state, 1)),
    "state of unknown values": lambda state: _saved(dict.fromkeys(state, "nope")),
    "a list": lambda state: "[1, 2]",
    "null": lambda state: "null",
    "not JSON": lambda state: "{oops",
}


@pytest.mark.parametrize("shape", list(FORGED))
def test_a_forged_saved_turn_is_dropped_and_said(site, page, shape):
    """A saved turn storage holds that the page could not have written is dropped, the page says so
    and starts clean, and its form and Start work (each shape threw on every load before)."""
    game_id = next(g for g in GAMES if Turn(g).bot.state)
    t = Turn(game_id)
    url = (site / game_id / "bot-turn.html").as_uri()
    page.goto(url)
    page.evaluate("([forged]) => localStorage.setItem('rulesmith-bot:' + location.pathname, forged)",
                  [FORGED[shape](_valid_state(t))])
    page.reload()
    form = page.locator(".rs-bot__setup")
    playwright.expect(form).to_be_visible()
    dropped = page.locator(".rs-bot__dropped")
    playwright.expect(dropped).to_contain_text("could not be read")
    playwright.expect(dropped).to_contain_text("it was dropped")
    assert page.evaluate("localStorage.getItem('rulesmith-bot:' + location.pathname)") is None
    form.locator("button[type=submit]").click()
    assert shown(page)["view"] in STOPS
    page.reload()  # what it stores now is its own, read back without a word
    assert shown(page)["view"] in STOPS
    assert page.locator(".rs-bot__dropped").count() == 0


def test_a_valid_address_wins_over_forged_storage(site, page):
    game_id = next(g for g in GAMES if Turn(g).bot.state)
    t = Turn(game_id)
    url = (site / game_id / "bot-turn.html").as_uri()
    page.goto(url)
    page.evaluate("([forged]) => localStorage.setItem('rulesmith-bot:' + location.pathname, forged)",
                  [FORGED["log null"](_valid_state(t))])
    state = ",".join(f"{v.id}:{turn.state_values(v)[0]}" for v in t.bot.state)
    page.goto(url + f"#bot&state={state}&seed=5&log=")
    assert shown(page)["view"] in STOPS
    answer_any(page)  # one answer: a place of the turn that storage did not hold
    place = shown(page)["hash"]
    stored = page.evaluate("JSON.parse(localStorage.getItem('rulesmith-bot:' + location.pathname))")
    assert stored["seed"] == 5 and len(stored["log"]) == log_length(place), (stored, place)
    page.goto("about:blank")
    page.goto(url)  # no address: the place the address gave, from storage
    assert shown(page)["hash"] == place and page.locator(".rs-bot__dropped").count() == 0


@pytest.mark.parametrize("forged", ["null", "[1]", '{"solo-agenda-cards": 5}', '"text"', "{oops"])
def test_forged_card_notes_are_dropped(site, page, forged):
    """The notes kept for a deck the source does not reproduce: a forged value (`null` threw at
    the first card) reads as no note, and a note typed then is kept."""
    t = Turn("statecraft")
    url = (site / "statecraft" / "bot-turn.html").as_uri()
    page.goto(url)
    page.evaluate("([forged]) => localStorage.setItem('rulesmith-bot:' + location.pathname + ':cards', forged)", [forged])
    state = ",".join(f"{v.id}:{turn.state_values(v)[0]}" for v in t.bot.state)
    page.goto(url + f"#bot&state={state}&seed=1&log=")
    note = page.locator(".rs-bot__note")
    for _ in range(60):  # played on to the first card of a deck the source does not reproduce
        if note.count() and note.first.is_visible():
            break
        answer_any(page)
    playwright.expect(note).to_be_visible()
    assert note.input_value() == ""
    note.fill("Agenda 3")
    note.dispatch_event("change")
    assert page.evaluate("JSON.parse(localStorage.getItem('rulesmith-bot:' + location.pathname + ':cards'))") == {
        "solo-agenda-cards": "Agenda 3"}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_bots_back_button_and_the_phones_are_one_history(site, page, game_id):
    """A first visit: set up, Start, two answers. The page's own Back and the phone's Back go
    through the same history (Forward gives an undone answer again, the page keeps its place
    shown and its focus on an answer); from the set-up the page opened at, Back leaves the page."""
    url = (site / game_id / "bot-turn.html").as_uri()
    page.goto("about:blank")
    page.goto(url)
    form = page.locator(".rs-bot__setup")
    playwright.expect(form).to_be_visible()
    form.locator("button[type=submit]").click()
    hashes = [page.evaluate("location.hash")]
    for _ in range(3):
        answer_any(page)
        hashes.append(page.evaluate("location.hash"))
    assert [log_length(h) for h in hashes] == [0, 1, 2, 3], hashes
    here = lambda: page.evaluate("""() => ({hash: location.hash, focus: document.activeElement.closest('.rs-bot__view') ? 'answer' : null,
        view: document.querySelector('.rs-bot__view').getAttribute('data-view')})""")  # noqa: E731
    press_the_pages_back(page, page.locator('.rs-bot [data-act="back"]'))
    assert here()["hash"] == hashes[2] and here()["focus"] == "answer", here()
    page.go_forward()
    assert here()["hash"] == hashes[3] and here()["focus"] == "answer", here()
    for k in (2, 1, 0):
        page.go_back()
        assert here()["hash"] == hashes[k] and here()["focus"] == "answer", (k, here())
    assert log_length(here()["hash"]) == 0, shown(page)
    page.go_back()  # the set-up the page opened at: asked again, with the state chosen
    playwright.expect(form).to_be_visible()
    page.go_back()
    page.wait_for_url("about:blank")


def step_choices(t: Turn, n) -> tuple[list[str], list[str]]:
    """(targets, labels) of a node's choices in a procedure page's walker, from the data."""
    if n.type == "decision":
        return [b.to for b in n.branches], [b.when for b in n.branches]
    if n.call is not None:
        title = t.procedures[n.call.procedure].title
        return [n.next] * (2 if n.call.optional else 1), [f"Run: {title}"] + (["Go on without it"] if n.call.optional else [])
    return [n.next], ["Done"]


def walker_click(page, label: str) -> None:
    page.locator(".rs-walker [data-step]").get_by_role("button", name=label, exact=True).click()


def walk_call(page, t: Turn, procedure: str, caller_title: str, calling: str) -> None:
    """Walk a called procedure the shortest way to an end and go back to the caller, checking that
    the page's chart keeps the calling step marked meanwhile."""
    distance, node = t.distance(procedure), t.procedures[procedure].start
    while True:
        current = page.evaluate("() => Array.from(document.querySelectorAll('svg.rs-flowchart__svg g.node.rs-walker-current'),"
                                " g => g.getAttribute('data-chart-node'))")
        assert current == [calling], current
        n = t.node(procedure, node)
        if n.type == "end":
            walker_click(page, f"Back to {caller_title}")
            return
        targets, labels = step_choices(t, n)
        i = min(range(len(targets)), key=lambda k: (distance.get(targets[k], 10 ** 6), labels[k].startswith("Run: ")))
        walker_click(page, labels[i])
        if labels[i].startswith("Run: "):
            walk_call(page, t, n.call.procedure, t.procedures[procedure].title, calling)
        node = targets[i]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_procedure_page_chart_follows_its_walker_on_a_phone(site, page, game_id):
    """At 390 px a procedure page's chart opens fitted to the screen's width (neither it nor the page
    pans sideways); a tap on Full size shows it at print size (text of 12 px or more) in a frame that
    keeps the walker's current step in view as the reader walks; the whole chart is one tap away."""
    t = Turn(game_id)
    procedure = max(t.game.procedures, key=lambda p: len(p.nodes))  # the tallest chart
    page.goto((site / game_id / "solo" / f"{procedure.id}.html").as_uri())
    fitted = page.evaluate("""() => {
      const frame = document.querySelector('.rs-flowchart__frame'), svg = frame.querySelector('svg');
      return {frame: frame.scrollWidth - frame.clientWidth, page: document.documentElement.scrollWidth,
              chart: svg.getBoundingClientRect().width, room: frame.clientWidth};
    }""")
    assert fitted["frame"] <= 1 and fitted["page"] <= 390 and fitted["chart"] <= fitted["room"] + 1, fitted
    page.locator("label.rs-flowchart__button").click()
    distance = t.distance(procedure.id)
    node = procedure.start
    for _ in range(6):
        n = t.node(procedure.id, node)
        if n.type == "end":
            break
        targets, labels = step_choices(t, n)
        i = max(range(len(targets)), key=lambda k: distance.get(targets[k], -1))  # the long way round
        walker_click(page, labels[i])
        if labels[i].startswith("Run: "):  # a call: entered, walked, returned from; the chart keeps the calling step
            walk_call(page, t, n.call.procedure, procedure.title, node)
        node = targets[i]
        seen = page.evaluate("""() => {
          const svg = document.querySelector('svg.rs-flowchart__svg'), frame = svg.closest('.rs-flowchart__frame');
          const current = svg.querySelector('g.node.rs-walker-current');
          const a = current.getBoundingClientRect(), b = frame.getBoundingClientRect();
          const sizes = Array.from(svg.querySelectorAll('text')).map(t => parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a));
          return {current: current.getAttribute('data-chart-node'), smallest: Math.min(...sizes),
                  inFrame: a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1 ||
                           (a.width > b.width || a.height > b.height)};
        }""")
        assert seen["current"] == node and seen["inFrame"], seen
        assert seen["smallest"] >= 12, seen
    whole = page.locator("a.rs-flowchart__whole")
    assert whole.get_attribute("href").endswith(f"flowcharts/{procedure.id}.svg")
    assert (site / game_id / "flowcharts" / f"{procedure.id}.svg").is_file()


CHANCE = ROOT / "tests" / "fixtures" / "bot-chance"


@pytest.fixture(scope="module")
def chance_site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bot-chance")
    build_site(CHANCE, folder / "site", folder / "work")
    return folder / "site"


# ---------------------------------------------------------------- the turn played in a few taps (issue 43)

SCRIPT = yaml.safe_load((ROOT / "benchmarks" / "taps.yaml").read_text(encoding="utf-8"))
MOST_TAPS = {"deep-state": 18, "dei": 20, "statecraft": 24}  # a third of the stepper's taps (issue 36)


@pytest.fixture
def phone(browser):
    """A phone: 390 × 844, touch."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    errors = page.errors
    context.close()
    assert not errors, f"page errors: {errors}"


def tap(page, locator) -> None:
    """Tap, and return once the page has taken the answer (its address changed)."""
    before = page.evaluate("location.hash")
    locator.tap()
    page.wait_for_function("h => location.hash !== h", arg=before)


def choice(page, label: str):
    return page.locator(".rs-bot__view button", has_text=re.compile("^" + re.escape(label) + "$")).first


def the_loop_on_one_screen(page, procedure, at: str, ending: list[str]):
    """A loop played at the table, as the page shows it where it is entered: the loop's steps (the
    data's cycle of steps and board questions, turn.table_loops) in the procedure's order, each with
    its whole text and its marks as the page renders the step alone (the hidden copy the walker
    reads), each question with where each answer leads; its ways out, and only those, as the
    answers under their questions. Returns the button of how the script says it ended."""
    node_id = at.split(".", 1)[1]
    loop = next(loop for loop in turn.table_loops(procedure) if node_id in loop.nodes)
    nodes = {n.id: n for n in procedure.nodes}
    view = page.locator(".rs-bot__view")
    items = view.locator(".rs-bot__loop > li")
    assert items.evaluate_all("ls => ls.map(l => l.getAttribute('data-node'))") == [f"{procedure.id}.{n}" for n in loop.nodes]
    library = page.evaluate("""ids => ids.map(id => {
        const n = document.querySelector('.rs-bot__library [data-procedure="' + id[0] + '"] [data-node="' + id[1] + '"] .rs-walker__text');
        return [n.textContent.replace(/\\s+/g, ' ').trim(), n.querySelectorAll('.rs-gap, a').length];
      })""", [[procedure.id, n] for n in loop.nodes])
    texts = items.evaluate_all("""ls => ls.map(l => {
        const t = l.querySelector('.rs-walker__text');
        return [t.textContent.replace(/\\s+/g, ' ').trim(), t.querySelectorAll('.rs-gap, a').length];
      })""")
    assert texts == library, "every step of the loop with its whole text and marks"
    c = checked()[page.url.split("/")[-2]]
    for (_, links), n in zip(texts, loop.nodes, strict=True):  # the marks the content gives each step (marks.step), each a link
        assert links >= len(marks.step(c.game, c.index, procedure, nodes[n])), n
    for i, n in enumerate(loop.nodes):
        ways = items.nth(i).locator(".rs-bot__ways > li").all_inner_texts()
        assert [w.split(":", 1)[0] for w in ways] == [b.when for b in nodes[n].branches]
        assert [w.endswith("out of the loop") for w in ways] == [b.to not in loop.nodes for b in nodes[n].branches]
    exits = view.locator(".rs-bot__exit button").all_inner_texts()
    assert exits == [nodes[n].branches[i].when for n, i in loop.exits], "the ways out, and only those"
    assert view.locator(".rs-bot__exit").count() == len({n for n, _ in loop.exits})
    assert view.locator("button").count() == len(exits), "nothing else to answer on the loop's screen"
    decision, label = ending
    group = view.locator(".rs-bot__exit").nth(list(dict.fromkeys(n for n, _ in loop.exits)).index(decision))
    return group.locator("button", has_text=re.compile("^" + re.escape(label) + "$"))


def play_turn(page, game, script: dict) -> dict:
    """One whole turn at the table, the board answered by the script (benchmarks/taps.yaml): the
    taps it took, the questions asked (where, and whether the data says only the player can
    answer them), the page's own answers (with the reason each shows)."""
    nodes = {(p.id, n.id): n for p in game.procedures for n in p.nodes}
    events = [list(e) for e in script.get("events", [])]
    used: dict[str, int] = {}
    procedures = {p.id: p for p in game.procedures}
    found = {"taps": 0, "asked": [], "reasons": [], "steps": [], "loops": [], "answers": []}
    for _ in range(200):
        view = page.locator(".rs-bot__view")
        kind, at = view.get_attribute("data-view"), view.get_attribute("data-at")
        found["reasons"] += page.locator(".rs-bot__line--answer").evaluate_all(
            "ls => ls.map(l => [l.getAttribute('data-node'), (l.querySelector('.rs-bot__why') || {}).textContent || ''])")
        found["answers"] += page.locator(".rs-bot__line--answer").evaluate_all(
            "ls => ls.map(l => [l.getAttribute('data-node'), l.querySelector('[data-answer]').getAttribute('data-answer'),"
            " (l.querySelector('.rs-bot__why') || {}).textContent || ''])")
        found["steps"] += page.locator(".rs-bot__line--step").evaluate_all("ls => ls.map(l => l.getAttribute('data-node'))")
        if kind == "end":
            return found
        if kind == "events":
            names = {e.id: e.name for e in game.bot.turn.events}
            for event in events.pop(0) if events else []:
                page.locator(".rs-bot__events label", has_text=names[event]).tap()
                found["taps"] += 1
            target = choice(page, "Go on")
        elif kind == "applies":
            target = choice(page, "It applies: start")
        elif kind == "question":
            procedure, node = at.split(".", 1)
            answers = script["answers"][at]
            label = answers[min(used.get(at, 0), len(answers) - 1)]
            used[at] = used.get(at, 0) + 1
            found["asked"].append((at, nodes[(procedure, node)].asks))
            target = choice(page, label)
        elif kind == "loop":
            found["loops"].append(at)
            target = the_loop_on_one_screen(page, procedures[at.split(".", 1)[0]], at, script["loops"][at][0])
        elif kind == "call":
            target = choice(page, "Go on without it")
        elif kind == "count":
            target = choice(page, str(script.get("count", 2)))
        else:
            target = page.locator(".rs-bot__choices button.rs-bot__primary").first
        tap(page, target)
        found["taps"] += 1
    raise AssertionError("the turn did not end in 200 taps")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_bot_turn_in_a_few_taps_then_a_second_with_its_state(site, phone, game_id):
    """A whole bot turn on a phone (390 × 844, touch), the board answered by the benchmark's script:
    at most a third of the stepper's taps; every question asked is one the data says only the
    player can answer; every answer the page gives itself shows its reason. Then the next turn
    starts from the state the turn left (the steps' changes, then the turn's), kept on a reload:
    Deep State's Falcon joined Antiterror with his first Cyberattack (counted: whether he holds one
    is the page's answer next time), D.E.I.'s next Action Phase, Statecraft's next round."""
    t = Turn(game_id)
    script = SCRIPT[game_id]
    state = {v.id: str(script.get("state", {}).get(v.id, v.initial if v.initial is not None else turn.state_values(v)[0]))
             for v in t.bot.state}
    address = "#bot&state=" + ",".join(f"{v.id}:{state[v.id]}" for v in t.bot.state) + f"&seed={script['seed']}&log="
    phone.goto((site / game_id / "bot-turn.html").as_uri() + address)
    playwright.expect(phone.locator(".rs-bot__view")).to_be_visible()
    played = play_turn(phone, t.game, script)
    assert played["taps"] <= MOST_TAPS[game_id], played
    in_loops = {(p.id, n) for p in t.game.procedures for loop in turn.table_loops(p) for n in loop.nodes}
    assert not [at for at, _ in played["asked"] if tuple(at.split(".", 1)) in in_loops], "a loop played at the table is one screen"
    assert played["loops"] == list(SCRIPT[game_id].get("loops", {})), played["loops"]
    assert played["asked"] and all(asks == "board" for _, asks in played["asked"]), played["asked"]
    assert played["reasons"] and all(why.startswith(" (") and len(why) > 4 for _, why in played["reasons"]), played["reasons"]
    assert phone.locator(".rs-bot__view .rs-bot__heading").last.inner_text() == f"End of {t.bot.turn.called}."
    during = dict(state)  # the state as the steps passed changed it (sets:), then the turn's changes
    for where in played["steps"]:
        procedure, node = where.split(".", 1)
        t.advance(during, t.node(procedure, node).sets)
    after = t.after(during)
    if game_id == "deep-state":  # his first Cyberattack: counted, and he joined Antiterror with it
        assert (after["cyberattacks"], after["ecocides"], after["antiterror-stage"]) == ("1", "0", "1"), after
        assert ["falcon-antiterror.which-cyberattack", "His first Cyberattack", " (Cyberattack tokens Falcon holds: 1)"] in played["answers"]
    tap(phone, choice(phone, "Start the next turn"))
    assert shown(phone)["state"] == t.state_text(after)
    assert "state=" + ",".join(f"{v.id}:{after[v.id]}" for v in t.bot.state) in phone.evaluate("location.hash")
    phone.reload()
    assert shown(phone)["state"] == t.state_text(after) and shown(phone)["view"] in STOPS


def test_falcons_secret_operations_are_counted_and_answer_which_one_it_was_for_antiterror(site, phone):
    """Deep State: which secret operation Falcon carried out, for Antiterror, is the page's answer: the
    operation procedure runs Antiterror after the one it chose (a call for that operation), and his
    tokens, counted in the state across turns, say which of its kind it was. A second Cyberattack:
    he holds 2 and does not advance; then an Ecocide, his first: he advances."""
    t = Turn("deep-state")
    state = {v.id: str(v.initial) for v in t.bot.state} | {"difficulty": "high", "cyberattacks": "1", "antiterror-stage": "1"}
    address = "#bot&state=" + ",".join(f"{v.id}:{state[v.id]}" for v in t.bot.state) + "&seed=7&log="
    phone.goto((site / "deep-state" / "bot-turn.html").as_uri() + address)
    script = {"events": [["special-operation"]], "loops": {"falcon-secret-operation-payment.more": [["more", "No"]]},
              "answers": {"falcon-secret-operation-choice.base-operation": ["No"],
                          "falcon-secret-operation-choice.try-ecocide": ["No"],
                          "falcon-secret-operation-choice.try-cyberattack": ["Yes"]}}
    played = play_turn(phone, t.game, script)
    assert [a for a in played["answers"] if a[0].startswith("falcon-antiterror.")] == [
        ["falcon-antiterror.in-game", "Yes", " (Falcon and Antiterror: Takes part)"],
        ["falcon-antiterror.trigger", "Falcon carried out a Cyberattack", " (Falcon carried out a Cyberattack)"],
        ["falcon-antiterror.which-cyberattack", "A second Cyberattack", " (Cyberattack tokens Falcon holds: 2)"]]
    assert all(not at.startswith("falcon-antiterror.") for at, _ in played["asked"]), "nothing of Antiterror is asked"
    tap(phone, choice(phone, "Start the next turn"))
    assert "Cyberattack tokens Falcon holds 2" in shown(phone)["state"] and "Antiterror Stage 1" in shown(phone)["state"]
    script["answers"] = {"falcon-secret-operation-choice.base-operation": ["No"],
                         "falcon-secret-operation-choice.try-ecocide": ["Yes"]}
    played = play_turn(phone, t.game, script)
    assert ["falcon-antiterror.which-ecocide", "His first Ecocide", " (Ecocide tokens Falcon holds: 1)"] in played["answers"]
    tap(phone, choice(phone, "Start the next turn"))
    assert "Antiterror Stage 2" in shown(phone)["state"] and "Ecocide tokens Falcon holds 1" in shown(phone)["state"]


def test_the_tie_breaker_has_no_limit(site, phone):
    """D.E.I.'s Tie Breaker on a phone: the count goes from 2 to all 7 tokens and on to "More than 7"
    (issue 36: its buttons stopped at 7); more tied Regions than tokens draws nothing and says the
    text does not say how to break such a tie (a gap of the data), and the turn goes on."""
    t = Turn("dei")
    deck = next(d for d in t.bot.decks if d.id == "tie-breaker-tokens")
    gaps = {g.id for g in t.game.gaps}
    phone.goto((site / "dei" / "bot-turn.html").as_uri() + "#bot&state=difficulty:standard,turn:1,action-phase:1&seed=7&log=")
    for label in ("Collect", "More than 1 Region", "Yes"):
        tap(phone, choice(phone, label))
    assert phone.locator(".rs-bot__view").get_attribute("data-view") == "count"
    faces = phone.locator(".rs-bot__choices button").all_inner_texts()
    assert faces == [str(n) for n in range(2, len(deck.cards) + 1)] + [f"More than {len(deck.cards)}"], faces
    tap(phone, choice(phone, f"More than {len(deck.cards)}"))
    said = phone.locator("[data-beyond]").inner_text()
    assert said == (f"More tied than the {len(deck.cards)} {deck.name}: the text does not say how to break such a tie. "
                    "Break it at the table."), said
    assert phone.locator(".rs-bot__view").get_attribute("data-view") in STOPS
    assert "tie-breaker-more-than-tokens" in gaps


def test_where_the_game_ends_is_said_with_its_mark(site, phone):
    """D.E.I.'s last Action Phase of its last Turn played on a phone: the end of the turn says the
    game ends after the last Turn, with the state's mark and note beside it (the text does not say
    how many Turns a game has: ending after Turn 4 is our reading, issue 44: no reading stated as a
    rule)."""
    t = Turn("dei")
    last = next(v for v in t.bot.state if v.id == "turn")
    assert last.status == "reading"  # the data says so; the page must too
    values = turn.state_values(last)
    script = SCRIPT["dei"]
    state = {v.id: str(turn.state_values(v)[-1]) if v.id in ("turn", "action-phase") else
             str(v.initial if v.initial is not None else turn.state_values(v)[0]) for v in t.bot.state}
    address = "#bot&state=" + ",".join(f"{v.id}:{state[v.id]}" for v in t.bot.state) + f"&seed={script['seed']}&log="
    phone.goto((site / "dei" / "bot-turn.html").as_uri() + address)

    class LastAnswer(dict):  # a board question the script does not answer: its last answer ("No": no loop)
        def __missing__(self, at):
            return [phone.locator(".rs-bot__view .rs-bot__choices button").last.inner_text().strip()]

    play_turn(phone, t.game, dict(script, answers=LastAnswer(script["answers"])))
    view = phone.locator(".rs-bot__view")
    assert "That was the last Turn: the game ends." in view.inner_text()
    mark = view.locator(".rs-gap--reading")
    playwright.expect(mark).to_be_visible()
    assert mark.inner_text().strip() == statuses.of("reading").label
    said = " ".join(view.inner_text().split())
    assert " ".join(last.note.split())[:60] in said, said
    assert str(values[-1]) == "4"


def test_rolled_again_or_at_the_table_the_roll_is_replaced(chance_site, phone):
    """A roll the rules let be rolled again (tests/fixtures/bot-chance): the page rolls it (seeded),
    reads the table with it, and "Roll again" replaces it, in the address's log and in the history
    (Back goes to the screen before, not to the earlier roll); a face rolled at the table replaces
    it the same way. How many tokens are drawn is asked; the draw shows the tokens."""
    game = next(c for c in check_content(CHANCE)).game
    phone.goto((chance_site / game.id / "bot-turn.html").as_uri() + f"#bot&state=level:hard,round:1&seed={SEED}&log=")
    playwright.expect(phone.locator(".rs-bot__view")).to_have_attribute("data-view", "count")
    first = shown(phone)
    depth = phone.evaluate("history.length")
    faces = [first["roll"]]
    for n in range(1, 7):
        tap(phone, choice(phone, "Roll again"))
        again = shown(phone)
        assert again["hash"].endswith(f"&log=r{n}"), again["hash"]
        assert again["view"] == "count" and again["rollText"] == f"Rolled: {again['roll']}"
        assert again["answer"] == str(int(again["roll"]) + 1)  # [[table:gains]], Hard: the roll plus one
        faces.append(again["roll"])
    assert len(set(faces)) > 1, faces
    assert phone.evaluate("history.length") == depth, "Roll again added entries to the history"
    tap(phone, choice(phone, "6"))  # rolled at the table
    table = shown(phone)
    assert table["hash"].endswith("&log=f6") and table["rollText"] == "At the table: 6" and table["answer"] == "7"
    tap(phone, choice(phone, "2"))  # two tokens
    drawn = phone.locator(".rs-bot__view [data-drawn]").first.get_attribute("data-drawn").split(" ")
    assert len(drawn) == 2 and set(drawn) <= {"A", "B", "C"}
    phone.go_back()
    assert shown(phone)["hash"].endswith("&log=f6")


def test_statecraft_with_two_bots_each_with_its_own_state_and_turn(site, phone):
    """Statecraft's solo mode runs up to three powers as bots (bot: up_to: 3): the tool switches
    between them; each keeps its own state and its place in its own turn, across a reload."""
    t = Turn("statecraft")
    assert t.bot.up_to == 3
    phone.goto((site / "statecraft" / "bot-turn.html").as_uri())
    bots = phone.locator(".rs-bot__bots button")
    assert bots.all_inner_texts() == ["Bot 1", "Bot 2", "Bot 3"]
    form = phone.locator(".rs-bot__setup")
    form.locator('select[name="players"]').select_option("3")
    form.locator("button[type=submit]").tap()
    answer_any(phone)
    first = shown(phone)
    assert first["state"].startswith("Bot 1 · ") and "Players 3" in first["state"] and "&bot=" not in first["hash"]
    bots.nth(1).tap()
    playwright.expect(form).to_be_visible()  # the second bot is set up on its own
    form.locator('select[name="players"]').select_option("3")
    form.locator('select[name="round"]').select_option("2")
    form.locator("button[type=submit]").tap()
    second = shown(phone)
    assert second["state"] == "Bot 2 · Round 2 · Players 3" and "&bot=2&" in second["hash"] and log_length(second["hash"]) == 0
    bots.nth(0).tap()  # back to the first: its state and its place
    assert shown(phone)["hash"] == first["hash"] and shown(phone)["state"] == first["state"]
    bots.nth(1).tap()
    phone.reload()
    assert shown(phone)["state"] == "Bot 2 · Round 2 · Players 3"
    assert phone.locator('.rs-bot__bots button[aria-pressed="true"]').inner_text() == "Bot 2"


@pytest.mark.parametrize("forged", [
    '{"state": {"difficulty": "impossible", "turn": "1", "action-phase": "1"}, "seed": 3, "log": []}',
    '{"state": {"difficulty": "hard", "turn": 1, "action-phase": "1"}, "seed": 3, "log": []}',
    '{"state": {"difficulty": "hard", "turn": "1", "action-phase": "1"}, "seed": "3", "log": []}',
    '{"state": {"difficulty": "hard", "turn": "1", "action-phase": "1"}, "seed": 3, "log": "0.1"}',
    '{"state": {"difficulty": "hard", "turn": "1", "action-phase": "1"}, "seed": 3, "log": ["<img>"]}',
    '{"state": {"difficulty": "hard", "turn": "1", "action-phase": "1", "extra": "x"}, "seed": 3, "log": []}',
    '{"state": {"difficulty": "hard"}, "seed": 3}',
    '{"version": 1, "place": "g.d.0"}',
    '[1, 2, 3]',
    'not json {',
])
def test_forged_or_old_stored_state_is_dropped_with_a_line_and_the_page_starts_clean(site, phone, forged):
    """What the page did not write in its storage (a missing or wrong-typed field, a forged value,
    an older version's shape) is dropped with a line saying so; the page starts clean, and a
    reload does not show the line again (it never stays broken)."""
    url = (site / "dei" / "bot-turn.html").as_uri()
    phone.goto(url)
    key = phone.evaluate("'rulesmith-bot:' + location.pathname")
    phone.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, forged])
    phone.reload()
    playwright.expect(phone.locator(".rs-bot__setup")).to_be_visible()
    playwright.expect(phone.locator(".rs-bot__dropped")).to_contain_text("could not be read")
    assert phone.evaluate("k => localStorage.getItem(k)", key) is None
    phone.locator(".rs-bot__setup button[type=submit]").tap()
    assert shown(phone)["view"] in STOPS
    phone.reload()
    assert phone.locator(".rs-bot__dropped").count() == 0 and shown(phone)["view"] in STOPS


@pytest.mark.parametrize("game_id", GAMES)
def test_the_tool_is_on_the_first_screen_and_the_overview_offers_to_resume(site, phone, game_id):
    """The Bot turn page opens on the tool (the turn as the data gives it folded below); with a
    turn in progress, the game's overview offers "Resume: …", which lands on the same place."""
    phone.goto((site / game_id / "bot-turn.html").as_uri())
    form = phone.locator(".rs-bot__setup button[type=submit]")
    playwright.expect(form).to_be_visible()
    assert form.bounding_box()["y"] + form.bounding_box()["height"] <= PHONE["height"], "the tool is below the first screen"
    assert phone.locator("details.rs-bot__fold").get_attribute("open") is None
    phone.goto((site / game_id / "index.html").as_uri())
    assert phone.locator(".rs-resume").is_hidden()  # no turn in progress
    phone.goto((site / game_id / "bot-turn.html").as_uri())
    form.tap()
    answer_any(phone)
    place = phone.evaluate("location.hash")
    phone.goto((site / game_id / "index.html").as_uri())
    resume = phone.locator(".rs-resume a")
    playwright.expect(resume).to_contain_text("Resume: ")
    resume.tap()
    phone.wait_for_function("h => location.hash === h", arg=place)
    assert shown(phone)["hash"] == place


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_of_the_bot_turn_has_a_contrast_of_at_least_4_5(site, browser, scheme):
    """Every control of the Bot turn page (the set-up, a screen of the turn, the bots' switcher),
    and of a procedure page's walker, as it is drawn, hovered and focused, in light and dark: at
    least 4.5:1 (issue 36 found pale text on orange, 1.87:1, in dark)."""
    context = browser.new_context(viewport=PHONE, bypass_csp=True)  # the test's own style: no transitions
    page = context.new_page()
    controls = ".rs-bot button:not(:disabled), .rs-bot select, .rs-bot summary, .rs-walker button:not(:disabled)"
    low, seen = [], 0

    buttons_only = ".rs-bot button:not(:disabled), .rs-walker button:not(:disabled)"

    def measure(where: str) -> None:
        nonlocal seen
        # measured as drawn once settled (Material fades a button's colours in 125 ms)
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
        if scheme == "dark":
            page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
        found = [c for c in page.evaluate(CONTRAST, controls) if c["text"]]
        seen += len(found)
        low.extend(f"{where}: {c['text'][:30]!r} {c['ratio']:.2f}:1" for c in found if c["ratio"] < 4.5)
        buttons = page.locator(buttons_only)
        for i in range(buttons.count()):
            button = buttons.nth(i)
            if not button.is_visible():
                continue
            for how in ("hover", "focus"):
                if how == "hover":
                    button.hover()
                else:
                    page.mouse.move(0, 0)
                    button.focus()
                    page.keyboard.press("Shift")  # a keyboard's focus: focus-visible
                button.evaluate("b => b.setAttribute('data-measure', '')")
                ratio = page.evaluate(CONTRAST, "[data-measure]")[0]["ratio"]
                button.evaluate("b => b.removeAttribute('data-measure')")
                if ratio < 4.5:
                    low.append(f"{where}, {how}: {button.inner_text()[:30]!r} {ratio:.2f}:1")

    for game_id in GAMES:
        page.goto((site / game_id / "bot-turn.html").as_uri())
        page.wait_for_selector(".rs-bot__setup button[type=submit]")
        measure(f"{game_id} set-up")
        page.locator(".rs-bot__setup button[type=submit]").click()
        page.wait_for_selector(".rs-bot__view")
        measure(f"{game_id} turn")
    procedure = next(iter(sorted((site / GAMES[0] / "solo").glob("*.html"))))
    page.goto(procedure.as_uri())
    page.wait_for_selector(".rs-walker button")
    measure("walker")
    context.close()
    assert seen > 30
    assert low == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_bot_turn_page_pans_one_way_on_a_phone(site, phone, game_id):
    """At 390 px the Bot turn page never scrolls sideways, its chart included: folded under the
    screen, opened it fits the width (its frame does not pan)."""
    phone.goto((site / game_id / "bot-turn.html").as_uri())
    phone.locator(".rs-bot__setup button[type=submit]").tap()
    for _ in range(3):
        if phone.locator(".rs-bot__chart:not([hidden])").count():
            break
        answer_any(phone)
    chart = phone.locator(".rs-bot__chart:not([hidden])")
    assert chart.count() == 1, "no chart beside the screen"
    chart.locator("summary").tap()
    sizes = phone.evaluate("""() => {
      const frame = document.querySelector('.rs-bot__chart:not([hidden]) .rs-bot__chart-frame');
      return {page: document.documentElement.scrollWidth, frame: [frame.scrollWidth, frame.clientWidth, frame.scrollHeight, frame.clientHeight],
              svg: frame.querySelector('svg').getBoundingClientRect().width};
    }""")
    assert sizes["page"] <= PHONE["width"], sizes
    assert sizes["frame"][0] <= sizes["frame"][1] + 1 and sizes["frame"][2] <= sizes["frame"][3] + 1, sizes
    assert 0 < sizes["svg"] <= PHONE["width"], sizes


def test_back_to_top_never_covers_the_state_bar(site, phone):
    """Scrolled down a long screen and back up a little, where Material offers "Back to top": on
    the Bot turn page it covers neither the bot's state bar, which sticks under the header, nor
    the turn's answers (the page has none: its tool is at the top)."""
    phone.goto((site / "statecraft" / "bot-turn.html").as_uri())
    phone.locator(".rs-bot__setup button[type=submit]").tap()
    phone.locator(".rs-bot__view").wait_for()
    phone.locator(".rs-bot__fold summary").tap()  # the turn unfolded: a long page
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.wait_for_function("() => window.scrollY > 600")
    phone.evaluate("window.scrollBy(0, -200)")  # a little back up: Material offers Back to top
    playwright.expect(phone.locator(".rs-bot__top")).to_be_visible()
    playwright.expect(phone.locator(".md-top")).to_be_hidden()
    phone.goto((site / "statecraft" / "tables.html").as_uri())  # elsewhere, Material's own is kept
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.wait_for_function("() => window.scrollY > 600")
    phone.evaluate("window.scrollBy(0, -200)")
    playwright.expect(phone.locator(".md-top")).to_be_visible()

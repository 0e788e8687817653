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
from conftest import GAMES, build_site, press_the_pages_back
from playwright import sync_api as playwright

from rulesmith.content import turn
from rulesmith.pipeline import check_content

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

    def state_text(self, state: dict) -> str:
        return " · ".join(f"{v.name} {turn.value_name(v, state[v.id])}" for v in self.bot.state)

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


def click(page, label: str) -> None:
    page.locator(".rs-bot__view button", has_text=re.compile("^" + re.escape(label) + "$")).first.click()


def log_length(hash_: str) -> int:
    log = hash_.split("&log=", 1)[1]
    return len(log.split(".")) if log else 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_bot_turn(site, page, game_id):
    t = Turn(game_id)
    state = opening_state(t)
    url = (site / game_id / "bot-turn.html").as_uri()
    address = "#bot&state=" + ",".join(f"{v.id}:{state[v.id]}" for v in t.bot.state) + f"&seed={SEED}&log="
    page.goto(url + address)
    frames: list[list[str]] = []  # the test's place: [procedure, node] per call level
    passed: list[dict[str, int]] = []  # how often each node of each level was passed
    part, answers, checked_back, checked_reload, entered_call = 0, 0, False, False, False
    checked_whole = False
    chance = {"rolls": 0, "draws": 0}  # alternately on the phone and at the table
    noted: dict[str, str] = {}  # what the player typed for a card the source does not reproduce
    computed: list = []
    parts = t.bot.turn.parts
    for _ in range(600):
        s = shown(page)
        assert s["state"] == t.state_text(state), s
        assert s["width"] <= PHONE["width"], f"the page scrolls sideways at 390 px ({s['width']} px)"
        if part >= len(parts):
            assert s["view"] == "end", s
            break
        if not frames:  # a part's opening: Start (or it was passed by, its state says it does not apply)
            p = parts[part]
            if any(state[k] not in [str(v) for v in vals] for k, vals in p.only.items()):
                part += 1
                continue
            assert s["view"] == "part" and s["where"].startswith(f"Part {part + 1} of {len(parts)}"), s
            assert ("Does not apply now" in s["buttons"]) == p.skip, s
            if p.skip and part % 3 == 2:  # some optional parts are said not to apply, the rest are played
                click(page, "Does not apply now")
                part += 1
            else:
                click(page, "Start")
                frames, passed = [[p.procedure, t.procedures[p.procedure].start]], [{}]
            answers += 1
            continue
        procedure, node_id = frames[-1]
        node = t.node(procedure, node_id)
        where = " › ".join(t.procedures[f[0]].title for f in frames) + f", step {t.number(procedure, node_id)}"
        assert s["view"] == "step" and s["where"] == where, (s, where)
        assert s["number"] == str(t.number(procedure, node_id))
        # the chart follows the step, readable (measured), the whole of it one tap away
        assert s["chart"] == procedure and s["current"] == node_id and s["inFrame"], (answers, checked_back, checked_reload, s)
        assert s["smallestText"] >= 12, f"chart text of {s['smallestText']:.1f} px"
        assert s["whole"].endswith(f"/{game_id}/flowcharts/{procedure}.svg")
        unreproduced = [d for d in ([node.card] if node.card else []) + ([node.draw.deck] if node.draw else [])
                        if not next(x for x in t.bot.decks if x.id == d).cards]
        for deck_id in unreproduced:  # the source does not give it: the page says so and asks what the real one shows
            deck = next(x for x in t.bot.decks if x.id == deck_id)
            box = page.locator(f'.rs-bot__view .rs-bot__card[data-card="{deck_id}"]')
            playwright.expect(box).to_contain_text(f"{deck.name}: the source does not reproduce it.")
            playwright.expect(box.locator(".rs-gap")).to_have_count(1)  # the gap's marker, with its note
            assert " ".join(deck.note.split())[:25].split("[[")[0] in " ".join(box.inner_text().split())
            if node.card == deck_id and not noted.get(deck_id):
                noted[deck_id] = f"what {deck.name} shows, turn {answers}"
                box.locator("input.rs-bot__note").fill(noted[deck_id])
                box.locator("input.rs-bot__note").dispatch_event("change")
                page.reload()  # kept for the game
                assert page.locator(f'.rs-bot__view .rs-bot__card[data-card="{deck_id}"] input').input_value() == noted[deck_id]
        if node.roll is not None and s["roll"] is None:
            faces = [str(f) for f in range(node.roll.dice, node.roll.dice * node.roll.sides + 1)]
            if chance["rolls"] % 2 == 0:  # rolled on the phone, seeded
                click(page, "Roll the die" + ("s" if node.roll.dice > 1 else ""))
                s = shown(page)
                assert s["roll"] in faces and s["rollText"] == f"Rolled: {s['roll']}", s
            else:  # rolled at the table: the player enters the face
                face = faces[chance["rolls"] % len(faces)]
                click(page, face)
                s = shown(page)
                assert s["roll"] == face and s["rollText"] == f"At the table: {face}", s
            chance["rolls"] += 1
            answers += 1
        if node.draw is not None and t.bot.decks and next(d for d in t.bot.decks if d.id == node.draw.deck).cards \
                and s["drawn"] is None:
            deck = next(d for d in t.bot.decks if d.id == node.draw.deck)
            if chance["draws"] % 2 == 0:  # drawn on the phone, seeded
                click(page, "Draw" if node.draw.up_to in (None, node.draw.count) else f"Draw {node.draw.count}")
                s = shown(page)
                drawn = s["drawn"].split(" ")
                assert len(drawn) == node.draw.count and len(set(drawn)) == len(drawn) and set(drawn) <= set(deck.cards), s
            else:  # drawn at the table: nothing to show but that, and the step goes on
                click(page, "Drawn at the table")
                s = shown(page)
                assert s["drawn"] == "" and s["drawnText"] == f"{deck.name} drawn at the table.", s
            assert "Done" in s["buttons"] or any(b.startswith("Run: ") for b in s["buttons"]), s
            chance["draws"] += 1
            answers += 1
        if node.reads is not None:  # the answer the page computed, looked up again in the table it shows
            case = {name: (s["roll"] if name == "roll" else state[name]) for name in turn.read_inputs(node)}
            expected = table_answer(t, node, case, s["tables"])
            assert s["answer"] == expected, (procedure, node_id, case, s["answer"], expected)
            computed.append((procedure, node_id, case, expected))
            assert node.reads.says.replace("{value}", expected) in s["answerText"]
        if node.tally is not None:  # the count the page keeps for this question
            count = passed[-1].get(node.tally.node, 0)
            tally = page.locator(".rs-bot__tally")
            assert tally.get_attribute("data-count") == str(count)
            if node.tally.of:
                target = t.node(procedure, node.tally.of)
                table = next(tb for tb in t.game.tables if tb.id == target.reads.table)
                number = turn.lookup(table, target, {name: state[name] for name in turn.read_inputs(target)})
                assert f"{node.tally.label}: {count} of {number}." == tally.inner_text()
        for name in node.shows:
            assert f"{t.states[name].name}: {turn.value_name(t.states[name], state[name])}" in page.locator(".rs-bot__shows").inner_text()
        if not checked_back and answers >= 3 and node.type == "decision":
            checked_back = True  # the phone's Back undoes one answer, and the answer can be given again
            before = s
            label = node.branches[0].when
            click(page, label)
            page.go_back()
            again = shown(page)
            assert (again["where"], again["hash"], again["buttons"]) == (before["where"], before["hash"], before["buttons"])
            continue
        if not checked_whole and answers >= 4:
            checked_whole = True  # one tap opens the whole chart, readable at 1:1 and free to pinch-zoom; Back returns here
            viewport = page.evaluate("document.querySelector('meta[name=viewport]').content")
            assert "user-scalable=no" not in viewport.replace(" ", "") and "maximum-scale" not in viewport, viewport
            page.locator(".rs-bot [data-chart]:not([hidden]) a.rs-bot__whole").click()
            page.wait_for_url(re.compile(r"\.svg$"))
            whole = page.evaluate("""() => ({root: document.documentElement.tagName,
                viewport: !!document.querySelector('meta[name=viewport]'),
                nodes: document.querySelectorAll('g.node').length,
                smallest: Math.min(...Array.from(document.querySelectorAll('text'), t =>
                    parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a)))})""")
            assert whole["root"] == "svg" and not whole["viewport"], whole
            assert whole["nodes"] == len(t.procedures[procedure].nodes) and whole["smallest"] >= 12, whole
            page.go_back()
            again = shown(page)
            assert (again["where"], again["hash"], again["state"]) == (s["where"], s["hash"], s["state"])
        if not checked_reload and answers >= 6:
            checked_reload = True  # a reload (a locked phone) comes back to the same step and state
            page.reload()
            again = shown(page)
            assert (again["where"], again["hash"], again["state"], again["answer"]) == \
                (s["where"], s["hash"], s["state"], s["answer"])
        if node.type == "decision":
            distance = t.distance(procedure, to_calls=not entered_call)
            if not entered_call and not any(b.to in distance for b in node.branches):
                distance = t.distance(procedure)
            best = min(range(len(node.branches)), key=lambda i: distance.get(node.branches[i].to, 10 ** 6))
            assert s["buttons"] == [b.when for b in node.branches], s
            click(page, node.branches[best].when)
            passed[-1][node_id] = passed[-1].get(node_id, 0) + 1
            frames[-1][1] = node.branches[best].to
        elif node.type == "end":
            if len(frames) > 1:
                click(page, "Back to " + t.procedures[frames[-2][0]].title)
                frames.pop()
                passed.pop()
                frames[-1][1] = t.node(*frames[-1]).next
            else:
                click(page, "Done: on to the next part" if part + 1 < len(parts) else "Done: end of the turn")
                frames, part = [], part + 1
        elif node.call is not None:
            click(page, "Run: " + t.procedures[node.call.procedure].title)
            t.advance(state, node.sets)
            passed[-1][node_id] = passed[-1].get(node_id, 0) + 1
            frames.append([node.call.procedure, t.procedures[node.call.procedure].start])
            passed.append({})
            entered_call = True
        else:
            click(page, "Done")
            t.advance(state, node.sets)
            passed[-1][node_id] = passed[-1].get(node_id, 0) + 1
            frames[-1][1] = node.next
        answers += 1
    else:
        pytest.fail("the turn did not end in 600 answers")
    assert checked_back and checked_reload and checked_whole
    # The rolls and draws this turn meets are made on the phone and at the table by turns; that every
    # way (Roll again too) works is proven on a game made for it: test_chance_on_the_phone_and_at_the_table.
    reads = [(p.id, n.id) for p in t.game.procedures for n in p.nodes if n.reads]
    assert not reads or computed, f"{game_id}: the turn met none of the steps that read a table ({reads})"
    assert entered_call or not any(n.call for p in t.game.procedures for n in p.nodes), "no call was entered"
    # The end of the turn: the next turn's state, as the data's `after` changes give it
    following = dict(state)
    goes_on = t.advance(following, t.bot.turn.after)
    if goes_on:
        click(page, "Start the next turn")
        assert shown(page)["state"] == t.state_text(following)
        page.reload()
        assert shown(page)["state"] == t.state_text(following)
    else:
        expect = playwright.expect
        expect(page.locator(".rs-bot__view")).to_contain_text("the game ends")
    assert log_length(page.evaluate("location.hash")) == 0 or not goes_on


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
    click(page, "Start")
    page.goto("about:blank")
    page.goto(url)  # opened again without an address: the state and the place come back from the phone
    assert shown(page)["state"] == t.state_text(chosen) and shown(page)["view"] == "step"
    assert in_address in page.evaluate("location.hash")
    # changed once more (Change): the new state is kept, the answers so far stand
    page.locator(".rs-bot__change").click()
    first = t.bot.state[0]
    other = turn.state_values(first)[0]
    form.locator(f'select[name="{first.id}"]').select_option(other)
    form.locator("button[type=submit]").click()
    chosen[first.id] = other
    assert shown(page)["state"] == t.state_text(chosen) and shown(page)["view"] == "step"
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
    assert shown(page)["view"] == "part"
    click(page, "Start")
    assert shown(page)["view"] == "step"


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
    click(page, "Start")
    for _ in range(2):
        hashes.append(page.evaluate("location.hash"))
        page.locator(".rs-bot__view button[data-token]").first.click()
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
    assert here()["view"] == "part" and shown(page)["where"].startswith("Part "), shown(page)
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
    """At 390 px a procedure page's chart is at print size (text of 12 px or more) and its frame
    keeps the walker's current step in view; the whole chart is one tap away."""
    t = Turn(game_id)
    procedure = max(t.game.procedures, key=lambda p: len(p.nodes))  # the tallest chart
    page.goto((site / game_id / "solo" / f"{procedure.id}.html").as_uri())
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


def test_chance_on_the_phone_and_at_the_table(chance_site, browser, page):
    """A game made for it (tests/fixtures/bot-chance): a roll the rules let be rolled again, read in
    a table, then draws. Rolled on the phone, the roll is seeded (the same seed and place roll the
    same on another phone); Roll again replaces it, its answer follows, and Back undoes the Roll
    again; a face entered as rolled at the table is read the same way; a draw shows what was drawn,
    "Drawn at the table" lets the step go on; the call is entered and returned from."""
    checked = next(c for c in check_content(CHANCE))
    game = checked.game
    t = Turn.__new__(Turn)
    t.game, t.bot = game, game.bot
    t.procedures, t.states = {p.id: p for p in game.procedures}, {v.id: v for v in game.bot.state}
    state = opening_state(t)
    url = (chance_site / game.id / "bot-turn.html").as_uri()
    address = "#bot&state=" + ",".join(f"{v.id}:{state[v.id]}" for v in t.bot.state) + f"&seed={SEED}&log="
    page.goto(url + address)
    click(page, "Start")
    first, second = (t.node("turn", n) for n in ("roll", "again"))
    assert first.roll.reroll and second.roll.reroll and first.reads and second.reads

    def answer_for(node, s):
        case = {name: (s["roll"] if name == "roll" else state[name]) for name in turn.read_inputs(node)}
        return table_answer(t, node, case, s["tables"])

    # rolled on the phone: seeded, shown, read in the table
    assert "Roll the die" in shown(page)["buttons"]
    click(page, "Roll the die")
    rolled = shown(page)
    assert rolled["rollText"] == f"Rolled: {rolled['roll']}" and rolled["answer"] == answer_for(first, rolled), rolled
    other = browser.new_page(viewport=PHONE)  # another phone, the same game (seed) and place: the same roll
    other.goto(url + address + "g")
    other.locator(".rs-bot__view button", has_text=re.compile("^Roll the die$")).click()
    assert shown(other)["roll"] == rolled["roll"]
    other.close()
    # Roll again: allowed by the rules here; it replaces the roll, and its answer follows
    faces = []
    for _ in range(6):  # a die may show the same face again; six tries show that it rolls
        before = shown(page)
        click(page, "Roll again")
        again = shown(page)
        assert log_length(again["hash"]) == log_length(before["hash"]), "Roll again adds a roll instead of replacing it"
        assert again["rollText"] == f"Rolled: {again['roll']}" and again["answer"] == answer_for(first, again), again
        faces.append(again["roll"])
    assert len(set(faces + [rolled["roll"]])) > 1, f"Roll again rolled {faces} after {rolled['roll']}"
    page.go_back()  # Back undoes the last Roll again
    undone = shown(page)
    assert undone["roll"] == (faces[-2] if len(faces) > 1 else rolled["roll"]) and undone["hash"] != again["hash"]
    page.go_forward()
    assert shown(page)["roll"] == faces[-1]
    click(page, "Done")
    # a draw on the phone: what was drawn, from the deck
    deck = t.bot.decks[0]
    draw = t.node("turn", "draw").draw
    click(page, f"Draw {draw.up_to}")
    drawn = shown(page)
    assert len(drawn["drawn"].split(" ")) == draw.up_to and set(drawn["drawn"].split(" ")) <= set(deck.cards), drawn
    click(page, "Done")
    # rolled at the table: the player enters the face, read in the table the same way
    for face in ("6", "1"):
        at_table = shown(page)
        assert at_table["roll"] is None or face == "1"
        if at_table["roll"] is not None:
            page.go_back()
        click(page, face)
        entered = shown(page)
        assert entered["roll"] == face and entered["rollText"] == f"At the table: {face}", entered
        assert entered["answer"] == answer_for(second, entered) and entered["answer"] in entered["answerText"], entered
    click(page, "Done")
    # drawn at the table: said, and the step goes on
    click(page, "Drawn at the table")
    s = shown(page)
    assert s["drawn"] == "" and s["drawnText"] == f"{deck.name} drawn at the table." and "Done" in s["buttons"], s
    page.reload()
    assert shown(page)["drawnText"] == s["drawnText"]
    click(page, "Done")
    click(page, "Done")  # how often the bot acts: a table answer by the state alone
    # the call: entered, where it is, returned from
    click(page, "Run: " + t.procedures["act"].title)
    assert shown(page)["where"] == f"{t.procedures['turn'].title} › {t.procedures['act'].title}, step 1"
    click(page, "Done")
    click(page, "Back to " + t.procedures["turn"].title)
    assert shown(page)["where"] == f"{t.procedures['turn'].title}, step {t.number('turn', 'enough')}"


def test_a_tally_over_a_call_counts_each_call_once(chance_site, page):
    """The count a question keeps of a step that calls a procedure ("Times the bot acted this turn:
    1 of 2") goes up once a call, when the call is entered, and not again when it returns (issue 35:
    the page said "2 of 2" after one); a reload keeps it (the answers are replayed)."""
    game = next(c for c in check_content(CHANCE)).game
    titles = {p.id: p.title for p in game.procedures}
    nodes = {n.id: n for n in next(p for p in game.procedures if p.id == "turn").nodes}
    tally = nodes["enough"].tally
    assert tally is not None and nodes[tally.node].call is not None and tally.of == "how-often"
    state = {"level": "hard", "round": "1"}
    target = turn.lookup(next(tb for tb in game.tables if tb.id == "acts"), nodes["how-often"], {"level": "hard"})
    assert target == "2"
    page.goto((chance_site / game.id / "bot-turn.html").as_uri()
              + "#bot&state=" + ",".join(f"{k}:{v}" for k, v in state.items()) + f"&seed={SEED}&log=")
    click(page, "Start")
    for answer in ("6", "Done", "Drawn at the table", "Done", "1", "Done", "Drawn at the table", "Done", "Done"):
        click(page, answer)  # rolled and drawn at the table, to the step that calls
    counted = []
    for time in (1, 2):
        click(page, "Run: " + titles["act"])
        click(page, "Done")
        click(page, "Back to " + titles["turn"])
        shown_tally = page.locator(".rs-bot__view .rs-bot__tally")
        counted.append((shown_tally.get_attribute("data-count"), shown_tally.inner_text()))
        if time == 1:
            page.reload()
            reloaded = page.locator(".rs-bot__view .rs-bot__tally")
            assert (reloaded.get_attribute("data-count"), reloaded.inner_text()) == counted[-1]
            click(page, "No")
    assert counted == [(str(n), f"{tally.label}: {n} of {target}.") for n in (1, 2)]
    click(page, "Yes")
    assert shown(page)["where"] == f"{titles['turn']}, step {list(nodes).index('done') + 1}"

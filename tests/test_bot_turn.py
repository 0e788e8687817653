"""The Bot turn page in a real browser at 390 px: a whole bot turn of every game that declares one.

The turn, its procedures, calls, rolls, draws and table answers are read from the content (the
game's `bot:` and its procedures), never listed here. The test keeps its own place (a stack of
procedures, from the data) beside the page's and checks after every answer that the page shows the
same step with the same answers; every table answer the page computes is looked up again here in
the table; the phone's Back undoes one answer; a reload comes back to the same step and state.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from conftest import build_site
from rulesmith import turn
from rulesmith.pipeline import check_content

from playwright import sync_api as playwright  # noqa: E402 - a test dependency (pyproject.toml): never skipped

ROOT = Path(__file__).resolve().parent.parent
CHECKED = {c.game.id: c for c in check_content(ROOT / "content")}
GAMES = [g for g, c in CHECKED.items() if c.game.bot is not None]
PHONE = {"width": 390, "height": 844}
SEED = 20261201


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bot-turn")
    build_site(ROOT / "content", folder / "site", folder / "work")
    return folder / "site"


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


def test_every_shipped_game_declares_its_bot():
    assert sorted(GAMES) == sorted(CHECKED), "a game with procedures but no `bot:` turn"


class Turn:
    """The game's turn as the data gives it, and the test's own place in it."""

    def __init__(self, game_id: str):
        self.game = CHECKED[game_id].game
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
      return {view: view && view.getAttribute('data-view'), where: root.querySelector('.rs-bot__where').textContent,
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
        if s["chart"] is not None:  # the chart follows the step, readable, the whole of it one tap away
            assert s["chart"] == procedure and s["current"] == node_id and s["inFrame"], s
            assert s["smallestText"] >= 12, f"chart text of {s['smallestText']:.1f} px"
            assert s["whole"].endswith(f"/{game_id}/flowcharts/{procedure}.svg")
        if node.roll is not None and s["roll"] is None:
            click(page, "Roll the die" + ("s" if node.roll.dice > 1 else ""))
            s = shown(page)
            face = int(s["roll"])
            assert node.roll.dice <= face <= node.roll.dice * node.roll.sides
            answers += 1
        if node.draw is not None and t.bot.decks and next(d for d in t.bot.decks if d.id == node.draw.deck).cards \
                and s["drawn"] is None:
            deck = next(d for d in t.bot.decks if d.id == node.draw.deck)
            click(page, "Draw" if node.draw.up_to in (None, node.draw.count) else f"Draw {node.draw.count}")
            s = shown(page)
            drawn = s["drawn"].split(" ")
            assert len(drawn) == node.draw.count and len(set(drawn)) == len(drawn) and set(drawn) <= set(deck.cards), s
            answers += 1
        if node.reads is not None:  # the answer the page computed, looked up again in the table
            case = {name: (s["roll"] if name == "roll" else state[name]) for name in turn.read_inputs(node)}
            table = next(tb for tb in t.game.tables if tb.id == node.reads.table)
            expected = turn.lookup(table, node, case)
            assert s["answer"] == expected, (procedure, node_id, case, s["answer"], expected)
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
    assert checked_back and checked_reload
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
    page.goto("about:blank")
    page.goto(url)
    assert shown(page)["state"] == t.state_text(chosen)
    assert "state=" + ",".join(f"{v.id}:{chosen[v.id]}" for v in t.bot.state) in page.evaluate("location.hash")


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
        targets = [n.next] if n.type == "step" else [b.to for b in n.branches]
        labels = ["Done"] if n.type == "step" else [b.when for b in n.branches]
        i = max(range(len(targets)), key=lambda k: distance.get(targets[k], -1))  # the long way round
        page.locator(".rs-walker [data-step]").get_by_role("button", name=labels[i], exact=True).click()
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

"""Every mark in every output that shows its place (rulesmith/content/marks.py, the one home).

tests/content/test_gap_markers.py reads every gap at every place it affects on the site's pages
and in every aid. Here the outputs built later and apart from them: the walker on a procedure's
page and the Bot turn page (whose companion shows the step's text and marks as rendered in its
library), read as built, for every gap of every step and every procedure's own status; the parts
of the bot's declaration that carry a status; and every non-plain status of an item, a field or a
cell on the page that shows it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_gap_markers import block, block_text, page_tree, squash

from rulesmith.content import affects, marks, model
from rulesmith.content.items import all_items
from rulesmith.pipeline import check_content
from rulesmith.site import layout
from rulesmith.site.botturn import reached_procedures
from rulesmith.text.references import plain_text
from rulesmith.values import status as statuses

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "pdf" / "content"


def mark_words(mark: marks.Mark, index) -> str:
    """What a reader reads for a mark: a gap's name (as its status says it), else the status's label."""
    if mark.gap is not None:
        return squash(statuses.gap_label(mark.gap.status, plain_text(mark.gap.title, index)))
    return squash(mark.label)


def walker_text(tree, procedure_id: str, node_id: str, companion: bool) -> str:
    """The text of a step as the walker (its panel) or the Bot turn page's companion (its library) shows it."""
    root = tree.find("div", **{"class": "rs-bot__library"})[0] if companion else tree
    holder = [e for e in root.elements() if e.attrs.get("data-procedure" if companion else "data-panel") == procedure_id]
    assert holder, f"no {procedure_id}"
    nodes = [e for e in holder[0].elements() if e.attrs.get("data-node") == node_id]
    assert nodes, f"no step {node_id} of {procedure_id}"
    texts = [e for e in nodes[0].elements() if "rs-walker__text" in e.attrs.get("class", "")]
    return squash(texts[0].text())


def walk_misses(site: Path, checked) -> list[str]:
    """Every step's marks (marks.step) missing from the walker on its procedure's page or from
    the Bot turn page that walks it."""
    missing = []
    for item in checked:
        game, index = item.game, item.index
        bot = set()
        if game.bot is not None:
            bot = {p.id for p in reached_procedures(game)}
            bot_tree = page_tree(site / layout.page_of(game, "bot:turn")[0].replace(".md", ".html"))
        for procedure in game.procedures:
            page, _ = layout.page_of(game, f"procedure:{procedure.id}")
            tree = page_tree(site / page.replace(".md", ".html"))
            for node in procedure.nodes:
                for mark in marks.step(game, index, procedure, node):
                    words = mark_words(mark, index)
                    if words not in walker_text(tree, procedure.id, node.id, companion=False):
                        missing.append(f"{game.id}: walker of {procedure.id}, step {node.id}: no '{words}'")
                    if procedure.id in bot and words not in walker_text(bot_tree, procedure.id, node.id, companion=True):
                        missing.append(f"{game.id}: Bot turn page, {procedure.id}, step {node.id}: no '{words}'")
    return missing


def bot_misses(site: Path, checked) -> list[str]:
    """Every part of the bot's declaration with a status of its own shows it on the Bot turn page
    (where its anchor stands: the turn's warning, the part's list item, the state's or deck's name)."""
    missing = []
    for item in checked:
        game = item.game
        if game.bot is None:
            continue
        tree = page_tree(site / layout.page_of(game, "bot:turn")[0].replace(".md", ".html"))
        for what, _title, part in marks.bot_marked(game):
            mark = marks.own(part)
            assert mark is not None
            anchor = layout.page_of(game, layout.bot_key(what))[1]
            found = tree.find(id=anchor)
            assert found, f"{game.id}: no #{anchor}"
            holder = found[0].parent if what != "turn" else tree
            short, label = squash(statuses.of(mark.status).short), squash(mark.label)
            text = squash(holder.text())
            if short not in text and label not in text:
                missing.append(f"{game.id}: Bot turn page, {what}: no '{mark.label}'")
    return missing


def status_misses(site: Path, checked) -> list[str]:
    """Every item with a status of its own shows its label in its block on its page."""
    missing = []
    for item in checked:
        game = item.game
        for _type, key, found in all_items(game):
            mark = marks.own(found)
            if mark is None or isinstance(found, model.Gap):
                continue
            page, anchor = layout.page_of(game, key)
            text = squash(block_text(block(page_tree(site / page.replace(".md", ".html")), anchor)))
            if squash(mark.label) not in text and squash(statuses.of(mark.status).short) not in text:
                missing.append(f"{game.id}: {key} does not show '{mark.label}' on {page}")
    return missing


# ---------------------------------------------------------------- the one home

def test_marks_at_a_place_are_its_own_status_then_its_gaps():
    harbour = next(c for c in check_content(FIXTURE) if c.game.id == "harbour")
    game, index = harbour.game, harbour.index
    for gap, place in affects.places(game, index):
        found = marks.at(game, index, place.key, place.inner)
        assert any(m.gap is gap for m in found), (gap.id, str(place))
    for entity in game.entities:
        for field_id, raw in entity.fields.items():
            found = marks.at(game, index, f"{entity.kind}:{entity.id}", field_id)
            own = marks.value(raw, entity.status)
            assert (own in found) if own else all(m.gap for m in found), (entity.id, field_id)


def test_a_step_a_walk_enters_carries_the_procedures_own_marks():
    harbour = next(c for c in check_content(FIXTURE) if c.game.id == "harbour")
    game, index = harbour.game, harbour.index
    for procedure in game.procedures:
        start = next(n for n in procedure.nodes if n.id == procedure.start)
        expected = marks.at(game, index, f"procedure:{procedure.id}", already=start.text)
        assert marks.step(game, index, procedure, start)[:len(expected)] == expected
        for node in procedure.nodes:
            if node.id != procedure.start:
                assert all(m.gap for m in marks.step(game, index, procedure, node))


def test_reading_is_a_status_readers_see_as_our_reading():
    found = statuses.of("reading")
    assert found.label == "Our reading" and found.mark and found.needs_note and found.doubtful
    assert "reading" in statuses.MARKED
    assert statuses.gap_label("reading", "one pass over the grid") == "Our reading: one pass over the grid"
    assert statuses.gap_label("reading", "Our reading: one pass") == "Our reading: one pass"
    assert statuses.gap_label("missing", "Board") == "Board"


# ---------------------------------------------------------------- the games as built

@pytest.fixture(scope="module")
def marked_fixture_site(tmp_path_factory):
    from conftest import build_site

    folder = tmp_path_factory.mktemp("marks")
    build_site(FIXTURE, folder / "site", folder / "work")
    return folder / "site", check_content(FIXTURE)


def test_every_step_mark_shows_in_the_walker_and_on_the_bot_turn_page(real_site, shipped_games):
    checked = list(shipped_games.values())
    assert any(marks.step(c.game, c.index, p, n) for c in checked for p in c.game.procedures for n in p.nodes)
    assert walk_misses(real_site, checked) == []


def test_every_step_mark_of_the_fixture_shows_in_its_walker(marked_fixture_site):
    site, checked = marked_fixture_site
    assert walk_misses(site, checked) == []


def test_every_marked_part_of_the_bot_shows_its_mark_on_the_bot_turn_page(real_site, shipped_games):
    checked = list(shipped_games.values())
    assert any(marks.bot_marked(c.game) for c in checked)
    assert bot_misses(real_site, checked) == []


def test_every_item_status_shows_on_its_page(real_site, shipped_games):
    assert status_misses(real_site, list(shipped_games.values())) == []


def test_a_step_without_its_mark_is_reported(marked_fixture_site, tmp_path):
    site, checked = marked_fixture_site
    marked = [(c, p) for c in checked for p in c.game.procedures for n in p.nodes if marks.step(c.game, c.index, p, n)]
    assert marked, "the fixture marks no step"
    found, procedure = marked[0]
    page = layout.page_of(found.game, f"procedure:{procedure.id}")[0].replace(".md", ".html")
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    path = copy / page
    cut = re.sub(r'<p class="rs-affected rs-walker__marks[^>]*>.*?</p>', "", path.read_text(encoding="utf-8"), flags=re.S)
    path.write_text(cut, encoding="utf-8")
    assert walk_misses(copy, [found])


# ---------------------------------------------------------------- readings said as readings

READING_WORDS = re.compile(r"(?i)this reference's reading|\bour reading\b|is this reading")


def marked_notes(game):
    """(where, mark) of every own mark of the game: items, the bot's parts, fields and cells."""
    found = [(key, marks.own(item)) for _type, key, item in all_items(game)]
    found += [(f"bot:{what}", marks.own(item)) for what, _title, item in marks.bot_parts(game)]
    found += [(f"{e.kind}:{e.id}.{f}", marks.value(raw, e.status)) for e in game.entities for f, raw in e.fields.items()]
    found += [(f"table:{t.id}.{row[0]}", marks.value(cell)) for t in game.tables for row in t.rows for cell in row]
    return [(where, mark) for where, mark in found if mark is not None]


def test_no_reading_of_ours_is_marked_as_something_else(shipped_games):
    """A note that calls a statement this reference's reading belongs to the status `reading`
    (shown as "Our reading"), not to `reconstructed` (filled in from displaced text)."""
    wrong = [f"{c.game.id}: {where}" for c in shipped_games.values() for where, mark in marked_notes(c.game)
             if mark.status == "reconstructed" and READING_WORDS.search(mark.note)]
    assert wrong == []


def test_the_readings_the_audits_named_are_marked(shipped_games):
    """Issue 37's named readings: each is marked as our reading where it is stated."""
    def status(game_id, where):
        return dict(marked_notes(shipped_games[game_id].game)).get(where)

    assert status("deep-state", "bot:part-9").status == "reading"  # HOC is Falcon
    assert status("dei", "bot:state-turn").status == "reading"  # the game ends after Turn 4
    assert status("dei", "table:automa-actions-per-turn").status == "reading"  # "during each Turn" (L607)
    statecraft = shipped_games["statecraft"]
    assert [str(p) for g, p in affects.places(statecraft.game, statecraft.index) if g.id == "bot-single-pass"] == [
        "procedure:bot-influence.r1-next", "procedure:bot-influence.r2-next",
        "procedure:bot-bribe.r1-next", "procedure:bot-bribe.r2-next"]
    assert "no bot procedure" not in statecraft.game.bot.turn.description  # L278, L427: it has popular-support effects


def test_a_reading_gap_is_named_as_our_reading_in_the_walker(real_site, shipped_games):
    statecraft = shipped_games["statecraft"]
    page = layout.page_of(statecraft.game, "procedure:bot-influence")[0].replace(".md", ".html")
    text = walker_text(page_tree(real_site / page), "bot-influence", "r1-next", companion=False)
    assert squash("Our reading: Bot, Influence and Bribe: one pass over the grid") in text
    bot = page_tree(real_site / layout.page_of(statecraft.game, "bot:turn")[0].replace(".md", ".html"))
    assert squash("Our reading: Bot, Influence and Bribe") in walker_text(bot, "bot-bribe", "r2-next", companion=True)


def test_deep_states_parts_follow_the_rulebook(shipped_games):
    from rulesmith.checks.readings import first_lines

    game = shipped_games["deep-state"].game
    lines = first_lines(game)
    places = [lines[p.procedure] for p in game.bot.turn.parts if p.procedure in lines]
    assert places == sorted(places)


# ---------------------------------------------------------------- every own mark on every aid

def aid_status_misses(aids, checked) -> list[str]:
    """Every item an aid prints under its own heading or name (contents.shown_keys) with a status
    of its own shows its printed mark right after its name; every marked field or cell of it shows
    its status's short words after its value. A4 and Letter, each from its text layer. (The gaps
    at every place: tests/content/test_gap_markers.py pdf_misses.)"""
    from rulesmith.aids import contents
    from rulesmith.aids import kinds as aidkinds
    from rulesmith.values.expressions import plain
    from rulesmith.values.fieldtypes import Value

    def near(text: str, lead: str, words: str, slack: int) -> bool:
        """Are `words` printed within `slack` characters after `lead` (a row's key is read as its
        printed label: case aside)?"""
        text, lead, words = text.lower(), lead.lower(), words.lower()
        return any(words in text[m.end():m.end() + slack] for m in re.finditer(re.escape(lead), text))

    missing = []
    for item in checked:
        game, index = item.game, item.index
        for kind in aidkinds.kinds():
            shown = contents.shown_keys(game, index, kind)
            for paper in aidkinds.geometry().papers:
                path = f"downloads/{game.id}/{kind.key}-{paper.key}.pdf"
                if path not in aids.results:
                    continue
                text = " ".join(" ".join(aids.texts(path)).split())  # one line: a name may wrap
                for _type, key, found in all_items(game):
                    if key not in shown or isinstance(found, model.Gap):
                        continue
                    mark = marks.own(found)
                    name = " ".join(index.name(key).split())
                    if mark is not None and not near(text, name, f" {statuses.of(mark.status).mark}", 200):
                        missing.append(f"{path}: {key} without its mark '{statuses.of(mark.status).mark}'")
                    values = []
                    if isinstance(found, model.Entity):
                        values = [(spec.name + ":", found.fields.get(spec.id), found.status)
                                  for spec in game.kind(found.kind).fields if spec.id in found.fields]
                    elif isinstance(found, model.Table):
                        # a row is read by its printed label: the name of the entity its key names, else the key
                        names = {e.id: e.name for e in game.entities}
                        values = [(names.get(str(plain(row[0])), str(plain(row[0]))), cell, statuses.VERIFIED)
                                  for row in found.rows for cell in row]
                    for lead, raw, status in values:
                        own = marks.value(raw, status)
                        if own is None or (raw is not None and Value.of(raw).missing and isinstance(found, model.Entity)):
                            continue  # an entity's missing field is named in its list of missing fields, with the mark
                        words = statuses.of(own.status).short
                        if not near(text, " ".join(lead.split()), words, 900):
                            missing.append(f"{path}: {key}, {lead} without '{words}'")
    return missing


def test_every_item_status_shows_in_every_aid_that_prints_it(real, shipped_games):
    checked = list(shipped_games.values())
    assert any(marks.own(found) for c in checked for _t, _k, found in all_items(c.game))
    assert aid_status_misses(real, checked) == []

"""Provenance a reader can check (issue 48): every item shows the rulebook lines it comes from.

As a reader on a phone: an entity, a table (one of its rows' lines), a procedure's step and an
erratum'd value each show their rulebook lines in one tap, byte for byte as the source text has
them. As a contributor: a game that does not allow its texts to be shown (game.yaml
`show_source_texts`, false by default) gets line references only, and no line of its text of ten
words or more is anywhere in the built site (search index included).
"""

from __future__ import annotations

import gzip
import html
import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, build_site, served

from rulesmith.content.provenance import Provenances
from rulesmith.content.sources import source_lines
from rulesmith.pipeline import check_content
from rulesmith.site import search as site_search

if TYPE_CHECKING:
    from pathlib import Path

LANTERN = ROOT / "tests" / "fixtures" / "lantern-keepers"
PHONE = {"width": 390, "height": 844}


TEXT = "sources/lantern-keepers-rulebook.txt"
PRINTED = " (as printed)"


def _lantern(folder: Path, shown: bool) -> Path:
    """A copy of the Lantern Keepers project (its content and its rulebook text), its texts shown or not.
    Its content quotes its rulebook word for word; in the copy, each line of ten words or more says
    a little more than the content does, so that a line found in the site can only come from the text."""
    shutil.copytree(LANTERN, folder / "project", ignore=shutil.ignore_patterns("README.md"))
    text = folder / "project" / TEXT
    text.write_text("".join(line + (PRINTED if len(line.split()) >= 10 else "") + "\n"
                            for line in text.read_text(encoding="utf-8").splitlines()), encoding="utf-8")
    if shown:
        game = folder / "project" / "content" / "lantern-keepers" / "game.yaml"
        game.write_text(game.read_text(encoding="utf-8").replace("  sources:\n", "  show_source_texts: true\n  sources:\n", 1),
                        encoding="utf-8")
    return folder / "project" / "content"


@pytest.fixture(scope="module")
def withheld(shared) -> Path:
    """Lantern Keepers built as game.yaml leaves it: its texts may not be shown (the default)."""
    def make(folder: Path) -> None:
        build_site(_lantern(folder, shown=False), folder / "site", folder / "work")
    return shared.folder("rulebook-withheld", make) / "site"


@pytest.fixture(scope="module")
def published(shared) -> Path:
    """Lantern Keepers with `show_source_texts: true`."""
    def make(folder: Path) -> None:
        build_site(_lantern(folder, shown=True), folder / "site", folder / "work")
    return shared.folder("rulebook-published", make) / "site"


def lantern_game(shown: bool, tmp_path: Path):
    (checked,) = check_content(_lantern(tmp_path, shown))
    return checked


def rulebook_text(site: Path) -> list[str]:
    """The rulebook's lines of the copy a site was built from (or a copy made in a folder, _lantern)."""
    return (site.parent / "project" / TEXT).read_text(encoding="utf-8").splitlines()


# ---- the one home: item -> source, lines, marks

def test_an_item_comes_from_the_lines_the_source_map_gives_it_joined_where_they_follow(tmp_path):
    checked = lantern_game(True, tmp_path)
    found = Provenances(checked.game, checked.index).of("rule:goal")
    assert [(p.source.id, p.first, p.last) for p in found.passages] == [("rulebook", 4, 6)]
    assert [line.text for line in found.passages[0].lines] == rulebook_text(tmp_path / "site")[3:6]
    procedure = Provenances(checked.game, checked.index).of("procedure:tide-turn")
    assert [(p.first, p.last) for p in procedure.passages] == [(25, 29)]  # 25 and 26-29 joined


def test_a_gap_the_source_map_names_stands_at_the_line_it_concerns(shipped_games):
    checked = shipped_games["deep-state"]
    found = Provenances(checked.game, checked.index).of("table:nuclear-threat-stages")
    at = {line.number: [g.id for g in line.gaps] for p in found.passages for line in p.lines if line.gaps}
    assert at == {88: ["nuclear-threat-editor-remark"], 94: ["nuclear-threat-comintern-limit"]}
    # the item's own marks (its gaps as a whole) are not said twice where a line says them
    assert all(m.gap is None or m.gap.id not in ("nuclear-threat-editor-remark", "nuclear-threat-comintern-limit")
               for m in found.marks)


def test_a_game_that_does_not_show_its_texts_keeps_the_references_but_not_the_lines(tmp_path):
    checked = lantern_game(False, tmp_path)
    found = Provenances(checked.game, checked.index).of("table:oil")
    assert [(p.first, p.last) for p in found.passages] == [(10, 13)]
    assert not found.shown and all(line.text is None for p in found.passages for line in p.lines)
    assert Provenances(checked.game, checked.index).words("table:oil") == ""


def test_the_shipped_games_may_show_their_texts(shipped_games):
    assert {g: c.game.info.show_source_texts for g, c in shipped_games.items()} == dict.fromkeys(shipped_games, True)


# ---- as a contributor: a game that does not allow its texts to be shown

def _every_file_as_text(site: Path) -> dict[str, str]:
    found = {}
    for path in site.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        text = data.decode("utf-8", errors="ignore")
        found[path.relative_to(site).as_posix()] = text + "\n" + html.unescape(text)  # as written, and as read
    return found


def test_no_line_of_a_withheld_text_is_anywhere_in_the_site(withheld, published):
    long_lines = [line for line in rulebook_text(withheld) if len(line.split()) >= 10]
    assert len(long_lines) >= 10 and all(line.endswith(PRINTED) for line in long_lines), long_lines
    files = _every_file_as_text(withheld)
    found = [(line, name) for line in long_lines for name, text in files.items() if line in text]
    assert found == []
    # the same game allowed to show them has every one of them (the search above could find them)
    shown = "\n".join(_every_file_as_text(published).values())
    assert [line for line in long_lines if line not in shown] == []


def test_a_withheld_text_still_gives_its_line_references(withheld):
    page = (withheld / "lantern-keepers" / "tables.html").read_text(encoding="utf-8")
    assert "From the rulebook:</strong> Lantern Keepers Rulebook, lines 10–13" in page
    assert 'class="rs-line"' not in page


def test_search_finds_an_item_by_the_rulebooks_own_words_only_where_they_may_be_shown(withheld, published):
    def words_of(site: Path, anchor: str) -> set[str]:
        data = site_search.read_index(site / "search" / "lantern-keepers.js")
        (row,) = [e for e in site_search.entries(data) if e["location"].endswith("tables.html#" + anchor)]
        return set(row["words"].split())
    # words of the rulebook's lines of the oil table that the table itself does not print
    own = {w for line in rulebook_text(published)[9:13] for w in site_search.words(line)} - site_search.STOP_WORDS
    assert {"lights", "lantern"} <= own
    assert {"lights", "lantern"} <= words_of(published, "oil")
    assert not {"lights", "lantern"} & words_of(withheld, "oil")


# ---- as a reader on a phone: the lines in one tap, byte for byte

def _lines_shown(scope) -> list[tuple[int, str]]:
    """(line number, text) of each rulebook line a reader sees in `scope` (a closed <details> hides its own)."""
    return [tuple(pair) for pair in scope.evaluate("""root => [...root.querySelectorAll('.rs-line')]
        .filter(l => l.checkVisibility()).map(l => [Number(l.dataset.line), l.textContent])""")]


def _open(browser, url: str):
    page = browser.new_page(viewport=PHONE)
    page.goto(url)
    page.wait_for_load_state("load")
    return page


@pytest.fixture(scope="module")
def real_server(real_site):
    with served(real_site) as base:
        yield base


@pytest.fixture(scope="module")
def lantern_server(published):
    with served(published) as base:
        yield base


def _tap_fold_under(page, heading_id: str):
    """The item's "From the rulebook" after its heading: tapped open once; its block."""
    block = page.locator(f"[id='{heading_id}'] ~ .rs-rulebook").first
    summary = block.locator("summary").first
    summary.scroll_into_view_if_needed()
    assert _lines_shown(block.element_handle()) == []  # folded until tapped
    summary.click()
    return block


def test_an_entity_shows_its_rulebook_lines_in_one_tap(browser, real_server, shipped_games):
    checked = shipped_games["deep-state"]
    text = source_lines(checked.game, "global-conspiracy")
    page = _open(browser, f"{real_server}/deep-state/kinds/alliance.html#interpol")
    block = _tap_fold_under(page, "interpol")
    assert "Deep State: Global Conspiracy Rulebook (expansion for Deep State: New World Order), lines 258–263 and 270–271" \
        in block.locator(".rs-rulebook__ref").inner_text()
    assert _lines_shown(block.element_handle()) == [(n, text[n - 1]) for n in [*range(258, 264), 270, 271]]
    assert "This reference" in block.inner_text()
    page.close()


def test_a_table_rows_lines_are_among_its_tables_in_one_tap(browser, real_server, shipped_games):
    checked = shipped_games["deep-state"]
    text = source_lines(checked.game, "global-conspiracy")
    page = _open(browser, f"{real_server}/deep-state/tables.html#secret-operation-tokens")
    block = _tap_fold_under(page, "secret-operation-tokens")
    shown = dict(_lines_shown(block.element_handle()))
    assert shown[242] == text[241] and "Cyberattack" in shown[242]  # the Cyberattack row's line
    assert all(shown[n] == text[n - 1] for n in shown)
    page.close()


def test_a_procedure_step_shows_its_lines_in_one_tap_in_the_walker(browser, real_server, shipped_games):
    checked = shipped_games["deep-state"]
    text = source_lines(checked.game, "global-conspiracy")
    page = _open(browser, f"{real_server}/deep-state/solo/falcon-world-media.html")
    step = page.locator(".rs-walker .rs-rulebook--step").first
    step.locator("summary").scroll_into_view_if_needed()
    assert _lines_shown(step.element_handle()) == []
    step.locator("summary").click()
    assert _lines_shown(step.element_handle()) == [(n, text[n - 1]) for n in range(545, 552)]
    page.close()


def test_the_bot_turn_page_shows_a_steps_lines_in_one_tap(browser, lantern_server, published):
    text = rulebook_text(published)
    page = _open(browser, f"{lantern_server}/lantern-keepers/bot-turn.html")
    page.locator(".rs-bot__setup button[type=submit]").click()
    stage = page.locator(".rs-bot__stage")
    for _ in range(4):  # on to the first stop inside a procedure
        if stage.locator(".rs-rulebook--step").count():
            break
        stage.locator(".rs-bot__choices button").first.click()
    step = stage.locator(".rs-rulebook--step").first
    assert _lines_shown(step.element_handle()) == []
    step.locator("summary").click()
    shown = _lines_shown(step.element_handle())
    assert shown and all(line == text[n - 1] for n, line in shown), shown
    page.close()


def test_an_erratumd_value_shows_the_rulebook_and_the_erratum_side_by_side(browser, lantern_server, published):
    text = rulebook_text(published)
    page = _open(browser, f"{lantern_server}/lantern-keepers/tables.html#oil")
    block = _tap_fold_under(page, "oil")
    assert block.locator(".rs-rulebook__erratum").inner_text() == \
        "Oil for Keepers 4: the rulebook says 2; corrected to 1 on 2026-05-01 (erratum e1)."
    assert _lines_shown(block.element_handle()) == [(n, text[n - 1]) for n in range(10, 14)]
    assert "With 4 keepers, spend 2 oil." in text[11]  # the rulebook's 2, beside the corrected 1
    page.close()

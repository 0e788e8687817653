"""A newcomer's game, from an empty folder to a site and PDFs (issue 45).

The test does what a designer with an Automa does: `rulesmith new` in an empty folder, then each
file of the starter replaced by the game's own (tests/fixtures/lantern-keepers, an invented game
with a bot), the check, and a build with PDFs. Every part of the game is then looked for where a
reader meets it: the bot's labelled steps on the chart, the list, the walker and the Bot turn page;
the solo rules on the solo aid; the erratum, the rulings (about a gap and a rules section, one
given at a convention) and the doubtful value's note on paper and on the gaps page; the site named
after the game. The commands run in this process (conftest.rulesmith_here).
"""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, rulesmith_here
from reader_text import pdf_text

from rulesmith.text.placed import unplaced

if TYPE_CHECKING:
    from pathlib import Path

FIXTURE = ROOT / "tests" / "fixtures" / "lantern-keepers"
GAME = "lantern-keepers"
rulesmith = functools.partial(rulesmith_here, content=None)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """An empty folder, `rulesmith new`, then the starter's files replaced one by one."""
    folder = tmp_path_factory.mktemp("newcomer")
    made = rulesmith("new", GAME, "--name", "Lantern Keepers", cwd=folder)
    assert made.returncode == 0, made.stderr
    starter = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and p.suffix in (".yaml", ".txt"))
    ours = sorted(p.relative_to(FIXTURE) for p in FIXTURE.rglob("*") if p.is_file() and p.suffix in (".yaml", ".txt"))
    for rel in starter:  # what the starter has and the game does not: removed, file by file
        if rel.parts[0] in ("content", "sources") and rel not in ours:
            (folder / rel).unlink()
    for rel in ours:  # each file of the game in its place
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURE / rel, folder / rel)
    return folder


@pytest.fixture(scope="module")
def built(project) -> Path:
    checked = rulesmith("check", cwd=project)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    result = rulesmith("build", "-q", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return project / "site"


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_the_site_is_named_after_the_one_game_and_titles_carry_it(built):
    assert re.findall(r"<title>([^<]*)</title>", page(built, "index.html")) == ["Lantern Keepers"]
    assert "<title>Overview - Lantern Keepers</title>" in page(built, f"{GAME}/index.html")
    assert re.findall(r"<h1[^>]*>([^<]*)", page(built, "index.html")) == ["Lantern Keepers"]


def test_the_bots_labelled_steps_on_the_chart_the_list_the_walker_and_the_bot_turn_page(built, project):
    shown = page(built, f"{GAME}/solo/tide-turn.html")
    chart = shown.split('class="rs-flowchart', 1)[1]
    assert all(f"{label}." in chart for label in ("A1", "A2", "A3", "A4", "A5"))
    assert re.findall(r'data-number="([^"]+)"', shown)[:5] == ["A1", "A2", "A3", "A4", "A5"]
    docs = unplaced((project / ".build" / "docs" / GAME / "solo" / "tide-turn.md").read_text(encoding="utf-8"))
    steps = docs.split("## Step by step")[1]
    assert "- **A3.** **Has the Tide made enough waves?** Yes → step A4. No → step A2." in steps
    bot = page(built, f"{GAME}/bot-turn.html")
    data = json.loads(html.unescape(re.search(r'class="rs-bot__data" data-bot="([^"]*)"', bot).group(1)))
    numbers = {p: sorted(n["number"] for n in d["nodes"].values()) for p, d in data["procedures"].items()}
    assert numbers == {"tide-turn": ["A1", "A2", "A3", "A4", "A5"], "tide-put-out": ["P1", "P2", "P3"]}
    assert data["decks"]["wave-cards"]["cards"] == ["Swell", "Surge", "Spray", "Lull"]


def test_the_solo_aid_holds_the_solo_rules_and_the_bots_steps(built):
    text = " ".join(pdf_text((built / "downloads" / GAME / "solo-aid-a4.pdf").read_bytes()).split())
    assert "Setting up the Tide" in text and "The Tide's score" in text
    assert "scores 1 light for every lantern it put out" in text
    assert "A3" in text and "P2" in text
    assert "Lantern Keepers, the reference site" in text


def test_on_paper_every_mark_is_explained_and_the_rulings_are_printed(built):
    text = " ".join(pdf_text((built / "downloads" / GAME / "rules-summary-a4.pdf").read_bytes()).split())
    assert "≠ Contradictory in the source" in text  # the legend
    assert "a gap: check the printed component" in text
    assert "R a ruling applies" in text
    assert "(The card's face prints 4, the card list 5.)" in text  # the doubtful value's note, beside it
    assert "Ruling r1 (2026-05-02): Does a beacon give 4 or 5 light?" in text  # about a rules section
    solo = pdf_text((built / "downloads" / GAME / "card-reference-a4.pdf").read_bytes())
    assert "Oil spent per round" in solo


def test_the_gaps_page_and_the_changelog_show_the_rulings_and_the_erratum(built, project):
    from rulesmith.pipeline import check_content
    from rulesmith.site.pages import gaps_of

    gaps = page(built, f"{GAME}/gaps.html")
    [checked] = check_content(project / "content")
    assert gaps.split("<article", 1)[1].count("<li>") == len(gaps_of(checked.game)) == 4  # one row a place
    assert gaps.count("Ruling r1") >= 2  # with the contradictory section, and under the gap it settles
    assert "at the autumn convention, 2026" in gaps
    changelog = page(built, f"{GAME}/changelog.html")
    assert "With 4 keepers, spend 1 oil." in changelog and "at the autumn convention, 2026" in changelog


def test_the_source_map_names_the_bots_parts_and_covers_the_rulebook(project):
    from rulesmith.checks.source_map import coverage
    from rulesmith.pipeline import check_content

    [checked] = check_content(project / "content")
    [found] = coverage(checked.game)
    assert found.uncovered == [] and found.total == 35
    mapped = {key for entry in checked.game.source_map for key in entry.items}
    assert {"bot:turn", "bot:part-1", "bot:state-difficulty", "bot:state-round", "bot:deck-wave-cards"} <= mapped

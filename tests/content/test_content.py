"""The real content, one plainly named test per invariant; each lists every offender at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesmith.checks import check
from rulesmith.content.game import load_games
from rulesmith.content.link import build_index, resolve
from rulesmith.problems import Problems
from rulesmith.site.pages import gaps_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists())


@pytest.fixture(scope="module")
def loaded():
    problems = Problems()
    games = {g.id: g for g in load_games(ROOT / "content", problems)}
    assert not problems, "\n".join(map(str, problems.sorted()))
    indexes = {}
    for game in games.values():
        index = build_index(game, problems)
        indexes[game.id] = index
    assert not problems, "\n".join(map(str, problems.sorted()))
    return games, indexes


def run(rule, game, *args) -> list[str]:
    problems = Problems()
    rule(game, *args, problems)
    return [str(p) for p in problems.sorted()]


def test_every_rulebook_text_is_transcribed_by_exactly_one_game(loaded):
    """Every text beside the project (../shared/seeds) is a source of one game, none of two."""
    from rulesmith.checks.source_map import seeds_dir

    games, _ = loaded
    texts = sorted(p.name for p in seeds_dir(next(iter(games.values()))).glob("*.txt"))
    assert texts, "no rulebook texts found beside the project"
    claimed = {name: [g.id for g in games.values() if name in {s.file for s in g.info.sources}] for name in texts}
    assert {name: ids for name, ids in claimed.items() if len(ids) != 1} == {}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_reference_resolves(loaded, game_id):
    games, indexes = loaded
    assert run(resolve, games[game_id], indexes[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_procedure_is_a_valid_graph(loaded, game_id):
    games, _ = loaded
    assert games[game_id].procedures, "every game here has a solo bot"
    assert run(check.check_procedures, games[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_table_rule_holds(loaded, game_id):
    games, indexes = loaded
    assert run(check.check_tables, games[game_id], indexes[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_example_recomputes(loaded, game_id):
    games, indexes = loaded
    arithmetic = [e for e in games[game_id].examples if e.expression]
    assert arithmetic, "each rulebook prints arithmetic examples"
    assert run(check.check_examples, games[game_id], indexes[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_entity_fields_match_their_kinds(loaded, game_id):
    games, indexes = loaded
    assert run(check.check_entities, games[game_id], indexes[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_component_counts_agree_with_entity_counts(loaded, game_id):
    games, _ = loaded
    game = games[game_id]
    too_many = [f"{k.id}: {len(game.entities_of(k.id))} > {k.count}" for k in game.kinds
                if k.count is not None and len(game.entities_of(k.id)) > k.count]
    assert too_many == []
    counted = [r for t in game.tables for r in t.rules if r.rule == "entity-count"]
    if game_id != "deep-state":  # the Deep State expansions print no component list
        assert counted, "component tables declare entity-count rules"


@pytest.mark.parametrize("game_id", GAMES)
def test_errata_match_the_data(loaded, game_id):
    import datetime

    games, indexes = loaded
    assert run(check.check_errata, games[game_id], indexes[game_id], datetime.date.today()) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_no_live_markup_or_foreign_links_in_text(loaded, game_id):
    games, _ = loaded
    assert run(check.check_texts, games[game_id]) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_non_verified_item_has_a_note_and_is_on_the_gaps_page(loaded, game_id):
    games, _ = loaded
    game = games[game_id]
    gaps = gaps_of(game)
    assert gaps, "every one of these rulebook texts has gaps"
    assert [g["key"] for g in gaps if not g["note"].strip()] == []
    listed = {g["key"] for g in gaps}
    unlisted = [f"{e.kind}:{e.id}" for e in game.entities if e.status != "verified" and f"{e.kind}:{e.id}" not in listed]
    unlisted += [f"table:{t.id}" for t in game.tables if t.status != "verified" and f"table:{t.id}" not in listed]
    assert unlisted == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_entity_says_where_it_comes_from(loaded, game_id):
    games, _ = loaded
    assert [f"{e.kind}:{e.id}" for e in games[game_id].entities if e.source is None] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_content_files_declare_the_schema(game_id):
    missing = [str(p.relative_to(ROOT)) for p in (ROOT / "content" / game_id).rglob("*.yaml")
               if not p.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")]
    assert missing == []



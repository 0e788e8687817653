"""Stage 2, model: pydantic validation with located, hinted problems."""

from gamekit import CONTENT_YAML, write_game

from rulesmith.content.game import load_games
from rulesmith.problems import Problems


def problems_for(tmp_path, **kwargs):
    content = write_game(tmp_path, **kwargs)
    problems = Problems()
    games = load_games(content, problems)
    return games, [str(p) for p in problems.sorted()]


def test_valid_game_loads_with_defaults_applied(tmp_path):
    games, problems = problems_for(tmp_path)
    assert problems == []
    game = games[0]
    assert [e.id for e in game.entities] == ["interpol", "osce", "star"]
    assert game.entities[0].module == "base" and game.entities[0].source.page == 2
    assert [s.id for s, _ in game.all_sections()] == ["goal", "goal-note"]


def test_unknown_field_with_hint_at_key_position(tmp_path):
    _, problems = problems_for(tmp_path, content=CONTENT_YAML.replace("title: Bot turn", "titel: Bot turn"))
    assert any("content.yaml:23:5: unknown field 'titel' (did you mean title?)" in p for p in problems)


def test_wrong_type_and_boolean_hint(tmp_path):
    text = CONTENT_YAML.replace('{when: "Yes", to: take}', "{when: true, to: take}")
    _, problems = problems_for(tmp_path, content=text)
    assert any("'when' must be text, but YAML read a boolean" in p and "quote the value" in p for p in problems)


def test_yes_and_no_are_text_as_in_yaml_1_2(tmp_path):
    """Editors read YAML 1.2, where `Yes` is text; Rulesmith reads it the same way."""
    text = CONTENT_YAML.replace('{when: "Yes", to: take}', "{when: Yes, to: take}").replace(
        '{when: "No", to: done}', "{when: No, to: done}")
    assert text != CONTENT_YAML
    _game, problems = problems_for(tmp_path, content=text)
    assert not problems, problems


def test_missing_required_field(tmp_path):
    _, problems = problems_for(tmp_path, content=CONTENT_YAML.replace("    title: Stages\n", ""))
    assert any("content.yaml:16:5: missing required field 'title'" in p for p in problems)


def test_status_without_note(tmp_path):
    text = CONTENT_YAML.replace('status: missing, note: "Not reproduced in the rulebook.", ', "status: missing, ")
    _, problems = problems_for(tmp_path, content=text)
    assert any("status 'missing' needs a note" in p for p in problems)


def test_bad_id_pattern(tmp_path):
    _, problems = problems_for(tmp_path, content=CONTENT_YAML.replace("id: stages", "id: Stages_1"))
    assert any("'Stages_1' is not a valid id" in p and "kebab-case" in p for p in problems)


def test_game_id_must_match_folder(tmp_path):
    from gamekit import GAME_YAML

    _, problems = problems_for(tmp_path, game=GAME_YAML.replace("id: mini", "id: other"))
    assert any("game id 'other' differs from its folder 'mini'" in p for p in problems)

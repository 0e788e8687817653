"""Stage 3, link: references, index, backlinks."""

import pytest
from gamekit import CONTENT_YAML, write_game

from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError


def test_index_and_backlinks(tmp_path):
    checked = check_content(write_game(tmp_path))[0]
    index = checked.index
    assert {"alliance:interpol", "symbol:star", "rule:goal", "rule:goal-note", "table:stages",
            "procedure:bot", "example:stage-two", "term:pp", "module:base"} <= set(index.targets)
    assert set(index.backlinks["alliance:interpol"]) == {"symbol:star", "rule:goal", "procedure:bot"}
    assert index.backlinks["rule:goal"] == ["rule:goal-note"]


def messages(tmp_path, content):
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, content=content))
    return [str(p) for p in error.value.problems]


def test_unknown_reference_with_nearest_ids(tmp_path):
    problems = messages(tmp_path, CONTENT_YAML.replace("Used by [[alliance:interpol]]", "Used by [[alliance:interpoll]]"))
    assert len(problems) == 1
    assert problems[0].endswith("content/mini/content.yaml:5:57: unknown reference alliance:interpoll "
                                "(did you mean alliance:interpol or alliance:osce?)")


def test_malformed_and_unclosed_references(tmp_path):
    problems = messages(tmp_path, CONTENT_YAML.replace("[[term:pp]]", "[[pp]] and [[term:pp"))
    assert any("malformed reference [[pp]]" in p for p in problems)
    assert any("unclosed reference" in p for p in problems)


def test_unknown_icon(tmp_path):
    problems = messages(tmp_path, CONTENT_YAML.replace("[[icon:flag]]", "[[icon:flagg]]"))
    assert any("unknown icon 'flagg' (did you mean flag" in p for p in problems)


def test_duplicate_id_across_files(tmp_path):
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"more.yaml": "entities:\n  - {id: star, name: Star 2, kind: symbol}\n"}))
    assert any("more.yaml:2:10: duplicate id 'symbol:star' (first defined at" in str(p) for p in error.value.problems)


@pytest.mark.unit
def test_many_unknown_references_are_each_located_with_few_guesses(tmp_path, monkeypatch):
    """3,000 unknown references (each asked difflib over every id twice before, issue 46): each is
    located; 'did you mean' comes from one index made once, for the first few."""
    import difflib

    from rulesmith.problems import Suggestions

    calls = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    sections = "".join(f"  - {{id: s{i}, title: S{i}, module: base, body: 'See [[alliance:nowhere{i}]].'}}\n"
                       for i in range(3000))
    content = CONTENT_YAML.replace("Used by [[alliance:interpol]]", "Used by [[alliance:interpoll]]")
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, content=content, **{"more.yaml": "sections:\n" + sections}))
    problems = [str(p) for p in error.value.problems]
    unknown = [p for p in problems if "unknown reference alliance:nowhere" in p]
    assert len(unknown) == 3000
    assert problems[0].endswith("unknown reference alliance:interpoll (did you mean alliance:interpol or alliance:osce?)")
    assert 0 < len(calls) <= 2 * Suggestions.LIMIT

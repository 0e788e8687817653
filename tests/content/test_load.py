"""Stage 1, load: strict YAML with positions."""

from pathlib import Path

from rulesmith.content.load import read_file
from rulesmith.problems import Problems


def load(tmp_path: Path, text: str | bytes):
    path = tmp_path / "f.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    problems = Problems()
    return read_file(path, problems), [str(p) for p in problems.items]


def test_positions_of_values_and_keys(tmp_path):
    source, problems = load(tmp_path, "a: 1\nlist:\n  - {x: hello}\n  - y\n")
    assert problems == []
    assert source.data == {"a": 1, "list": [{"x": "hello"}, "y"]}
    assert source.where(("list", 0, "x"))[1:] == (3, 9)
    assert source.where(("list", 0, "x"), key=True)[1:] == (3, 6)
    assert source.where(("list", 1))[1:] == (4, 5)


def test_nearest_parent_position_for_unknown_path(tmp_path):
    source, _ = load(tmp_path, "a:\n  b: 1\n")
    assert source.where(("a", "missing"))[1:] == (2, 3)


def test_duplicate_key_names_both_lines(tmp_path):
    _, problems = load(tmp_path, "a: 1\nb: 2\na: 3\n")
    assert len(problems) == 1 and ":3:1: duplicate key 'a' (first defined at line 1)" in problems[0]


def test_alias_rejected_before_expansion(tmp_path):
    _, problems = load(tmp_path, "a: &x [1, 2]\nb: *x\n")
    assert ":2:4: YAML aliases" in problems[0]


def test_python_tag_never_constructed(tmp_path):
    marker = tmp_path / "pwned"
    _, problems = load(tmp_path, f'a: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert "YAML tag tag:yaml.org,2002:python/object/apply:os.system is not allowed" in problems[0]
    assert not marker.exists()


def test_bom_and_bad_utf8_and_empty(tmp_path):
    assert "byte-order mark" in load(tmp_path, b"\xef\xbb\xbfa: 1\n")[1][0]
    assert ":2:4: byte 0xff is not valid UTF-8" in load(tmp_path, b"a: 1\nb: \xff\n")[1][0]
    assert "file is empty" in load(tmp_path, "# only a comment\n")[1][0]


def test_syntax_error_position_and_tab_hint(tmp_path):
    _, problems = load(tmp_path, "a:\n\tb: 1\n")
    assert ":2:1: YAML syntax error" in problems[0] and "tabs" in problems[0]


def test_list_at_top_level_rejected(tmp_path):
    _, problems = load(tmp_path, "- a\n- b\n")
    assert "file holds a list; a content file is a mapping" in problems[0]


def test_deep_nesting_rejected(tmp_path):
    _, problems = load(tmp_path, "a: " + "[" * 200 + "]" * 200 + "\n")
    assert "nesting" in problems[0]


def test_invalid_date_is_a_problem_not_a_crash(tmp_path):
    _, problems = load(tmp_path, "d: 2026-13-45\n")
    assert ":1:4: invalid value '2026-13-45'" in problems[0]


def test_an_unchanged_file_is_parsed_once_and_a_changed_or_bad_one_again(tmp_path):
    """serve checks everything on every save: unchanged files come from memory, by their bytes."""
    path = tmp_path / "a.yaml"
    path.write_text("entities:\n  - id: one\n")
    first = read_file(path, Problems())
    assert read_file(path, Problems()) is first
    path.write_text("entities:\n  - id: two\n")
    changed = read_file(path, Problems())
    assert changed is not first and changed.data == {"entities": [{"id": "two"}]}
    path.write_text("entities: [\n")
    for _ in range(2):  # a file with a problem is never kept: reported on every read
        problems = Problems()
        assert read_file(path, problems) is None and len(problems) == 1

"""`rulesmith check` keeps the answer of its last passed check (rulesmith/checks/cache.py) and gives
it again only while nothing it depends on changed: every edit is seen, never a stale answer."""

import datetime
import json
import re
import shutil

import pytest
from gamekit import CONTENT_YAML, write_game

from rulesmith import cli, fingerprint
from rulesmith.checks import cache as checkcache
from rulesmith.project import templates

CACHED = "unchanged since the last check"  # the whole answer
KEPT = "unchanged since its last check"  # one game's answer


def check(capsys, content, *options):
    code = cli.main(["--content", str(content), "check", *options])
    out = capsys.readouterr()
    return code, out.out, out.err


def same_answer(first: str, again: str) -> bool:
    """The same lines but the time taken and the cache's remark."""
    def plain(text):
        return re.sub(r" checked in [0-9.]+ s( \([^)]*unchanged since [^)]*\))?:", " checked:", text)
    return plain(first) == plain(again)


def test_a_second_check_of_unchanged_content_answers_from_the_cache(capsys, tmp_path):
    content = write_game(tmp_path)
    code, first, first_err = check(capsys, content)
    assert code == 0 and CACHED not in first
    assert (tmp_path / ".cache" / "check.json").is_file()
    code, again, again_err = check(capsys, content)
    assert code == 0 and CACHED in again
    assert same_answer(first, again) and first_err == again_err  # warnings too (the unread rulebook text)
    assert "warning" in first_err


@pytest.mark.parametrize("edit", ["value", "new file", "removed file", "whitespace"])
def test_an_edit_to_any_content_file_is_seen(capsys, tmp_path, edit):
    content = write_game(tmp_path, **{"more.yaml": "glossary: [{id: vp, term: VP, definition: Victory points.}]\n"})
    assert check(capsys, content)[0] == 0
    folder = content / "mini"
    if edit == "value":  # a broken reference: the check must fail, not answer "ok" from the cache
        (folder / "content.yaml").write_text(CONTENT_YAML.replace("[[table:stages]]", "[[table:stagez]]"))
    elif edit == "new file":
        (folder / "broken.yaml").write_text("entities: [{id: x, name: X, kind: nowhere}]\n")
    elif edit == "removed file":  # nothing refers to it: the check passes, but runs again
        (folder / "more.yaml").unlink()
    else:
        (folder / "content.yaml").write_text(CONTENT_YAML + "\n")
    code, out, err = check(capsys, content)
    assert CACHED not in out
    if edit in ("value", "new file"):
        assert code == 1 and ("stagez" in err or "nowhere" in err)
    else:
        assert code == 0


def test_a_failed_check_is_never_kept(capsys, tmp_path):
    content = write_game(tmp_path, content=CONTENT_YAML.replace("[[table:stages]]", "[[table:stagez]]"))
    assert check(capsys, content)[0] == 1
    assert not (tmp_path / ".cache" / "check.json").exists()
    code, _out, err = check(capsys, content)
    assert code == 1 and "stagez" in err


def test_the_rulebook_text_is_an_input(capsys, tmp_path):
    """The text is found and read, and then changed: each change is checked again."""
    content = write_game(tmp_path, **{"source-map.yaml": 'source_map: [{source: core, lines: "1-2", items: [rule:goal]}]\n'})
    code, _, without = check(capsys, content)
    assert code == 0 and "mini.txt" in without  # not found: the source map is unchecked (a warning)
    (tmp_path / "mini.txt").write_text("Mini Rulebook\nThe goal.\n", encoding="utf-8")
    code, out, err = check(capsys, content)
    assert code == 0 and CACHED not in out and "mini.txt" not in err
    assert CACHED in check(capsys, content)[1]
    (tmp_path / "mini.txt").write_text("Mini Rulebook\nThe goal.\nA third line.\n", encoding="utf-8")
    code, out, err = check(capsys, content)
    assert code == 1 and "line 3" in err  # the new line is not in the source map


def test_no_cache_checks_again(capsys, tmp_path):
    content = write_game(tmp_path)
    check(capsys, content)
    assert CACHED not in check(capsys, content, "--no-cache")[1]


def test_a_damaged_or_foreign_cache_file_is_ignored(capsys, tmp_path):
    content = write_game(tmp_path)
    check(capsys, content)
    stored = tmp_path / ".cache" / "check.json"
    entry = json.loads(stored.read_text())
    game = dict(entry["games"]["mini"])
    for damaged in ("{not json", json.dumps(dict(entry, format=0)), "[]",
                    json.dumps(dict(entry, key="0" * 40, games={"mini": dict(game, key="0" * 40)})),
                    json.dumps(dict(entry, result={"games": 1}, games=None)),
                    json.dumps(dict(entry, extra=None, games={"mini": dict(game, extra=None)})),
                    json.dumps(dict(entry, key="0" * 40, games={"mini": dict(game, warnings="w")}))):
        stored.write_text(damaged)
        code, out, _ = check(capsys, content)
        assert code == 0 and CACHED not in out and KEPT not in out


def test_the_key_covers_date_environment_code_and_templates(tmp_path, monkeypatch):
    content = write_game(tmp_path)
    day = datetime.date(2026, 1, 1)
    base = checkcache.key(content, day)
    assert checkcache.key(content, day) == base
    assert checkcache.key(content, day + datetime.timedelta(days=1)) != base  # "not in the future" moves
    monkeypatch.setenv("RULESMITH_SOURCES", str(tmp_path))
    assert checkcache.key(content, day) != base
    monkeypatch.delenv("RULESMITH_SOURCES")
    assert checkcache.key(content, day) == base
    copy = tmp_path / "templates"  # the package's templates, one byte changed
    shutil.copytree(templates(), copy, symlinks=True)
    monkeypatch.setattr("rulesmith.project.templates", lambda: copy)
    assert checkcache.key(content, day) == base
    words = copy / "condition-words.yaml"
    words.write_text(words.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert checkcache.key(content, day) != base


def test_the_key_covers_the_code(tmp_path, monkeypatch):
    """Rulesmith's own modules are hashed (an editable install keeps its version when edited)."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "fingerprint.py").write_text("x = 1\n")
    (package / "sub" / "a.py").write_text("y = 1\n")
    content = write_game(tmp_path)
    monkeypatch.setattr(fingerprint, "__file__", str(package / "fingerprint.py"))
    day = datetime.date(2026, 1, 1)
    base = checkcache.key(content, day)
    (package / "sub" / "__pycache__").mkdir()
    (package / "sub" / "__pycache__" / "a.cpython.pyc").write_bytes(b"\0")  # compiled files are not inputs
    assert checkcache.key(content, day) == base
    (package / "sub" / "a.py").write_text("y = 2\n")
    assert checkcache.key(content, day) != base


def two_games(tmp_path):
    content = write_game(tmp_path)
    shutil.copytree(content / "mini", content / "other")
    game = content / "other" / "game.yaml"
    game.write_text(game.read_text().replace("id: mini", "id: other").replace("file: mini.txt", "file: other.txt"))
    return content


def games_read(monkeypatch) -> list[str]:
    """The game folders the check reads from now on."""
    from rulesmith.content import game

    read, load = [], game.load_game
    monkeypatch.setattr(game, "load_game", lambda folder, *a: read.append(folder.name) or load(folder, *a))
    return read


def test_the_preview_checks_again_only_the_games_that_changed(tmp_path, monkeypatch):
    """check_content(kept=…), as `rulesmith serve` calls it between its builds."""
    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError

    content = two_games(tmp_path)
    kept: dict = {}
    first = {c.game.id: c for c in check_content(content, kept=kept)}
    read = games_read(monkeypatch)
    again = {c.game.id: c for c in check_content(content, kept=kept)}
    assert all(again[g] is first[g] for g in first) and read == []  # nothing changed: nothing read again
    (content / "other" / "content.yaml").write_text(CONTENT_YAML.replace("Interpol", "Europol"))
    after = {c.game.id: c for c in check_content(content, kept=kept)}
    assert after["mini"] is first["mini"] and after["other"] is not first["other"] and read == ["other"]
    assert after["other"].index.targets["alliance:interpol"].item.name == "Europol"
    (content / "other" / "content.yaml").write_text(CONTENT_YAML.replace("[[table:stages]]", "[[table:stagez]]"))
    with pytest.raises(ContentError) as error:
        check_content(content, kept=kept)
    assert "stagez" in str(error.value.problems)
    assert "other" not in kept and "mini" in kept
    (content / "other" / "content.yaml").write_text(CONTENT_YAML)
    again = {c.game.id: c for c in check_content(content, kept=kept)}
    (tmp_path / "mini.txt").write_text("Mini Rulebook\n")  # mini's rulebook text, found now
    with pytest.raises(ContentError) as error:  # its line 1 is in no source map
        check_content(content, kept=kept)
    shown = [str(p) for p in error.value.problems]
    assert any("mini.txt:1:1" in p for p in shown) and not any("other.txt" in p for p in shown)
    assert "mini" not in kept and kept["other"][1] is again["other"]


def test_after_an_edit_to_one_game_only_that_game_is_read_again(capsys, tmp_path, monkeypatch):
    content = two_games(tmp_path)
    assert check(capsys, content)[0] == 0
    (content / "other" / "content.yaml").write_text(CONTENT_YAML.replace("Interpol", "Europol"))
    read = games_read(monkeypatch)
    code, out, err = check(capsys, content)
    assert code == 0 and read == ["other"]
    assert "(mini: unchanged since its last check, answered from .cache/)" in out
    code, full_out, full_err = check(capsys, content, "--no-cache")
    assert code == 0 and same_answer(out, full_out) and err == full_err and "warning" in err  # both games' warnings
    read.clear()
    assert CACHED in check(capsys, content)[1] and read == []  # the answer is kept whole again
    (tmp_path / "mini.txt").write_text("Mini Rulebook\n", encoding="utf-8")  # mini's rulebook text, found now
    code, _out, err = check(capsys, content)
    assert code == 1 and "mini.txt:1:1" in err  # its line 1 is in no source map
    assert read[0] == "mini" and "other" not in read[:1]  # mini alone first (then all, to print the whole check)


def test_a_failing_edit_prints_what_the_whole_check_prints(capsys, tmp_path):
    content = two_games(tmp_path)
    assert check(capsys, content)[0] == 0
    (content / "other" / "content.yaml").write_text(CONTENT_YAML.replace("[[table:stages]]", "[[table:stagez]]"))
    failed = check(capsys, content)
    assert failed[0] == 1 and "stagez" in failed[2]
    assert failed == check(capsys, content, "--no-cache")  # the other game's warnings too


def test_two_games_with_one_id_are_found_when_one_is_unchanged(capsys, tmp_path):
    content = two_games(tmp_path)
    assert check(capsys, content)[0] == 0
    shutil.move(content / "other", content / "zz")  # a new folder, a copy of mini's id
    game = content / "zz" / "game.yaml"
    game.write_text(game.read_text().replace("id: other", "id: mini"))
    code, _out, err = check(capsys, content)
    assert code == 1 and "two games have id 'mini'" in err

"""Errata: `rulesmith errata add`, the checks on erratum records, and what a rebuild changes.

Every test works on a copy of tests/fixtures/errata (two small games, alpha and beta), or of the
real content/ where said; nothing here writes to the repository.
"""

from __future__ import annotations

import datetime
import io
import shutil
import uuid
from pathlib import Path

import pytest
from conftest import GAMES, run_cli

from rulesmith import cli
from rulesmith.commands.build import build
from rulesmith.commands.errata import ErrataError, add_erratum
from rulesmith.content.yamledit import flow_scalar
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.text.placed import unplaced

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "errata"
SCHEMA_LINE = "# yaml-language-server: $schema="
FAQ = ["--source", "publisher-faq", "--description", "Publisher FAQ v2", "--url", "https://example.org/faq"]


rulesmith = run_cli  # the command in this process (tests/conftest.py)


@pytest.fixture
def content(errata_content: Path) -> Path:
    return errata_content


def add(capsys, content: Path, *args: str, note: str = "Corrected by the FAQ.") -> tuple[int, str, str]:
    return rulesmith(capsys, content, "errata", "add", *args, *FAQ, "--note", note)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def changed_files(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def game(content: Path, game_id: str):
    return next(c for c in check_content(content) if c.game.id == game_id)


# ---------------------------------------------------------------- errata add: the edit in place

def test_fixture_checks_clean():
    assert {c.game.id for c in check_content(FIXTURE)} == {"alpha", "beta"}


def test_add_changes_one_integer_and_nothing_else(capsys, content):
    entities = content / "alpha" / "entities.yaml"
    before = entities.read_text()
    code, out, err = add(capsys, content, "alpha", "interpol", "fields.cost", "4")
    assert code == 0, err
    after = entities.read_text()
    # the one scalar changed: same line, same comment, same flow mapping, same quoting
    assert after == before.replace("fields: {cost: 3, mark:", "fields: {cost: 4, mark:", 1)
    assert "entities.yaml:7:20: card:interpol fields.cost: 3 → 4" in out
    assert "recorded erratum e1" in out and "errata.yaml:3" in out
    checked = game(content, "alpha")
    interpol = next(e for e in checked.game.entities if e.id == "interpol")
    assert interpol.fields["cost"] == 4 and isinstance(interpol.fields["cost"], int)
    [erratum] = checked.game.errata
    assert (erratum.id, erratum.target, erratum.field, erratum.old, erratum.new) == ("e1", "card:interpol", "fields.cost", 3, 4)
    assert erratum.date == datetime.date.today()
    assert erratum.source.kind == "publisher-faq" and erratum.source.url == "https://example.org/faq"
    assert erratum.note == "Corrected by the FAQ."


def test_add_creates_errata_yaml_with_the_schema_line(capsys, content):
    assert not (content / "alpha" / "errata.yaml").exists()
    code, _, err = add(capsys, content, "alpha", "card:interpol", "cost", "4", "--date", "2026-03-01")
    assert code == 0, err
    text = (content / "alpha" / "errata.yaml").read_text()
    assert text.splitlines()[0].startswith(SCHEMA_LINE)
    assert text.splitlines()[1:] == [
        "errata:",
        "  - id: e1",
        "    date: 2026-03-01",
        '    source: {kind: publisher-faq, description: "Publisher FAQ v2", url: "https://example.org/faq"}',
        "    target: card:interpol",
        "    field: fields.cost",
        "    old: 3",
        "    new: 4",
        '    note: "Corrected by the FAQ."',
    ]


def test_add_keeps_the_quoting_style_of_strings(capsys, content):
    entities = content / "alpha" / "entities.yaml"
    before = entities.read_text()
    assert add(capsys, content, "alpha", "embassy", "name", "Embassy's")[0] == 0  # single-quoted stays so
    assert add(capsys, content, "alpha", "interpol", "mark", "XM")[0] == 0  # double-quoted stays so
    assert add(capsys, content, "alpha", "embassy", "mark", "yes")[0] == 0  # plain, but 'yes' would be a boolean
    assert add(capsys, content, "alpha", "interpol", "name", "Interpol: the agency")[0] == 0  # ': ' needs quotes
    expected = (before.replace("name: 'Embassy'", "name: 'Embassy''s'")
                .replace('mark: "CM"', 'mark: "XM"')
                .replace("      mark: EM\n", '      mark: "yes"\n')
                .replace("    name: Interpol\n", '    name: "Interpol: the agency"\n'))
    assert entities.read_text() == expected
    entities_by_id = {e.id: e for e in game(content, "alpha").game.entities}
    assert entities_by_id["embassy"].name == "Embassy's" and entities_by_id["embassy"].fields["mark"] == "yes"
    assert entities_by_id["interpol"].name == "Interpol: the agency"


def test_add_replaces_the_value_inside_a_status_wrapper(capsys, content):
    code, _, err = add(capsys, content, "alpha", "embassy", "colour", "blue")
    assert code == 0, err
    line = next(row for row in (content / "alpha" / "entities.yaml").read_text().splitlines() if "colour:" in row and "status" in row)
    assert line == '      colour: {value: blue, status: unverified, note: "The printed colour is faint."}'
    [erratum] = game(content, "alpha").game.errata
    assert (erratum.old, erratum.new) == ("green", "blue")


def test_add_booleans_and_numbers_keep_their_type(capsys, content):
    assert add(capsys, content, "alpha", "interpol", "secret", "true")[0] == 0
    assert add(capsys, content, "alpha", "interpol", "weight", "2.5")[0] == 0
    line = (content / "alpha" / "entities.yaml").read_text().splitlines()[6]
    assert "secret: true, weight: 2.5}" in line
    errata = game(content, "alpha").game.errata
    assert [(e.old, e.new) for e in errata] == [(False, True), (1.5, 2.5)]


def test_add_rewrites_a_block_text_in_place(capsys, content):
    entities = content / "alpha" / "entities.yaml"
    before = entities.read_text()
    new = "Spend one [[token:agent]] to look at two hands."
    code, _, err = add(capsys, content, "alpha", "interpol", "text", new)
    assert code == 0, err
    old_block = "    text: |\n      Spend one [[token:agent]] to look at a hand.\n      Then discard it.\n\n"
    assert old_block in before
    assert entities.read_text() == before.replace(old_block, f"    text: |\n      {new}\n\n")
    [erratum] = game(content, "alpha").game.errata
    assert erratum.old == "Spend one [[token:agent]] to look at a hand.\nThen discard it."
    assert erratum.new == new
    assert "    old: |-\n      Spend one" in (content / "alpha" / "errata.yaml").read_text()


def test_add_writes_line_breaks_of_a_new_text_as_block_lines(capsys, content):
    entities = content / "alpha" / "entities.yaml"
    before = entities.read_text()
    assert add(capsys, content, "alpha", "interpol", "text", "Spend one [[token:agent]].\n\nThen discard it.")[0] == 0
    assert entities.read_text() == before.replace(
        " to look at a hand.\n      Then discard it.\n", ".\n\n      Then discard it.\n")
    interpol = next(e for e in game(content, "alpha").game.entities if e.id == "interpol")
    assert interpol.text == "Spend one [[token:agent]].\n\nThen discard it.\n"


def test_the_installed_command_applies_an_erratum(content):
    from conftest import rulesmith_here, run_rulesmith

    run = run_rulesmith("errata", "add", "beta", "unit:tank", "fields.speed", "2", "--source", "reader-report",
                        "--description", "Reader report", "--url", "https://example.org/t/2",
                        "--note", "The tank moves 2.", cwd=content)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "beta/units.yaml:5:44: unit:tank fields.speed: 1 → 2",
        "beta/errata.yaml:12: recorded erratum e2 (" + datetime.date.today().isoformat() + ")",
        "check: beta ok"]
    assert rulesmith_here("check", cwd=content).returncode == 0


def test_add_changes_table_cells_node_texts_and_terms(capsys, content):
    assert add(capsys, content, "alpha", "table:dice", "rows.2.extra", "4")[0] == 0
    assert add(capsys, content, "alpha", "bot-turn", "nodes.spy.text", "The bot spies twice.")[0] == 0
    assert add(capsys, content, "alpha", "term:spy", "definition", "To look at a hand in secret.")[0] == 0
    text = (content / "alpha" / "tables.yaml").read_text()
    assert '      - ["2", 4]\n' in text and '      - ["4+", 1]   # every higher threshold\n' in text
    rules = (content / "alpha" / "rules" / "01-basics.yaml").read_text()
    assert '{id: spy, type: step, text: "The bot spies twice.", next: done}' in rules
    assert 'definition: "To look at a hand in secret."' in rules
    assert [e.id for e in game(content, "alpha").game.errata] == ["e1", "e2", "e3"]


def test_add_appends_to_an_existing_errata_file(capsys, content):
    errata = content / "beta" / "errata.yaml"
    before = errata.read_text()
    code, out, err = add(capsys, content, "beta", "scout", "speed", "3", "--date", "2025-02-01")
    assert code == 0, err
    after = errata.read_text()
    head, _tail = before.split("\n\n# (no more errata yet)")
    assert after.startswith(head + "\n  - id: e2\n    date: 2025-02-01\n")  # after e1, before the closing comment
    assert after.endswith('    note: "Corrected by the FAQ."\n\n# (no more errata yet)\n')
    assert "errata.yaml:12: recorded erratum e2" in out
    # two errata of one value chain: e1 set 2, e2 changes 2 to 3
    assert [(e.id, e.old, e.new) for e in game(content, "beta").game.errata] == [("e1", 1, 2), ("e2", 2, 3)]


def test_add_takes_a_given_id_and_numbers_on_from_the_highest(capsys, content):
    assert add(capsys, content, "alpha", "interpol", "cost", "4", "--id", "faq-2-cost")[0] == 0
    assert add(capsys, content, "beta", "tank", "speed", "2")[0] == 0
    assert [e.id for e in game(content, "alpha").game.errata] == ["faq-2-cost"]
    assert [e.id for e in game(content, "beta").game.errata] == ["e1", "e2"]


@pytest.mark.parametrize("args, message", [
    (("alpha", "interpl", "cost", "4"), "error: no item with id 'interpl' in game 'alpha'\nhint: did you mean interpol?"),
    (("alpha", "card:interpl", "cost", "4"), "error: no card:interpl in game 'alpha'\nhint: did you mean card:interpol"),
    (("alpha", "agent", "name", "Spy"), "'agent' is ambiguous: it is term:agent, token:agent; write one of them as kind:id"),
    (("gamma", "interpol", "cost", "4"), "no game 'gamma'"),
    (("alpha", "interpol", "costs", "4"), "card:interpol: 'costs' is not a field of card:interpol\nhint: did you mean fields.cost?"),
    (("alpha", "interpol", "cost", "four"), "fields.cost is an integer; 'four' is not"),
    (("alpha", "interpol", "secret", "maybe"), "fields.secret is a boolean; write true or false, not 'maybe'"),
    (("alpha", "interpol", "cost", "3"), "card:interpol fields.cost is already 3; nothing to change"),
    (("alpha", "embassy", "tags", "x"), "is a list (string-list); `errata add` changes one scalar value"),
    (("alpha", "summit", "cost", "2"), "card:summit fields.cost has no value (status missing)"),
    (("alpha", "interpol", "effect", "x"), "card:interpol fields.effect has no value yet"),
    (("alpha", "dice", "rows.3.ct", "5"), "is the row key"),
    (("alpha", "dice", "rows.9.extra", "5"), "table 'dice' has no row '9'"),
    (("alpha", "interpol", "cost", "4", "--id", "e 1"),
     "--id 'e 1' is not lower-case kebab-case\nhint: erratum ids are lower-case kebab-case, e.g. e3 or faq-2-cost"),
    (("alpha", "interpol", "cost", "4", "--id", "e" * 329), "is 329 characters long; an erratum id has at most 64\nhint: "),
    (("a" * 329, "interpol", "cost", "4"), "error: no game '" + "a" * 329 + "' in "),  # never a path: too long for one
    (("beta", "scout", "speed", "4", "--id", "e1"), "erratum id 'e1' already exists at"),
])
def test_add_refuses_what_it_cannot_do_and_changes_nothing(capsys, content, args, message):
    before = snapshot(content)
    code, out, err = add(capsys, content, *args)
    assert code == 1 and out == ""
    assert message in err
    assert snapshot(content) == before


def test_an_erratum_to_a_table_applies_and_reports_the_examples_it_changed(capsys, content):
    # 2 influence + 1 extra die no longer gives the 4 dice the rulebook's example prints: the
    # erratum explains it, so it applies, and the command says which example now gives what
    code, out, err = add(capsys, content, "alpha", "dice", "rows.3.extra", "1")
    assert code == 0, err
    assert "example:dice-example: the rulebook prints 4; with erratum e1 it is now 3" in out.splitlines()
    assert check_content(content)  # and the game checks clean with it


def test_an_example_no_erratum_explains_still_fails_the_check(content):
    tables = content / "alpha" / "tables.yaml"
    tables.write_text(tables.read_text().replace('- ["3", 2]', '- ["3", 1]'))  # mistyped, no erratum
    with pytest.raises(ContentError) as caught:
        check_content(content)
    assert any("tables.yaml:25:13: example 'dice-example' no longer recomputes: the tables give 3, the rulebook "
               "prints 4 (no erratum explains the difference" in line for line in caught.value.lines())


def test_add_rolls_back_both_files_when_the_check_fails(capsys, content):
    before = snapshot(content)
    # a cost below the declared minimum fails the check: nothing is left behind
    code, out, err = add(capsys, content, "alpha", "interpol", "cost", "-1")
    assert code == 1 and out == ""
    assert "erratum not applied" in err and "no file was changed" in err
    assert snapshot(content) == before  # errata.yaml was not left behind either


def test_add_rolls_back_an_existing_errata_file_on_a_future_date(capsys, content):
    before = snapshot(content)
    future = (datetime.date.today() + datetime.timedelta(days=30)).isoformat()
    code, _, err = add(capsys, content, "beta", "scout", "speed", "3", "--date", future)
    assert code == 1
    assert f"errata.yaml:13:11: erratum date {future} is in the future" in err
    assert snapshot(content) == before


def test_add_refuses_a_game_that_does_not_check_before(capsys, content):
    rules = content / "alpha" / "rules" / "01-basics.yaml"
    rules.write_text(rules.read_text().replace("[[table:dice]].", "[[table:dise]]."))
    before = snapshot(content)
    code, _, err = add(capsys, content, "alpha", "interpol", "cost", "4")
    assert code == 1
    assert "01-basics.yaml:8:52: unknown reference table:dise" in err
    assert "all there before this erratum; fix them first" in err
    assert snapshot(content) == before


def test_add_rolls_back_when_the_value_breaks_a_declared_rule(capsys, content):
    before = snapshot(content)
    code, _, err = add(capsys, content, "alpha", "interpol", "cost", "-1")
    assert code == 1 and "entities.yaml:7:20: field 'cost': -1 is out of range" in err
    code, _, err = add(capsys, content, "alpha", "interpol", "colour", "purple")
    assert code == 1 and "'purple' is not one of red, green, blue" in err
    assert snapshot(content) == before


def test_paths_and_values_are_printed_with_their_escape_sequences_escaped(capsys, content):
    """A content file named with terminal escape sequences (here: clear the screen, red), and a
    value holding one: what the command prints shows them as \\u001b…, never acts on them. The
    one writer of the terminal does it (problems.say and the loggers' handler), for every command."""
    named = content / "alpha" / "ent\x1b[2J\x1b[31mities.yaml"
    (content / "alpha" / "entities.yaml").rename(named)
    code, out, err = add(capsys, content, "alpha", "interpol", "name", "Inter\x1b]0;pwned\x07pol")
    assert code in (0, 1) and "Traceback" not in err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "ent\\u001b[2J\\u001b[31mities.yaml:" in out + err
    code, out, err = add(capsys, content, "alpha", "interpol", "nope\x1b[31m", "4")
    assert code == 1 and "\x1b" not in out + err and "'nope\\u001b[31m' is not a field" in err


def test_a_full_disk_at_any_point_leaves_every_content_file_as_it_was(capsys, content, monkeypatch):
    """The disk fills up after 0, 1, … bytes of what the command writes: each time it either
    applies the erratum whole or says so with a hint and changes nothing, byte for byte."""
    from conftest import disk_full_after

    args = ("alpha", "interpol", "cost", "4")
    before = snapshot(content)
    with monkeypatch.context() as patched:
        written = disk_full_after(patched, room=10 ** 9)
        assert add(capsys, content, *args)[0] == 0
    applied, needed = snapshot(content), written[0]
    assert changed_files(before, applied) == {"alpha/entities.yaml", "alpha/errata.yaml"}
    for room in sorted({0, 1, needed - 1} | set(range(0, needed, max(1, needed // 12)))):
        for path in content.rglob("*"):
            if path.is_file() and (str(path.relative_to(content)) not in before):
                path.unlink()
        for rel, data in before.items():
            (content / rel).write_bytes(data)
        with monkeypatch.context() as patched:
            disk_full_after(patched, room)
            code, out, err = add(capsys, content, *args)
        assert code == 1 and out == "", (room, out, err)
        assert "error: cannot write" in err and "No space left on device; no file was changed" in err, (room, err)
        assert "\nhint: the disk is full: make room, then run the command again" in err
        assert snapshot(content) == before, f"the disk full after {room} of {needed} bytes changed the content"


def test_a_swap_that_fails_half_way_puts_back_what_it_replaced(tmp_path, monkeypatch):
    """files.Staged: the second of three renames fails; the first file is put back, the new one
    that did not exist before is gone, and no temporary file is left."""
    import os

    from rulesmith.files import Staged

    one, two, new = tmp_path / "one.yaml", tmp_path / "two.yaml", tmp_path / "new.yaml"
    one.write_text("one\n")
    two.write_text("two\n")
    staged = Staged({one: b"ONE\n", new: b"NEW\n", two: b"TWO\n"})
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["one.yaml", "two.yaml"]
    real, calls = os.replace, []

    def failing(source, target):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        return real(source, target)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        staged.swap()
    assert (one.read_text(), two.read_text(), new.exists()) == ("one\n", "two\n", False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.yaml", "two.yaml"]


def test_add_refuses_a_malformed_date_and_a_plain_http_url(capsys, content):
    before = snapshot(content)
    for date, message in (("1/3/2026", "error: --date '1/3/2026' is not a date written YYYY-MM-DD"),
                          ("2026-02-30", "error: --date '2026-02-30' is not a real day")):
        code = cli.main(["--content", str(content), "errata", "add", "alpha", "interpol", "cost", "4",
                         "--source", "reader-report", "--description", "x", "--note", "x", "--date", date])
        err = capsys.readouterr().err
        assert code == 1 and message in err and "\nhint: " in err  # exit 1 with a hint, not argparse's 2
    assert snapshot(content) == before
    with pytest.raises(ErrataError, match="--url is refused: only https:// links are allowed"):
        add_erratum(content, "alpha", "interpol", "cost", "4", source_kind="reader-report",
                    description="x", note="x", url="http://example.org")


@pytest.mark.parametrize("value, style, flow, expected", [
    (4, None, True, "4"), (True, None, True, "true"), (2.5, None, True, "2.5"),
    ("Gain 1 influence.", None, False, "Gain 1 influence."), ("yes", None, False, '"yes"'),
    ("3", None, False, '"3"'), ("a: b", None, False, '"a: b"'), ("x, y", None, True, '"x, y"'),
    ("x, y", None, False, "x, y"), ("it's", "'", True, "'it''s'"), ("say \"hi\"", '"', True, '"say \\"hi\\""'),
    ("two\nlines", None, False, '"two\\nlines"'), ("card:interpol", None, False, "card:interpol"),
])
def test_values_are_written_as_yaml_that_reads_back_the_same(value, style, flow, expected):
    assert flow_scalar(value, style, flow) == expected


# ---------------------------------------------------------------- the check on erratum records

RECORD = """\
# yaml-language-server: $schema=../../../../schema/content.schema.json
errata:
  - id: e1
    date: {date}
    source: {{kind: {kind}, description: "FAQ"{url}}}
    target: {target}
    field: {field}
    old: {old}
    new: {new}
    note: "x"
"""
GOOD = {"date": "2026-01-10", "kind": "publisher-faq", "url": "", "target": "card:interpol", "field": "fields.cost", "old": 2, "new": 3}


@pytest.mark.parametrize("change, line, column, message", [
    ({"target": "card:interpl"}, 6, 13, "erratum targets unknown card:interpl (did you mean card:interpol"),
    ({"target": "card:nothing-like-it"}, 6, 13, "erratum targets unknown card:nothing-like-it"),
    ({"field": "fields.costs"}, 7, 12, "erratum field: kind 'card' has no field 'costs' (did you mean cost?)"),
    ({"field": "rows.3.extra"}, 7, 12, "erratum field: 'rows.3.extra' is not a field of card:interpol"),
    ({"target": "table:dice", "field": "rows.7.extra"}, 7, 12, "erratum field: table 'dice' has no row '7'"),
    ({"new": 5}, 9, 10, "erratum 'e1' says fields.cost is now 5, but the data has 3"),
    ({"new": "'3'"}, 9, 10, "erratum 'e1' says fields.cost is now '3', but the data has 3"),
    ({"date": "2999-01-01"}, 4, 11, "erratum date 2999-01-01 is in the future"),
    ({"date": "2026-13-01"}, 4, 11, "invalid value '2026-13-01': month must be in 1..12"),
    ({"date": '"1 March 2026"'}, 4, 11, "'date' must be a date"),
    ({"kind": "faq"}, 5, 20, "'faq' is not allowed for 'kind'"),
    ({"url": ', url: "http://example.org"'}, 5, 60, "only https:// links are allowed"),
    ({"old": 3}, 8, 10, "erratum 'e1' changes nothing (old equals new)"),
])
def test_check_rejects_a_bad_record_at_its_line_and_column(content, change, line, column, message):
    path = content / "alpha" / "errata.yaml"
    path.write_text(RECORD.format(**{**GOOD, **change}))
    with pytest.raises(ContentError) as raised:
        check_content(content)
    problems = [p for p in raised.value.problems if Path(p.file).resolve() == path.resolve()]
    assert [(p.line, p.column) for p in problems if message in str(p)] == [(line, column)], \
        "\n".join(map(str, raised.value.problems))


def test_check_accepts_the_good_record(content):
    (content / "alpha" / "errata.yaml").write_text(RECORD.format(**GOOD))  # the data's cost is 3
    assert check_content(content)


def test_check_rejects_a_duplicate_id_at_the_second_one(content):
    path = content / "alpha" / "errata.yaml"
    record = RECORD.format(**GOOD)
    second = record.split("errata:\n", 1)[1].replace("old: 2", "old: 1").replace("new: 3", "new: 2")
    path.write_text(record + second)
    with pytest.raises(ContentError) as raised:
        check_content(content)
    [problem] = [p for p in raised.value.problems if "duplicate erratum id" in p.message]
    assert (problem.line, problem.column) == (11, 9)
    assert problem.message.startswith("duplicate erratum id 'e1' (first at ")
    assert problem.message.endswith("errata.yaml:3)")


def test_check_requires_errata_of_one_value_to_chain(content):
    """e1 3→4 then e2 4→5 is fine; a record whose old is not the previous new is not."""
    path = content / "alpha" / "errata.yaml"
    entities = content / "alpha" / "entities.yaml"
    entities.write_text(entities.read_text().replace("{cost: 3,", "{cost: 5,"))
    records = RECORD.format(**{**GOOD, "old": 3, "new": 4}) + \
        RECORD.format(**{**GOOD, "date": "2026-02-01", "old": 4, "new": 5}).split("errata:\n", 1)[1].replace("id: e1", "id: e2")
    path.write_text(records)
    assert check_content(content)
    path.write_text(records.replace("old: 4\n    new: 5", "old: 9\n    new: 5"))
    with pytest.raises(ContentError) as raised:
        check_content(content)
    [problem] = raised.value.problems
    assert "erratum 'e2' says fields.cost was 9, but the earlier erratum 'e1' set it to 4" in problem.message
    assert (problem.line, problem.column) == (16, 10)


# ---------------------------------------------------------------- the site and the rebuild

def build_site(content: Path, tmp: Path, pdfs: bool = False, cache: Path | None = None) -> dict[str, float]:
    return build(content, tmp / "site", pdfs=pdfs, quiet=True, work=tmp / "work", cache=cache or tmp / "cache")


@pytest.mark.site
def test_site_marks_the_changed_entity_and_lists_the_erratum(capsys, content, tmp_path):
    assert add(capsys, content, "alpha", "interpol", "cost", "4", "--date", "2026-03-01",
               note="The FAQ corrects the cost to 4.")[0] == 0
    assert add(capsys, content, "alpha", "dice", "rows.2.extra", "4", "--date", "2026-03-02")[0] == 0
    build_site(content, tmp_path)
    docs = tmp_path / "work" / "docs"
    card = unplaced((docs / "alpha" / "kinds" / "card.md").read_text())
    interpol = card.split("## Interpol {#interpol}")[1].split("\n## ")[0]
    assert "- **Cost:** 4" in interpol
    assert '!!! info "Changed by erratum e1 (2026-03-01)"\n    Cost: was *3*, now **4**.' in interpol
    assert "The FAQ corrects the cost to 4." in interpol
    assert "Changed by erratum" not in card.split("## Embassy")[1]
    tables = unplaced((docs / "alpha" / "tables.md").read_text())
    assert '!!! info "Changed by erratum e2 (2026-03-02)"\n    row 2, Extra dice: was *3*, now **4**.' in tables
    changelog = unplaced((docs / "alpha" / "changelog.md").read_text())
    assert changelog.index("· e2 {#erratum-e2}") < changelog.index("· e1 {#erratum-e1}")  # newest first
    assert "**[Interpol](kinds/card.md#interpol)**, Cost: <del>3</del> → **4**" in changelog
    assert "([link](https://example.org/faq))" in changelog
    site_changelog = unplaced((docs / "changelog.md").read_text())
    assert "[e1](alpha/changelog.md#erratum-e1): [Interpol](alpha/kinds/card.md#interpol), Cost: 3 → 4" in site_changelog
    assert "[e1](beta/changelog.md#erratum-e1)" in site_changelog
    assert "latest erratum e2 of 2026-03-02" in unplaced((docs / "alpha" / "index.md").read_text())
    html = (tmp_path / "site" / "alpha" / "kinds" / "card.html").read_text()
    assert "Changed by erratum e1 (2026-03-01)" in html and "admonition info" in html


@pytest.mark.site
def test_rebuild_after_one_erratum_rewrites_only_the_pages_that_depend_on_it(capsys, content, tmp_path):
    build_site(content, tmp_path)
    docs = tmp_path / "work" / "docs"
    before = snapshot(docs)
    mtimes = {p: (docs / p).stat().st_mtime_ns for p in before}
    svgs = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "cache" / "flowcharts").glob("*.svg")}
    assert add(capsys, content, "alpha", "interpol", "cost", "4")[0] == 0
    timings = build_site(content, tmp_path)
    after = snapshot(docs)
    changed = changed_files(before, after)
    must = {"alpha/kinds/card.md", "alpha/changelog.md", "changelog.md"}
    may = must | {"alpha/index.md",  # the overview names the latest erratum
                  "downloads.md",  # shows the data's date, the latest erratum's
                  "alpha/rules/basics.md"}  # refers to the card (changes only if its name did)
    assert must <= changed <= may, sorted(changed)
    untouched = [p for p in before if p not in changed and (docs / p).stat().st_mtime_ns != mtimes[p]]
    assert untouched == []  # unchanged pages were not even rewritten
    assert not any(p.startswith("beta/") for p in changed)
    # flowcharts are cached by their DOT source: none was laid out again
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "cache" / "flowcharts").glob("*.svg")} == svgs
    print(f"rebuild after one erratum (no PDFs): {sum(timings.values()):.2f} s", timings)


def player_aids(content: Path, cache: Path) -> dict[str, bytes]:
    """The PDF step of `build`: check, flowcharts, then every player aid (from the cache or rendered)."""
    from rulesmith.aids.pdf import build_aids
    from rulesmith.commands.build import flowcharts

    checked = check_content(content)
    flowcharts(checked, cache)
    aids, _downloads = build_aids(checked, cache / "pdf")
    return aids


def cache_entries(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of the PDF cache (the PDFs, and the index of the inputs each was made from), by
    its path in the cache: when it was written, and its bytes."""
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


@pytest.mark.pdf
def test_pdfs_after_one_erratum_rerender_only_that_games_aids(capsys, content, tmp_path):
    # Unique content, so no PDF cache of an earlier run can hide a re-render.
    nonce = uuid.uuid4().hex
    for name in ("alpha", "beta"):
        game_yaml = content / name / "game.yaml"
        game_yaml.write_text(game_yaml.read_text().replace('description: "', f'description: "Run {nonce}. ', 1))
    cache = tmp_path / "cache"
    pdfs = player_aids(content, cache)
    alpha = {p for p in pdfs if p.startswith("downloads/alpha/")}
    beta = {p for p in pdfs if p.startswith("downloads/beta/")}
    assert alpha and beta and alpha | beta == set(pdfs)
    cached = cache_entries(cache / "pdf")

    assert add(capsys, content, "alpha", "interpol", "cost", "4", "--date", "2026-03-01")[0] == 0
    after = player_aids(content, cache)
    assert after.keys() == pdfs.keys()
    # Interpol is in alpha's card reference, not in its solo aid: only the card references change.
    summaries = {p for p in alpha if "card-reference" in p}
    assert summaries and summaries != alpha
    assert {p for p in pdfs if pdfs[p] != after[p]} == summaries
    # beta's aids came from the cache: no cache entry was rewritten, and the new entries are alpha's
    now = cache_entries(cache / "pdf")
    assert all(now[name] == entry for name, entry in cached.items())
    new_pdfs = [name for name in now.keys() - cached.keys() if name.endswith(".pdf")]
    assert sorted(now[name][1] for name in new_pdfs) == sorted(after[p] for p in summaries)

    from pypdf import PdfReader

    summary = next(p for p in alpha if "card-reference" in p)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(after[summary])).pages)
    assert "Changed by erratum e1" in text  # the marker on the card
    assert "e1" in text and "2026-03-01" in text  # stamped with the latest erratum


@pytest.mark.pdf
def test_full_build_with_pdfs_after_one_erratum(capsys, content, tmp_path):
    """`rulesmith build` with the PDFs, twice: the site carries the new PDFs of alpha, beta's as they were."""
    cache = ROOT / ".cache"  # the build's own cache: unchanged aids from earlier runs are reused, as in use
    build_site(content, tmp_path, pdfs=True, cache=cache)
    site = tmp_path / "site"
    before = {str(p.relative_to(site)): p.read_bytes() for p in (site / "downloads").rglob("*.pdf")}
    assert add(capsys, content, "alpha", "interpol", "cost", "4")[0] == 0
    timings = build_site(content, tmp_path, pdfs=True, cache=cache)
    after = {str(p.relative_to(site)): p.read_bytes() for p in (site / "downloads").rglob("*.pdf")}
    assert after.keys() == before.keys()
    assert {p for p in before if before[p] != after[p]} == {p for p in before if p.startswith("downloads/alpha/card-reference")}
    print(f"rebuild after one erratum, with PDFs: {sum(timings.values()):.2f} s", timings)


def aid_html(content: Path, game_id: str, kind, cache: Path) -> str:
    from rulesmith.aids import document
    from rulesmith.aids.kinds import geometry

    checked = {c.game.id: c for c in check_content(content)}
    return document.render_html(checked[game_id], kind, geometry().papers[0], cache / "flowcharts")


@pytest.mark.pdf  # renders the aids' HTML with their flowcharts (Graphviz), as the PDF step does
@pytest.mark.parametrize("target, field, value, changes_solo_aid", [
    ("interpol", "fields.cost", "4", False),  # shown only in the card reference
    ("dice", "rows.2.extra", "5", False),  # not one of the bot's tables
    ("spy", "definition", "To look at a hand in secret.", False),  # a glossary term
    ("embassy", "name", "Grand Embassy", True),  # the bot's flowchart names it
    ("embassy", "fields.cost", "1", True),  # referred to by the bot: counted as changing it
    ("procedure:bot-turn", "nodes.spy.text", "The bot spies twice.", True),
    ("basics", "body", "Play [[card:interpol]] to spy.", True),  # rules text decides the bot's tables
])
def test_an_aid_is_stamped_only_by_the_errata_that_change_it(capsys, content, tmp_path, target, field, value, changes_solo_aid):
    """The solo aid keeps its stamp and its bytes when an erratum changes nothing it shows, and
    every erratum that does change its HTML is one it is stamped with (errata_in is never short)."""
    from rulesmith.aids import stamp
    from rulesmith.aids.kinds import kind

    cache = tmp_path / "cache"
    kinds = (kind("solo-aid"), kind("card-reference"))
    before = {k.key: aid_html(content, "alpha", k, cache) for k in kinds}
    code, _out, err = add(capsys, content, "alpha", target, field, value, "--date", "2026-03-01", "--id", "e9")
    assert code == 0, err
    checked = {c.game.id: c for c in check_content(content)}["alpha"]
    for k in kinds:
        after = aid_html(content, "alpha", k, cache)
        stamped = [e.id for e in stamp.errata_in(checked, k)]
        if k.key == "solo-aid":
            assert ("e9" in stamped) == changes_solo_aid
        if "e9" not in stamped:
            assert after == before[k.key], k.key
        else:
            assert "e9" in after and after != before[k.key], k.key


# ---------------------------------------------------------------- the real content

def _clean_real_games() -> list[str]:
    from rulesmith.commands.records import check_one_game

    content = ROOT / "content"
    return [folder.name for folder in sorted(content.iterdir()) if (folder / "game.yaml").is_file()
            and not check_one_game(content, folder)[2]]


@pytest.mark.pdf  # builds the game's site and renders its aids
@pytest.mark.parametrize("game_id", GAMES)
def test_an_erratum_on_the_real_content(capsys, tmp_path, game_id):
    """A one-field erratum on each real game: it applies (never skipped when it is refused)."""
    assert game_id in _clean_real_games(), f"content/{game_id} does not check clean (`rulesmith check`)"
    copy = tmp_path / "content"
    shutil.copytree(ROOT / "content" / game_id, copy / game_id)
    [checked] = check_content(copy)
    # the first entity with a plain integer field, not changed by an erratum yet
    found = next(((e, spec) for e in checked.game.entities for spec in checked.game.kind(e.kind).fields
                  if spec.type == "integer" and type(e.fields.get(spec.id)) is int
                  and not any(x.target == f"{e.kind}:{e.id}" for x in checked.game.errata)), None)
    assert found is not None, f"no entity of {game_id} has a plain integer field to correct"
    entity, spec = found
    old = entity.fields[spec.id]
    new = old + 1 if spec.max is None or old + 1 <= spec.max else old - 1
    file = Path(entity.where("fields", spec.id)[0])
    before = file.read_text().splitlines()
    from rulesmith.aids import stamp
    from rulesmith.aids.kinds import kind

    solo_before = aid_html(copy, game_id, kind("solo-aid"), tmp_path / "cache") if checked.game.procedures else None
    summary_before = aid_html(copy, game_id, kind("rules-summary"), tmp_path / "cache")
    code, _out, err = add(capsys, copy, game_id, f"{entity.kind}:{entity.id}", f"fields.{spec.id}", str(new),
                         "--id", "test-erratum")
    assert code == 0, f"the erratum was refused: {err}"  # an erratum always applies; a refusal is a failure
    after = file.read_text().splitlines()
    assert [n for n, (a, b) in enumerate(zip(before, after, strict=False)) if a != b] == [entity.where("fields", spec.id)[1] - 1]
    assert len(before) == len(after)
    build_site(copy, tmp_path)
    page = unplaced((tmp_path / "work" / "docs" / game_id / "kinds" / f"{entity.kind}.md").read_text())
    assert "Changed by erratum test-erratum" in page
    assert "· test-erratum {#erratum-test-erratum}" in unplaced((tmp_path / "work" / "docs" / game_id / "changelog.md").read_text())
    [checked] = check_content(copy)
    # an aid not stamped with the erratum is byte for byte the same (condensed wording included)
    if "test-erratum" not in [e.id for e in stamp.errata_in(checked, kind("rules-summary"))]:
        assert aid_html(copy, game_id, kind("rules-summary"), tmp_path / "cache") == summary_before
    if solo_before is not None:  # the solo aid is re-rendered only if the erratum changes it
        solo_after = aid_html(copy, game_id, kind("solo-aid"), tmp_path / "cache")
        if "test-erratum" not in [e.id for e in stamp.errata_in(checked, kind("solo-aid"))]:
            assert solo_after == solo_before

"""Stage 4, check: every consistency rule, each reporting file:line:column."""

import datetime

import pytest
from gamekit import CONTENT_YAML, write_game

from rulesmith.checks import tablerules
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError


def problems(tmp_path, content=CONTENT_YAML, **extra):
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, content=content, **extra))
    return [str(p).split("content/mini/")[1] for p in error.value.problems]


def test_valid_content_passes(tmp_path):
    assert len(check_content(write_game(tmp_path))) == 1


def test_field_type_enum_range_and_ref_kind(tmp_path):
    text = CONTENT_YAML.replace("cost: 3, ", 'cost: -1, ').replace("symbol: star", "symbol: interpol")
    found = problems(tmp_path, text)
    assert any("field 'cost': -1 is out of range (allowed: 0 to …)" in p for p in found)
    assert any("field 'symbol': unknown symbol 'interpol'" in p for p in found)


def test_undeclared_field(tmp_path):
    found = problems(tmp_path, CONTENT_YAML.replace("cost: 3,", "costs: 3,"))
    assert any(p.startswith("content.yaml:3:") and "kind 'alliance' has no field 'costs' (did you mean cost?)" in p
               for p in found)


def test_kind_count_exceeded(tmp_path):
    extra = "entities:\n" + "".join(f"  - {{id: a{i}, name: A{i}, kind: alliance}}\n" for i in range(3))
    found = problems(tmp_path, **{"more.yaml": extra})
    assert any("game.yaml:13:12: 5 entities of kind 'alliance' but the game has 3" in p for p in found)


def test_table_width_and_rules(tmp_path):
    text = CONTENT_YAML.replace("rows: [[1, 2], [2, 4], [3, 6]]", "rows: [[1, 2], [2, 1], [2, 6], [4]]")
    found = problems(tmp_path, text)
    assert any("row has 1 cells but the table has 2 columns" in p for p in found)
    assert any("'influence' is not non-decreasing at row(s) 2" in p for p in found)
    assert any("duplicate row key 2" in p for p in found)
    assert any("'stage' repeats 2" in p for p in found)


def test_rule_exception_is_explicit(tmp_path):
    text = CONTENT_YAML.replace("rows: [[1, 2], [2, 4], [3, 6]]",
                                'rows: [[1, 2], [2, {value: 1, status: unverified, note: "as printed"}], [3, 6]]'
                                ).replace("result: 4", "result: 1")
    assert problems(tmp_path, text)  # broken without an exception
    text = text.replace("{rule: non-decreasing, column: influence}",
                        "{rule: non-decreasing, column: influence, except: [2]}")
    assert check_content(write_game(tmp_path / "b", content=text))


def test_matches_and_entity_count_rules(tmp_path):
    extra = """\
tables:
  - id: stages-copy
    title: Copy
    columns: [{id: stage, title: Stage, type: integer}, {id: influence, title: Influence, type: integer}]
    rows: [[1, 2], [2, 5], [3, 6]]
    rules: [{rule: matches, column: influence, table: stages}]
  - id: components
    title: Components
    columns: [{id: item, title: Item}, {id: count, title: Count, type: integer}, {id: kind, title: Kind}]
    rows: [["Alliance cards", 4, alliance]]
    rules: [{rule: entity-count, column: count, kind_column: kind}]
"""
    found = problems(tmp_path, **{"more.yaml": extra})
    assert any("'influence' does not match stages.influence at row(s) 2" in p for p in found)
    assert any("4 Alliances here, but kind 'alliance' declares count 3" in p for p in found)


# Each rule of the registry broken once in a table of its own: (columns, rows, rule entry, message).
# Rows are written one per line from line 6 of more.yaml; the message is expected at `line`.
INTEGERS = "[{id: k, title: K, type: integer}, {id: v, title: V, type: integer}]"
BROKEN_RULES = {
    "non-decreasing": (INTEGERS, ["[1, 2]", "[2, 1]"], "{rule: non-decreasing, column: v}",
                       "'v' is not non-decreasing at row(s) 2 (rule 'non-decreasing' at line 9)", 7),
    "non-increasing": (INTEGERS, ["[1, 1]", "[2, 2]"], "{rule: non-increasing, column: v}",
                       "'v' is not non-increasing at row(s) 2", 7),
    "increasing": (INTEGERS, ["[1, 1]", "[2, 1]"], "{rule: increasing, column: v}", "'v' is not increasing at row(s) 2", 7),
    "decreasing": (INTEGERS, ["[1, 1]", "[2, 1]"], "{rule: decreasing, column: v}", "'v' is not decreasing at row(s) 2", 7),
    "unique": (INTEGERS, ["[1, 5]", "[2, 5]"], "{rule: unique, column: v}", "'v' repeats 5", 7),
    "range": (INTEGERS, ["[1, 5]", "[2, 11]"], "{rule: range, column: v, min: 0, max: 10}",
              "'v' out of range at row(s) 2", 7),
    "sum": (INTEGERS, ["[1, 5]", "[2, 6]"], "{rule: sum, column: v, equals: 10}", "'v' sums to 11, expected 10", 9),
    "matches": (INTEGERS, ["[1, 2]", "[2, 5]"], "{rule: matches, column: v, other_column: influence, table: stages}",
                "'v' does not match stages.influence at row(s) 2; keys in only one table: 3", 7),
    "entity-count": ("[{id: k, title: K, type: string}, {id: v, title: V, type: integer}]", ["[alliance, 2]"],
                     "{rule: entity-count, column: v, kind_column: k}",
                     "2 Alliances here, but kind 'alliance' declares count 3", 6),
    "contiguous": ("[{id: k, title: K, type: range}, {id: v, title: V, type: integer}]", ['["1", 2]', '["4+", 1]'],
                   "{rule: contiguous, column: k}", "table 'broken': no row holds 2-3 (between '1' and '4+')", 7),
}


def test_every_rule_of_the_registry_has_a_broken_case():
    assert list(BROKEN_RULES) == list(tablerules.RULES)


@pytest.mark.parametrize("name", BROKEN_RULES)
def test_each_table_rule_says_where_it_is_broken_and_how_to_fix_it(tmp_path, name):
    columns, rows, rule, message, line = BROKEN_RULES[name]
    more = ("tables:\n  - id: broken\n    title: Broken\n    columns: " + columns + "\n    rows:\n"
            + "".join(f"      - {row}\n" for row in rows) + f"    rules:\n      - {rule}\n")
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"more.yaml": more}))
    found = [p for p in error.value.problems if p.file.endswith("more.yaml")]
    assert [p.line for p in found] == [line], [str(p) for p in found]
    assert found[0].message.startswith(message if name == "contiguous" else f"table rule broken: {message}"), found[0].message
    assert found[0].hint == tablerules.RULES[name].hint and found[0].column > 1


@pytest.mark.parametrize("rule, message, hint", [
    ("{rule: sum, column: v}", "rule 'sum' needs `equals`", "add equals: <the total>"),
    ("{rule: range, column: v}", "rule 'range' needs `min` or `max`", "add min: <the lowest value> or max:"),
    ("{rule: unique, column: v, table: stages}", "rule 'unique' takes no `table`", "remove it (`table` is for matches)"),
    ("{rule: sum, column: w, equals: 1}", "rule 'sum': column 'w' is of type string",
     "the rule holds over a column of type integer or number"),
    ("{rule: unique, column: x}", "rule 'unique': no column 'x'", "columns: k, v, w"),
])
def test_a_rule_entry_the_check_cannot_read_is_located(tmp_path, rule, message, hint):
    more = ("tables:\n  - id: t\n    title: T\n    columns: [{id: k, title: K, type: integer}, "
            "{id: v, title: V, type: integer}, {id: w, title: W}]\n    rows: [[1, 2, a]]\n"
            f"    rules:\n      - {rule}\n")
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"more.yaml": more}))
    found = [p for p in error.value.problems if p.file.endswith("more.yaml")]
    assert [p.message for p in found] == [message] and found[0].line == 7 and hint in found[0].hint


@pytest.mark.parametrize("broken, message", [
    ("{id: take, type: step, text: \"Take it.\", next: done}", "unknown node 'gone'"),
    ('{when: "No", to: done}', "has no 'No' branch"),
    ("{id: done, type: end, text: \"The turn ends.\"}", "cannot be reached from start"),
])
def test_procedure_graph(tmp_path, broken, message):
    replacement = {
        "{id: take, type: step, text: \"Take it.\", next: done}": "{id: take, type: step, text: \"Take it.\", next: gone}",
        '{when: "No", to: done}': '{when: "Maybe", to: done}',
        "{id: done, type: end, text: \"The turn ends.\"}": "{id: done, type: end, text: \"The turn ends.\"}\n      - {id: lost, type: end, text: x}",
    }[broken]
    found = problems(tmp_path, CONTENT_YAML.replace(broken, replacement))
    if "reached" in message:
        assert any("node 'lost' cannot be reached from start 'ask'" in p for p in found)
    else:
        assert any(message in p for p in found)


def test_loop_without_exit(tmp_path):
    text = CONTENT_YAML.replace('{when: "No", to: done}', '{when: "No", to: take}').replace(
        "next: done}", "next: ask}")
    found = problems(tmp_path, text)
    assert any("node 'ask' can never reach an end" in p for p in found)


def test_example_recomputes_from_tables(tmp_path):
    found = problems(tmp_path, CONTENT_YAML.replace("[[1, 2], [2, 4], [3, 6]]", "[[1, 2], [2, 5], [3, 6]]"))
    assert any("example 'stage-two' no longer recomputes: the tables give 5, the rulebook prints 4" in p for p in found)


def test_example_with_bad_expression(tmp_path):
    found = problems(tmp_path, CONTENT_YAML.replace("lookup('stages', stage, 'influence')", "lookup('stagez', stage, 'influence')"))
    assert any("cannot be computed: lookup: unknown table 'stagez'" in p for p in found)
    found = problems(tmp_path / "b", CONTENT_YAML.replace("lookup('stages', stage, 'influence')", "__import__('os')"))
    assert any("cannot be computed" in p for p in found)


def test_thousands_of_unknown_references_are_each_located_with_few_guesses(tmp_path, monkeypatch):
    """3,000 entities each naming a symbol that does not exist among 3,000 that do (issue 46: each
    problem used to pass over every target twice and ask difflib over every symbol): each is
    located at its own line; the targets are indexed once, and 'did you mean' is guessed for the
    first few only, then the plain hint."""
    import difflib

    from rulesmith.problems import GUESSES_PER_RUN

    calls = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    many = "".join(f"  - {{id: sym{i}, name: Sym {i}, kind: symbol, text: Plain.}}\n"
                   f"  - {{id: ally{i}, name: Ally {i}, kind: alliance, fields: {{cost: 1, symbol: syn{i}}}}}\n"
                   for i in range(3000))
    text = CONTENT_YAML.replace("entities:\n", "entities:\n" + many)
    found = problems(tmp_path, text)
    unknown = [p for p in found if "unknown symbol" in p]
    assert len(unknown) == 3000
    assert unknown[0].startswith("content.yaml:4:") and "'syn0' (did you mean sym0" in unknown[0]
    assert unknown[-1].startswith(f"content.yaml:{2 + 2 * 3000}:") and unknown[-1].endswith("(no symbol with that id)")
    assert 0 < len(calls) <= GUESSES_PER_RUN


def test_unknown_module_and_source(tmp_path):
    found = problems(tmp_path, CONTENT_YAML.replace("defaults: {module: base, source: {section: Cards, page: 2}}",
                                                    "defaults: {module: bse, source: {section: Cards, page: 2, file: nope}}"))
    assert any("unknown module 'bse' (did you mean base?)" in p for p in found)
    assert any("unknown source 'nope'" in p for p in found)


def test_html_and_non_https_links_rejected(tmp_path):
    text = CONTENT_YAML.replace("Power Points.", "Power <script>x</script> [a](javascript:alert(1)).")
    found = problems(tmp_path, text)
    assert any("raw HTML is not allowed" in p for p in found)
    assert any("link target 'javascript:alert(1' is not allowed" in p or "javascript:" in p for p in found)


ERRATA = """\
errata:
  - id: e1
    date: 2026-01-02
    source: {kind: reader-report, description: "Forum post"}
    target: alliance:interpol
    field: fields.cost
    old: 2
    new: 3
"""


def test_erratum_matching_data_passes(tmp_path):
    assert check_content(write_game(tmp_path, **{"errata.yaml": ERRATA}), today=datetime.date(2026, 2, 1))


@pytest.mark.parametrize("change, message", [
    (("new: 3", "new: 4"), "says fields.cost is now 4, but the data has 3"),
    (("alliance:interpol", "alliance:interpoll"), "erratum targets unknown alliance:interpoll"),
    (("fields.cost", "fields.price"), "kind 'alliance' has no field 'price'"),
    (("2026-01-02", "2027-01-02"), "is in the future"),
])
def test_bad_errata(tmp_path, change, message):
    with pytest.raises(ContentError) as error:
        check_content(write_game(tmp_path, **{"errata.yaml": ERRATA.replace(*change)}), today=datetime.date(2026, 2, 1))
    found = [str(p) for p in error.value.problems]
    assert any(message in p and "errata.yaml:" in p for p in found), found

"""The one registry of table rules: what a table's `rules:` may say and how each is proved.

Each rule owns, in one class: its name and its line in the format reference, which of the
rule entry's parameters it needs and takes (its parse: a missing or foreign parameter is a
located problem), which column types it holds over, its check over the table's rows (with the
located message and the hint for the fix), and its piece of the JSON Schema for editors. The
model's list of rule names, the check, the schema and `rulesmith format` ask this registry; a
new rule is one class added to `RULES`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesmith.format.topics import see
from rulesmith.problems import nearest
from rulesmith.values import fieldtypes, numbers, ranges
from rulesmith.values.fieldtypes import plain

if TYPE_CHECKING:
    from collections.abc import Iterator

# The parameters a rule entry may carry besides `rule`, `column` and `except` (model.TableRule).
PARAMETERS = ("min", "max", "equals", "table", "other_column", "kind_column")
WRITE = {"min": "min: <the lowest value>", "max": "max: <the highest value>", "equals": "equals: <the total>",
         "table": "table: <id of the other table>", "other_column": "other_column: <its column>",
         "kind_column": "kind_column: <the column of kind ids>"}
NUMBERS = fieldtypes.NUMERIC  # the column types that hold numbers, as the registry says


@dataclass
class Finding:
    """One problem a rule found: where (a path under the table, as Located.where takes it), message, hint."""

    path: tuple
    message: str
    hint: str


@dataclass
class RuleInput:
    """What a rule's check is given: the table, the rule entry and its position, the rows it holds over."""

    table: Any  # model.Table
    rule: Any  # model.TableRule
    n: int  # the rule's position in the table's `rules:`
    tables: dict  # id -> model.Table of the game
    kinds: dict  # id -> model.Kind of the game
    c: int = 0  # the rule's column
    rows: list = field(default_factory=list)  # full rows whose key is not listed under `except:`
    known: list = field(default_factory=list)  # (row number, key, value) of the cells of the column's type

    @property
    def columns(self) -> list[str]:
        return [column.id for column in self.table.columns]


class TableRule:
    """One rule. Subclasses set the name, text and parameters and override `holds`."""

    name = ""
    text = ""  # its line in the format reference
    needs: tuple[str, ...] = ()  # parameters it must have
    needs_one_of: tuple[str, ...] = ()  # of which it must have at least one
    takes: tuple[str, ...] = ()  # parameters it may have besides those it needs
    column_types: tuple[str, ...] | None = None  # column types it holds over (None: any)
    hint = "fix the data, or list the row under `except:` with an unverified cell"

    def parse(self, inp: RuleInput) -> Iterator[Finding]:
        """The rule entry's own problems: parameters missing or not its own, a column it cannot hold over."""
        rule, at = inp.rule, ("rules", inp.n)
        for name in self.needs:
            if getattr(rule, name) is None:
                yield Finding(at, f"rule '{self.name}' needs `{name}`", f"add {WRITE[name]} ({see('tables')})")
        if self.needs_one_of and all(getattr(rule, name) is None for name in self.needs_one_of):
            yield Finding(at, f"rule '{self.name}' needs {' or '.join(f'`{p}`' for p in self.needs_one_of)}",
                          f"add {' or '.join(WRITE[name] for name in self.needs_one_of)} ({see('tables')})")
        for name in PARAMETERS:
            if name not in self.parameters and getattr(rule, name) is not None:
                users = [r.name for r in RULES.values() if name in r.parameters]
                yield Finding((*at, name), f"rule '{self.name}' takes no `{name}`",
                              f"remove it (`{name}` is for {', '.join(users)})")
        if rule.column not in inp.columns:
            yield Finding((*at, "column"), f"rule '{self.name}': no column '{rule.column}'",
                          nearest(rule.column, inp.columns) or "columns: " + ", ".join(inp.columns))
            return
        kind = inp.table.columns[inp.columns.index(rule.column)].type
        if self.column_types is not None and kind not in self.column_types:
            yield Finding((*at, "column"), f"rule '{self.name}': column '{rule.column}' is of type {kind}",
                          f"the rule holds over a column of type {' or '.join(self.column_types)}")

    @property
    def parameters(self) -> tuple[str, ...]:
        return self.needs + self.needs_one_of + self.takes

    def holds(self, inp: RuleInput) -> Iterator[Finding]:
        raise NotImplementedError

    def broken(self, inp: RuleInput, message: str, first_bad: int | None) -> Finding:
        """The rule broken: at the first row that breaks it, naming the rule's own line; else at the rule."""
        if first_bad is None:
            return Finding(("rules", inp.n), f"table rule broken: {message}", self.hint)
        line = inp.table.where("rules", inp.n)[1]
        return Finding(("rows", first_bad, inp.c), f"table rule broken: {message} (rule '{self.name}' at line {line})",
                       self.hint)

    def json_schema(self) -> dict:
        """The rule entry as editors validate it: the parameters it needs, none it does not take."""
        then: dict = {"properties": {name: False for name in PARAMETERS if name not in self.parameters}}
        if self.needs:
            then["required"] = list(self.needs)
        if self.needs_one_of:
            then["anyOf"] = [{"required": [name]} for name in self.needs_one_of]
        return {"if": {"required": ["rule"], "properties": {"rule": {"const": self.name}}}, "then": then}

    def reference(self) -> str:
        """Its line in the format reference."""
        return f"- `{self.name}`: {self.text}"


def _keys(rows: list) -> str:
    return ", ".join(repr(key) for key in rows)


class Ordered(TableRule):
    column_types = (*NUMBERS, "string", "enum")

    def compare(self, a, b) -> bool:
        raise NotImplementedError

    def holds(self, inp):
        values = [v for _, _, v in inp.known]  # of one column type, so comparable
        bad = [inp.known[i + 1] for i, (a, b) in enumerate(itertools.pairwise(values)) if not self.compare(a, b)]
        if bad:
            yield self.broken(inp, f"'{inp.rule.column}' is not {self.name} at row(s) {_keys([k for _, k, _ in bad])}",
                              bad[0][0])


class NonDecreasing(Ordered):
    name, text = "non-decreasing", "Each value of `column` is at least the one above it."

    def compare(self, a, b):
        return a <= b


class NonIncreasing(Ordered):
    name, text = "non-increasing", "Each value of `column` is at most the one above it."

    def compare(self, a, b):
        return a >= b


class Increasing(Ordered):
    name, text = "increasing", "Each value of `column` is greater than the one above it."

    def compare(self, a, b):
        return a < b


class Decreasing(Ordered):
    name, text = "decreasing", "Each value of `column` is less than the one above it."

    def compare(self, a, b):
        return a > b


class Unique(TableRule):
    name, text = "unique", "No value of `column` repeats."
    hint = "give every row its own value, or list the row under `except:` with an unverified cell"

    def holds(self, inp):
        seen, repeats = set(), []
        for r, _key, value in inp.known:
            same = repr(value) if isinstance(value, (list, dict)) else value
            if same in seen:
                repeats.append((r, value))
            seen.add(same)
        if repeats:
            shown = ", ".join(sorted({repr(v) for _, v in repeats}))
            yield self.broken(inp, f"'{inp.rule.column}' repeats {shown}", repeats[0][0])


class InRange(TableRule):
    name, text = "range", "Every value of `column` is between `min` and `max` (either may be left out)."
    needs_one_of = ("min", "max")
    column_types = NUMBERS
    hint = "fix the data or the rule's min and max, or list the row under `except:` with an unverified cell"

    def holds(self, inp):
        low, high = inp.rule.min, inp.rule.max
        bad = [(r, k) for r, k, v in inp.known if (low is not None and v < low) or (high is not None and v > high)]
        if bad:
            yield self.broken(inp, f"'{inp.rule.column}' out of range at row(s) {_keys([k for _, k in bad])}", bad[0][0])


class Sum(TableRule):
    name, text = "sum", "The values of `column` add up to `equals`."
    needs = ("equals",)
    column_types = NUMBERS
    hint = "fix the values, or the rule's `equals` if the rulebook's total differs"

    def holds(self, inp):
        total = sum(v for _, _, v in inp.known)
        if total != inp.rule.equals:
            shown = fieldtypes.shown
            yield self.broken(inp, f"'{inp.rule.column}' sums to {shown(total)}, expected {shown(inp.rule.equals)}", None)


class Matches(TableRule):
    name = "matches"
    text = ("For every key in both tables, `column` equals `other_column` (default: the same id) of `table`; "
            "every key is in both.")
    needs = ("table",)
    takes = ("other_column",)
    hint = "make the two tables agree, or list the row under `except:` with an unverified cell"

    def holds(self, inp):
        rule = inp.rule
        other = inp.tables.get(rule.table or "")
        if other is None:
            yield Finding(("rules", inp.n, "table"), f"rule 'matches': unknown table '{rule.table}'",
                          nearest(rule.table or "", inp.tables) or "name a table of this game")
            return
        other_columns = [col.id for col in other.columns]
        oc = rule.other_column or rule.column
        if oc not in other_columns:
            yield Finding(("rules", inp.n, "other_column" if rule.other_column else "column"),
                          f"rule 'matches': table '{other.id}' has no column '{oc}'",
                          nearest(oc, other_columns) or "columns: " + ", ".join(other_columns))
            return
        theirs = {plain(row[0]): plain(row[other_columns.index(oc)]) for row in other.rows if len(row) == len(other_columns)}
        bad = [(r, k) for r, k, v in inp.known if k in theirs and theirs[k] != v]
        only = sorted(map(repr, {k for _, k, _ in inp.known} ^ set(theirs)))
        if bad or only:
            yield self.broken(inp, f"'{rule.column}' does not match {other.id}.{oc}"
                              + (f" at row(s) {_keys([k for _, k in bad])}" if bad else "")
                              + (f"; keys in only one table: {', '.join(only)}" if only else ""),
                              bad[0][0] if bad else None)


class EntityCount(TableRule):
    name = "entity-count"
    text = "`column` is a count and `kind_column` holds kind ids: each count equals that kind's `count`."
    needs = ("kind_column",)
    column_types = ("integer", "string")  # a string column: quantities kept as printed text, e.g. "40"
    hint = "make the component count and the kind's count agree"

    def holds(self, inp):
        columns = inp.columns
        if inp.rule.kind_column not in columns:
            yield Finding(("rules", inp.n, "kind_column"), f"rule 'entity-count': no column '{inp.rule.kind_column}'",
                          nearest(inp.rule.kind_column, columns) or "name the column of kind ids")
            return
        kc = columns.index(inp.rule.kind_column)
        for row in inp.rows:
            r = inp.table.rows.index(row)
            kind_id, count = plain(row[kc]), plain(row[inp.c])
            if isinstance(count, str) and isinstance(written := numbers.parse(count), int):
                count = written  # a count kept as printed text: "40"
            if not isinstance(kind_id, str):
                continue  # not a kind id: its type is reported by the check of values
            kind = inp.kinds.get(kind_id)
            if kind is None:
                yield Finding(("rows", r, kc), f"unknown kind '{kind_id}'",
                              nearest(kind_id, inp.kinds) or "name a kind declared in game.yaml")
            elif kind.count is None:
                yield Finding(("rows", r, inp.c), f"rule 'entity-count': kind '{kind.id}' declares no count",
                              f"add count: {count} to kind '{kind.id}' in game.yaml, as the rulebook's component list says")
            elif kind.count != count:
                yield Finding(("rows", r, inp.c),
                              f"table rule broken: {count} {kind.plural} here, but kind '{kind.id}' declares count {kind.count}",
                              self.hint)


class Contiguous(TableRule):
    name = "contiguous"
    text = "`column` is of type `range`: its row keys (\"2\", \"3-5\", \"6+\") leave no number out between the first and the last."
    column_types = ("range",)
    hint = "add a row for it, or widen a neighbouring range"

    def holds(self, inp):
        cells = [(r, value) for r, _key, value in inp.known if ranges.is_range(value)]  # the others: the check of values
        for position, message in ranges.gaps([value for _, value in cells]):
            yield Finding(("rows", cells[position][0], inp.c), f"table '{inp.table.id}': {message}", self.hint)


RULES: dict[str, TableRule] = {rule.name: rule for rule in (
    NonDecreasing(), NonIncreasing(), Increasing(), Decreasing(), Unique(), InRange(), Sum(), Matches(),
    EntityCount(), Contiguous())}
NAMES = tuple(RULES)


def check(table, tables: dict, kinds: dict) -> Iterator[Finding]:
    """Every rule of a table, parsed and proved over its rows (cells of the wrong type are reported
    by the check of values; a rule holds over the others)."""
    columns = [column.id for column in table.columns]
    for n, rule in enumerate(table.rules):
        kind = RULES.get(rule.rule)
        if kind is None:
            continue  # refused when the file was read (model.TableRule)
        inp = RuleInput(table, rule, n, tables, kinds)
        parsed = list(kind.parse(inp))
        yield from parsed
        if parsed:
            continue
        yield from _unknown_exceptions(table, rule, n)
        inp.c = columns.index(rule.column)
        column = table.columns[inp.c]
        inp.rows = [row for row in table.rows if len(row) == len(columns) and plain(row[0]) not in rule.except_]
        inp.known = [(table.rows.index(row), plain(row[0]), plain(row[inp.c])) for row in inp.rows
                     if plain(row[inp.c]) is not None and column.field_type.accepts(plain(row[inp.c]))]
        yield from kind.holds(inp)


def _unknown_exceptions(table, rule, n: int) -> Iterator[Finding]:
    """An exception names a row the table has (by its key): a stale or mistyped one is refused."""
    keys = [plain(row[0]) for row in table.rows if row]
    for e, key in enumerate(rule.except_):
        if not isinstance(key, (str, int, float)) or isinstance(key, bool) or key not in keys:
            yield Finding(("rules", n, "except", e),
                          f"rule '{rule.rule}': except names row {key!r}, which the table does not have",
                          nearest(str(key), [str(k) for k in keys])
                          or "name a row by its first cell: " + ", ".join(str(k) for k in keys[:8]))


def reference() -> str:
    """The table rules' part of the format reference."""
    return "Table rules (`rule:`):\n\n" + "\n".join(rule.reference() for rule in RULES.values())


def json_schema() -> list[dict]:
    """One piece per rule, for the table rule's `allOf`."""
    return [rule.json_schema() for rule in RULES.values()]

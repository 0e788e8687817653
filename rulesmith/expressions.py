"""Safe arithmetic for worked examples: recompute a printed result from the canonical tables."""

from __future__ import annotations

import difflib

import simpleeval

from . import fieldtypes, ranges


class ExpressionError(Exception):
    pass


def _place(values, i):
    """Competition rank of values[i]: 1 + how many entries are strictly greater."""
    return 1 + sum(1 for v in values if v > values[i])


def _tied(values, i):
    return sum(1 for v in values if v == values[i]) > 1


# The functions an expression may use, as the format reference lists them (`rulesmith format examples`).
FUNCTIONS = {
    "lookup(table, key, column)": (None, "the cell of `column` in the row whose first column equals `key` "
                                   "(an integer key also matches the same number written as text)"),
    "lookup_or(table, key, column, default)": (None, "the same, or `default` when the table has no such row"),
    "column(table, column)": (None, "every value of a column, as a list"),
    "min(values)": (min, "the smallest"), "max(values)": (max, "the largest"), "sum(values)": (sum, "the total"),
    "len(values)": (len, "how many"), "abs(x)": (abs, "the absolute value"),
    "place(values, i)": (_place, "the competition rank of `values[i]` (1 = most)"),
    "tied(values, i)": (_tied, "whether another entry equals `values[i]`"),
}


def evaluate(expression: str, inputs: dict, tables: dict) -> object:
    """Evaluate with only the inputs and the documented functions (FUNCTIONS)."""

    def row(table_id, key):
        table = tables.get(table_id)
        if table is None:
            raise ExpressionError(f"lookup: unknown table '{table_id}'")
        return table, find_row(table, key)

    def cell(table, cells, column_id):
        ids = [c.id for c in table.columns]
        if column_id not in ids:
            raise ExpressionError(f"lookup: table '{table.id}' has no column '{column_id}' (columns: {', '.join(ids)})")
        return plain(cells[ids.index(column_id)])

    def lookup(table_id, key, column_id):
        table, cells = row(table_id, key)
        if cells is None:
            hint = "" if table.columns[0].type == "range" or not any(ranges.is_span(plain(r[0])) for r in table.rows if r) \
                else " (to look a number up in rows such as \"4+\" or \"3-5\", declare its first column `type: range`)"
            raise ExpressionError(f"lookup: table '{table_id}' has no row '{key}'{hint}")
        return cell(table, cells, column_id)

    def lookup_or(table_id, key, column_id, default):
        table, cells = row(table_id, key)
        return default if cells is None else cell(table, cells, column_id)

    def column(table_id, column_id):
        table = tables.get(table_id)
        if table is None:
            raise ExpressionError(f"column: unknown table '{table_id}'")
        return [cell(table, cells, column_id) for cells in table.rows]

    functions = {"lookup": lookup, "lookup_or": lookup_or, "column": column, "min": min, "max": max,
                 "sum": sum, "len": len, "abs": abs, "place": _place, "tied": _tied}
    assert [f"{name}(" for name in functions] == [s[:s.index("(") + 1] for s in FUNCTIONS]
    evaluator = simpleeval.EvalWithCompoundTypes(names=dict(inputs), functions=functions)
    try:
        return evaluator.eval(expression)
    except ExpressionError:
        raise
    except Exception as error:  # simpleeval's and Python's own: said again in the content's terms
        raise ExpressionError(_in_our_words(error, expression, sorted(inputs), sorted(functions))) from None


def _in_our_words(error: Exception, expression: str, inputs: list[str], functions: list[str]) -> str:
    """What went wrong, for someone who writes YAML, not Python: no exception names."""
    def choices(word, among, what):
        close = difflib.get_close_matches(word, among, n=1, cutoff=0.6)
        listed = ", ".join(among) or "none"
        return (f"did you mean '{close[0]}'? " if close else "") + f"{what}: {listed}"

    if isinstance(error, simpleeval.NameNotDefined):
        return f"'{error.name}' is not one of the example's inputs ({choices(error.name, inputs, 'inputs')})"
    if isinstance(error, simpleeval.FunctionNotDefined):
        name = getattr(error, "func_name", None) or str(error).split("'")[1]
        return f"'{name}' is not a function examples can use ({choices(name, functions, 'functions')})"
    if isinstance(error, SyntaxError):
        where = f" at character {error.offset}" if error.offset else ""
        reason = (error.msg or "invalid syntax").replace("invalid syntax", "not a complete expression")
        return f"'{expression}' is not valid arithmetic{where}: {reason} (check brackets and operators)"
    if isinstance(error, ZeroDivisionError):
        return "it divides by zero"
    if isinstance(error, simpleeval.InvalidExpression):
        return str(error).replace(" in expression", " in").replace(" for expression", " in")
    if isinstance(error, TypeError):
        return f"values of the wrong kind are combined ({error}); check the inputs' types"
    if isinstance(error, IndexError):
        return "it asks for a position that a list does not have: positions count from 0"
    if isinstance(error, (KeyError, ValueError)):
        return f"a value it uses does not fit ({error}); check the inputs"
    return f"Python cannot evaluate it: {error}"


def find_row(table, key):
    """The row a lookup key names: the row keyed so as written, else, in a table keyed by ranges
    (first column `type: range`), the row whose range holds the number."""
    for cells in table.rows:
        if cells and (plain(cells[0]) == key or isinstance(key, int) and plain(cells[0]) == str(key)):
            return cells
    if table.columns and table.columns[0].type == "range":
        rows = [cells for cells in table.rows if cells]
        found = ranges.find([plain(cells[0]) for cells in rows], key)
        return None if found is None else rows[found]
    return None


def plain(value):
    """A cell or field value without its status wrapper (fieldtypes.Value)."""
    return fieldtypes.plain(value)

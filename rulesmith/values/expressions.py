"""Safe arithmetic for worked examples: recompute a printed result from the canonical tables."""

from __future__ import annotations

import ast
import difflib
import math
import operator

import simpleeval

from rulesmith.values import fieldtypes, ranges


class ExpressionError(Exception):
    pass


# Bounds on a worked example's arithmetic: a rulebook's numbers are small, and an expression that
# builds a number of millions of digits (a power of a power) would run for minutes; so would a
# comprehension over a long list. Every number an expression reads or makes stays within LIMIT,
# a power's exponent within MAX_EXPONENT, and the expression's tree within MAX_DEPTH levels.
LIMIT = 10 ** 15
MAX_EXPONENT = 64
MAX_DEPTH = 100
_TOO_DEEP = f"it nests more than {MAX_DEPTH} levels deep: simplify it"

# What an expression is made of: arithmetic, comparisons, `a if c else b`, lists written out,
# positions (`counts[i]`) and the functions below. Anything else is refused before it runs.
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.UAdd, ast.USub, ast.Not)
_ALLOWED = (ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.And,
            ast.Or, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
            ast.IfExp, ast.Call, ast.Subscript, ast.Slice, ast.List, ast.Tuple, *_ARITHMETIC)
_REFUSED = {ast.ListComp: "a list comprehension (`for … in …`)", ast.GeneratorExp: "a generator (`for … in …`)",
            ast.SetComp: "a set comprehension (`for … in …`)", ast.DictComp: "a dictionary comprehension (`for … in …`)",
            ast.Lambda: "a lambda", ast.Attribute: "an attribute (`x.y`)", ast.Dict: "a dictionary",
            ast.Set: "a set", ast.JoinedStr: "an f-string", ast.Starred: "`*` unpacking",
            ast.NamedExpr: "an assignment (`:=`)", ast.Await: "`await`"}


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
        c = ids.index(column_id)
        if c >= len(cells):  # a short row: the check of tables says so at the row too
            key = plain(cells[0]) if cells else None
            raise ExpressionError(f"lookup: row {key!r} of table '{table.id}' has no cell in column '{column_id}'")
        return plain(cells[c])

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
    try:
        body = ast.parse(expression.strip()).body
        if len(body) != 1 or not isinstance(body[0], ast.Expr):
            raise ExpressionError(f"'{_shown(expression)}' is not one expression (write one formula, "
                                  "without `=` or `;`)")
        tree = body[0].value
        _refuse_what_is_not_arithmetic(tree, functions)
        for name, value in inputs.items():
            _bounded(value, f"input '{name}'")
        evaluator = simpleeval.EvalWithCompoundTypes(
            names=dict(inputs), operators=_BOUNDED_OPERATORS,
            functions={name: _bounded_result(name, f) for name, f in functions.items()})
        return _bounded(evaluator.eval(expression, previously_parsed=tree), "its result")
    except ExpressionError:
        raise
    except Exception as error:  # simpleeval's and Python's own: said again in the content's terms
        raise ExpressionError(_in_our_words(error, expression, sorted(inputs), sorted(functions))) from None


def _refuse_what_is_not_arithmetic(tree: ast.expr, functions: dict) -> None:
    """Every call one of the functions (by name), every part of the expression one a worked
    example needs (_ALLOWED), every number within LIMIT, and the tree no deeper than MAX_DEPTH."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in functions:
            raise simpleeval.FunctionNotDefined(node.func.id, "")
    todo: list[tuple[ast.AST, int]] = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise ExpressionError(_TOO_DEEP)
        if not isinstance(node, _ALLOWED):
            what = _REFUSED.get(type(node)) or (f"the operator '{_symbol(node)}'" if isinstance(node, (ast.operator, ast.cmpop, ast.unaryop))
                                                else f"'{type(node).__name__}'")
            raise ExpressionError(f"{what} is not arithmetic a worked example can use")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise ExpressionError("only the functions listed can be called, by their names")
            if node.keywords:
                raise ExpressionError(f"{node.func.id}() takes its values in order, without names (`name=`)")
        if isinstance(node, ast.Constant):
            _bounded(node.value, "a number in it")
        todo += [(child, depth + 1) for child in reversed(list(ast.iter_child_nodes(node)))]


def _symbol(node: ast.AST) -> str:
    symbols = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
               ast.MatMult: "@", ast.Invert: "~", ast.Is: "is", ast.IsNot: "is not"}
    return symbols.get(type(node), type(node).__name__)


def _bounded(value, what: str):
    """The value, if every number in it is a real number within LIMIT; else ExpressionError."""
    if isinstance(value, (list, tuple)):
        for item in value:
            _bounded(item, what)
    elif isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        raise ExpressionError(f"{what} is not a real number")
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > LIMIT:
        raise ExpressionError(f"{what} goes beyond {LIMIT:,}: a worked example's numbers are smaller")
    return value


def _bounded_result(name: str, function):
    def bounded(*args):
        return _bounded(function(*args), f"the result of {name}()")
    return bounded


def _number(value, symbol: str):
    if not isinstance(value, (int, float)):
        kind = "a list" if isinstance(value, (list, tuple)) else "text" if isinstance(value, str) else "nothing"
        raise ExpressionError(f"'{symbol}' works on numbers, not on {kind}")
    return value


def _power(base, exponent):
    _number(base, "**"), _number(exponent, "**")
    shown = f"{f'({base})' if base < 0 else base}**{exponent}"
    if abs(exponent) > MAX_EXPONENT:
        raise ExpressionError(f"the power {shown} has an exponent beyond {MAX_EXPONENT}: "
                              "a worked example's numbers are smaller")
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1 \
            and (abs(base).bit_length() - 1) * exponent > LIMIT.bit_length():
        raise ExpressionError(f"the power {shown} goes beyond {LIMIT:,}: a worked example's numbers are smaller")
    try:
        return _bounded(base ** exponent, f"the power {shown}")
    except OverflowError:
        raise ExpressionError(f"the power {shown} goes beyond {LIMIT:,}: a worked example's numbers are smaller") from None


def _add(a, b):
    """Numbers add; two lists or two texts join (up to simpleeval's length for texts)."""
    if isinstance(a, (list, tuple, str)) and type(a) is type(b):
        if len(a) + len(b) > simpleeval.MAX_STRING_LENGTH:
            raise ExpressionError("it joins lists or texts into one longer than a worked example needs")
        return a + b
    return _bounded(_number(a, "+") + _number(b, "+"), "a sum in it")


def _arithmetic(function, symbol: str, result: str):
    def bounded(*values):
        return _bounded(function(*(_number(v, symbol) for v in values)), f"{result} in it")
    return bounded


_BOUNDED_OPERATORS = {
    ast.Add: _add, ast.Sub: _arithmetic(operator.sub, "-", "a difference"),
    ast.Mult: _arithmetic(operator.mul, "*", "a product"), ast.Div: _arithmetic(operator.truediv, "/", "a quotient"),
    ast.FloorDiv: _arithmetic(operator.floordiv, "//", "a quotient"), ast.Mod: _arithmetic(operator.mod, "%", "a remainder"),
    ast.Pow: _power, ast.USub: _arithmetic(operator.neg, "-", "a number"), ast.UAdd: _arithmetic(operator.pos, "+", "a number"),
    ast.Not: operator.not_, ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


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
        return f"'{_shown(expression)}' is not valid arithmetic{where}: {_shown(reason)} (check brackets and operators)"
    if isinstance(error, RecursionError):
        return _TOO_DEEP
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


def _shown(text: str) -> str:
    """An expression or a reason as a message quotes it: its start, when it is long."""
    return text if len(text) <= 80 else text[:77] + "…"


def find_row(table, key):
    """The row a lookup key names: the row keyed so as written, else, in a table keyed by ranges
    (first column `type: range`), the row whose range holds the number."""
    for cells in table.rows:
        if cells and (plain(cells[0]) == key or (isinstance(key, int) and plain(cells[0]) == str(key))):
            return cells
    if table.columns and table.columns[0].type == "range":
        rows = [cells for cells in table.rows if cells]
        found = ranges.find([plain(cells[0]) for cells in rows], key)
        return None if found is None else rows[found]
    return None


def plain(value):
    """A cell or field value without its status wrapper (fieldtypes.Value)."""
    return fieldtypes.plain(value)

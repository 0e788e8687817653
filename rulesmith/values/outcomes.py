"""Worked examples as the rulebook prints them and as the current data gives them.

An example keeps the result the rulebook prints and is recomputed from the current data. Where
the two differ, the errata to what the example reads may explain it: recomputed from the data
as the rulebook printed it (every erratum to those values undone), it gives the printed result
again. Then the erratum applies and readers see both numbers; where nothing explains the
difference, the check fails (a transcription error). The check, the site and `errata add` all
ask this module, so they agree on which examples an erratum changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulesmith.content import model
from rulesmith.values import addresses
from rulesmith.values import references as values
from rulesmith.values.expressions import ExpressionError, evaluate, plain

TABLE_READ = re.compile(r"\b(?:lookup|lookup_or|column)\(\s*['\"]([^'\"]+)['\"]")


@dataclass
class Outcome:
    example: model.Example
    printed: object  # the result the rulebook prints
    current: object = None  # recomputed from the current data
    as_printed: object = None  # recomputed from the data as the rulebook printed it (errata undone)
    errata: list[model.Erratum] = field(default_factory=list)  # errata to what the example reads
    problem: tuple[str, str] | None = None  # (message, hint) where it cannot be computed
    problem_at: str = "expression"  # the example's field the problem is in

    @property
    def agrees(self) -> bool:
        return self.problem is None and self.current == self.printed

    @property
    def changed_by_errata(self) -> bool:
        """The current data gives another result, and undoing the errata gives the printed one."""
        return (self.problem is None and self.current != self.printed and bool(self.errata)
                and self.as_printed == self.printed)


def erratum_key(erratum: model.Erratum) -> str | None:
    """The value reference an erratum's value is known by ('country:nigeria.ct',
    'table:conflict-dice.3.extra'), or None for a text."""
    place = addresses.of_erratum(erratum.target, erratum.field)
    return str(place) if place.is_value else None


def first_values(game) -> dict[str, tuple[object, list[model.Erratum]]]:
    """For every value errata changed: the value the rulebook printed (the first record's old)
    and the errata of it, oldest first."""
    return _first_values(tuple(game.errata))


def _first_values(errata) -> dict[str, tuple[object, list[model.Erratum]]]:
    found: dict[str, tuple[object, list[model.Erratum]]] = {}
    for erratum in sorted(errata, key=lambda e: (e.date, e.id)):
        key = erratum_key(erratum)
        if key is None:
            continue
        printed, chain = found.get(key, (erratum.old, []))
        found[key] = (printed, [*chain, erratum])
    return found


def printed_value(index, ref: str) -> tuple[object, list[model.Erratum]] | None:
    """(the value as the rulebook printed it, its errata oldest first) for a value reference
    ('country:nigeria.ct') whose value errata changed, else None."""
    return _first_values(tuple(index.errata)).get(_canonical(ref)) if index.errata else None


def _canonical(ref: str) -> str:
    return ref.removeprefix(values.PREFIX)


def _reverted_tables(game, reads: set[str], printed: dict) -> dict:
    """The tables an example reads, each cell an erratum changed put back as printed."""
    tables = {t.id: t for t in game.tables}
    for table_id in reads:
        table = tables.get(table_id)
        if table is None:
            continue
        rows, changed = [list(row) for row in table.rows], False
        columns = [c.id for c in table.columns]
        for key, (value, _chain) in printed.items():
            place = addresses.parse(key)
            if place.key != f"table:{table_id}" or place.column not in columns:
                continue
            c = columns.index(place.column)
            for row in rows:
                if row and str(plain(row[0])) == place.row and c < len(row):
                    row[c] = value
                    changed = True
        if changed:
            tables[table_id] = table.model_copy(update={"rows": rows})
    return tables


def outcome(game, index, example: model.Example) -> Outcome | None:
    """How an arithmetic example works out now and as printed (None: not arithmetic)."""
    if example.expression is None or example.result is None:
        return None
    found = Outcome(example, example.result)
    try:
        inputs = values.resolve_inputs(index, example.inputs)
    except values.ValueError_ as error:
        found.problem = (error.args[0], error.args[1] if len(error.args) > 1 else "")
        found.problem_at = "inputs"
        return found
    tables = {t.id: t for t in game.tables}
    try:
        found.current = evaluate(example.expression, inputs, tables)
    except ExpressionError as error:
        found.problem = (f"example '{example.id}' cannot be computed: {error}",
                         "use the inputs, numbers and the functions `rulesmith format examples` lists")
        return found
    printed = first_values(game)
    reads = set(TABLE_READ.findall(example.expression))
    refs = {name: _canonical(match.group(1)) for name, v in example.inputs.items()
            if isinstance(v, str) and (match := values.WHOLE.match(v))}
    relevant: list[model.Erratum] = []
    for ref in refs.values():
        relevant += printed.get(ref, (None, []))[1]
    for key, (_value, chain) in printed.items():
        if any(key.startswith(f"table:{t}.") for t in reads):
            relevant += chain
    found.errata = sorted({e.id: e for e in relevant}.values(), key=lambda e: (e.date, e.id))
    if found.errata:
        old_inputs = dict(inputs)
        for name, ref in refs.items():
            if ref in printed:
                old_inputs[name] = printed[ref][0]
        try:
            found.as_printed = evaluate(example.expression, old_inputs, _reverted_tables(game, reads, printed))
        except ExpressionError:
            found.as_printed = None
    else:
        found.as_printed = found.current
    return found


def outcomes(game, index) -> dict[str, Outcome]:
    """Every arithmetic example's outcome, by example id."""
    return {e.id: o for e in game.examples if (o := outcome(game, index, e)) is not None}


def value_label(game, index, erratum: model.Erratum) -> str:
    """What an erratum changed, as readers know it: "Nigeria, Conflict threshold (D3)"."""
    target = index.targets.get(erratum.target)
    return f"{target.name}, {field_label(game, index, erratum)}" if target else erratum.target


def field_label(game, index, erratum: model.Erratum) -> str:
    """The value of its item an erratum changed: "Conflict threshold (D3)", "Extra dice for
    Conflict threshold 3", "a step", "text"."""
    target = index.targets.get(erratum.target)
    item = target.item if target else None
    place = addresses.of_erratum(erratum.target, erratum.field)
    if place.field is not None and isinstance(item, model.Entity):
        kind = game.kind(item.kind)
        spec = next((f for f in kind.fields if f.id == place.field), None) if kind else None
        return spec.name if spec else place.field
    if place.row is not None and isinstance(item, model.Table):
        title = next((c.title for c in item.columns if c.id == place.column), place.column)
        first = item.columns[0].title if item.columns else ""
        return f"{title} for {first} {place.row}".rstrip()
    if place.step is not None:
        return "a step"
    return erratum.field.partition(".")[0]

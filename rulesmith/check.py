"""Stage 4, check: the consistency rules over a linked game.

Each rule reports every offending place at once, with file:line:column and a hint.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from . import affects, aidkinds, fieldtypes, model, outcomes, ranges, text_safety, turn
from .fieldtypes import field_type
from .condensed import condition_problems, unfaithful_numbers
from .items import all_items
from .expressions import plain
from .game import Game
from .link import Index, texts
from .problems import Problems, nearest
from .source_map import check_source_map

STATUSES = fieldtypes.STATUSES
RAW_HTML = re.compile(r"<[A-Za-z/!?]")


def check_game(game: Game, index: Index, problems: Problems, today: datetime.date | None = None) -> None:
    check_modules_and_sources(game, problems)
    check_declarations(game, problems)
    check_texts(game, problems)
    check_entities(game, index, problems)
    check_tables(game, index, problems)
    check_procedures(game, problems)
    turn.check_bot(game, problems)
    check_examples(game, index, problems)
    check_errata(game, index, problems, today or datetime.date.today())
    check_rulings(game, index, problems, today or datetime.date.today())
    check_source_map(game, index, problems)
    check_aids(game, index, problems)
    affects.check(game, index, problems)


def _items_with_module(game: Game):
    for item_type, _key, item in all_items(game):
        if "module" in item_type.model.model_fields:
            yield item


def check_modules_and_sources(game: Game, problems: Problems) -> None:
    modules = {m.id for m in game.modules}
    sources = {s.id for s in game.info.sources}
    for item in _items_with_module(game):
        if item.module is not None and item.module not in modules:
            unread = game.missing_because_unread(f"module '{item.module}'", item.module)
            problems.add(item.where("module"), *(unread or (f"unknown module '{item.module}'",
                         nearest(item.module, modules) or "declare it under `modules:` in game.yaml")))
        if item.source is not None and item.source.file is not None and item.source.file not in sources:
            problems.add(item.where("source", "file"), f"unknown source '{item.source.file}'",
                         nearest(item.source.file, sources) or "declare it under game.sources")
    for kind in game.kinds:  # a field that applies only with a module
        for n, spec in enumerate(kind.fields):
            if spec.module is not None and spec.module not in modules:
                problems.add(kind.where("fields", n, "module"), f"unknown module '{spec.module}'",
                             nearest(spec.module, modules) or "declare it under `modules:` in game.yaml")
    for gap in game.gaps:
        if gap.status == "verified":
            problems.add(gap.where(), f"gap '{gap.id}' has status verified",
                         "a gap is missing, unverified, reconstructed or contradictory")


def check_declarations(game: Game, problems: Problems) -> None:
    """Kind fields and table columns: unique ids, `to:` naming a declared kind."""
    kinds = {k.id for k in game.kinds} | {"kind"}  # `to: kind` refers to the kinds themselves
    owners = [(k, "kind", k.id, "fields", k.fields) for k in game.kinds]
    owners += [(t, "table", t.id, "columns", t.columns) for t in game.tables]
    for owner, what, owner_id, attr, specs in owners:
        seen = set()
        for n, spec in enumerate(specs):
            if spec.id in seen and what == "kind":  # duplicate columns: check_tables
                problems.add(owner.where(attr, n, "id"), f"duplicate field id '{spec.id}' in kind '{owner_id}'",
                             "give every field its own id")
            seen.add(spec.id)
            if spec.to is not None and spec.to not in kinds:
                problems.add(owner.where(attr, n, "to"), f"{what} '{owner_id}': '{spec.id}' refers to unknown kind '{spec.to}'",
                             nearest(spec.to, kinds) or "declare the kind under `kinds:` in game.yaml")


SHALLOW_NESTED_LIST = re.compile(r"^( {1,3})([-*+]|\d+\.) ", re.MULTILINE)


PLAIN_TEXT_HINT = "write it out ('less than', 'and'); plain text is never read as markup"


def check_texts(game: Game, problems: Problems) -> None:
    """No live markup and only https links: content must not inject into readers' browsers.

    Plain-text fields of the model refuse markup when validated (model.PlainText); plain values of
    declared string/enum fields and cells are refused here by the same rule."""
    for text in texts(game, model.PLAIN):
        match = model.refused_plain_text(text.value)
        if match:
            problems.add(text.item._file.find_text(text.item._path + text.path, match.group(0)),
                         model.plain_text_problem(text.value), PLAIN_TEXT_HINT)
    for text in texts(game):
        base = text.item._path + text.path
        for match in SHALLOW_NESTED_LIST.finditer(text.value):
            line = text.value[match.start():].split("\n", 1)[0]
            problems.add(text.item._file.find_text(base, line.strip()),
                         f"list item indented by {len(match.group(1))} space(s) would not nest",
                         "indent nested lists by 4 spaces (Markdown), or by 0 for a new list")
        for match in RAW_HTML.finditer(text.value):
            where = text.item._file.find_text(base, text.value[match.start():].split("\n", 1)[0])
            problems.add(where, "raw HTML is not allowed in content text",
                         "write Markdown; for a literal '<' add a space after it")
        for message, part in text_safety.judge(text.value):
            hint = ("links in content must be https:// URLs; use [[kind:id]] for references" if "link" in message
                    else "split it with a blank line, or into subsections" if "paragraph" in message
                    else "write Markdown only; content text never becomes markup")
            problems.add(text.item._file.find_text(base, part), message, hint)


def check_value(value, spec, index: Index, where, problems: Problems, label: str, at=None) -> None:
    """Check one field or cell value against its declared type (field or column), as the type
    in the registry (fieldtypes) says.

    `at(i)`, when given, locates the i-th item of a list value (else `where` is used)."""
    if isinstance(value, dict):
        wrong = fieldtypes.wrapper_problem(value)
        if wrong:
            problems.add(where, f"{label}: {wrong[0]}", wrong[1])
            if "needs a note" not in wrong[0]:
                return
    found = fieldtypes.Value.of(value)
    value = found.value
    if value is None:
        return  # an empty cell or field, or a missing value: not applicable
    kind = field_type(spec.type)
    if isinstance(kind, fieldtypes.ListType):
        if not kind.accepts(value):
            problems.add(where, f"{label} must be a list", kind.hint(value))
            return
        item_spec = model.Column(id="item", title="item", type=kind.item.name, to=spec.to, min=spec.min,
                                 max=spec.max, values=spec.values)
        for i, item in enumerate(value):
            check_value(item, item_spec, index, at(i) if at else where, problems, label)
        return
    if not kind.accepts(value):
        problems.add(where, f"{label} must be {'an' if kind.name[0] in 'aeiou' else 'a'} {kind.name}, got {value!r}",
                     kind.hint(value))
        return
    wrong = kind.problem(value, spec)
    if wrong:
        problems.add(where, f"{label}: {wrong[0]}", wrong[1])
    if kind.name == "ref" and f"kind:{spec.to}" in index.targets:  # else reported by check_declarations
        key = f"{spec.to}:{value}"
        if key not in index.targets and value not in index.invalid_ids:
            same = [k.split(':', 1)[1] for k in index.targets if k.startswith(spec.to + ":")]
            other = [k for k in index.targets if k.endswith(":" + value)]
            problems.add(where, f"{label}: unknown {spec.to} '{value}'",
                         f"'{value}' is {', '.join(other)}, not a {spec.to}" if other
                         else nearest(value, same) or f"no {spec.to} with that id")


def check_range_keys(table: model.Table, problems: Problems) -> None:
    """A column of range keys: no two ranges share a number and, with a `contiguous` rule, no
    number between the first and the last range is left out."""
    contiguous = {rule.column: n for n, rule in enumerate(table.rules) if rule.rule == "contiguous"}
    for c, column in enumerate(table.columns):
        if column.type != "range":
            if column.id in contiguous:
                problems.add(table.where("rules", contiguous[column.id], "column"),
                             f"rule 'contiguous': column '{column.id}' is not of type range",
                             "declare the column `type: range` (row keys such as \"4+\" or \"3-5\")")
            continue
        rows = [(r, plain(row[c])) for r, row in enumerate(table.rows) if c < len(row) and plain(row[c]) is not None]
        valid = [(r, key) for r, key in rows if ranges.is_range(key)]  # the others: check_value
        for position, message, hint in ranges.problems([key for _, key in valid], column.id in contiguous):
            problems.add(table.where("rows", valid[position][0], c), f"table '{table.id}': {message}", hint)


def check_entities(game: Game, index: Index, problems: Problems) -> None:
    kinds = {k.id: k for k in game.kinds}
    for entity in game.entities:
        kind = kinds.get(entity.kind)
        if kind is None:
            continue  # reported by link
        declared = {f.id: f for f in kind.fields}
        for name, value in entity.fields.items():
            spec = declared.get(name)
            if spec is None:
                problems.add(entity.where("fields", name, key=True),
                             f"kind '{kind.id}' has no field '{name}'",
                             nearest(name, declared) or f"declare it under kinds: {kind.id}: fields")
                continue
            check_value(value, spec, index, entity.where("fields", name), problems, f"field '{name}'",
                        at=lambda i, name=name, entity=entity: entity.where("fields", name, i))
        for spec in kind.fields:
            if spec.required and spec.id not in entity.fields and entity.status != "missing":
                problems.add(entity.where("fields") if entity.fields else entity.where(),
                             f"missing required field '{spec.id}' of {kind.name}",
                             "add it, or write {status: missing, note: '…'} if the source lacks it")
    for kind in game.kinds:
        found = len(game.entities_of(kind.id))
        if kind.count is not None and found > kind.count:
            problems.add(kind.where("count"), f"{found} entities of kind '{kind.id}' but the game has {kind.count}",
                         "fix the count or remove the extra entities")


def _ordered(values, rule):
    pairs = list(zip(values, values[1:], strict=False))
    compare = {"non-decreasing": lambda a, b: a <= b, "non-increasing": lambda a, b: a >= b,
               "increasing": lambda a, b: a < b, "decreasing": lambda a, b: a > b}[rule]
    return [i + 1 for i, (a, b) in enumerate(pairs) if not compare(a, b)]


def _of_column_type(value, column) -> bool:
    """Whether a cell's value has its column's type (so a table rule can compare it)."""
    return value is not None and field_type(column.type).accepts(value)


def _number(value) -> str:
    return field_type("number").shown(value)


def check_tables(game: Game, index: Index, problems: Problems) -> None:
    tables = {t.id: t for t in game.tables}
    kinds = {k.id: k for k in game.kinds}
    for table in game.tables:
        columns = [c.id for c in table.columns]
        if len(set(columns)) != len(columns):
            problems.add(table.where("columns"), "duplicate column ids", "give every column its own id")
        keys = {}
        for r, row in enumerate(table.rows):
            if len(row) != len(columns):
                problems.add(table.where("rows", r), f"row has {len(row)} cells but the table has "
                             f"{len(columns)} columns ({', '.join(columns)})", "add or remove cells")
                continue
            for c, value in enumerate(row):
                check_value(value, table.columns[c], index, table.where("rows", r, c), problems,
                            f"cell '{table.columns[c].id}'", at=lambda i, r=r, c=c, table=table: table.where("rows", r, c, i))
            key = plain(row[0])
            if not isinstance(key, (str, int, float, bool, type(None))):
                continue  # a list or mapping as a key: reported by check_value as the wrong type
            if key in keys:
                problems.add(table.where("rows", r, 0), f"duplicate row key {key!r} (first in row {keys[key] + 1})",
                             "the first column identifies the row; make it unique")
            keys.setdefault(key, r)
        check_range_keys(table, problems)
        for n, rule in enumerate(table.rules):
            where = table.where("rules", n)
            if rule.rule == "contiguous" and rule.column in columns:
                continue  # check_range_keys
            if rule.column not in columns:
                problems.add(table.where("rules", n, "column"), f"rule '{rule.rule}': no column '{rule.column}'",
                             nearest(rule.column, columns) or "columns: " + ", ".join(columns))
                continue
            for e, key in enumerate(rule.except_):  # an exception names a row the table has
                if not isinstance(key, (str, int, float)) or isinstance(key, bool) or key not in keys:
                    problems.add(table.where("rules", n, "except", e),
                                 f"rule '{rule.rule}': except names row {key!r}, which the table does not have",
                                 nearest(str(key), [str(k) for k in keys])
                                 or "name a row by its first cell: " + ", ".join(str(k) for k in list(keys)[:8]))
            c = columns.index(rule.column)
            rows = [row for row in table.rows if len(row) == len(columns)
                    and plain(row[0]) not in rule.except_]
            # (row number in the table, key, value) of every cell the rule holds over
            # A cell of the wrong type is reported by check_value; the rule holds over the others.
            known = [(table.rows.index(row), plain(row[0]), plain(row[c])) for row in rows
                     if _of_column_type(plain(row[c]), table.columns[c])]
            message, first_bad = None, None
            if rule.rule in ("non-decreasing", "non-increasing", "increasing", "decreasing"):
                try:
                    bad = [known[i] for i in _ordered([v for _, _, v in known], rule.rule)]
                except TypeError:
                    bad, message = [], f"rule '{rule.rule}' needs comparable values in '{rule.column}'"
                if bad:
                    message = (f"table rule broken: '{rule.column}' is not {rule.rule} at row(s) "
                               + ", ".join(repr(k) for _, k, _ in bad))
                    first_bad = bad[0][0]
            elif rule.rule == "unique":
                seen, repeats = set(), []
                for r, _k, v in known:
                    same = repr(v) if isinstance(v, (list, dict)) else v  # a list cell: its type is reported by check_value
                    (repeats.append((r, v)) if same in seen else seen.add(same))
                if repeats:
                    message = f"table rule broken: '{rule.column}' repeats {', '.join(sorted({repr(v) for _, v in repeats}))}"
                    first_bad = repeats[0][0]
            elif rule.rule == "range":
                bad = [(r, k) for r, k, v in known
                       if rule.min is not None and v < rule.min or rule.max is not None and v > rule.max]
                if bad:
                    message = f"table rule broken: '{rule.column}' out of range at row(s) {', '.join(repr(k) for _, k in bad)}"
                    first_bad = bad[0][0]
            elif rule.rule == "sum":
                total = sum(v for _, _, v in known)
                if rule.equals is None or total != rule.equals:
                    message = f"table rule broken: '{rule.column}' sums to {_number(total)}, expected {_number(rule.equals)}"
            elif rule.rule == "matches":
                other = tables.get(rule.table or "")
                if other is None:
                    problems.add(table.where("rules", n, "table"), f"rule 'matches': unknown table '{rule.table}'",
                                 nearest(rule.table or "", tables) or "name a table of this game")
                    continue
                other_columns = [col.id for col in other.columns]
                oc = rule.other_column or rule.column
                if oc not in other_columns:
                    problems.add(where, f"rule 'matches': table '{other.id}' has no column '{oc}'",
                                 nearest(oc, other_columns))
                    continue
                theirs = {plain(row[0]): plain(row[other_columns.index(oc)]) for row in other.rows
                          if len(row) == len(other_columns)}
                bad = [(r, k) for r, k, v in known if k in theirs and theirs[k] != v]
                only = sorted(map(repr, set(k for _, k, _ in known) ^ set(theirs)))
                if bad or only:
                    message = (f"table rule broken: '{rule.column}' does not match {other.id}.{oc}"
                               + (f" at row(s) {', '.join(repr(k) for _, k in bad)}" if bad else "")
                               + (f"; keys in only one table: {', '.join(only)}" if only else ""))
                    first_bad = bad[0][0] if bad else None
            elif rule.rule == "entity-count":
                if rule.kind_column not in columns:
                    problems.add(where, "rule 'entity-count' needs kind_column naming a column of kind ids",
                                 nearest(rule.kind_column or "", columns))
                    continue
                kc = columns.index(rule.kind_column)
                for row in rows:
                    kind_id, count = plain(row[kc]), plain(row[c])
                    if isinstance(count, str) and count.strip().isdigit():
                        count = int(count)  # quantities kept as printed text, e.g. "40"

                    if kind_id is None or not isinstance(kind_id, str):
                        continue  # not a kind id: its type is reported by check_value
                    kind = kinds.get(kind_id)
                    if kind is None:
                        problems.add(table.where("rows", table.rows.index(row), kc), f"unknown kind '{kind_id}'",
                                     nearest(str(kind_id), kinds))
                    elif kind.count != count:
                        problems.add(table.where("rows", table.rows.index(row), c),
                                     f"table rule broken: {count} {kind.plural} here, but kind '{kind.id}' declares count {kind.count}",
                                     "make the component count and the kind's count agree")
            if message:  # at the first row that breaks the rule, naming the rule's own line
                at = where if first_bad is None else table.where("rows", first_bad, c)
                rule_line = f" (rule '{rule.rule}' at line {where[1]})" if first_bad is not None else ""
                problems.add(at, message + rule_line,
                             "fix the data, or list the row under `except:` with an unverified cell")


def check_procedures(game: Game, problems: Problems) -> None:
    for procedure in game.procedures:
        nodes = {}
        for node in procedure.nodes:
            if node.id in nodes:
                problems.add(node.where("id"), f"duplicate node id '{node.id}' in procedure '{procedure.id}'", "rename one")
            nodes.setdefault(node.id, node)
        if procedure.start not in nodes:
            problems.add(procedure.where("start"), f"start node '{procedure.start}' does not exist",
                         nearest(procedure.start, nodes) or "name one of the nodes")
        edges, dangling = {}, set()  # dangling: nodes with an unknown target (reported once, below)
        for node in procedure.nodes:
            targets = []
            if node.type == "step":
                if node.next is None:
                    problems.add(node.where(), f"step '{node.id}' has no next",
                                 "add next: <node id>, or make it type: end")
                    dangling.add(node.id)
                else:
                    targets.append((node.next, node.where("next")))
                if node.branches:
                    problems.add(node.where("branches"), f"step '{node.id}' has branches", "use type: decision")
            elif node.type == "decision":
                labels = [b.when.strip().lower() for b in node.branches]
                for i, branch in enumerate(node.branches):
                    if not branch.when.strip():  # the walker's button and the flowchart's arrow would say nothing
                        problems.add(node.where("branches", i, "when"), f"decision '{node.id}' has a branch without a label",
                                     "write what the reader answers, e.g. when: 'Yes'")
                if len(node.branches) < 2:
                    problems.add(node.where(), f"decision '{node.id}' has {len(node.branches)} branch(es)",
                                 "a decision needs at least two branches (e.g. Yes and No)")
                if len(set(label for label in labels if label)) != len([label for label in labels if label]):
                    problems.add(node.where("branches"), f"decision '{node.id}' has two branches with the same label",
                                 "give every branch its own `when`")
                if ("yes" in labels) != ("no" in labels):
                    missing = "No" if "yes" in labels else "Yes"
                    problems.add(node.where("branches"), f"decision '{node.id}' has no '{missing}' branch",
                                 f"add {{when: '{missing}', to: <node id>}}")
                if node.next is not None:
                    problems.add(node.where("next"), f"decision '{node.id}' has next", "use branches")
                targets += [(b.to, node.where("branches", i, "to")) for i, b in enumerate(node.branches)]
            else:
                if node.next is not None or node.branches:
                    problems.add(node.where(), f"end '{node.id}' has a next step", "remove it, or make it a step")
            for target, where in targets:
                if target not in nodes:
                    problems.add(where, f"unknown node '{target}' in procedure '{procedure.id}'",
                                 nearest(target, nodes) or "name one of the nodes")
                    dangling.add(node.id)
            edges[node.id] = [t for t, _ in targets if t in nodes]
        reached = _reach(procedure.start, edges) if procedure.start in nodes else set(nodes)
        for node in procedure.nodes:
            if node.id not in reached:
                problems.add(node.where("id"), f"node '{node.id}' cannot be reached from start '{procedure.start}'",
                             "link to it from another node, or remove it")
        ends = {n.id for n in procedure.nodes if n.type == "end"}
        if not ends:
            problems.add(procedure.where("nodes"), f"procedure '{procedure.id}' has no end node",
                         "add a node with type: end")
        reverse = {}
        for source, targets in edges.items():
            for target in targets:
                reverse.setdefault(target, []).append(source)
        can_end = set()
        for end in ends | dangling:
            can_end |= _reach(end, reverse)
        for node in procedure.nodes:
            if node.id in reached and node.id not in can_end and ends:
                problems.add(node.where("id"), f"node '{node.id}' can never reach an end (a loop with no way out)",
                             "add a branch that leads to an end node")


def _reach(start, edges) -> set:
    seen, todo = {start}, [start]
    while todo:
        for target in edges.get(todo.pop(), []):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def check_examples(game: Game, index: Index, problems: Problems) -> None:
    """Every arithmetic example recomputes to its printed result, or an erratum explains why
    not (outcomes.py): the data as the rulebook printed it gives the printed result again."""
    for example in game.examples:
        if example.expression is None:
            continue
        if example.result is None:
            problems.add(example.where("expression"), f"example '{example.id}' has an expression but no printed result",
                         "add result: <the number the rulebook prints>")
            continue
        found = outcomes.outcome(game, index, example)
        if found is None:
            continue
        if found.problem is not None:
            problems.add(example.where(found.problem_at), *found.problem)
            continue
        if found.agrees or found.changed_by_errata:
            continue
        if found.errata:
            ids = ", ".join(e.id for e in found.errata)
            problems.add(example.where("result"),
                         f"example '{example.id}' no longer recomputes: the data gives {found.current!r}, the rulebook "
                         f"prints {example.result!r}, and undoing erratum {ids} gives {found.as_printed!r}, not the "
                         "printed result", "the erratum does not explain the difference: check the tables and the example's inputs")
        else:
            problems.add(example.where("result"),
                         f"example '{example.id}' no longer recomputes: the tables give {found.current!r}, the rulebook prints {example.result!r}",
                         "no erratum explains the difference: check the transcription of the tables and of the example")


ERRATUM_FIELDS = "fields.<field>, rows.<key>.<column>, nodes.<node>.text, name, title, text, body, " \
    "description, definition or term"
_ATTRIBUTES = {"name": "string", "title": "string", "term": "string", "text": "text", "body": "text",
               "description": "text", "definition": "text"}


@dataclass
class Slot:
    """The one value an erratum's target and field name: the item holding it and where."""

    item: model.Located  # holds the value; item._path + path is its place in the YAML file
    path: tuple
    type: str  # field type of the value (integer, string, text, ref-list …)
    raw: object  # as written, possibly status-wrapped ({value:, status:, note:})
    key_column: bool = False  # the first column of a table row (the row key)

    @property
    def value(self):
        return plain(self.raw)


def erratum_slot(game: Game, index: Index, target: str, field: str) -> Slot:
    """Where the value of `field` of `target` lives; raises KeyError (target) or LookupError (field)."""
    item = index.targets[target].item
    head, _, rest = field.partition(".")
    if head == "fields" and rest and isinstance(item, model.Entity):
        kind = game.kind(item.kind)
        spec = next((f for f in kind.fields if f.id == rest), None) if kind else None
        if spec is None:
            hint = nearest(rest, [f.id for f in kind.fields]) if kind else ""
            raise LookupError(f"kind '{item.kind}' has no field '{rest}'" + (f" ({hint})" if hint else ""))
        return Slot(item, ("fields", rest), spec.type, item.fields.get(rest))
    if head == "rows" and "." in rest and isinstance(item, model.Table):
        key, _, column = rest.rpartition(".")  # the key may itself contain dots
        columns = [c.id for c in item.columns]
        if column not in columns:
            hint = nearest(column, columns)
            raise LookupError(f"table '{item.id}' has no column '{column}'" + (f" ({hint})" if hint else ""))
        c = columns.index(column)
        for r, row in enumerate(item.rows):
            if row and str(plain(row[0])) == key and c < len(row):
                return Slot(item, ("rows", r, c), item.columns[c].type, row[c], key_column=c == 0)
        raise LookupError(f"table '{item.id}' has no row '{key}'")
    if head == "nodes" and rest.endswith(".text") and isinstance(item, model.Procedure):
        node_id = rest.removesuffix(".text")
        node = next((n for n in item.nodes if n.id == node_id), None)
        if node is None:
            raise LookupError(f"procedure '{item.id}' has no node '{node_id}'")
        return Slot(node, ("text",), "text", node.text)
    if not rest and head in _ATTRIBUTES and head in type(item).model_fields:
        return Slot(item, (head,), _ATTRIBUTES[head], getattr(item, head))
    raise LookupError(f"'{field}' is not a field of {target}")


def current_value(game: Game, index: Index, target: str, field: str):
    """The data's current value for an erratum's target and field; raises KeyError/LookupError."""
    return erratum_slot(game, index, target, field).value


def same_value(a, b) -> bool:
    """Equal as content: same type (true is not 1), text equal but for trailing line breaks."""
    if isinstance(a, str) and isinstance(b, str):
        return a.rstrip() == b.rstrip()
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def check_errata(game: Game, index: Index, problems: Problems, today: datetime.date) -> None:
    """Every record names an existing value; the latest record of each value equals the data,
    and earlier records of the same value chain into it (each one's new is the next one's old)."""
    seen = {}
    chains: dict[tuple[str, str], list[tuple[model.Erratum, object]]] = {}
    for erratum in game.errata:
        if erratum.id in seen:
            file, line, _ = seen[erratum.id].where()
            problems.add(erratum.where("id"), f"duplicate erratum id '{erratum.id}' (first at {file}:{line})",
                         "give every erratum its own id")
            continue
        seen[erratum.id] = erratum
        if erratum.date > today:
            problems.add(erratum.where("date"), f"erratum date {erratum.date} is in the future",
                         f"use the date the erratum was published, on or before {today}")
        if same_value(erratum.old, erratum.new):
            problems.add(erratum.where("old"), f"erratum '{erratum.id}' changes nothing (old equals new)",
                         "record the value before the change as old")
        if erratum.target not in index.targets:
            if erratum.target.partition(":")[2] in index.invalid_ids:
                continue  # declared in a file that failed validation: reported there
            unread = game.missing_because_unread(f"erratum target {erratum.target}", erratum.target)
            if unread:
                problems.add(erratum.where("target"), *unread)
                continue
            problems.add(erratum.where("target"), f"erratum targets unknown {erratum.target}",
                         nearest(erratum.target, index.targets) or "name an existing kind:id")
            continue
        try:
            value = current_value(game, index, erratum.target, erratum.field)
        except LookupError as error:
            problems.add(erratum.where("field"), f"erratum field: {error.args[0]}", ERRATUM_FIELDS)
            continue
        chains.setdefault((erratum.target, erratum.field), []).append((erratum, value))
    for records in chains.values():
        records.sort(key=lambda pair: pair[0].date)  # stable: same date keeps file order
        for (earlier, _), (later, _) in zip(records, records[1:], strict=False):
            if not same_value(earlier.new, later.old):
                problems.add(later.where("old"),
                             f"erratum '{later.id}' says {later.field} was {later.old!r}, but the earlier "
                             f"erratum '{earlier.id}' set it to {earlier.new!r}",
                             "errata of one value must chain: each old is the previous new")
        latest, value = records[-1]
        if not same_value(value, latest.new):
            problems.add(latest.where("new"),
                         f"erratum '{latest.id}' says {latest.field} is now {latest.new!r}, but the data has {value!r}",
                         "apply the erratum to the data, or correct the record")


def https_url(url: str) -> bool:
    """An https:// address with a host that may stand in a link (model.https_url_problem)."""
    return model.https_url_problem(url) is None


def check_rulings(game: Game, index: Index, problems: Problems, today: datetime.date) -> None:
    """Every ruling is about items that exist, dated on a real day not in the future (its source
    link is an https URL with a host: model.HttpsUrl); a superseded ruling names an existing, not older successor, and no chain
    of successors comes back to itself; an overruled one names an existing erratum."""
    rulings = {r.id: r for r in game.rulings}
    errata = {e.id for e in game.errata}
    for ruling in game.rulings:
        if ruling.date > today:
            problems.add(ruling.where("date"), f"ruling date {ruling.date} is in the future",
                         f"use the date the ruling was published, on or before {today}")
        for n, key in enumerate(ruling.about):
            if key not in index.targets or key.startswith(("ruling:", "erratum:")):
                if key.partition(":")[2] in index.invalid_ids:
                    continue
                candidates = [k for k in index.targets if not k.startswith("ruling:")]
                problems.add(ruling.where("about", n), f"ruling '{ruling.id}' is about unknown {key}",
                             nearest(key, candidates) or "name an item as kind:id (card:interpol, rule:setup …)")
        if ruling.superseded_by and ruling.overruled_by:
            problems.add(ruling.where("overruled_by"), f"ruling '{ruling.id}' is both superseded and overruled",
                         "keep one: superseded_by (a later ruling) or overruled_by (an erratum)")
        if ruling.superseded_by is not None:
            successor = rulings.get(ruling.superseded_by)
            if successor is None:
                problems.add(ruling.where("superseded_by"), f"ruling '{ruling.id}' is superseded by unknown ruling "
                             f"'{ruling.superseded_by}'", nearest(ruling.superseded_by, rulings) or "name a ruling of this game")
            elif successor.id == ruling.id:
                problems.add(ruling.where("superseded_by"), f"ruling '{ruling.id}' supersedes itself",
                             "name the later ruling that replaces it")
            elif successor.date < ruling.date:
                problems.add(ruling.where("superseded_by"), f"ruling '{ruling.id}' ({ruling.date}) is superseded by "
                             f"'{successor.id}', which is older ({successor.date})",
                             "a ruling is superseded by a later one: check the dates or the order")
        if ruling.overruled_by is not None and ruling.overruled_by not in errata:
            problems.add(ruling.where("overruled_by"), f"ruling '{ruling.id}' is overruled by unknown erratum "
                         f"'{ruling.overruled_by}'", nearest(ruling.overruled_by, errata) or "name an erratum of this game")
    reported: set[str] = set()
    for ruling in game.rulings:  # chains of successors end
        seen, current = [ruling.id], rulings.get(ruling.superseded_by or "")
        while current is not None and current.id not in seen:
            seen.append(current.id)
            current = rulings.get(current.superseded_by or "")
        if current is not None and current.id != ruling.id or current is None or set(seen) & reported:
            continue
        if len(seen) > 1:
            reported |= set(seen)
            problems.add(ruling.where("superseded_by"), "rulings supersede each other in a circle: "
                         + " → ".join(seen + [ruling.id]), "the latest ruling of a chain is superseded by none")


AID_SHOWABLE = ("rule", "table", "procedure", "kind")


def check_aids(game: Game, index: Index, problems: Problems) -> None:
    """content/<game>/aids.yaml: known aid kinds, once each; every entry shows a rules section,
    table, procedure or kind that exists; condensed wording keeps every number and every condition
    of its item (or points to the part that keeps the condition: rulesmith/condensed.py)."""
    known = {k.key: k for k in aidkinds.kinds()}
    seen: dict[str, model.AidPlan] = {}
    for plan in game.aids:
        kind = known.get(plan.aid)
        if kind is None or kind.plan == "none":
            planned = [k for k, v in known.items() if v.plan != "none"]
            problems.add(plan.where("aid"), f"no aid '{plan.aid}' takes a plan",
                         nearest(plan.aid, planned) or "aids with a plan: " + ", ".join(planned))
            continue
        if plan.aid in seen:
            problems.add(plan.where("aid"), f"aid '{plan.aid}' is planned twice",
                         "merge the two plans into one")
        seen[plan.aid] = plan
        for part in ("sequence", "setup", "body"):
            for entry in getattr(plan, part):
                kind_of = entry.show.partition(":")[0]
                unread = game.missing_because_unread(f"aid entry '{entry.show}'", entry.show) \
                    if kind_of in AID_SHOWABLE and entry.show not in index.targets else None
                if unread:
                    problems.add(entry.where("show"), *unread)
                    continue
                if kind_of not in AID_SHOWABLE or entry.show not in index.targets:
                    candidates = [k for k in index.targets if k.partition(":")[0] in AID_SHOWABLE]
                    problems.add(entry.where("show"), f"unknown aid entry '{entry.show}'",
                                 nearest(entry.show, candidates) or "write rule:<id>, table:<id>, procedure:<id> or kind:<id>")
                    continue
                for value in unfaithful_numbers(entry, index):
                    problems.add(entry._file.find_text(entry._path + ("condensed",), value) if entry._file
                                 else entry.where("condensed"),
                                 f"condensed text prints {value}, which {entry.show} does not",
                                 "condensed wording may drop words, never change a number: "
                                 "use the number the full item prints")
                for where, message, hint in condition_problems(entry, index, own_entries(plan) - {entry.show}):
                    problems.add(where, message, hint)


def own_entries(plan: model.AidPlan) -> frozenset:
    """Keys of everything an aid plan prints as an entry of its own."""
    return frozenset(entry.show for part in ("sequence", "setup", "body") for entry in getattr(plan, part))

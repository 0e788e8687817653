"""Stage 4, check: the consistency rules over a linked game.

Each rule reports every offending place at once, with file:line:column and a hint.
"""

from __future__ import annotations

import datetime
import itertools
import logging
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesmith.aids import kinds as aidkinds
from rulesmith.checks import tablerules
from rulesmith.checks.condensed import condition_problems, unfaithful_numbers
from rulesmith.checks.holds import check_holds
from rulesmith.checks.readings import check_bot_readings
from rulesmith.checks.source_map import check_source_map
from rulesmith.content import affects, model, turn
from rulesmith.content.items import all_items
from rulesmith.content.link import REFERENCE, Index, texts
from rulesmith.format import topics
from rulesmith.problems import Problems, Suggestions, nearest
from rulesmith.text import html as text_html
from rulesmith.text import markdown_config
from rulesmith.translations import catalog as catalogs
from rulesmith.translations.english import PLACEHOLDER, english
from rulesmith.values import addresses, fieldtypes, outcomes, ranges
from rulesmith.values import status as statuses
from rulesmith.values.expressions import plain
from rulesmith.values.fieldtypes import field_type

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rulesmith.content.game import Game

log = logging.getLogger(__name__)
RAW_HTML = re.compile(r"<[A-Za-z/!?]")


@dataclass(frozen=True)
class CheckInput:
    """What every check is given: the linked game, its index, where problems go, and today's date."""

    game: Game
    index: Index
    problems: Problems
    today: datetime.date


@dataclass(frozen=True)
class Check:
    """One named check of `rulesmith check`: what it proves, and how."""

    name: str
    proves: str
    run: Callable[[CheckInput], None]


def check_game(game: Game, index: Index, problems: Problems, today: datetime.date | None = None) -> None:
    """Every check of CHECKS over one game, in order; each adds its problems to `problems`."""
    given = CheckInput(game, index, problems, today or datetime.date.today())
    for check in CHECKS:
        before = len(problems)
        check.run(given)
        log.debug("check %s (%s): %s: %d problem(s)", check.name, check.proves, game.id, len(problems) - before)


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
        if not statuses.doubtful(gap.status):
            problems.add(gap.where(), f"gap '{gap.id}' has status verified",
                         "a gap is " + ", ".join(statuses.MARKED[:-1]) + " or " + statuses.MARKED[-1])


def check_declarations(game: Game, problems: Problems) -> None:
    """Kind fields and table columns: unique ids, `to:` naming a declared kind."""
    kinds = {k.id for k in game.kinds} | {"kind"}  # `to: kind` refers to the kinds themselves
    owners: list[tuple[model.Located, str, str, str, Sequence[model.FieldDef | model.Column]]] = [
        (k, "kind", k.id, "fields", k.fields) for k in game.kinds]
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
                         model.refused_message(match), PLAIN_TEXT_HINT)
    for text in texts(game):
        base = text.item._path + text.path
        for message, part, hint in markdown_problems(text.value):
            problems.add(text.item._file.find_text(base, part), message, hint)


def markdown_problems(value: str) -> list[tuple[str, str, str]]:
    """What is refused in one Markdown text, the content's or a translation's: (message, the part of
    the text to locate it by, hint)."""
    found = []
    for match in SHALLOW_NESTED_LIST.finditer(value):
        line = value[match.start():].split("\n", 1)[0]
        found.append((f"list item indented by {len(match.group(1))} space(s) would not nest", line.strip(),
                      "indent nested lists by 4 spaces (Markdown), or by 0 for a new list"))
    code = markdown_config.code_ranges(value) if "<" in value else []
    for match in RAW_HTML.finditer(value):
        if markdown_config.in_code(code, match.start()):
            continue  # in code, `<b>` is text, shown as written
        found.append(("raw HTML is not allowed in content text", value[match.start():].split("\n", 1)[0],
                      "write Markdown; for a literal '<' add a space after it"))
    return found + text_html.judge(value)


def check_value(value, spec, index: Index, where, problems: Problems, label: str, at=None) -> None:
    """Check one field or cell value against its declared type (field or column), as the type
    in the registry (fieldtypes) says.

    `at(i)`, when given, locates the i-th item of a list value (else `where` is used)."""
    if isinstance(value, dict):
        wrong = fieldtypes.wrapper_problem(value)
        if wrong:
            message, hint, readable = wrong
            problems.add(where, f"{label}: {message}", hint)
            if not readable:
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
        item_spec = spec.model_copy(update={"type": kind.item.name})  # each item: the declaration, of the item type
        for i, item in enumerate(value):
            check_value(item, item_spec, index, at(i) if at else where, problems, label)
        return
    if not kind.accepts(value):
        problems.add(where, f"{label} must be {'an' if kind.name[0] in 'aeiou' else 'a'} {kind.name}, got {value!r}",
                     kind.hint(value))
        return
    found_problem = kind.problem(value, spec)
    if found_problem:
        problems.add(where, f"{label}: {found_problem[0]}", found_problem[1])
    if kind.name == "ref" and f"kind:{spec.to}" in index.targets:  # else reported by check_declarations
        key = f"{spec.to}:{value}"
        if key not in index.targets and value not in index.invalid_ids:
            other = index.keys_of_id(value)
            problems.add(where, f"{label}: unknown {spec.to} '{value}'",
                         f"'{value}' is {', '.join(other)}, not a {spec.to}" if other
                         else index.guess_of_kind(spec.to, value) or f"no {spec.to} with that id")


def check_range_keys(table: model.Table, problems: Problems) -> None:
    """A column of range keys: no two ranges share a number (the gaps: the rule `contiguous`)."""
    for c, column in enumerate(table.columns):
        if column.type != "range":
            continue
        rows = [(r, plain(row[c])) for r, row in enumerate(table.rows) if c < len(row) and plain(row[c]) is not None]
        valid = [(r, key) for r, key in rows if ranges.is_range(key)]  # the others: check_value
        for position, message, hint in ranges.problems([key for _, key in valid]):
            problems.add(table.where("rows", valid[position][0], c), f"table '{table.id}': {message}", hint)


def check_entities(game: Game, index: Index, problems: Problems) -> None:
    kinds = {k.id: k for k in game.kinds}
    for entity in game.entities:
        kind = kinds.get(entity.kind) if entity.kind is not None else None
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


def check_tables(game: Game, index: Index, problems: Problems) -> None:
    tables = {t.id: t for t in game.tables}
    kinds = {k.id: k for k in game.kinds}
    for table in game.tables:
        columns = [c.id for c in table.columns]
        if len(set(columns)) != len(columns):
            problems.add(table.where("columns"), "duplicate column ids", "give every column its own id")
        keys: dict[object, int] = {}
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
        for found in tablerules.check(table, tables, kinds):
            problems.add(table.where(*found.path), found.message, found.hint)


def check_procedures(game: Game, problems: Problems) -> None:
    for procedure in game.procedures:
        nodes: dict[str, model.Node] = {}
        for node in procedure.nodes:
            if node.id in nodes:
                problems.add(node.where("id"), f"duplicate node id '{node.id}' in procedure '{procedure.id}'", "rename one")
            nodes.setdefault(node.id, node)
        shown: dict[str, model.Node] = {}
        for node, number in zip(procedure.nodes, procedure.numbers.values(), strict=True):
            other = shown.setdefault(number.lower(), node)
            if other is not node:
                mine, theirs = ("label" if node.label else "position"), ("label" if other.label else "position")
                problems.add(node.where("label") if node.label else other.where("label"),
                             f"two steps of procedure '{procedure.id}' would both read '{number}' "
                             f"(node '{other.id}' by its {theirs}, node '{node.id}' by its {mine})",
                             "give each step its own label, as the rulebook does; where one step has a "
                             "label, label every step of the procedure")
        if len(procedure.nodes) > model.MAX_PROCEDURE_NODES:
            problems.add(procedure.where("nodes", key=True), f"procedure '{procedure.id}' has {len(procedure.nodes)} "
                         f"nodes; a flowchart shows at most {model.MAX_PROCEDURE_NODES}",
                         "split it: move a part into a procedure of its own and run it from a step with "
                         "call: {procedure: <id>}")
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
                if len({label for label in labels if label}) != len([label for label in labels if label]):
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
        reverse: dict[str, list[str]] = {}
        for source, following in edges.items():
            for target in following:
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
    not (values/outcomes.py): the data as the rulebook printed it gives the printed result again."""
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
    place = addresses.of_erratum(target, field)
    if place.field is not None and isinstance(item, model.Entity):
        kind = game.kind(item.kind)
        spec = next((f for f in kind.fields if f.id == place.field), None) if kind else None
        if spec is None:
            hint = nearest(place.field, [f.id for f in kind.fields]) if kind else ""
            raise LookupError(f"kind '{item.kind}' has no field '{place.field}'" + (f" ({hint})" if hint else ""))
        return Slot(item, ("fields", place.field), spec.type, item.fields.get(place.field))
    if place.row is not None and isinstance(item, model.Table):
        columns = [c.id for c in item.columns]
        if place.column not in columns:
            hint = nearest(place.column or "", columns)
            raise LookupError(f"table '{item.id}' has no column '{place.column}'" + (f" ({hint})" if hint else ""))
        c = columns.index(place.column)
        for r, row in enumerate(item.rows):
            if row and str(plain(row[0])) == place.row and c < len(row):
                return Slot(item, ("rows", r, c), item.columns[c].type, row[c], key_column=c == 0)
        raise LookupError(f"table '{item.id}' has no row '{place.row}'")
    if place.step is not None and isinstance(item, model.Procedure):
        node = next((n for n in item.nodes if n.id == place.step), None)
        if node is None:
            raise LookupError(f"procedure '{item.id}' has no node '{place.step}'")
        return Slot(node, ("text",), "text", node.text)
    if place.attribute in _ATTRIBUTES and place.attribute in type(item).model_fields:
        return Slot(item, (place.attribute,), _ATTRIBUTES[place.attribute], getattr(item, place.attribute))
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
    seen: dict[str, model.Erratum] = {}
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
        for (earlier, _), (later, _) in itertools.pairwise(records):
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
                unread = key not in index.targets and game.missing_because_unread(f"{key} (what ruling '{ruling.id}' is about)", key)
                if unread:
                    problems.add(ruling.where("about", n), *unread)
                    continue
                prefix = key.partition(":")[0]  # a guess of the same kind only
                candidates = [k for k in index.targets if k.startswith(prefix + ":") and not k.startswith("ruling:")]
                problems.add(ruling.where("about", n), f"ruling '{ruling.id}' is about unknown {key}",
                             nearest(key, candidates) or "name an item as kind:id (rule:setup, table:<id> …)")
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
        if (current is not None and current.id != ruling.id) or current is None or set(seen) & reported:
            continue
        if len(seen) > 1:
            reported |= set(seen)
            problems.add(ruling.where("superseded_by"), "rulings supersede each other in a circle: "
                         + " → ".join(seen + [ruling.id]), "the latest ruling of a chain is superseded by none")


AID_SHOWABLE = ("rule", "table", "procedure", "kind")


def check_aids(game: Game, index: Index, problems: Problems) -> None:
    """content/<game>/aids.yaml: known aid kinds, once each; every entry shows a rules section,
    table, procedure or kind that exists; condensed wording keeps every number and every condition
    of its item (or points to the part that keeps the condition: rulesmith/checks/condensed.py)."""
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
        for part in ("covers", "sequence", "setup", "body"):
            if part in plan.model_fields_set and getattr(plan, part) and part not in kind.parts:
                problems.add(plan.where(part), f"the {kind.title.lower()} does not print `{part}`",
                             f"its plan may give {', '.join(f'`{p}`' for p in kind.parts)}; plan it on an aid "
                             f"that prints it, or leave it out; {topics.see('aids')}")
        for part in ("sequence", "setup", "body"):
            for entry in getattr(plan, part) if part in kind.parts else ():
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
                for option, message, hint in _options_that_print_nothing(entry, index):
                    problems.add(entry.where(option), message, f"{hint}; {topics.see('aids')}")
                for value in unfaithful_numbers(entry, index):
                    problems.add(entry._file.find_text(entry._path + ("condensed",), value) if entry._file
                                 else entry.where("condensed"),
                                 f"condensed text prints {value}, which {entry.show} does not",
                                 "condensed wording may drop words, never change a number: "
                                 "use the number the full item prints")
                for where, message, hint in condition_problems(entry, index, own_entries(plan) - {entry.show}):
                    problems.add(where, message, hint)


def _options_that_print_nothing(entry: model.AidEntry, index: Index) -> list[tuple[str, str, str]]:
    """The parts of an aid entry the aid would not print: (option, message, hint) of each."""
    given = entry.model_fields_set
    kind_of = entry.show.partition(":")[0]
    found = []
    if "subsections" in given:
        item = index.targets[entry.show].item
        why = (f"{entry.show} is not a rules section" if kind_of != "rule"
               else f"{entry.show} has no subsections" if not getattr(item, "sections", None)
               else "condensed wording stands for the whole section" if entry.condensed is not None else None)
        if why:
            found.append(("subsections", f"`subsections` changes nothing on the aid: {why}", "leave it out"))
    if entry.in_full and entry.condensed is None:
        found.append(("in_full", "`in_full` prints nothing: the entry prints its item in full",
                      "`in_full` goes with `condensed` wording; leave it out"))
    if kind_of == "procedure" and entry.condensed is None:
        found.append(("show", f"{entry.show} in full would print only its heading here: the solo aid "
                      "prints every procedure", "give `condensed` wording, or leave the entry out"))
    if kind_of == "kind" and entry.condensed is not None:
        found.append(("condensed", "`condensed` is not printed: a kind's list is printed card by card",
                      "leave it out"))
    return found


def check_translations(game: Game, problems: Problems, today: datetime.date) -> None:
    """Every catalog of the game (translations/<lang>.po) reads as PO, names texts that exist, and
    translates each as safely as the English: its references and placeholders kept, its Markdown
    judged as the content's, its plain text by the plain-text rule."""
    texts = None
    seen: dict[str, str] = {}  # language: the file of its catalog
    for path in catalogs.catalog_files(game.folder):
        language = catalogs.language_of(path)
        problem = catalogs.language_problem(language)
        if not problem and language in seen:
            problems.add(catalogs.where(path, 1), f"'{path.name}' is a second catalog of '{language}' (the first is "
                         f"'{seen[language]}')", "keep one catalog per language: merge them (`msgcat`) and remove one")
            continue
        seen[language] = path.name
        if problem or language == game.info.language:
            problems.add(catalogs.where(path, 1), f"'{path.name}' is not a catalog of another language: '{language}' "
                         + (problem or "is the content's own language"),
                         "name it for the language it translates into, e.g. translations/de.po or pt_BR.po")
            continue
        try:
            data = path.read_bytes()
            catalog = catalogs.read(path, data)
        except OSError as error:
            problems.add(catalogs.where(path, 1), f"cannot read the catalog: {error.strerror}", "check the file's permissions")
            continue
        except catalogs.CatalogProblem as found:
            problems.add(found.where, found.message, found.hint)
            continue
        texts = texts if texts is not None else english(game)
        _check_catalog(game, language, path, data.decode("utf-8"), catalog, texts, problems, today)


UPDATE_HINT = "run `rulesmith translate update {game} {language}`: it makes entries of texts that are gone obsolete (#~)"


def _check_catalog(game: Game, language: str, path, text: str, catalog, texts, problems: Problems,
                   today: datetime.date) -> None:
    header = catalog.metadata
    said = header.get("Language", "").strip()
    if said and catalogs.normal_language(said) != language:
        problems.add(catalogs.where(path, catalogs.header_line(text, "Language")),
                     f"the catalog says its language is '{said}', its name says '{language}'",
                     f"write `Language: {catalogs.gettext_language(language)}` in its header, or rename the file")
    by, day = header.get(catalogs.REVIEWED_BY, "").strip(), header.get(catalogs.REVIEW_DATE, "").strip()
    if by or day:
        date = catalogs.date_in(day)
        field = catalogs.REVIEW_DATE if by else catalogs.REVIEWED_BY
        if not by or date is None or date > today:
            at = catalogs.REVIEW_DATE if day else catalogs.REVIEWED_BY  # the date, when it is the date that is wrong
            problems.add(catalogs.where(path, catalogs.header_line(text, at)),
                         "a review needs who reviewed it and the day, not in the future" if by and day else
                         f"a review is recorded without `{field}`",
                         f"write `{catalogs.REVIEWED_BY}: <name>` and `{catalogs.REVIEW_DATE}: YYYY-MM-DD` (on or "
                         f"before {today}) in the catalog's header, or neither")
    try:
        rule = catalogs.plural_rule(catalog)
    except ValueError as wrong:
        rule = None
        problems.add(catalogs.where(path, catalogs.header_line(text, catalogs.PLURAL_FORMS)),
                     f"the catalog's Plural-Forms cannot be read: {wrong}", PLURAL_FORMS_HINT)
    seen: dict[str, int] = {}
    suggest = Suggestions(texts)  # once for the catalog: a catalog of unknown addresses is not a difflib pass each
    locator = catalogs.Locator(path, text)  # the file split into lines once, not once per problem
    for entry in catalog:
        if entry.obsolete:
            continue
        start = catalogs.entry_line(path, entry)
        address = entry.msgctxt
        if address is None or address not in texts:
            problems.add(start, "an entry without a context names no text" if address is None
                         else f"'{address}' names no text of game '{game.id}'",
                         suggest.hint(address) or UPDATE_HINT.format(game=game.id, language=language))
            continue
        if address in seen:
            problems.add(start, f"'{address}' is translated twice (first at line {seen[address]})",
                         "keep one entry per text")
            continue
        seen[address] = start[1]
        # Held to the English it was translated from (a fuzzy entry's previous English): the status
        # says when that is no longer the current English.
        source = entry.previous_msgid if entry.fuzzy and entry.previous_msgid else entry.msgid
        if entry.msgid_plural:
            forms = _plural_problems(entry, rule, catalogs.header_line(text, catalogs.PLURAL_FORMS) > 1, start,
                                     problems)
        else:
            forms = [entry.msgstr] if entry.msgstr else []
        for form in forms:
            for message, part, hint in translation_problems(source, form, texts[address].markdown):
                # a plural form's problem without a part of its own: at the form, not at msgstr[0]
                problems.add(locator.locate(entry, part or (form.split("\n", 1)[0][:40] if entry.msgid_plural else "")),
                             message, hint)


PLURAL_FORMS_HINT = ("write the language's rule in the header as msginit does, e.g. `Plural-Forms: nplurals=2; "
                     "plural=(n != 1);` (German, Spanish) or `nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
                     "(n%100<10 || n%100>=20) ? 1 : 2);` (Polish)")


def _plural_problems(entry, rule: tuple[int, str] | None, header_said: bool, start,
                     problems: Problems) -> list[str]:
    """A plural entry: only for a text that says a count ({value}), its msgid_plural the English,
    as many forms as the catalog's Plural-Forms says, all or none translated. The forms to check
    as translations (none when the entry itself is refused)."""
    if not PLACEHOLDER.search(entry.msgid):
        problems.add(start, "a plural entry for a text that says no count: only a text with a number filled in "
                     "({value}) has plural forms", "translate it with msgstr alone")
        return []
    if entry.msgid_plural != entry.msgid:
        problems.add(start, "a plural entry's msgid_plural is not its English", "write the msgid again as its "
                     "msgid_plural: the content has one English text for every count")
        return []
    forms = catalogs.forms_of(entry)
    if rule is None:
        if not header_said:
            problems.add(start, "a plural entry in a catalog without Plural-Forms", PLURAL_FORMS_HINT)
        return []
    if len(forms) != rule[0]:
        problems.add(start, f"the entry has {len(forms)} plural form(s), the catalog's Plural-Forms says {rule[0]}",
                     f"write msgstr[0] to msgstr[{rule[0] - 1}], one per form of the language's rule")
        return []
    if any(forms) and not all(forms):
        empty = [str(n) for n, form in enumerate(forms) if not form]
        problems.add(start, f"plural form(s) {', '.join(empty)} of the entry are empty",
                     "translate every form, or none (an untranslated entry shows the English)")
        return []
    return [form for form in forms if form]


def translation_problems(english_text: str, translated: str, markdown: bool) -> list[tuple[str, str, str]]:
    """What is refused in one translation of a text: (message, the part to locate it by, hint)."""
    found = []
    wanted, given = _references(english_text), _references(translated)
    for target in sorted(wanted - given):
        found.append((f"the translation leaves out the reference [[{target}]]", "",
                      "keep every [[kind:id]] of the English as written (its label after | may be translated)"))
    for target in sorted(given - wanted):
        found.append((f"the translation has the reference [[{target}]], which the English does not", f"[[{target}",
                      "keep the references of the English, no others"))
    spans = [m.span() for m in REFERENCE.finditer(translated)]
    for stray in re.finditer(r"\[\[", translated):
        if not any(start <= stray.start() < end for start, end in spans):
            found.append(("unclosed reference '[['", translated[stray.start():].split("\n", 1)[0],
                          "close it with ]]: [[kind:id]]"))
    for name in sorted(set(PLACEHOLDER.findall(english_text)) ^ set(PLACEHOLDER.findall(translated))):
        found.append((f"the translation {'leaves out' if name in english_text else 'adds'} the placeholder {name}",
                      name if name in translated else "", "keep every {name} of the English as written, no others"))
    found += _number_problems(english_text, translated)
    if markdown:
        found += markdown_problems(translated)
    else:
        match = model.refused_plain_text(translated)
        if match:
            found.append((model.refused_message(match), match.group(0), PLAIN_TEXT_HINT))
    return found


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NUMBER_HINT = ("keep every number of the English, written in digits as the English writes it (\"3 cards\": \"3 "
               "cartas\"); when the English changed, translate the current English")


def _numbers(text: str) -> list[str]:
    """The numbers a text says, in order (a reference's target is not text: its label is), each as
    digits with '.' for a decimal or group mark (2,5 and 2.5 are one number)."""
    said = REFERENCE.sub(lambda m: m.group(2) or "", text)
    return [m.group(0).replace(",", ".") for m in NUMBER.finditer(said)]


def _number_problems(english_text: str, translated: str) -> list[tuple[str, str, str]]:
    """A translation that says other numbers than its English: "2 cartas" for "3 cards"."""
    wanted, given = Counter(_numbers(english_text)), Counter(_numbers(translated))
    lost, added = sorted((wanted - given).elements()), sorted((given - wanted).elements())
    if not lost and not added:
        return []
    written = {m.group(0).replace(",", "."): m.group(0) for m in NUMBER.finditer(translated)}
    if lost and added:
        return [(f"the translation says {', '.join(added)} where the English says {', '.join(lost)}",
                 written.get(added[0], ""), NUMBER_HINT)]
    if lost:
        return [(f"the translation leaves out the number {', '.join(lost)} of the English", "", NUMBER_HINT)]
    return [(f"the translation has the number {', '.join(added)}, which the English does not", written.get(added[0], ""),
             NUMBER_HINT)]


def _references(text: str) -> set[str]:
    return {m.group(1) for m in REFERENCE.finditer(text)}


def own_entries(plan: model.AidPlan) -> frozenset:
    """Keys of everything an aid plan prints as an entry of its own."""
    return frozenset(entry.show for part in ("sequence", "setup", "body") for entry in getattr(plan, part))


# The checks `rulesmith check` runs, in order: a new check is one entry.
CHECKS: tuple[Check, ...] = (
    Check("modules", "every module and source an item names is declared", lambda c: check_modules_and_sources(c.game, c.problems)),
    Check("declarations", "kind fields and table columns have their own ids and name declared kinds",
          lambda c: check_declarations(c.game, c.problems)),
    Check("texts", "content text carries no raw HTML, no markup in plain text and only https links", lambda c: check_texts(c.game, c.problems)),
    Check("entities", "every field is declared and of its type; required fields are there; kind counts hold",
          lambda c: check_entities(c.game, c.index, c.problems)),
    Check("tables", "rows are as wide as the columns, keys unique, cells of their types, the table rules hold",
          lambda c: check_tables(c.game, c.index, c.problems)),
    Check("procedures", "every procedure is a graph whose nodes are reached and reach an end",
          lambda c: check_procedures(c.game, c.problems)),
    Check("bot", "the bot's turn and state name procedures, tables and values that exist",
          lambda c: turn.check_bot(c.game, c.problems)),
    Check("bot-readings", "every part of the bot's turn names its source or is marked as our reading, in an order "
          "the source map does not contradict", lambda c: check_bot_readings(c.game, c.problems)),
    Check("examples", "every worked example recomputes to its printed result, or an erratum explains why not",
          lambda c: check_examples(c.game, c.index, c.problems)),
    Check("errata", "every erratum names a value, the data equals its latest record, records chain",
          lambda c: check_errata(c.game, c.index, c.problems, c.today)),
    Check("rulings", "every ruling is about existing items, dated, with successors that exist",
          lambda c: check_rulings(c.game, c.index, c.problems, c.today)),
    Check("source-map", "with the rulebook texts found, every line of them is mapped to the items that carry it (else a warning)",
          lambda c: check_source_map(c.game, c.index, c.problems)),
    Check("aids", "the aid plans show items that exist, and condensed wording keeps numbers and conditions",
          lambda c: check_aids(c.game, c.index, c.problems)),
    Check("holds", "an aid that holds a module prints every section of it or says why not; a game with a bot has "
          "a solo aid that holds its solo rules", lambda c: check_holds(c.game, c.problems)),
    Check("gap-markers", "every gap's `affects` names places that exist", lambda c: affects.check(c.game, c.index, c.problems)),
    Check("translations", "every translation catalog reads, names texts that exist and keeps their references, "
          "placeholders and safe Markdown", lambda c: check_translations(c.game, c.problems, c.today)),
)

"""`rulesmith diff <revision>`: what changed in the content, entity by entity (issue: errata).

The content tree at the revision is taken from git (`git archive`) into a temporary folder and
both trees are loaded by the pipeline (checked when they check clean, else only loaded, so an
old revision with problems can still be compared). Every item of the item registry
(content/items.py: its kinds and labels) is flattened to `path → value` and compared: added,
removed, renamed (same id, new name) and every changed value, old → new, grouped by game; the
records of the changelog (errata, rulings) are compared record by record, and each translation
catalog text by text (translations/freshness.compare: added, changed, made outdated …).
"""

from __future__ import annotations

import difflib
import io
import json
import logging
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulesmith.content.game import Game, load_games
from rulesmith.content.items import ENTITY, GAME, ITEM_TYPES, PROCEDURE, TABLE, all_items, label_of, name_of
from rulesmith.pipeline import check_content
from rulesmith.problems import RESULTS, ContentError, Problems, RulesmithError, printable
from rulesmith.text.escape import markdown_inline as escape_inline
from rulesmith.translations import freshness
from rulesmith.values import fieldtypes
from rulesmith.values.expressions import plain

if TYPE_CHECKING:
    from rulesmith.content import model
    from rulesmith.content.items import KeyType

log = logging.getLogger(__name__)

NAME_FIELDS = tuple(sorted({t.name_field for t in ITEM_TYPES if not t.is_record}))  # what "renamed" means for each type of item


class DiffError(RulesmithError):
    def lines(self) -> list[str]:
        return [f"error: {self}"]


@dataclass
class Item:
    key_type: KeyType  # of the item registry: its key's type (the game's own is GAME)
    key: str  # kind:id
    label: str  # "Country card", "Table" …
    name: str
    values: dict[str, object]  # flattened: "fields.ct" → 3, "rows.4+.extra" → 1 …
    titles: dict[str, str] = field(default_factory=dict)  # path → reader-facing label
    rows: dict[str, list] = field(default_factory=dict)  # tables: row key → the row's cells


@dataclass
class Snapshot:
    """One game as loaded at one revision."""

    id: str
    name: str
    items: dict[str, Item]
    errata: dict[str, model.Erratum]
    rulings: dict[str, model.Ruling] = field(default_factory=dict)
    translations: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)  # freshness.states


@dataclass
class Change:
    path: str
    title: str
    old: object  # None: not there
    new: object


@dataclass
class ItemDiff:
    status: str  # added | removed | renamed | changed
    key: str
    label: str
    name: str
    old_name: str = ""
    changes: list[Change] = field(default_factory=list)


@dataclass
class GameDiff:
    id: str
    name: str
    status: str  # added | removed | changed
    items: list[ItemDiff] = field(default_factory=list)
    errata_added: list[model.Erratum] = field(default_factory=list)
    errata_removed: list[model.Erratum] = field(default_factory=list)
    rulings_added: list[model.Ruling] = field(default_factory=list)
    rulings_changed: list[tuple[model.Ruling, list[str]]] = field(default_factory=list)  # and what changed
    rulings_superseded: list[model.Ruling] = field(default_factory=list)  # newly superseded or overruled
    rulings_removed: list[model.Ruling] = field(default_factory=list)
    translations: list[freshness.Change] = field(default_factory=list)
    languages_added: dict[str, int] = field(default_factory=dict)  # a new catalog: how many texts it translates
    languages_removed: list[str] = field(default_factory=list)

    @property
    def has_translations(self) -> bool:
        return bool(self.translations or self.languages_added or self.languages_removed)

    @property
    def has_rulings(self) -> bool:
        return bool(self.rulings_added or self.rulings_changed or self.rulings_superseded or self.rulings_removed)

    def of(self, status: str) -> list[ItemDiff]:
        return [i for i in self.items if i.status == status]


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    parser.add_argument("revision", help="git revision to compare the working tree's content with "
                                         "(HEAD, HEAD~3, a tag such as v1.0, a commit id …)")
    parser.add_argument("--format", choices=("text", "markdown"), default="text",
                        help="text (default), or markdown ready for a release note")
    parser.set_defaults(run=cmd_diff)


def cmd_diff(args) -> int:
    content = Path(args.content)
    diffs, notes = diff_revision(content, args.revision)
    for note in notes:
        log.info("%s", printable(f"note: {note}"))
    # The terminal acts on control characters: any a value holds is shown as \u…, in either format.
    RESULTS.info("%s", printable(format_markdown(diffs, args.revision) if args.format == "markdown"
                                 else format_text(diffs, args.revision)))
    return 0


# ---------------------------------------------------------------- reading both trees

def _git(cwd: Path, *args: str, binary: bool = False):
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise DiffError("git is not installed") from None
    if done.returncode != 0:
        raise DiffError(done.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return done.stdout if binary else done.stdout.decode("utf-8").strip()


def extract_revision(content: Path, revision: str, into: Path) -> Path:
    """The content folder as it was at `revision`, written under `into`; returns its path there."""
    content = content.resolve()
    if not content.is_dir():
        raise DiffError(f"content folder {content} not found")
    top = Path(_git(content, "rev-parse", "--show-toplevel")).resolve()
    prefix = content.relative_to(top).as_posix()
    try:
        _git(content, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except DiffError:
        raise DiffError(f"unknown git revision '{revision}'") from None
    target = into / (prefix if prefix != "." else "")
    target.mkdir(parents=True, exist_ok=True)
    if prefix != "." and not _git(top, "ls-tree", "-d", revision, "--", prefix):
        return target  # no content folder at that revision: everything is new
    data = _git(top, "archive", "--format=tar", revision, "--", prefix, binary=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(into, filter="data")
    return target


def load_snapshots(content: Path) -> tuple[dict[str, Snapshot], int]:
    """Every game of a content folder, and how many problems the check found (0: checks clean)."""
    if not content.is_dir() or not any(content.iterdir()):
        return {}, 0
    try:
        games, count = [c.game for c in check_content(content)], 0
    except ContentError as error:
        games, count = load_games(content, Problems()), len(error.problems)
    return {g.id: snapshot(g) for g in games}, count


def diff_revision(content: Path, revision: str) -> tuple[list[GameDiff], list[str]]:
    """Differences from `revision` to the working tree, and notes on content that does not check."""
    notes = []
    with tempfile.TemporaryDirectory(prefix="rulesmith-diff-") as tmp:
        old_dir = extract_revision(content, revision, Path(tmp))
        old, old_problems = load_snapshots(old_dir)
    new, new_problems = load_snapshots(content)
    for where, count in ((revision, old_problems), ("the working tree", new_problems)):
        if count:
            notes.append(f"the content in {where} has {count} problem(s) (`rulesmith check`); it is compared "
                         "as loaded, and files that do not load count as removed")
    return diff_snapshots(old, new), notes


# ---------------------------------------------------------------- flattening

def snapshot(game: Game) -> Snapshot:
    """Every item of a game flattened to field paths, labelled as readers know it."""
    items: dict[str, Item] = {}

    def add(key_type: KeyType, key: str, label: str, name: str, values: dict, titles: dict | None = None,
            rows=None) -> None:
        items[key] = Item(key_type, key, label, name, values, titles or {}, rows or {})

    add(GAME, f"{GAME.prefix}:{game.id}", GAME.label, game.info.name, flatten(game.info.model_dump(by_alias=True)))
    for item_type, key, item in all_items(game):
        if item_type.is_record:
            continue  # errata and rulings are the changelog itself, compared record by record
        values = flatten(item.model_dump(by_alias=True, exclude=set(item_type.compared_apart) or None))
        titles: dict[str, str] = {}
        rows: dict[str, dict] = {}
        if item_type is ENTITY:
            kind = game.kind(item.kind) if item.kind else None
            titles = {f"fields.{spec.id}": spec.name for spec in (kind.fields if kind else [])}
        elif item_type is TABLE:
            titles, rows = _table_cells(item, values)
        elif item_type is PROCEDURE:  # readers know steps by number, as in the flowchart
            titles = {f"nodes.{n.id}.text": f"step {number}" for number, n in enumerate(item.nodes, start=1)}
        add(item_type, key, label_of(game, item_type, item), name_of(item_type, item), values, titles, rows)
    return Snapshot(game.id, game.info.name, items, {e.id: e for e in game.errata}, {r.id: r for r in game.rulings},
                    freshness.states(game))


def _table_cells(table, values: dict) -> tuple[dict, dict]:
    """Each cell as rows.<key>.<column> in `values`; returns their titles and the rows by key."""
    titles, rows = {}, {}
    ids = [c.id for c in table.columns]
    for row in table.rows:
        if not row:
            continue
        key = str(plain(row[0]))
        rows[key] = row
        for column, value in zip(ids[1:], row[1:], strict=False):
            _leaf(values, f"rows.{key}.{column}", value)
            titles[f"rows.{key}.{column}"] = f"row {key}, " + next(c.title for c in table.columns if c.id == column)
        if len(row) == 1:  # a one-column table: the key is all there is
            values[f"rows.{key}"] = True
    return titles, rows


def _status_wrapped(value) -> bool:
    return fieldtypes.Value.of(value).wrapped


def _leaf(out: dict, path: str, value) -> None:
    if value is None or value == "" or value == [] or value == {}:
        return  # absent and empty are the same to a reader
    out[path] = value


def flatten(value, path: str = "", out: dict | None = None) -> dict:
    """A model dump as `dotted.path → value`; lists of items with ids are keyed by id."""
    out = {} if out is None else out
    if isinstance(value, dict) and not _status_wrapped(value):
        for key, item in value.items():
            if key == "id" and path == "":
                continue
            flatten(item, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) and "id" in v for v in value):
        for item in value:
            flatten({k: v for k, v in item.items() if k != "id"} or {"present": True}, f"{path}.{item['id']}", out)
    else:
        _leaf(out, path, value)
    return out


def _same(a, b) -> bool:
    def norm(v):
        if isinstance(v, str):
            return v.rstrip()
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(a), sort_keys=True, default=str) == json.dumps(norm(b), sort_keys=True, default=str)


# ---------------------------------------------------------------- comparing

def diff_snapshots(old: dict[str, Snapshot], new: dict[str, Snapshot]) -> list[GameDiff]:
    result = []
    for game_id in list(new) + [g for g in old if g not in new]:
        before, after = old.get(game_id), new.get(game_id)
        if before is None or after is None:
            status = "added" if before is None else "removed"
            shown = after if after is not None else before
            if shown is None:
                continue  # a game id of neither: not reached (the ids come from the two dicts)
            diff = GameDiff(game_id, shown.name, status)
            items = shown.items.values()
            diff.items = [ItemDiff(status, i.key, i.label, i.name) for i in items if i.key_type is not GAME]
            if after is not None:
                diff.errata_added = list(after.errata.values())
                diff.rulings_added = list(after.rulings.values())
                _diff_translations(diff, {}, after.translations)
            result.append(diff)
            continue
        diff = GameDiff(game_id, after.name, "changed")
        for key in list(after.items) + [k for k in before.items if k not in after.items]:
            a, b = before.items.get(key), after.items.get(key)
            if a is None and b is not None:
                diff.items.append(ItemDiff("added", key, b.label, b.name))
            elif b is None and a is not None:
                diff.items.append(ItemDiff("removed", key, a.label, a.name))
            elif a is None or b is None:
                continue  # a key of neither: not reached (the keys come from the two snapshots)
            else:
                changes = compare_values(a, b)
                renamed = any(c.path in NAME_FIELDS for c in changes)
                if renamed:
                    changes = [c for c in changes if c.path not in NAME_FIELDS]
                if renamed or changes:
                    diff.items.append(ItemDiff("renamed" if renamed else "changed", key, b.label, b.name,
                                               a.name if renamed else "", changes))
        diff.errata_added = [e for i, e in after.errata.items() if i not in before.errata]
        diff.errata_removed = [e for i, e in before.errata.items() if i not in after.errata]
        _diff_rulings(diff, before.rulings, after.rulings)
        _diff_translations(diff, before.translations, after.translations)
        if diff.items or diff.errata_added or diff.errata_removed or diff.has_rulings or diff.has_translations:
            result.append(diff)
    return result


RULING_PARTS = {"question": "question", "answer": "answer", "about": "items", "date": "date", "source": "source"}


def _diff_rulings(diff: GameDiff, before: dict, after: dict) -> None:
    """Rulings added, removed, changed (question, answer, items, date, source) and superseded
    (newly superseded by a ruling or overruled by an erratum)."""
    for ruling_id, ruling in after.items():
        old = before.get(ruling_id)
        if old is None:
            diff.rulings_added.append(ruling)
            continue
        changed = [label for name, label in RULING_PARTS.items()
                   if not _same(old.model_dump(mode="json")[name], ruling.model_dump(mode="json")[name])]
        if changed:
            diff.rulings_changed.append((ruling, changed))
        if ruling.status != "current" and (ruling.superseded_by, ruling.overruled_by) != (old.superseded_by, old.overruled_by):
            diff.rulings_superseded.append(ruling)
    diff.rulings_removed = [r for i, r in before.items() if i not in after]


def _diff_translations(diff: GameDiff, before: dict, after: dict) -> None:
    """A new catalog is said in one line (how many texts it translates); the others text by text."""
    diff.languages_added = {lang: len(texts) for lang, texts in after.items() if lang not in before}
    diff.languages_removed = [lang for lang in before if lang not in after]
    diff.translations = freshness.compare({lang: texts for lang, texts in before.items() if lang in after},
                                          {lang: texts for lang, texts in after.items() if lang in before})


def _ruling_status(ruling: model.Ruling) -> str:
    if ruling.superseded_by:
        return f"superseded by {ruling.superseded_by}"
    return f"overruled by erratum {ruling.overruled_by}" if ruling.overruled_by else "current"


def compare_values(a: Item, b: Item) -> list[Change]:
    changes, whole_rows = [], set()
    for key in list(b.rows) + [k for k in a.rows if k not in b.rows]:
        if (key in a.rows) != (key in b.rows):  # a row added or removed: one change, not one per cell
            changes.append(Change(f"rows.{key}", f"row {key}", a.rows.get(key), b.rows.get(key)))
            whole_rows.add(f"rows.{key}.")
    for path in list(b.values) + [p for p in a.values if p not in b.values]:
        if any(path.startswith(prefix) or path + "." == prefix for prefix in whole_rows):
            continue
        old, new = a.values.get(path), b.values.get(path)
        if not _same(old, new):
            changes.append(Change(path, b.titles.get(path) or a.titles.get(path) or path, old, new))
    return changes


# ---------------------------------------------------------------- showing

def show(value, limit: int = 100) -> str:
    """A value on one line: text quoted, status-wrapped values with their status, the rest as
    readers see it (fieldtypes.shown)."""
    if value is None:
        return "—"
    typed = fieldtypes.Value.of(value)
    if typed.wrapped:
        inner = "" if typed.missing else show(typed.value, limit) + " "
        return f"{inner}[{typed.status}" + (f": {show(typed.note, 40)}" if typed.note else "") + "]"
    if isinstance(value, (bool, int, float)):
        return fieldtypes.shown(value)  # as readers see it: Yes, 2 (not 2.0)
    if isinstance(value, str):
        text = " ".join(value.split())
        text = text if len(text) <= limit else text[:limit - 1] + "…"
        return f'"{text}"'
    if isinstance(value, list):
        return "[" + ", ".join(show(v, 40) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v, 40)}" for k, v in value.items()) + "}"
    return str(value)


def text_delta(old: str, new: str, context: int = 6) -> list[tuple[str, str]]:
    """The words that changed between two texts, with a little context: [(op, words)], op in
    ' ' (same), '-' (removed), '+' (added), '…' (skipped)."""
    a, b = old.split(), new.split()
    parts: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            same = a[i1:i2]
            first, last = not parts, i2 == len(a)
            if len(same) > 2 * context or (first and len(same) > context) or (last and len(same) > context):
                head = [] if first else same[:context]
                tail = [] if last else same[-context:]
                if head:
                    parts.append((" ", " ".join(head)))
                parts.append(("…", ""))
                if tail:
                    parts.append((" ", " ".join(tail)))
            else:
                parts.append((" ", " ".join(same)))
        else:
            if i2 > i1:
                parts.append(("-", " ".join(a[i1:i2])))
            if j2 > j1:
                parts.append(("+", " ".join(b[j1:j2])))
    return parts


def _long_texts(change: Change) -> tuple[str, str] | None:
    """(old, new) when a change is of a long or multi-line text (shown word by word), else None."""
    old, new = change.old, change.new
    if isinstance(old, str) and isinstance(new, str) and \
            (len(old) > 60 or len(new) > 60 or "\n" in old.strip() or "\n" in new.strip()):
        return old, new
    return None


def _change_text(change: Change) -> str:
    texts = _long_texts(change)
    if texts is not None:
        marks = {" ": "{}", "-": "[-{}-]", "+": "{{+{}+}}", "…": "…"}
        return " ".join(marks[op].format(words) for op, words in text_delta(*texts))
    return f"{show(change.old)} → {show(change.new)}"


def format_text(diffs: list[GameDiff], revision: str) -> str:
    if not diffs:
        return f"No content changes since {revision}.\n"
    lines = [f"Content changes since {revision}:"]
    for diff in diffs:
        lines.append("")
        lines.append(f"{diff.id} ({diff.name}){'' if diff.status == 'changed' else ': game ' + diff.status}")
        for status in ("added", "removed", "renamed", "changed"):
            items = diff.of(status)
            if not items:
                continue
            lines.append(f"  {status}:")
            for item in items:
                name = f"{show(item.old_name)} → {show(item.name)}" if status == "renamed" else show(item.name)
                lines.append(f"    {item.key} ({item.label}) {name}")
                for change in item.changes:
                    lines.append(f"      {change.path}: {_change_text(change)}")
        for title, errata in (("errata recorded", diff.errata_added), ("errata removed", diff.errata_removed)):
            if errata:
                lines.append(f"  {title}:")
                for e in errata:
                    lines.append(f"    {e.id} ({e.date}) {e.target} {e.field}: {show(e.old, 40)} → {show(e.new, 40)}")
        for title, found in (("rulings added", diff.rulings_added), ("rulings superseded", diff.rulings_superseded),
                             ("rulings removed", diff.rulings_removed)):
            if found:
                lines.append(f"  {title}:")
                for r in found:
                    lines.append(f"    {r.id} ({r.date}, {_ruling_status(r)}) on {', '.join(r.about)}: {show(r.question, 60)}")
        if diff.rulings_changed:
            lines.append("  rulings changed:")
            for r, parts in diff.rulings_changed:
                lines.append(f"    {r.id} ({r.date}) on {', '.join(r.about)}: {', '.join(parts)} changed")
        if diff.has_translations:
            lines.append("  translations:")
            for language, count in diff.languages_added.items():
                lines.append(f"    {language}: new catalog, {count} text(s) translated")
            for language in diff.languages_removed:
                lines.append(f"    {language}: catalog removed")
            for moved in diff.translations:
                lines.append(f"    {moved.language} {moved.what}: {moved.address}{_translation_text(moved)}")
    return "\n".join(lines) + "\n"


def _translation_text(change: freshness.Change) -> str:
    if change.what == "added":
        return f": {show(change.new, 60)}"
    if change.what == "changed" or (change.old != change.new and change.old and change.new):
        return f": {show(change.old, 40)} → {show(change.new, 40)}"
    return ""


def _md(value) -> str:
    """Any value in a release note: the site's Markdown escaping (every character Markdown or HTML
    could read as syntax as a character reference), so a name, a note or an id is text there."""
    return escape_inline(value)


def _code(value) -> str:
    """An id or revision in a release note, in monospace: escaped as any value (a Markdown code
    span would show character references as they are written)."""
    return f"<code>{escape_inline(value)}</code>"


def _md_value(value) -> str:
    return _md(show(value))


def _md_change(change: Change) -> str:
    texts = _long_texts(change)
    if texts is not None:
        marks = {" ": "{}", "-": "~~{}~~", "+": "**{}**", "…": "…"}
        return " ".join(marks[op].format(_md(words)) if words else marks[op]
                        for op, words in text_delta(*texts))
    if change.old is None:
        return f"added: {_md_value(change.new)}"
    if change.new is None:
        return f"removed (was {_md_value(change.old)})"
    return f"{_md_value(change.old)} → **{_md_value(change.new)}**"


def format_markdown(diffs: list[GameDiff], revision: str) -> str:
    if not diffs:
        return f"No content changes since {_code(revision)}.\n"
    out = [f"# Content changes since {_code(revision)}", ""]
    for diff in diffs:
        out += [f"## {_md(diff.name)}" + ("" if diff.status == "changed" else " (new game)" if diff.status == "added"
                                          else " (game removed)"), ""]
        sections = (("Added", "added"), ("Removed", "removed"), ("Renamed", "renamed"), ("Changed", "changed"))
        for title, status in sections:
            items = diff.of(status)
            if not items:
                continue
            out += [f"### {title}", ""]
            for item in items:
                if status == "renamed":
                    out.append(f"- {_md(item.label)} {_code(item.key)}: {_md(item.old_name)} → **{_md(item.name)}**")
                else:
                    out.append(f"- {_md(item.label)} **{_md(item.name)}** ({_code(item.key)})")
                for change in item.changes:
                    out.append(f"    - {_md(change.title)}: {_md_change(change)}")
            out.append("")
        if diff.errata_added or diff.errata_removed:
            out += ["### Errata", ""]
            for e in diff.errata_added:
                out.append(f"- {_md(e.id)} ({_md(e.date)}), {_code(e.target)} {_md(e.field)}: {_md_value(e.old)} → "
                           f"**{_md_value(e.new)}**" + (f". {_md(' '.join(e.note.split()))}" if e.note else ""))
            for e in diff.errata_removed:
                out.append(f"- removed: {_md(e.id)} ({_md(e.date)}), {_code(e.target)} {_md(e.field)}")
            out.append("")
        if diff.has_rulings:
            out += ["### Rulings", ""]
            for r in diff.rulings_added:
                out.append(f"- new: {_md(r.id)} ({_md(r.date)}, {_md(_ruling_status(r))}) on "
                           + ", ".join(_code(k) for k in r.about) + f": {_md(show(r.question, 80))}")
            for r in diff.rulings_superseded:
                out.append(f"- {_md(r.id)} ({_md(r.date)}) is now {_md(_ruling_status(r))}")
            for r, parts in diff.rulings_changed:
                out.append(f"- {_md(r.id)} ({_md(r.date)}): {_md(', '.join(parts))} changed")
            for r in diff.rulings_removed:
                out.append(f"- removed: {_md(r.id)} ({_md(r.date)})")
            out.append("")
        if diff.has_translations:
            out += ["### Translations", ""]
            for language, count in diff.languages_added.items():
                out.append(f"- {_md(language)}: new translation, {count} text(s) translated")
            for language in diff.languages_removed:
                out.append(f"- {_md(language)}: translation removed")
            for moved in diff.translations:
                out.append(f"- {_md(moved.language)}, {_md(moved.what)}: {_code(moved.address)}"
                           + _md(_translation_text(moved)))
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"

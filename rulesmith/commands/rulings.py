"""`rulesmith ruling add`: record a ruling or FAQ answer about some items (issue: rulings).

As `errata add` does, it writes in place: the record is appended to `content/<game>/rulings.yaml`
(created if missing) and, with `--supersedes r3`, `superseded_by: <new id>` is set on r3 where
it is written; comments and formatting stay as they were. The game is checked with the new
files before they replace the old ones (errata.write_checked); if the check or the writing fails,
no file is changed: a ruling is recorded whole or not at all.
"""

from __future__ import annotations

import datetime
import os
import re
import typing
from dataclasses import dataclass
from pathlib import Path

from rulesmith.commands.errata import (
    ErrataError,
    RefusingParser,
    add_source_arguments,
    check_one_game,
    game_folder,
    parse_date,
    resolve_target,
    write_checked,
)
from rulesmith.content import model
from rulesmith.content.load import display_path
from rulesmith.content.model import RulingSource
from rulesmith.content.yamledit import append_record, set_key
from rulesmith.problems import RESULTS, nearest
from rulesmith.values import ids

SOURCE_KINDS = typing.get_args(RulingSource.model_fields["kind"].annotation)


class RulingError(ErrataError):
    """The ruling cannot be recorded; nothing was changed."""

    command = "rulesmith ruling add --help"


@dataclass
class Recorded:
    ruling_id: str
    date: datetime.date
    about: list[str]
    file: Path
    line: int
    created: bool
    superseded: tuple[str, Path, int] | None  # (id, file, line) of the ruling it supersedes


def configure(parser) -> None:
    sub = parser.add_subparsers(dest="ruling_command", required=True, metavar="add", parser_class=RefusingParser)
    add = sub.add_parser(
        "add", help="record a ruling or FAQ answer about one or more items",
        description="Append a ruling to content/<game>/rulings.yaml (comments and formatting kept); "
                    "with --supersedes, mark the earlier ruling as superseded by it. The game is checked "
                    "with it first, and no file is changed if the check fails.")
    add.add_argument("game", help="game id (its folder under content/)")
    add.add_argument("items", nargs="+", metavar="item",
                     help="what the ruling is about: kind:id (card:interpol, rule:setup, table:conflict-dice …) "
                          "or a bare id when it is unique in the game; several may be given")
    add.add_argument("--question", required=True, help="the question as asked (Markdown, [[kind:id]] references)")
    add.add_argument("--answer", required=True, help="the answer as given (Markdown, [[kind:id]] references)")
    add_source_arguments(add, record="ruling", kinds=SOURCE_KINDS, url_required=True,
                         description_example='"Publisher FAQ v2, question 4"')
    add.add_argument("--supersedes", help="id of an earlier ruling this one replaces")
    add.add_argument("--id", dest="ruling_id", help="ruling id (default: the next r1, r2 …)")
    add.set_defaults(run=cmd_add)


def cmd_add(args) -> int:
    recorded = add_ruling(Path(args.content), args.game, args.items, question=args.question, answer=args.answer,
                          source_kind=args.source_kind, description=args.description, url=args.url,
                          date=parse_date(args.date, RulingError), supersedes=args.supersedes,
                          ruling_id=args.ruling_id)
    RESULTS.info(f"{recorded.file}:{recorded.line}: {'created the file and ' if recorded.created else ''}recorded "
                 f"ruling {recorded.ruling_id} ({recorded.date}) about {', '.join(recorded.about)}\n")
    if recorded.superseded:
        ruling_id, file, line = recorded.superseded
        RESULTS.info(f"{file}:{line}: ruling {ruling_id} is superseded by {recorded.ruling_id}\n")
    RESULTS.info(f"check: {args.game} ok\n")
    return 0


def add_ruling(content_dir: Path, game_id: str, items: list[str], *, question: str, answer: str,
               source_kind: str, description: str, url: str, date: datetime.date | None = None,
               supersedes: str | None = None, ruling_id: str | None = None,
               today: datetime.date | None = None) -> Recorded:
    """Record one ruling (and what it supersedes), atomically; raises RulingError."""
    today = today or datetime.date.today()
    date = date or today
    if source_kind not in SOURCE_KINDS:
        raise RulingError(f"unknown source '{source_kind}'", hint=f"one of {', '.join(SOURCE_KINDS)}")
    url_problem = model.https_url_problem(url)
    if url_problem:
        raise RulingError(f"--url '{url}' is refused: {url_problem}",
                          hint="give the https:// address of the page that publishes the answer, as a browser shows it")
    for name, value in (("--question", question), ("--answer", answer), ("--description", description)):
        if not value.strip():
            raise RulingError(f"{name} must say something", hint="write the question and the answer as given, and name the source")
    if date > today:
        raise RulingError(f"--date {date} is in the future", hint=f"use the date the ruling was published, on or before {today}")
    folder = game_folder(content_dir, game_id, RulingError)
    game, index, before = check_one_game(content_dir, folder, today)
    if game is None or index is None or before:
        raise RulingError(f"game '{game_id}' does not check clean", before.sorted(),
                          hint="fix these first (`rulesmith check`), then record the ruling")
    try:
        about = list(dict.fromkeys(resolve_target(index, item, game_id) for item in items))
    except ErrataError as error:
        raise RulingError(str(error), hint=error.hint) from None
    if any(key.startswith(("ruling:", "module:")) for key in about):
        raise RulingError("a ruling is about rules, cards, tables, steps or terms, not about a ruling or a module",
                          hint="name the items the question is about")
    existing = {r.id: r for r in game.rulings}
    if ruling_id is None:
        numbers = [int(m.group(1)) for r in game.rulings if (m := re.fullmatch(r"r(\d+)", r.id))]
        ruling_id = f"r{max(numbers, default=0) + 1}"
    elif problem := ids.RULING_ID.problem(ruling_id):
        raise RulingError(f"--id '{ruling_id}' {problem}", hint=ids.RULING_ID.hint)
    if ruling_id in existing:
        file, line, column = existing[ruling_id].where("id")
        raise RulingError(f"ruling id '{ruling_id}' already exists at {file}:{line}:{column}", hint="leave --id out for the next free one")
    old = None
    if supersedes is not None:
        old = existing.get(supersedes)
        if old is None:
            raise RulingError(f"no ruling '{supersedes}' in game '{game_id}' to supersede",
                              hint=nearest(supersedes, existing) or f"rulings: {', '.join(existing) or 'none'}")
        if old.superseded_by:
            raise RulingError(f"ruling '{supersedes}' is already superseded by '{old.superseded_by}'",
                              hint=f"supersede the latest ruling of the chain, --supersedes {_latest(existing, old).id}")
        if old.date > date:
            raise RulingError(f"ruling '{supersedes}' is of {old.date}, later than this one ({date})",
                              hint="a ruling supersedes an earlier one: check --date")

    path = folder / "rulings.yaml"
    created = not path.exists()
    record = {"id": ruling_id, "date": date,
              "source": {"kind": source_kind, "description": description, "url": url},
              "about": about, "question": question, "answer": answer}
    text, line = append_record(path, None if created else path.read_bytes(), folder, record, collection="rulings")
    changes = {path: text}
    superseded = None
    if old is not None:
        old_path = Path(old._file.path)
        same = not created and os.path.samefile(old_path, path)
        edited, old_line = set_key(old_path, text if same else old_path.read_bytes(), "rulings", old._path[1],
                                   "superseded_by", ruling_id)
        changes[path if same else old_path] = edited
        superseded = (old.id, display_path(old_path), old_line)
        if same and old_line <= line:
            line += 1  # the key was added above the new record

    def refused(after) -> RulingError:
        return RulingError(f"ruling not recorded: with it, game '{game_id}' has {len(after)} problem(s); "
                           "no file was changed", after.sorted(),
                           hint="fix the question, answer or items as the problems say, and run the command again")

    write_checked(content_dir, folder, changes, today, refused)
    return Recorded(ruling_id, date, about, display_path(path), line, created, superseded)


def _latest(rulings: dict, ruling):
    seen = {ruling.id}
    while ruling.superseded_by in rulings and ruling.superseded_by not in seen:
        ruling = rulings[ruling.superseded_by]
        seen.add(ruling.id)
    return ruling

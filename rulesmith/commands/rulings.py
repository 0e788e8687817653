"""`rulesmith ruling add`: record a ruling or FAQ answer about some items (issue: rulings).

As `errata add` does, it writes in place: the record is appended to `content/<game>/rulings.yaml`
(created if missing) and, with `--supersedes r3`, `superseded_by: <new id>` is set on r3 where
it is written; comments and formatting stay as they were. The record is made as every record is
(commands/records.py): the game is checked with the new files before they replace the old ones;
if the check or the writing fails, no file is changed: a ruling is recorded whole or not at all.
"""

from __future__ import annotations

import datetime
import typing
from dataclasses import dataclass
from pathlib import Path

from rulesmith.commands.records import (
    RULING,
    Recorded,
    Recording,
    RulingError,
    add_command,
    add_source_arguments,
    parse_date,
)
from rulesmith.content import model
from rulesmith.content.items import MODULE, key_type
from rulesmith.content.load import display_path
from rulesmith.content.model import RulingSource
from rulesmith.content.yamledit import set_key
from rulesmith.problems import RESULTS, nearest

if typing.TYPE_CHECKING:
    from rulesmith.problems import Problems

SOURCE_KINDS = typing.get_args(RulingSource.model_fields["kind"].annotation)


@dataclass
class RulingAdded:
    """What `add_ruling` recorded: the record (records.Recorded), and the ruling it supersedes."""

    record: Recorded
    about: list[str]
    superseded: tuple[str, Path, int] | None  # (id, file, line) of the ruling it supersedes


def configure(parser) -> None:
    add = add_command(parser, "ruling_command", "record a ruling or FAQ answer about one or more items",
                      "Append a ruling to content/<game>/rulings.yaml (comments and formatting kept); with "
                      "--supersedes, mark the earlier ruling as superseded by it. The game is checked with it "
                      "first, and no file is changed if the check fails.")
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
    done = add_ruling(Path(args.content), args.game, args.items, question=args.question, answer=args.answer,
                      source_kind=args.source_kind, description=args.description, url=args.url,
                      where=args.where, date=parse_date(args.date, RulingError), supersedes=args.supersedes, ruling_id=args.ruling_id)
    RESULTS.info(done.record.said(f" about {', '.join(done.about)}"))
    if done.superseded:
        ruling_id, file, line = done.superseded
        RESULTS.info(f"{file}:{line}: ruling {ruling_id} is superseded by {done.record.id}\n")
    RESULTS.info(done.record.translation_notes())
    RESULTS.info(done.record.checked())
    return 0


def add_ruling(content_dir: Path, game_id: str, items: list[str], *, question: str, answer: str,
               source_kind: str, description: str, url: str | None = None, where: str | None = None, date: datetime.date | None = None,
               supersedes: str | None = None, ruling_id: str | None = None,
               today: datetime.date | None = None) -> RulingAdded:
    """Record one ruling (and what it supersedes), atomically; raises RulingError."""
    today = today or datetime.date.today()
    date = date or today
    if source_kind not in SOURCE_KINDS:
        raise RulingError(f"unknown source '{source_kind}'", hint=f"one of {', '.join(SOURCE_KINDS)}")
    if (url is None) == (where is None):
        raise RulingError("give either --url (where the answer is published) or --where (an answer without "
                          "an address)", hint='--where "e-mail from the designer, 2026-11-30"')
    url_problem = url is not None and model.https_url_problem(url)
    if url_problem:
        raise RulingError(f"--url '{url}' is refused: {url_problem}",
                          hint="give the https:// address of the page that publishes the answer, as a browser shows it")
    if where is not None and (problem := model.plain_text_problem(where)):
        raise RulingError(f"--where '{where}' is refused: {problem}", hint="say where in plain words")
    for name, value in (("--question", question), ("--answer", answer), ("--description", description),
                        ("--where", where if where is not None else "-")):
        if not value.strip():
            raise RulingError(f"{name} must say something", hint="write the question and the answer as given, and name the source")
    if date > today:
        raise RulingError(f"--date {date} is in the future", hint=f"use the date the ruling was published, on or before {today}")
    recording = Recording(RULING, content_dir, game_id, today)
    about = list(dict.fromkeys(recording.resolve(item) for item in items))
    if any(key_type(key.partition(":")[0]) in (RULING.item_type, MODULE) for key in about):
        raise RulingError("a ruling is about rules, cards, tables, steps or terms, not about a ruling or a module",
                          hint="name the items the question is about")
    existing = {r.id: r for r in recording.game.rulings}
    ruling_id = recording.new_id(ruling_id)
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

    recording.append({"id": ruling_id, "date": date,
                      "source": {"kind": source_kind, "description": description,
                                 **({"url": url} if url is not None else {"where": where})},
                      "about": about, "question": question, "answer": answer})
    superseded = None
    if old is not None:
        old_path = Path(old._file.path)
        same = recording.is_record_file(old_path)
        edited, old_line = set_key(old_path, recording.current(old_path), "rulings", old._path[1],
                                   "superseded_by", ruling_id)
        recording.change(old_path, edited)
        superseded = (old.id, display_path(old_path), old_line)
        if same and old_line <= recording.line:
            recording.line += 1  # the key was added above the new record

    def refused(after: Problems) -> RulingError:
        return RulingError(f"ruling not recorded: with it, game '{game_id}' has {len(after)} problem(s); "
                           "no file was changed", after.sorted(),
                           hint="fix the question, answer or items as the problems say, and run the command again")

    return RulingAdded(recording.write(refused), about, superseded)


def _latest(rulings: dict, ruling):
    seen = {ruling.id}
    while ruling.superseded_by in rulings and ruling.superseded_by not in seen:
        ruling = rulings[ruling.superseded_by]
        seen.add(ruling.id)
    return ruling

"""`rulesmith review`: every condensed block of every game's aids beside its full text, with the
condition words it drops, for a reviewer who did not write it.

For each block: where it is (file:line:column of its `condensed:`), the aid and the item it
condenses, everything it stands for (the item, the subsections it prints, the entities its
wording names: checks/condensed.stands_for), the condensed wording, the full text sentence by sentence under the part that prints
it, and then each group of condition words (templates/condition-words.yaml) the block uses less
often than its full text: the sentences of the full text that use them, and whether the entry's
`in_full` points the reader to the part that keeps them. Condition words are marked «so» in
both texts. The report runs on content that loads and links, whether or not the check passes
(a block the check refuses is what a reviewer wants to read).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from rulesmith.aids import kinds as aidkinds
from rulesmith.checks.check import own_entries
from rulesmith.checks.condensed import drops, matcher, normal, own_sentences, plain_words, stands_for
from rulesmith.content.game import load_games
from rulesmith.content.link import build_index, resolve
from rulesmith.problems import RESULTS, ContentError, Problems, UsageError

WIDTH = 100


def configure(parser) -> None:
    parser.add_argument("--game", help="only this game (its id, e.g. statecraft)")
    parser.add_argument("--dropped", action="store_true", help="only the blocks that drop a condition word")
    parser.set_defaults(run=cmd_review)


def cmd_review(args) -> int:
    RESULTS.info("%s", report(Path(args.content), args.game, args.dropped))
    return 0


def mark(text: str) -> str:
    """A plain text with its condition words marked «so»."""
    pattern, _ = matcher()
    return pattern.sub(lambda m: f"«{m.group(0)}»", normal(text))


def _wrap(text: str, indent: str) -> str:
    lines = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        for line in paragraph.splitlines() or [""]:
            lines += textwrap.wrap(line.strip(), WIDTH - len(indent), initial_indent=indent,
                                   subsequent_indent=indent + "  ") or [indent]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def report(content: Path, only_game: str | None = None, dropped_only: bool = False) -> str:
    problems = Problems()
    games = load_games(content, problems)
    if only_game and only_game not in {g.id for g in games}:
        raise UsageError(f"no game '{only_game}' in {content}", "games: " + ", ".join(g.id for g in games))
    out: list[str] = []
    blocks = refused = 0
    kinds = {k.key: k.title for k in aidkinds.kinds()}
    for game in games:
        if only_game and game.id != only_game:
            continue
        index = build_index(game, problems)
        resolve(game, index, problems)
        if problems:
            raise ContentError(problems.sorted())
        for plan in game.aids:
            own = own_entries(plan)
            for part in ("sequence", "setup", "body"):
                for entry in getattr(plan, part):
                    if not entry.condensed or entry.show not in index.targets:
                        continue
                    found = drops(entry, index, own - {entry.show})
                    blocks += 1
                    refused += any(d.missing for d in found)
                    if dropped_only and not found:
                        continue
                    out.append(_block(game, index, plan, kinds, entry, found, own))
    summary = (f"{blocks} condensed block(s); {refused} drop a condition word without saying where "
               f"the rest is (the check refuses them)\n")
    return "".join(out) + summary


def _block(game, index, plan, kinds, entry, found, own) -> str:
    file, line, column = entry.where("condensed")
    item = index.targets[entry.show].item
    names = {key: index.name(key) for key in index.targets}
    lines = [
        "=" * WIDTH,
        f"{game.info.name} · {kinds.get(plan.aid, plan.aid)} · {entry.title or index.name(entry.show)} "
        f"({entry.show})",
        f"{file}:{line}:{column}",
        _wrap("stands for: " + ", ".join(f"{names.get(key, key)} ({key})"
                                         for key in stands_for(entry, index, own - {entry.show})), "").rstrip(),
        "-- condensed " + "-" * (WIDTH - 13),
        _wrap(mark(plain_words(entry.condensed, index)), "  "),
        "-- full text " + "-" * (WIDTH - 13),
    ]
    current = None
    for part, sentence in own_sentences(item, entry.show, index, own - {entry.show}, entry.condensed):
        if part != current:
            lines.append(f"  [{names.get(part, part)}]")
            current = part
        lines.append(_wrap(mark(sentence), "    ").rstrip())
    lines.append("-- dropped " + "-" * (WIDTH - 11))
    if not found:
        lines.append("  nothing: every condition word of the full text is used as often here")
    for drop in found:
        pointed = (f"left to the full text: {', '.join(names.get(p, p) for p in drop.left_to)}"
                   if drop.left_to else "no pointer")
        verdict = f"REFUSED: {drop.missing} not kept and not pointed to" if drop.missing else "ok"
        lines.append(f"  {drop.group.key} ({drop.group.means}): full text {drop.full}, condensed {drop.kept}; "
                     f"{pointed}; {verdict}")
        for part, sentence in drop.where:
            lines.append(_wrap(f"[{names.get(part, part)}] " + mark(sentence), "      ").rstrip())
    for pointer in entry.in_full:
        lines.append(f"  pointer printed on the aid: {names.get(pointer.part, pointer.part)} in full "
                     f"(for {', '.join(pointer.drops)})")
    return "\n".join(lines) + "\n\n"

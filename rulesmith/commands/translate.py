"""`rulesmith translate update <game> <lang>` and `rulesmith translate status [<game>]`: a game's
translation catalogs made or refreshed from the current English, and how far each has come.

`update` reads the game (it must load and link without problems: a file that does not load would
make its texts look gone), merges the catalog as msgmerge does (translations/merge.py) and writes
it in one rename, or not at all. `status` counts, per game and language, the texts translated,
outdated and missing (translations/freshness.py).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import TYPE_CHECKING

from rulesmith.commands.records import RecordError, RefusingParser, game_folder
from rulesmith.content.game import load_game
from rulesmith.content.link import build_index, resolve
from rulesmith.content.load import display_path
from rulesmith.problems import RESULTS, Problem, Problems, system_error
from rulesmith.project import game_folders
from rulesmith.translations import catalog as catalogs
from rulesmith.translations import freshness, merge
from rulesmith.values import ids

if TYPE_CHECKING:
    from rulesmith.content.game import Game


class TranslateError(RecordError):
    """The catalog cannot be made or counted; nothing was changed."""

    command = "rulesmith translate --help"


def configure(parser) -> None:
    sub = parser.add_subparsers(dest="translate_command", required=True, metavar="{update,status,template,review}",
                                parser_class=RefusingParser)
    update = sub.add_parser("update", help="make or refresh a game's catalog of one language from the current English",
                            description="Make content/<game>/translations/<lang>.po, or refresh it from the current "
                                        "English as msgmerge does: new texts added untranslated, a translation whose "
                                        "English changed kept and marked fuzzy with the English it was made from "
                                        "(#| msgid), entries of texts that are gone made obsolete (#~).")
    update.add_argument("game", help="game id (its folder under content/)")
    update.add_argument("language", help="language code of the translation, e.g. de, fr, pt-br")
    update.set_defaults(run=cmd_update)
    status = sub.add_parser("status", help="how many texts each translation has translated, outdated and missing",
                            description="Per game and language: the texts translated from the current English, "
                                        "outdated (fuzzy, or their English changed since) and missing, and whether "
                                        "a reviewer recorded a review.")
    status.add_argument("game", nargs="?", help="game id (default: every game)")
    status.add_argument("--json", action="store_true", help="print the figures as JSON, for scripts and CI")
    status.set_defaults(run=cmd_status)
    review = sub.add_parser("review", help="record that a reviewer checked translations, entry by entry",
                            description="Record in each named entry (or --all: every entry translated from the "
                                        "current English) that a reviewer checked its translation as it is now; "
                                        "the catalog is reviewed when every text is translated, current and reviewed.")
    review.add_argument("game", help="game id (its folder under content/)")
    review.add_argument("language", help="language code of the translation, e.g. de, fr, pt-br")
    review.add_argument("entries", nargs="*", metavar="address", help="the entries reviewed, by their context "
                        "(msgctxt), e.g. card:interpol.name")
    review.add_argument("--all", action="store_true", help="every entry translated from the current English")
    review.add_argument("--by", required=True, help="who reviewed (written in each entry and the header)")
    review.set_defaults(run=cmd_review)
    template = sub.add_parser("template", help="write a game's template of every text to translate (.pot)",
                              description="Write content/<game>/translations/<game>.pot: every text of the game, "
                                          "untranslated, what a new language starts from in Weblate, Crowdin or "
                                          "msginit (`translate update` writes it too).")
    template.add_argument("game", help="game id (its folder under content/)")
    template.set_defaults(run=cmd_template)


def cmd_update(args) -> int:
    updated, counts = update_catalog(Path(args.content), args.game, args.language)
    shown = display_path(updated.path)
    if updated.created:
        RESULTS.info(f"{shown}: created with {len(updated.added)} text(s) to translate\n")
    elif not updated.written:
        RESULTS.info(f"{shown}: already up to date with the English\n")
    elif not (updated.added or updated.outdated or updated.obsolete or updated.revived or updated.suggested):
        RESULTS.info(f"{shown}: refreshed: no text changed; laid out again as gettext's tools write it\n")
    else:
        parts = [f"{len(updated.added)} new", f"{len(updated.outdated)} made outdated (fuzzy)",
                 f"{len(updated.obsolete)} obsolete", f"{len(updated.revived)} back from obsolete"]
        if updated.suggested:
            parts.append(f"{len(updated.suggested)} suggested (fuzzy) from the same English elsewhere")
        RESULTS.info(f"{shown}: refreshed: {', '.join(parts)}\n")
        for address in updated.outdated:
            RESULTS.info(f"  outdated: {address}\n")
    if updated.template_written:
        RESULTS.info(f"{display_path(catalogs.template_path(updated.path.parent.parent))}: written\n")
    RESULTS.info(f"{shown}: {_counts(counts)}\n")
    return 0


def cmd_template(args) -> int:
    game = _game(Path(args.content), args.game, clean=True)
    path = catalogs.template_path(game.folder)
    try:
        written = merge.write_template(game)
    except OSError as failed:
        raise TranslateError(f"cannot write {display_path(path)}: {failed.strerror}; nothing was changed",
                             hint=system_error(failed).hint) from None
    RESULTS.info(f"{display_path(path)}: {'written' if written else 'already up to date with the English'}\n")
    return 0


def update_catalog(content_dir: Path, game_id: str, language: str,
                   today: datetime.date | None = None) -> tuple[merge.Updated, freshness.Counts]:
    """Make or refresh one catalog; raises TranslateError (nothing written)."""
    game = _game(content_dir, game_id, clean=True)
    language = _language(game, language)
    try:
        updated = merge.update(game, language, today)
    except catalogs.CatalogProblem as found:
        raise TranslateError(f"{display_path(catalogs.path_of(game.folder, language))} cannot be read; nothing was changed",
                             [_problem(found)], hint="fix the catalog where the problem says, then run the command again") from None
    except OSError as failed:
        raise TranslateError(f"cannot write {display_path(catalogs.path_of(game.folder, language))}: "
                             f"{failed.strerror}; nothing was changed", hint=system_error(failed).hint) from None
    return updated, freshness.translation(game, language).counts()


def cmd_status(args) -> int:
    content = Path(args.content)
    if args.game:
        folders = [game_folder(content, args.game, TranslateError)]
    else:
        folders = [f for f in game_folders(content) if (f / "game.yaml").is_file()]
    lines, figures = [], []
    for folder in folders:
        game = _game(content, folder.name, clean=False)
        languages = freshness.languages(game)
        if not languages:
            lines.append(f"{game.id}: no translations (`rulesmith translate update {game.id} <lang>` makes one)")
            continue
        for language in languages:
            try:
                shown = freshness.translation(game, language)
            except catalogs.CatalogProblem as found:
                raise TranslateError(f"{display_path(catalogs.path_of(game.folder, language))} cannot be read",
                                     [_problem(found)], hint="fix the catalog where the problem says") from None
            counts, words, reviewed = shown.counts(), shown.words(), shown.reviewed_count()
            figures.append({"game": game.id, "language": language, "catalog": str(display_path(shown.path)),
                            "entries": _figures(counts), "words": _figures(words),
                            "reviewed_entries": reviewed, "reviewed": shown.reviewed,
                            "last_review": {"by": shown.review.by, "date": shown.review.date.isoformat()}
                            if shown.review else None})
            review = "reviewed" if shown.reviewed else f"not reviewed ({reviewed} of {counts.total} entries reviewed)"
            if shown.review:
                review += f"; last review by {shown.review.by} on {shown.review.date}"
            lines.append(f"{game.id} {language}: {_counts(counts, percent=True)}; {review}")
            lines.append(f"  words: {_counts(words, percent=True)}")
    if args.json:
        RESULTS.info(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    else:
        RESULTS.info("\n".join(lines) + "\n")
    return 0


def cmd_review(args) -> int:
    content = Path(args.content)
    game = _game(content, args.game, clean=True)
    language = _language(game, args.language)
    by = " ".join(args.by.split())
    if not by or "\n" in args.by:
        raise TranslateError("a review needs who reviewed", hint="give --by <name>")
    if bool(args.all) == bool(args.entries):
        raise TranslateError("say which entries were reviewed: their addresses, or --all",
                             hint="e.g. `rulesmith translate review deep-state de card:interpol.name`")
    path = catalogs.path_of(game.folder, language)
    if not path.exists():
        raise TranslateError(f"{display_path(path)} does not exist",
                             hint=f"make it with `rulesmith translate update {game.id} {language}`")
    try:
        catalog = catalogs.read(path)
    except catalogs.CatalogProblem as found:
        raise TranslateError(f"{display_path(path)} cannot be read; nothing was changed", [_problem(found)],
                             hint="fix the catalog where the problem says, then run the command again") from None
    shown = freshness.Translation(game, language, catalog)
    today = datetime.date.today()
    wanted = list(shown.english) if args.all else args.entries
    refused = []
    for address in wanted:
        if address not in shown.english:
            refused.append(f"'{address}' names no text of game '{game.id}'")
        elif shown.text(address).state != freshness.TRANSLATED and not args.all:
            refused.append(f"'{address}' is {shown.text(address).state}: only a translation of the current English "
                           "can be reviewed")
    if refused:
        raise TranslateError(f"nothing was recorded: {'; '.join(refused)}",
                             hint="name entries by their context (msgctxt); translate or bring up to date first")
    marked = 0
    for address in wanted:
        if shown.text(address).state == freshness.TRANSLATED:
            catalogs.mark_reviewed(shown.entries[address], by, today)
            marked += 1
    catalog.metadata[catalogs.REVIEWED_BY] = by
    catalog.metadata[catalogs.REVIEW_DATE] = today.isoformat()
    try:
        catalogs.write(path, catalog)
    except OSError as failed:
        raise TranslateError(f"cannot write {display_path(path)}: {failed.strerror}; nothing was changed",
                             hint=system_error(failed).hint) from None
    after = freshness.translation(game, language)
    RESULTS.info(f"{display_path(path)}: {marked} entr{'y' if marked == 1 else 'ies'} recorded as reviewed by {by}; "
                 + ("the translation is reviewed\n" if after.reviewed else
                    f"{after.reviewed_count()} of {after.counts().total} entries reviewed\n"))
    return 0


def _figures(counts: freshness.Counts) -> dict[str, object]:
    return {"translated": counts.translated, "outdated": counts.outdated, "missing": counts.missing,
            "total": counts.total, "percent": {state: _percent(getattr(counts, state), counts.total)
                                               for state in freshness.STATES}}


def _percent(part: int, total: int) -> float:
    return round(100 * part / total, 1) if total else 0.0


def _counts(counts: freshness.Counts, percent: bool = False) -> str:
    if percent:
        return ", ".join(f"{getattr(counts, state)} {state} ({_percent(getattr(counts, state), counts.total)}%)"
                         for state in freshness.STATES) + f" of {counts.total}"
    return (f"{counts.translated} translated, {counts.outdated} outdated, {counts.missing} missing "
            f"(of {counts.total})")


def _game(content_dir: Path, game_id: str, clean: bool) -> Game:
    """The game, loaded (and linked without problems, when `clean`): its English is what a catalog holds."""
    folder = game_folder(content_dir, game_id, TranslateError)
    problems = Problems()
    game = load_game(folder, problems, content_dir)
    if game is not None and clean:
        resolve(game, build_index(game, problems), problems)
    if game is None or (clean and problems):
        raise TranslateError(f"game '{game_id}' does not load cleanly; its English cannot be read", problems.sorted(),
                             hint="fix these first (`rulesmith check`), then run the command again")
    return game


def _language(game: Game, given: str) -> str:
    """The language code asked for, in its one spelling (catalog.normal_language: es_ES is es-es)."""
    language = catalogs.normal_language(given)
    problem = catalogs.language_problem(language)
    if problem:
        lower = language.lower().replace("_", "-")
        raise TranslateError(f"'{language}' {problem}", hint=f"did you mean '{lower}'?"
                             if catalogs.language_problem(lower) is None else ids.LANGUAGE.hint)
    if language == game.info.language:
        raise TranslateError(f"'{language}' is the language of game '{game.id}' itself",
                             hint="translate into another language: its catalog holds that language's texts")
    return language


def _problem(found: catalogs.CatalogProblem) -> Problem:
    file, line, column = found.where
    return Problem(file, line, column, found.message, found.hint)

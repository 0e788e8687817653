"""`rulesmith translate update <game> <lang>` and `rulesmith translate status [<game>]`: a game's
translation catalogs made or refreshed from the current English, and how far each has come.

`update` reads the game (it must load and link without problems: a file that does not load would
make its texts look gone), merges the catalog as msgmerge does (translations/merge.py) and writes
it in one rename, or not at all. `status` counts, per game and language, the texts translated,
outdated and missing (translations/freshness.py).
"""

from __future__ import annotations

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
    import datetime

    from rulesmith.content.game import Game


class TranslateError(RecordError):
    """The catalog cannot be made or counted; nothing was changed."""

    command = "rulesmith translate --help"


def configure(parser) -> None:
    sub = parser.add_subparsers(dest="translate_command", required=True, metavar="{update,status}",
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
    status.set_defaults(run=cmd_status)


def cmd_update(args) -> int:
    updated, counts = update_catalog(Path(args.content), args.game, args.language)
    shown = display_path(updated.path)
    if updated.created:
        RESULTS.info(f"{shown}: created with {len(updated.added)} text(s) to translate\n")
    elif not updated.written:
        RESULTS.info(f"{shown}: already up to date with the English\n")
    else:
        parts = [f"{len(updated.added)} new", f"{len(updated.outdated)} made outdated (fuzzy)",
                 f"{len(updated.obsolete)} obsolete", f"{len(updated.revived)} back from obsolete"]
        RESULTS.info(f"{shown}: refreshed: {', '.join(parts)}\n")
        for address in updated.outdated:
            RESULTS.info(f"  outdated: {address}\n")
    RESULTS.info(f"{shown}: {_counts(counts)}\n")
    return 0


def update_catalog(content_dir: Path, game_id: str, language: str,
                   today: datetime.date | None = None) -> tuple[merge.Updated, freshness.Counts]:
    """Make or refresh one catalog; raises TranslateError (nothing written)."""
    game = _game(content_dir, game_id, clean=True)
    _language(game, language)
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
    lines = []
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
            review = (f"reviewed by {shown.review.by} on {shown.review.date}" if shown.review
                      else "not reviewed")
            lines.append(f"{game.id} {language}: {_counts(shown.counts())}; {review}")
    RESULTS.info("\n".join(lines) + "\n")
    return 0


def _counts(counts: freshness.Counts) -> str:
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


def _language(game: Game, language: str) -> None:
    problem = catalogs.language_problem(language)
    if problem:
        lower = language.lower().replace("_", "-")
        raise TranslateError(f"'{language}' {problem}", hint=f"did you mean '{lower}'?"
                             if catalogs.language_problem(lower) is None else ids.LANGUAGE.hint)
    if language == game.info.language:
        raise TranslateError(f"'{language}' is the language of game '{game.id}' itself",
                             hint="translate into another language: its catalog holds that language's texts")


def _problem(found: catalogs.CatalogProblem) -> Problem:
    file, line, column = found.where
    return Problem(file, line, column, found.message, found.hint)

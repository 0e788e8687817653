"""The `rulesmith` command: check, build, serve, schema, errata, diff, review, format, new."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import typing
from pathlib import Path

from rulesmith import __version__
from rulesmith.problems import RESULTS, RulesmithError, UsageError, printable, say
from rulesmith.project import find_project, project_of_content
from rulesmith.site.engines import DEFAULT_ENGINE, ENGINES


def cmd_check(args) -> int:
    import datetime

    from rulesmith.checks.cache import CheckCache

    started = time.perf_counter()
    content, today = args.project.content, datetime.date.today()
    cache = None if args.no_cache else CheckCache(args.project.cache, content, today)
    result = cache.lookup() if cache else None
    if result is None:
        known = cache.known_games() if cache else {}
        result, games = _check(content, today, known)
        if cache and CheckCache(args.project.cache, content, today).key == cache.key:  # nothing edited meanwhile
            cache.store(result, games)
        kept = [answer["id"] for name, answer in games.items() if known.get(name) is answer]
        how = f" ({', '.join(kept)}: unchanged since {'its' if len(kept) == 1 else 'their'} last check, " \
            "answered from .cache/)" if kept else ""
    else:
        how = " (unchanged since the last check: its answer, from .cache/; --no-cache checks again)"
    for line in result["warnings"]:
        say(line, sys.stderr)
    say(f"ok: {result['games']} game(s) checked in {time.perf_counter() - started:.2f} s{how}: {result['summary']}")
    for line in result["notes"]:
        say(line)
    return 0


def _check(content: Path, today, known: dict[str, dict]) -> tuple[dict, dict[str, dict]]:
    """The check: what it prints, and each game's own answer by folder name, with the rulebook
    texts it read (resolved, found or not, by digest). The games in `known` (checkcache: unchanged
    since their answer was kept) are not read again; should their answers and the others not pass
    together, everything is checked again, so that what is printed is always the whole check's."""
    from rulesmith import fingerprint
    from rulesmith.checks.source_map import source_path
    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError, warning_line
    from rulesmith.project import game_folders

    try:
        checked = check_content(content, today, skip=frozenset(known))
    except ContentError:
        if not known:
            raise
        return _check(content, today, {})
    games = dict(known)
    for c in checked:
        games[c.game.folder.name] = {
            "id": c.game.id, "summary": f"{c.game.id} ({len(c.index.targets)} items)",
            "warnings": [warning_line(w) for w in c.warnings],
            "notes": [f"note: {c.game.id}: {line}" for line in c.notes],
            "extra": {str(path): fingerprint.digest(path)
                      for path in (source_path(c.game, s).resolve() for s in c.game.info.sources)}}
    ids = [answer["id"] for answer in games.values()]
    if known and len(set(ids)) < len(ids):  # two games with one id: the whole check says where
        return _check(content, today, {})
    ordered = [games[folder.name] for folder in game_folders(content) if folder.name in games]
    result = {"games": len(ordered), "summary": ", ".join(answer["summary"] for answer in ordered),
              "warnings": [line for answer in ordered for line in answer["warnings"]],
              "notes": [line for answer in ordered for line in answer["notes"]]}
    return result, games


def cmd_build(args) -> int:
    from rulesmith.commands.build import build

    build(args.project.content, _output(args.site, args.project.site), pdfs=not args.no_pdf,
          quiet=args.quiet, work=_output(args.work, None), engine=args.engine, site_url=args.site_url,
          games=args.game or None, trust_config=args.trust_config)
    return 0


def cmd_serve(args) -> int:
    from rulesmith.commands.serve import serve

    return serve(args.project.content, args.dev_addr, trust_config=args.trust_config)


def cmd_schema(args) -> int:
    from rulesmith.content.game import load_games
    from rulesmith.format.schema import write_schema
    from rulesmith.problems import Problems

    # A game whose files do not all load still gets a schema of what did load: the editor is
    # where the rest gets fixed.
    games = load_games(args.project.content, Problems()) if args.project.content.is_dir() else []
    path = write_schema(_output(args.output, args.project.shared_schema), games)
    say(f"wrote {path} and a schema per game: " + (", ".join(f"{g.id}.schema.json" for g in games) or "none"))
    return 0


def cmd_format(args) -> int:
    from rulesmith.format.reference import render

    try:
        say(render(args.topic), end="")
        sys.stdout.flush()
    except BrokenPipeError:  # `rulesmith format | head`: the reader stopped early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
    return 0


def cmd_new(args) -> int:
    from rulesmith.commands.new import new_game

    for line in new_game(args.project, args.game_id, args.name):
        say(line)
    return 0


@typing.overload
def _output(given: str | None, default: Path) -> Path: ...
@typing.overload
def _output(given: str | None, default: None) -> Path | None: ...
def _output(given: str | None, default: Path | None) -> Path | None:
    """An output path: as given (relative to the current folder, as a shell user expects), or the
    project's default (relative to the project, wherever the command runs)."""
    return Path(given) if given else default


def _project_or_here():
    from rulesmith.project import Project

    try:
        return find_project()
    except UsageError:
        return Project(Path.cwd())


def _global_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """Options every command takes, before or after its name (`rulesmith --content X build`
    and `rulesmith build --content X` both work)."""
    parser.add_argument("--content", default=None if top else argparse.SUPPRESS,
                        help="content folder (default: content/ of the project found from the current folder)")
    parser.add_argument("-v", "--verbose", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="say more about each step")
    parser.add_argument("-q", "--quiet", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="only problems and errors")


class _Current(logging.StreamHandler):
    """Writes to whatever sys.stderr or sys.stdout (`name`) is when a record comes (a test or a
    caller may replace it); `terminator=""` writes a command's result as given."""

    def __init__(self, name: str, terminator: str = "\n"):
        self.name_of_stream = name
        super().__init__()
        self.terminator = terminator
        self.setFormatter(logging.Formatter("%(message)s"))

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))  # as problems.say writes: nothing acts on the terminal

    @property
    def stream(self):
        return getattr(sys, self.name_of_stream)

    @stream.setter
    def stream(self, _value) -> None:
        pass


def _configure_logging(verbose: bool, quiet: bool) -> None:
    """The `rulesmith` logger prints progress and notes to stderr; -v adds detail, -q only warnings.
    `rulesmith.results` (problems.RESULTS) is what a command produces: stdout, never quieted."""
    logger = logging.getLogger("rulesmith")
    if not any(isinstance(h, _Current) for h in logger.handlers):
        logger.addHandler(_Current("stderr"))
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    logger.propagate = False
    results = logging.getLogger(RESULTS.name)
    if not any(isinstance(h, _Current) for h in results.handlers):
        results.addHandler(_Current("stdout", terminator=""))
    results.setLevel(logging.INFO)
    results.propagate = False


class _Parser(argparse.ArgumentParser):
    """argparse, its refusals written as every command writes (problems.say): a value given on the
    command line is echoed in them."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        say(f"{self.prog}: error: {message}", sys.stderr)
        raise SystemExit(2)


def _all_parsers(sub) -> list[argparse.ArgumentParser]:
    """Every subcommand's parser, nested ones (`errata add`) included."""
    found = []
    for command in sub.choices.values():
        found.append(command)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += _all_parsers(action)
    return found


TRUST_CONFIG_HELP = ("let the project's mkdocs.yml set more than how the site looks (hooks, plugins, "
                     "theme.custom_dir, extra_javascript …: code that runs at build time or in readers' browsers); "
                     "only for a file you trust as you trust code")

# Commands whose module adds their options (`configure`): module, help.
MODULE_COMMANDS = {
    "errata": ("errata", "record errata: `rulesmith errata add …`"),
    "ruling": ("rulings", "record rulings and FAQ answers: `rulesmith ruling add …`"),
    "diff": ("diff", "structural difference of the content since a git revision"),
    "review": ("review", "print every condensed block of the aids beside its full text, with the condition "
                         "words it drops"),
}


def _parser(full: bool) -> argparse.ArgumentParser:
    """The command line; `full=False` leaves out the options of MODULE_COMMANDS (their modules are
    not imported), enough to tell which command was asked for."""
    parser = _Parser(prog="rulesmith", description=__doc__)
    parser.add_argument("--version", action="version", version=f"rulesmith {__version__}")
    _global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="validate all content; print every problem as file:line:column")
    p.add_argument("--no-cache", action="store_true",
                   help="check everything again, even when nothing changed since the last passed check "
                        "(its answer is kept in .cache/check.json)")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("build", help="check, then build the site (and PDFs) into site/")
    p.add_argument("--site", help="output folder (default: site/ in the project)")
    p.add_argument("--no-pdf", action="store_true", help="do not make the PDF player aids now: the site keeps those of the last build that made them")
    p.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT_ENGINE,
                   help=f"site engine (default: {DEFAULT_ENGINE}; zensical needs `pip install rulesmith[zensical]`)")
    p.add_argument("--site-url", help="the address the site is hosted at, e.g. https://example.org/rules/ "
                   "(also `site_url:` in mkdocs.yml): the 404 page, sitemap and canonical links use it")
    p.add_argument("--work", help="folder for the generated MkDocs project and the cache (default: .build and .cache); two builds at once need two")
    p.add_argument("--game", action="append", metavar="ID",
                   help="build only this game (repeat for several; all content is still checked): one job of a "
                        "CI matrix, whose PDFs and flowcharts the cache then hands to the build of the whole site")
    p.add_argument("--trust-config", action="store_true", help=TRUST_CONFIG_HELP)
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("serve", help="preview the site; rebuilds and reloads on YAML or template changes")
    p.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default 127.0.0.1:8000)")
    p.add_argument("--trust-config", action="store_true", help=TRUST_CONFIG_HELP)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("schema", help="write the JSON Schema of the content format")
    p.add_argument("--output", help="where to write it (default: schema/content.schema.json in the project)")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser("format", help="print the content format reference, or one topic of it")
    p.add_argument("topic", nargs="?", help="one topic: files, references, status, game, kinds, tables … "
                   "(default: all of it)")
    p.set_defaults(run=cmd_format, project_needed=False)

    p = sub.add_parser("new", help="write a small game to start from: content/<game-id>/ (checks and builds)")
    p.add_argument("game_id", metavar="game-id", help="the new game's id, lower-case kebab-case: my-game")
    p.add_argument("--name", help="the game's name (default: from the id, My Game)")
    p.set_defaults(run=cmd_new, project_needed="or-here")

    for name, (module, help) in MODULE_COMMANDS.items():
        if full:  # the module adds its own options (it imports the model: only when it runs)
            import importlib

            importlib.import_module(f".{module}", __package__).configure(sub.add_parser(name, help=help))
        else:  # the same name and help, to find which command was asked for
            sub.add_parser(name, help=help, add_help=False).add_argument("rest", nargs=argparse.REMAINDER)

    for command in _all_parsers(sub):
        _global_options(command, top=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    args, _ = _parser(full=False).parse_known_args(argv)
    args = _parser(full=args.command in MODULE_COMMANDS).parse_args(argv)
    _configure_logging(args.verbose, args.quiet)
    try:
        needed = getattr(args, "project_needed", True)
        if needed is False:
            return args.run(args)
        if needed == "or-here" and not args.content:  # `new`: the project above, or this folder
            args.project = _project_or_here()
            return args.run(args)
        args.project = project_of_content(Path(args.content)) if args.content else find_project()
        if needed == "or-here":
            return args.run(args)
        if args.content and not Path(args.content).is_dir():
            raise UsageError(f"content folder {args.content} not found", "pass the folder that holds the game folders")
        args.content = str(args.project.content)
        return args.run(args)
    except OSError as error:  # the system refused: a full disk, a file or folder you may not use
        from rulesmith.problems import system_error

        for line in system_error(error).lines():
            say(line, sys.stderr)
        return 1
    except RulesmithError as error:
        for line in error.lines():
            say(line, sys.stderr)
        return 1
    except KeyboardInterrupt:
        say("stopped.", sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

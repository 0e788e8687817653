"""The `rulesmith` command: its options, the project it works on, and every error printed one way.
The commands themselves are in commands/ (one module each, listed in commands.COMMANDS)."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from rulesmith import __version__
from rulesmith.commands import COMMANDS
from rulesmith.problems import PROGRESS, RESULTS, RulesmithError, UsageError, printable, say
from rulesmith.project import find_project, project_of_content


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

    def handleError(self, record: logging.LogRecord) -> None:
        # a reader that stopped early (`rulesmith format | head`) is the command's to handle, not
        # logging's to report with a traceback
        if isinstance(sys.exc_info()[1], BrokenPipeError):
            raise
        super().handleError(record)


class _Live(_Current):
    """The live progress line (problems.PROGRESS): each record rewrites the terminal's line in
    place with the terminal's own codes, added here around the printable message; an empty
    record clears the line."""

    def __init__(self):
        super().__init__("stderr", terminator="")

    def format(self, record: logging.LogRecord) -> str:
        return "\r\033[K" + super().format(record)


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
    if not any(isinstance(h, _Live) for h in PROGRESS.handlers):
        PROGRESS.addHandler(_Live())
    PROGRESS.setLevel(logging.INFO)
    PROGRESS.propagate = False


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


def _parser(asked: str | None) -> argparse.ArgumentParser:
    """The command line: every command of the registry (commands.COMMANDS) with its help; the
    options of the command `asked` for too (its module imported), the others' not."""
    parser = _Parser(prog="rulesmith", description="Rules references for board games: check the content, build "
                     "the site and the printable player aids, record errata and rulings.")
    parser.add_argument("--version", action="version", version=f"rulesmith {__version__}")
    _global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        if command.name == asked:
            module = importlib.import_module(f"rulesmith.commands.{command.module}")
            module.configure(sub.add_parser(command.name, help=command.help))
        else:  # the same name and help, to find which command was asked for
            sub.add_parser(command.name, help=command.help, add_help=False).add_argument("rest", nargs=argparse.REMAINDER)
    for found in _all_parsers(sub):
        _global_options(found, top=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    from rulesmith.problems import one_run

    with one_run():  # a bounded number of 'did you mean' guesses per command
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    args, _ = _parser(asked=None).parse_known_args(argv)
    args = _parser(asked=args.command).parse_args(argv)
    command = next(c for c in COMMANDS if c.name == args.command)
    _configure_logging(args.verbose, args.quiet)
    try:
        needed = command.project
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

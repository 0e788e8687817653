"""Problems found in content: located, collected, reported all at once."""

from __future__ import annotations

import difflib
import logging
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

# What a command produces (an erratum recorded, a diff): the command line sends it to stdout.
RESULTS = logging.getLogger("rulesmith.results")
# The build's live progress line on a terminal: each record replaces the line before it (cli.py).
PROGRESS = logging.getLogger("rulesmith.progress")

# Characters a terminal would act on or hide (control, bidirectional, zero-width): shown as \\u…
# (a line break stays one: a message may have several lines)
_UNSHOWABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def printable(text: str) -> str:
    """Text safe to print to a terminal: nothing in it is executed or hidden."""
    return _UNSHOWABLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def say(text: str, stream=None, end: str = "\n") -> None:
    """The one way a command writes text to the terminal (besides the `rulesmith` loggers, whose
    handler does the same): with `printable`, so that no path or value, a file name holding an
    escape sequence say, acts on the terminal or hides what follows it."""
    import sys

    (stream or sys.stdout).write(printable(text) + end)


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        """One line, whatever a quoted value holds: a line break or tab in it shows as \\n, \\t."""
        text = f"{self.file}:{self.line}:{self.column}: {self.message}"
        text = f"{text} ({self.hint})" if self.hint else text
        return text.replace("\n", "\\n").replace("\t", "\\t")


@dataclass
class Problems:
    """Collects every problem of a run; stages add to it and never stop at the first."""

    items: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # what could not be checked: said, never an error
    causes: set[str] = field(default_factory=set)  # files that could not be read: their problems come first

    def add(self, where: tuple[str, int, int], message: str, hint: str = "") -> None:
        file, line, column = where
        self.items.append(Problem(file, line, column, message, hint))

    def warn(self, where: tuple[str, int, int], message: str, hint: str = "") -> None:
        file, line, column = where
        self.warnings.append(Problem(file, line, column, message, hint))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[Problem]:
        """Every problem once, the cause first: the problems of the files that could not be read
        (what else is wrong may follow from them), then the others by file, line and column."""
        return sorted(set(self.items), key=lambda p: (p.file not in self.causes, p))

    def follow_from(self, start: int, unreadable: list[str]) -> None:
        """The problems added since `start` that name something unknown and guess what was meant
        may only follow from these files that could not be read: each says so instead of its
        guess, which would name what the unreadable file may declare."""
        if not unreadable:
            return
        files = ", ".join(unreadable)
        for n in range(start, len(self.items)):
            problem = self.items[n]
            if problem.file in unreadable or "could not be read" in problem.message or "unknown" not in problem.message \
                    or "did you mean" not in problem.hint:
                continue
            self.items[n] = Problem(problem.file, problem.line, problem.column, problem.message,
                                    f"this may follow from {files}, which could not be read (reported first): "
                                    "fix that first")


class RulesmithError(Exception):
    """Every failure a user can act on; the command layer prints it and exits 1, no traceback."""

    def lines(self) -> list[str]:
        return [f"error: {self}"]


def warning_line(warning: Problem) -> str:
    """`file:line:column: warning: message (hint)`."""
    return str(Problem(warning.file, warning.line, warning.column, f"warning: {warning.message}", warning.hint))


class ContentError(RulesmithError):
    """Raised when content has problems; carries all of them (and the warnings, printed first)."""

    def __init__(self, problems: list[Problem], warnings: list[Problem] | None = None):
        self.problems = problems
        self.warnings = warnings or []
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self):  # keep the problems when crossing a process boundary
        return (type(self), (self.problems, self.warnings))

    def lines(self) -> list[str]:
        count = len(self.problems)
        return ([warning_line(w) for w in self.warnings] + [str(p) for p in self.problems]
                + [f"{count} problem{'s' if count != 1 else ''} found; nothing was written."])


class UsageError(RulesmithError):
    """The command cannot start as asked (no project, port in use, folder not writable)."""

    def __init__(self, message: str, hint: str = ""):
        self.hint = hint
        super().__init__(message)

    def __reduce__(self):  # keep the hint when crossing a process boundary (a language's site: build._make_parts)
        return (type(self), (str(self), self.hint))

    def lines(self) -> list[str]:
        return [f"error: {self}"] + ([f"hint: {self.hint}"] if self.hint else [])


def system_error(error: OSError) -> UsageError:
    """What the system refused (a full disk, a file you may not read or write) as every command
    says it: `error: …` with the path and a hint, never a traceback."""
    import errno

    hints = {errno.ENOSPC: "the disk is full: make room, then run the command again (outputs are "
                           "replaced only when complete, so nothing was left half written)",
             errno.EACCES: "check the permissions of that file or folder",
             errno.EPERM: "check the permissions of that file or folder",
             errno.EROFS: "that file system is read-only: write somewhere else",
             errno.ENAMETOOLONG: "that name is longer than the file system allows"}
    where = f": {error.filename}" if error.filename else ""
    return UsageError(f"{error.strerror or error}{where}", hints.get(error.errno or 0, "check that file or folder, then "
                                                                                          "run the command again"))


# How many 'did you mean' guesses one run makes (a check, a build, a command): each is a difflib
# pass over its choices, so a file of 100,000 unknown names would otherwise cost 100,000 passes.
# Past the first few a guess tells the reader nothing more; the caller's plain hint is said instead.
GUESSES_PER_RUN = 200
_guesses_left: ContextVar[list[int] | None] = ContextVar("rulesmith_guesses_left", default=None)


@contextmanager
def one_run(limit: int = GUESSES_PER_RUN) -> Iterator[None]:
    """The scope of one run's guesses (cli.main, each check of the preview): `nearest` makes at
    most `limit` of them inside it."""
    token = _guesses_left.set([limit])
    try:
        yield
    finally:
        _guesses_left.reset(token)


def nearest(word: str, choices, n: int = 3) -> str:
    """A 'did you mean …' hint from the closest valid choices, or '' (also once the run has made
    its GUESSES_PER_RUN guesses)."""
    left = _guesses_left.get()
    if left is not None:
        if left[0] <= 0:
            return ""
        left[0] -= 1
    close = difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + " or ".join(close) + "?"


class Suggestions:
    """'did you mean …' hints for one kind of problem over one set of choices, made once per run
    (never per entry): the choices are indexed once by their kind (what comes before ':'), a word
    is compared only with those of its own kind when it has any, each distinct word is looked up
    once, and at most `limit` words are looked up at all, so that a file of 100,000 unknown names
    costs 100,000 dictionary look-ups, not 100,000 passes over every choice. Past the limit (a
    file that names nothing, entry after entry), `hint` answers '' and the caller's plain hint
    is said instead: after the first few, a guess per entry tells the reader nothing more."""

    LIMIT = 25

    def __init__(self, choices, limit: int = LIMIT, same_kind: bool = False):
        self.choices = list(choices)
        self.same_kind = same_kind  # never a guess of another kind (a reference's hint: issue 45)
        self.by_kind: dict[str, list[str]] = {}
        for choice in self.choices:
            self.by_kind.setdefault(str(choice).partition(":")[0], []).append(choice)
        self.left = limit
        self.said: dict[str, str] = {}

    def hint(self, word: str | None) -> str:
        if not word:
            return ""
        if word in self.said:
            return self.said[word]
        if self.left <= 0:
            return ""
        self.left -= 1
        kind = word.partition(":")[0]
        found = nearest(word, self.by_kind[kind]) if kind in self.by_kind else ""
        self.said[word] = found or ("" if self.same_kind else nearest(word, self.choices))
        return self.said[word]


class BuildError(RulesmithError):
    """An output could not be produced (Graphviz, MkDocs, WeasyPrint): a clear message, exit 1."""

    def lines(self) -> list[str]:
        return [f"error: {self}", "the previous site was left as it was."]

"""Problems found in content: located, collected, reported all at once."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


@dataclass
class Problems:
    """Collects every problem of a run; stages add to it and never stop at the first."""

    items: list[Problem] = field(default_factory=list)

    def add(self, where: tuple[str, int, int], message: str, hint: str = "") -> None:
        file, line, column = where
        self.items.append(Problem(file, line, column, message, hint))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[Problem]:
        return sorted(set(self.items))


class ContentError(Exception):
    """Raised when content has problems; carries all of them."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def nearest(word: str, choices, n: int = 3) -> str:
    """A 'did you mean …' hint from the closest valid choices, or ''."""
    close = difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + " or ".join(close) + "?"


class BuildError(Exception):
    """An output could not be produced (Graphviz, MkDocs, WeasyPrint): a clear message, exit 1."""

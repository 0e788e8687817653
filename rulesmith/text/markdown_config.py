"""The one Markdown configuration: how content text is read, by the check, the site, the search
index (MkDocs indexes the site's HTML) and the PDFs.

The check judges the HTML this configuration produces, so what it passes is what readers get;
the site adds only `toc` (heading anchors, no syntax of its own), the aids only their own
post-processing of the converted HTML.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

import markdown

# Each extension that gives content text a syntax, with its settings.
EXTENSIONS: list[str | dict] = [
    "admonition",
    "attr_list",
    "def_list",          # the glossary: a term and its definition
    "md_in_html",        # Markdown inside <div markdown="1">: the walker's steps, the home page's cards
    "pymdownx.details",  # ??? collapsed blocks
    "tables",
]
# The site's additions: anchors on headings, and the content's HTML placed as it is (text/placed.py).
SITE_EXTENSIONS: list[str | dict] = [{"toc": {"permalink": True}}, "rulesmith.text.placed"]


def mkdocs_extensions() -> list[str | dict]:
    """`markdown_extensions:` of the generated mkdocs.yml."""
    return EXTENSIONS + SITE_EXTENSIONS


@lru_cache(maxsize=1)
def converter() -> markdown.Markdown:
    """A converter with the content's extensions (reset before each use: building one costs more
    than converting a text)."""
    names = [e if isinstance(e, str) else next(iter(e)) for e in EXTENSIONS]
    configs = {next(iter(e)): next(iter(e.values())) for e in EXTENSIONS if isinstance(e, dict)}
    md = markdown.Markdown(extensions=names, extension_configs=configs, output_format="html")
    # A numbered list keeps its first number: a rulebook's "2. then 3" reads 2, not 1.
    md.parser.blockprocessors["olist"].LAZY_OL = False  # type: ignore[attr-defined]
    return md


def to_html(text: str) -> str:
    return converter().reset().convert(text)


def unclosed_brackets(text: str) -> list[int]:
    """Offsets of each '[' without its ']' and each '](' without its ')' in the same paragraph
    (a backslash-escaped bracket is text): one linear pass."""
    found: list[int] = []
    squares: list[int] = []
    rounds: list[int] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n" and text.startswith("\n\n", i):  # a paragraph ends: nothing is looked for past it
            found += squares + rounds
            squares, rounds = [], []
        elif char == "[":
            squares.append(i)
        elif char == "]" and squares:
            squares.pop()
            if text.startswith("(", i + 1):
                rounds.append(i + 1)
                i += 1
        elif char == "(" and rounds:
            rounds.append(i)
        elif char == ")" and rounds:
            rounds.pop()
        i += 1
    return sorted(found + squares + rounds)


def literal_brackets(text: str) -> str:
    """Brackets that never close, backslash-escaped: they are text ("Done ] ["), and Python-Markdown
    would otherwise look for the end of each one through the rest of its paragraph, so a long text
    of open brackets took minutes. After this, conversion time grows with the text's length."""
    if "[" not in text:
        return text
    unclosed = unclosed_brackets(text)
    if not unclosed:
        return text
    parts, last = [], 0
    for at in unclosed:
        parts += [text[last:at], "\\"]
        last = at
    return "".join(parts) + text[last:]


_BACKTICKS = re.compile(r"(?<!\\)`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Where the text is code, as (start, end) offsets: each inline code span (a run of backticks
    closed by the next run of the same length in its paragraph) and each indented code block (lines
    indented by four spaces or a tab after a blank line, not under a list item). What stands there is
    text, `<b>` included, and is shown as written. One pass: each run of backticks is looked at once."""
    found: list[tuple[int, int]] = []
    start = 0
    for paragraph_end in [m.start() for m in _BLANK_LINE.finditer(text)] + [len(text)]:
        paragraph = text[start:paragraph_end]
        runs = [(m.start(), m.end() - m.start()) for m in _BACKTICKS.finditer(paragraph)]
        later: dict[int, list[int]] = {}
        for index in range(len(runs) - 1, -1, -1):
            later.setdefault(runs[index][1], []).append(index)  # per length, the runs' indexes, last first
        index = 0
        while index < len(runs):
            at, length = runs[index]
            same = later[length]
            while same and same[-1] <= index:
                same.pop()
            if same:
                close = same.pop()
                found.append((start + at, start + runs[close][0] + length))
                index = close + 1
            else:
                index += 1
        start = paragraph_end
    offset, previous, in_block, after_blank = 0, "", False, True
    for line in text.splitlines(keepends=True):
        indented = line.startswith(("    ", "\t"))
        if not line.strip():
            after_blank = True
        elif indented and (in_block or (after_blank and not _LIST_ITEM.match(previous)
                                        and not previous.startswith((" ", "\t")))):
            found.append((offset, offset + len(line)))
            in_block, after_blank = True, False
        else:
            in_block, after_blank, previous = False, False, line
        offset += len(line)
    merged: list[tuple[int, int]] = []
    for begin, end in sorted(found):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return merged


def in_code(ranges: list[tuple[int, int]], at: int) -> bool:
    """Whether offset `at` is in one of `code_ranges` (sorted, apart)."""
    index = bisect.bisect_right(ranges, (at, float("inf"))) - 1
    return index >= 0 and ranges[index][0] <= at < ranges[index][1]

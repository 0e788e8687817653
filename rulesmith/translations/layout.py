"""A catalog's lines laid out as gettext's own tools write them (msgmerge, msgcat, msginit).

A catalog saved by polib, Poedit or Weblate and then refreshed by `rulesmith translate update`, or
passed through `msgcat`, comes out byte for byte the same: a pull request shows the translator's
edits and nothing else.

polib writes the entries (never our own writer of PO syntax), unwrapped; this module then lays
out each quoted string as gettext's `write-po.c` does:

- a line is at most 79 columns (gettext's page width), the closing quote included;
- a string is cut after each `\\n` it holds; a string with a `\\n` before its end, or one that
  does not fit on its keyword's line, starts with an empty string (`msgid ""`) and continues on
  lines of its own;
- a line is broken only where the Unicode line-breaking algorithm (UAX #14, as GNU libunistring
  implements it) allows, never inside an escape sequence, nor just before a final `\\n`; the
  longest line that fits is taken (a word longer than a line stays whole, past the width);
- flags are written with `fuzzy` first, as gettext writes them.

Comments are not wrapped (gettext keeps an extracted comment's lines as they are).
"""

from __future__ import annotations

import functools
import re
import unicodedata

import polib

PAGE_WIDTH = 79  # gettext's default page width (msgmerge, msgcat: --width=79)
# One quoted string of a catalog: its prefix (obsolete `#~`, previous `#|`), keyword and content.
FIELD = re.compile(r'^(?P<prefix>(?:#~ ?)?(?:#\| ?|\| )?)(?P<keyword>msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) '
                   r'"(?P<text>.*)"$')
MORE = re.compile(r'^(?P<prefix>(?:#~ ?)?(?:#\| ?|\| )?)"(?P<text>.*)"$')
ESCAPES = {"\\": "\\\\", '"': '\\"', "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
           "\t": "\\t", "\v": "\\v"}

# Line-breaking classes of UAX #14, for the characters that have a class other than AL (letters,
# symbols) among the texts of rules references; CJK ideographs are ID (see _class).
CLASSES = {
    " ": "SP", "\u200b": "ZW", "\u00a0": "GL", "\u202f": "GL", "\u2011": "GL", "\u2060": "WJ", "\ufeff": "WJ",
    "-": "HY", "\t": "BA", "|": "BA", "\u2010": "BA", "\u2012": "BA", "\u2013": "BA", "\u00ad": "BA",
    "\u2014": "B2", "\u00b4": "BB", "(": "OP", "[": "OP", "{": "OP", "\u00a1": "OP", "\u00bf": "OP",
    ")": "CP", "]": "CP", "}": "CL", '"': "QU", "'": "QU", "\u00ab": "QU", "\u00bb": "QU", "\u2018": "QU",
    "\u2019": "QU", "\u201c": "QU", "\u201d": "QU", "\u201e": "OP", "\u201a": "OP", "\u2039": "QU", "\u203a": "QU",
    "!": "EX", "?": "EX", ",": "IS", ".": "IS", ":": "IS", ";": "IS", "/": "SY", "\u2026": "IN",
    "\\": "PR", "$": "PR", "+": "PR", "\u00b1": "PR", "\u2212": "PR", "\u20ac": "PR", "\u00a3": "PR",
    "%": "PO", "\u00b0": "PO", "\u2030": "PO",
}
NO_BREAK_BEFORE = frozenset({"CL", "CP", "EX", "IS", "SY"})  # LB13


@functools.cache
def _class(char: str) -> str:
    found = CLASSES.get(char)
    if found:
        return found
    if char.isdigit() and char.isascii():
        return "NU"
    category = unicodedata.category(char)
    if category.startswith("M"):
        return "CM"
    if unicodedata.east_asian_width(char) in ("W", "F") and category.startswith("L"):
        return "ID"
    return "AL"


@functools.cache
def _width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


@functools.cache
def _may_break(before: str, after: str, before_spaces: str) -> bool:
    """Whether UAX #14 allows a line break between two characters' classes; `before_spaces` is the
    class of the last character before a run of spaces ending at `before` (else `before`)."""
    a, b = before, after
    if b in ("SP", "CM", "ZW", "WJ") or a == "WJ":  # LB7, LB9, LB11
        return False
    if a == "ZW":  # LB8
        return True
    if a == "GL" or (b == "GL" and a not in ("SP", "BA", "HY")):  # LB12, LB12a
        return False
    if b in NO_BREAK_BEFORE:  # LB13
        return False
    if before_spaces == "OP":  # LB14
        return False
    if before_spaces == "QU" and b == "OP":  # LB15
        return False
    if before_spaces == "B2" and b == "B2":  # LB17
        return False
    if a == "SP":  # LB18
        return True
    if a == "QU" or b == "QU":  # LB19
        return False
    if b in ("BA", "HY") or a == "BB":  # LB21
        return False
    if b == "IN":  # LB22
        return False
    if (a == "AL" and b == "NU") or (a == "NU" and b == "AL"):  # LB23
        return False
    if (a in ("PR", "PO") and b == "AL") or (a == "AL" and b in ("PR", "PO")):  # LB24
        return False
    if (a in ("CL", "CP", "NU") and b in ("PO", "PR")) or (a in ("PO", "PR") and b == "OP") \
            or (a in ("PO", "PR", "HY", "IS", "NU", "SY", "CL", "CP") and b == "NU"):  # LB25
        return False
    if a == "AL" and b == "AL":  # LB28
        return False
    return not ((a in ("AL", "NU") and b == "OP") or (a == "CP" and b in ("AL", "NU")))  # LB30; LB31


def _pieces(portion: str) -> list[tuple[str, int]]:
    """A portion of a string (up to and with its `\\n`), escaped and cut where a line may break:
    (escaped piece, its width in columns)."""
    chars: list[tuple[str, str, bool]] = []  # (escaped text, class, whether a break may come before it)
    for char in portion:
        escaped = ESCAPES.get(char)
        if escaped is not None:  # classed as written (`\"`: PR, QU); never broken inside (gettext)
            chars.append(("\\", "PR", True))
            chars.append((escaped[1], _class(escaped[1]), False))
        else:
            chars.append((char, _class(char), True))
    if portion.endswith("\n"):  # never break just before the final \n
        chars[-2] = (chars[-2][0], chars[-2][1], False)
    pieces: list[tuple[str, int]] = []
    current, width = "", 0
    previous, before_spaces, previous_base = "", "", ""
    for n, (text, cls, allowed) in enumerate(chars):
        if n and allowed and _may_break(previous, cls, before_spaces):
            pieces.append((current, width))
            current, width = "", 0
        current += text
        width += _width(text) if len(text) == 1 else len(text)  # an escape is two ASCII characters
        if cls == "CM":  # LB9: a combining mark takes the class of what it marks
            cls = previous_base or "AL"
        if cls != "SP":
            before_spaces = cls
        previous, previous_base = cls, cls
    if current:
        pieces.append((current, width))
    return pieces


def _lines(pieces: list[tuple[str, int]], start: int, width: int) -> list[str]:
    """Pieces laid into lines greedily: a piece goes on the line when it fits in `width` columns
    (counted from `start` on the first line), else it opens the next line."""
    lines: list[str] = []
    line, column = "", start
    for text, size in pieces:
        if line and column + size > width:
            lines.append(line)
            line, column = "", 0
        line += text
        column += size
    lines.append(line)
    return lines


def field_lines(prefix: str, keyword: str, value: str, page_width: int = PAGE_WIDTH) -> list[str]:
    """One quoted string of a catalog as gettext writes it."""
    after_break = len(prefix) + 1  # a continuation line: the prefix, then the opening quote
    width = page_width - 1 - after_break  # room for the closing quote
    first_start = len(prefix) + len(keyword) + 2 - after_break  # `msgid "` less what a continuation has
    if "\n" not in value[:-1]:  # one portion: on the keyword's line when it surely fits (most do)
        escaped = "".join(ESCAPES.get(char, char) for char in value)
        most = len(escaped) if escaped.isascii() else 2 * len(escaped)  # a column is at most 2 wide
        if first_start + most <= width:
            return [f'{prefix}{keyword} "{escaped}"']
    portions = re.findall(r"[^\n]*\n|[^\n]+", value) or [""]
    out: list[str] = []
    first = True
    for number, portion in enumerate(portions):
        pieces = _pieces(portion) if portion else [("", 0)]
        if first:
            lines = _lines(pieces, first_start, width)
            if len(lines) > 1 or (portion.endswith("\n") and number + 1 < len(portions)):
                out.append(f'{prefix}{keyword} ""')
                first = False
                lines = _lines(pieces, 0, width)
            else:
                out.append(f'{prefix}{keyword} "{lines[0]}"')
                first = False
                continue
        else:
            lines = _lines(pieces, 0, width)
        out.extend(f'{prefix}"{line}"' for line in lines)
    return out


def relayout(text: str) -> str:
    """A catalog polib wrote (unwrapped) with every quoted string laid out as gettext lays it, and
    each entry's flags with `fuzzy` first."""
    out: list[str] = []
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        line = lines[n]
        found = FIELD.match(line)
        if found is None:
            if line.startswith("#, "):
                flags = [flag.strip() for flag in line[3:].split(",") if flag.strip()]
                flags.sort(key=lambda flag: flag != "fuzzy")  # stable: the others keep their order
                line = "#, " + ", ".join(flags)
            out.append(line)
            n += 1
            continue
        prefix, keyword, escaped = found.group("prefix"), found.group("keyword"), found.group("text")
        n += 1
        while n < len(lines):
            more = MORE.match(lines[n])
            if more is None or more.group("prefix") != prefix:
                break
            escaped += more.group("text")
            n += 1
        out.extend(field_lines(prefix, keyword, polib.unescape(escaped)))
    return "\n".join(out)

"""Range keys: the row keys board games print for tables looked up by a number.

    "2"      exactly 2                "3-5", "3–5"   3 to 5, both included
    "4+"     4 or more                "≤ 2", "<= 2"  2 or less    ("≥ 4", ">= 4": 4 or more)
    "-2"     a negative number (a signed whole number is one value, never a range)

A key is kept as written (readers see "4+"); `parse` says which numbers it holds, `contains`
answers a lookup, and `problems` proves a table's keys do not overlap and, where the table asks
for it, leave no gap. `overlaps` (the sweep that finds spans sharing a number, in n log n) also
serves the source map's line ranges. Numbers are read and shown as values/numbers.py says (a
leaf, like this module).
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass

from rulesmith.values import numbers

_NUMBER = numbers.PATTERN
_FORMS = (
    (re.compile(rf"^({_NUMBER})$"), lambda a: (a, a)),
    (re.compile(rf"^({_NUMBER})\s*\+$"), lambda a: (a, math.inf)),
    (re.compile(rf"^(?:≥|>=)\s*({_NUMBER})$"), lambda a: (a, math.inf)),
    (re.compile(rf"^(?:≤|<=)\s*({_NUMBER})$"), lambda a: (-math.inf, a)),
    (re.compile(rf"^({_NUMBER})\s*-$"), lambda a: (-math.inf, a)),  # "2-": 2 or less, as some rulebooks print it
    (re.compile(rf"^({_NUMBER})\s*(?:-|–|—|to|\.\.)\s*({_NUMBER})$"), lambda a, b: (a, b)),
)


class RangeError(ValueError):
    """A key that is not a range; args: message, hint."""


@dataclass(frozen=True)
class Range:
    """The numbers from low to high, both included (an open end is ±infinity)."""

    low: float
    high: float
    text: str  # as written

    def __contains__(self, number: object) -> bool:
        return contains(self, number)

    @property
    def whole(self) -> bool:
        """Both ends are whole numbers (or open): a table of counts."""
        return all(math.isinf(end) or float(end).is_integer() for end in (self.low, self.high))

    def __str__(self) -> str:
        return self.text


def parse(key: object) -> Range:
    """The range a row key holds; raises RangeError for anything else ("a", "5-3", true …)."""
    if isinstance(key, bool) or not isinstance(key, (str, int, float)):
        raise RangeError(f"{key!r} is not a range key", 'write a number ("2"), "3-5", "4+" or "≤ 2"')
    if isinstance(key, (int, float)):
        if isinstance(key, float) and not math.isfinite(key):
            raise RangeError(f"{key!r} is not a range key", "write a finite number")
        return Range(key, key, str(key))
    text = key.strip()
    for pattern, bounds in _FORMS:
        match = pattern.match(text)
        if match:
            low, high = bounds(*(numbers.parse(g) for g in match.groups()))
            if low > high:
                raise RangeError(f"range key '{key}' runs backwards ({_fmt(low)} is more than {_fmt(high)})",
                                 f"write it low to high: '{_fmt(high)}-{_fmt(low)}'")
            return Range(low, high, key)
    raise RangeError(f"'{key}' is not a range key", 'write a number ("2"), "3-5", "4+" or "≤ 2"')


def is_range(key: object) -> bool:
    try:
        parse(key)
    except RangeError:
        return False
    return True


def is_span(key: object) -> bool:
    """A range of more than one number ("4+", "3-5"), not a single one ("2")."""
    return is_range(key) and parse(key).low != parse(key).high


def contains(key: Range | object, number: object) -> bool:
    """Whether the row key holds the number (a bool is not a number)."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return False
    found = key if isinstance(key, Range) else parse(key)
    return found.low <= number <= found.high


def find(keys: list, number: object) -> int | None:
    """The position of the one key whose range holds `number`, or None. Keys that are not
    ranges are passed over (a table whose keys overlap is refused by `problems`)."""
    for position, key in enumerate(keys):
        try:
            if contains(parse(key), number):
                return position
        except RangeError:
            continue
    return None


def _fmt(value: float) -> str:
    if math.isinf(value):
        return "more" if value > 0 else "less"
    return numbers.shown(float(value))


def problems(keys: list) -> list[tuple[int, str, str]]:
    """(position of the row, message, hint) for every key that is not a range and every key that
    overlaps an earlier one."""
    found: list[tuple[int, str, str]] = []
    parsed: list[tuple[int, Range]] = []
    for position, key in enumerate(keys):
        try:
            parsed.append((position, parse(key)))
        except RangeError as error:
            found.append((position, *error.args))
    for n, earlier in overlaps([(r.low, r.high) for _, r in parsed]):
        here, other = parsed[n][1], parsed[earlier][1]
        found.append((parsed[n][0], f"range '{here.text}' overlaps range '{other.text}'",
                      "a number may fall in one row only: make the ranges meet without sharing a number"))
    return sorted(found, key=lambda item: item[0])


def overlaps(spans: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """(position, earlier position) for every span (low, high: both included) that shares a number
    with a span before it in the list, naming one of those; in list order.

    A sweep in order of the low ends, in n log n (comparing every pair took minutes for a table of
    80,000 rows): the spans met so far that still reach the current low end are kept in two heaps,
    by position. The lowest position among them is an earlier span the current one overlaps, if it
    is earlier; and every one of them placed after the current span in the list overlaps it."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1], i))
    first: list[tuple[int, float]] = []  # (position, high) of spans met: the lowest position on top
    last: list[tuple[int, float]] = []  # (-position, high) of spans met and not yet reported
    found: dict[int, int] = {}
    for here in order:
        low = spans[here][0]
        while first and first[0][1] < low:  # ends before this span: before every later one too
            heapq.heappop(first)
        if first and first[0][0] < here:
            found[here] = first[0][0]
        while last and (last[0][1] < low or -last[0][0] > here):
            position, high = heapq.heappop(last)
            if high >= low:  # a later span in the list, and this earlier one overlaps it
                found.setdefault(-position, here)
        heapq.heappush(first, (here, spans[here][1]))
        if here not in found:
            heapq.heappush(last, (-here, spans[here][1]))
    return sorted(found.items())


def gaps(keys: list) -> list[tuple[int, str]]:
    """(position of the row after the gap, message) for every number left out between
    whole-number ranges (the table rule `contiguous`); keys that are not ranges are passed over."""
    parsed = []
    for position, key in enumerate(keys):
        try:
            parsed.append((position, parse(key)))
        except RangeError:
            continue
    found = []
    ordered = sorted(parsed, key=lambda pair: (pair[1].low, pair[1].high))
    if not ordered:
        return []
    # `before` is the range reaching highest so far, not merely the previous one: a range
    # nested inside a wider one ("1-1" inside "0-2") must not hide what the wider one covers.
    before = ordered[0][1]
    for position, after in ordered[1:]:
        whole = before.whole and after.whole
        if after.low > before.high and (not whole or after.low - before.high > 1):
            first, last = before.high + (1 if whole else 0), after.low - (1 if whole else 0)
            missing = _fmt(first) if first == last else f"{_fmt(first)}-{_fmt(last)}"
            found.append((position, f"no row holds {missing} (between '{before.text}' and '{after.text}')"))
        if after.high >= before.high:
            before = after
    return sorted(found)

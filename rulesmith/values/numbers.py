"""Numbers written as text, read one way and shown one way: the command line's value of an
erratum ("4", "2.5"), a row key a value reference names ("5" in a table keyed "4+"), the ends of
a range key ("3-5"), a count kept as printed text ("40").

A number is ASCII digits with an optional sign and decimal part ("-2", "+3", "2.5"); nothing
else is (no spaces inside, no "1e3", no "½", no digits of other scripts, no "1_000"). A number
written whole is an int, one written with a decimal point a float ("3.0" stays 3.0). Shown, a
whole float loses its ".0": readers write 127, not 127.0. A leaf: imports nothing of ours.
"""

from __future__ import annotations

import re

# The one syntax of a number in text (ranges.py builds its key forms from it).
PATTERN = r"[-+]?[0-9]+(?:\.[0-9]+)?"
_NUMBER = re.compile(rf"^{PATTERN}$")
_WHOLE = re.compile(r"^[-+]?[0-9]+$")


def parse(text: str) -> int | float | None:
    """The number a text writes (surrounding spaces ignored), or None when it writes none."""
    text = text.strip()
    if not _NUMBER.match(text):
        return None
    return int(text) if _WHOLE.match(text) else float(text)


def is_whole(text: str) -> bool:
    """The text writes a whole number ("3", "-2"; not "3.0")."""
    return bool(_WHOLE.match(text.strip()))


def shown(value: float) -> str:
    """A number as readers write it: 127, not 127.0; 2.5 as 2.5."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)

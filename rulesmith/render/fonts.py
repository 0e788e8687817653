"""Web fonts: WOFF2 subsets of the shipped OTFs for the site (the PDFs keep the OTFs).

A subset keeps the characters a European-language rules text uses (Latin, punctuation, arrows,
maths signs) and drops the rest, about a tenth of the OTF's weight. Subsets are cached by a hash
of the font and the character ranges, so a build makes them once.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from fontTools import subset

from ..files import write_atomic

# Basic Latin, Latin-1, Latin Extended-A, basic Cyrillic (the content quotes some), general punctuation, super/subscripts, the euro,
# arrows, maths operators, geometric shapes (▲ ■ ●) and the replacement character. A character
# outside falls back to the reader's system font, which is legible, only not Inter.
UNICODES = "U+0000-017F,U+0400-045F,U+2000-206F,U+2070-209F,U+20AC,U+2190-21FF,U+2200-22FF,U+25A0-25FF,U+FFFD"
VERSION = "4"  # bump to remake every cached subset when the options below change


def _options() -> subset.Options:
    options = subset.Options()
    options.flavor = "woff2"
    # fontTools' default features (kern, liga, calt, ccmp, locl, marks …): the text measures as
    # Graphviz and WeasyPrint measure it; Inter's stylistic sets and alternates are dropped.
    options.layout_features = subset.Options().layout_features + ["tnum", "case"]
    options.notdef_outline = True
    return options


def woff2_subset(otf: bytes, cache: Path) -> bytes:
    digest = hashlib.sha256(otf + UNICODES.encode() + VERSION.encode()).hexdigest()[:24]
    cached = cache / f"{digest}.woff2"
    if cached.exists():
        return cached.read_bytes()
    font = subset.load_font(io.BytesIO(otf), _options())
    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    out = io.BytesIO()
    subset.save_font(font, out, _options())
    write_atomic(cached, out.getvalue())
    return out.getvalue()


def web_fonts(fonts: Path, cache: Path) -> dict[str, bytes]:
    """`name.woff2` -> bytes for every `name.otf` in `fonts`."""
    return {f"{otf.stem}.woff2": woff2_subset(otf.read_bytes(), cache) for otf in sorted(fonts.glob("*.otf"))}

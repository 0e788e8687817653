"""Web fonts: WOFF2 subsets of the shipped OTFs for the site (the PDFs keep the OTFs).

Subsets keep the characters a European-language rules text uses (Latin, punctuation, arrows,
maths signs) and drop the rest, about a tenth of the OTF's weight; each face is split in two files
(MAIN, MORE) so that a page loads only the part it uses. Subsets are cached by a hash of the font
and the character ranges, so a build makes them once. The @font-face rules come from here too.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from fontTools import subset

from ..files import write_atomic

# The characters of nearly every page: Basic Latin, Latin-1, general punctuation, the euro, arrows
# (→), the minus and ≤ ≥. Each face's main file holds them; every page that uses the face loads it.
MAIN = "U+0000-00FF,U+2000-206F,U+20AC,U+2190-21FF,U+2212,U+2264-2265,U+FFFD"
# The rest a European-language rules text may use: Latin Extended-A, basic Cyrillic (the content
# quotes some), super/subscripts, the other maths operators, geometric shapes (▲ ■ ●). Each face's
# second file holds them, and a browser fetches it only for a page that has one (unicode-range):
# the first page on a phone moves about a third less font. A character outside both falls back to
# the reader's system font, which is legible, only not Inter.
MORE = "U+0100-017F,U+0400-045F,U+2070-209F,U+2200-2211,U+2213-2263,U+2266-22FF,U+25A0-25FF"
PARTS = {"": MAIN, "-more": MORE}  # file name suffix -> characters
# Weight and style of each shipped face, by the end of its file name (Inter-SemiBold.otf).
FACES = {"Regular": (400, "normal"), "Italic": (400, "italic"), "SemiBold": (600, "normal"),
         "Bold": (700, "normal"), "BoldItalic": (700, "italic")}
VERSION = "5"  # bump to remake every cached subset when the options below change


def _options() -> subset.Options:
    options = subset.Options()
    options.flavor = "woff2"
    # fontTools' default features (kern, liga, calt, ccmp, locl, marks …): the text measures as
    # Graphviz and WeasyPrint measure it; Inter's stylistic sets and alternates are dropped.
    options.layout_features = subset.Options().layout_features + ["tnum", "case"]
    options.notdef_outline = True
    return options


def woff2_subset(otf: bytes, cache: Path, unicodes: str) -> bytes:
    digest = hashlib.sha256(otf + unicodes.encode() + VERSION.encode()).hexdigest()[:24]
    cached = cache / f"{digest}.woff2"
    if cached.exists():
        return cached.read_bytes()
    font = subset.load_font(io.BytesIO(otf), _options())
    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=subset.parse_unicodes(unicodes))
    subsetter.subset(font)
    out = io.BytesIO()
    subset.save_font(font, out, _options())
    write_atomic(cached, out.getvalue())
    return out.getvalue()


def _faces(fonts: Path) -> list[tuple[Path, str, int, str]]:
    """(OTF, family, weight, style) of every shipped face."""
    found = []
    for otf in sorted(fonts.glob("*.otf")):
        family, _, face = otf.stem.rpartition("-")
        weight, style = FACES.get(face, (400, "italic" if "Italic" in face else "normal"))
        found.append((otf, family or otf.stem, weight, style))
    return found


def web_fonts(fonts: Path, cache: Path) -> dict[str, bytes]:
    """`name.woff2` and `name-more.woff2` -> bytes for every `name.otf` in `fonts`."""
    return {f"{otf.stem}{suffix}.woff2": woff2_subset(otf.read_bytes(), cache, unicodes)
            for otf, *_ in _faces(fonts) for suffix, unicodes in PARTS.items()}


def font_face_css(fonts: Path, folder: str = "fonts/") -> str:
    """The @font-face rules of the web fonts, their files under `folder` (relative to the CSS).
    "optional": drawn if the font arrives within the first moments (from cache, it always does),
    else the page keeps the system font, so that text never reflows under the reader (a swap moved
    a whole page by a line: Lighthouse's layout shift 0.21). Flowcharts fit either (rulesmith.js)."""
    return "".join(
        f'@font-face {{ font-family: "{family}"; src: url("{folder}{otf.stem}{suffix}.woff2") format("woff2"); '
        f"font-weight: {weight}; font-style: {style}; font-display: optional; unicode-range: {unicodes}; }}\n"
        for otf, family, weight, style in _faces(fonts) for suffix, unicodes in PARTS.items())

"""Web fonts: WOFF2 subsets of the shipped OTFs for the site (the PDFs keep the OTFs).

Subsets keep the characters a European-language rules text uses (Latin, punctuation, arrows,
maths signs) and drop the rest, about a tenth of the OTF's weight; each face is split in two files
(MAIN, MORE) so that a page loads only the part it uses. The @font-face rules come from here too.

Making the subsets takes about 2.5 s, the same for every project, so they are made once, not once
per project:

1. shipped prebuilt in templates/webfonts/ (made by `python -m rulesmith.site.fonts`), used
   when their key still matches: the font's bytes, the part's character ranges, the options below
   and the versions of fontTools and Brotli, all in one hash. A font or a pin that changed makes
   the key differ (a test says so: run the module to make them anew), and then
2. cached in the user's cache folder ($XDG_CACHE_HOME/rulesmith/fonts, by default
   ~/.cache/rulesmith/fonts; the project's .cache/fonts when that folder cannot be written),
   under the key, shared by every project on the machine.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import sys
from pathlib import Path

import fontTools

from rulesmith.files import write_atomic

log = logging.getLogger(__name__)

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
PREBUILT = "webfonts"  # beside the fonts folder (templates/webfonts/): <name><suffix>.woff2, keys.json


def _options():
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    # fontTools' default features (kern, liga, calt, ccmp, locl, marks …): the text measures as
    # Graphviz and WeasyPrint measure it; Inter's stylistic sets and alternates are dropped.
    options.layout_features = subset.Options().layout_features + ["tnum", "case"]
    options.notdef_outline = True
    return options


def _tools() -> str:
    """fontTools' version and Brotli's (which compresses WOFF2): either may change the bytes."""
    try:
        import brotli

        compressor = getattr(brotli, "__version__", "?")
    except ImportError:
        compressor = "none"
    return f"fontTools {fontTools.version}, brotli {compressor}"


def subset_key(otf: bytes, unicodes: str) -> str:
    """What a subset is made from: the font, the ranges, the options' version, the tools' versions."""
    return hashlib.sha256(b"\0".join([otf, unicodes.encode(), VERSION.encode(), _tools().encode()])).hexdigest()[:32]


def make_subset(otf: bytes, unicodes: str) -> bytes:
    from fontTools import subset

    font = subset.load_font(io.BytesIO(otf), _options())
    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=subset.parse_unicodes(unicodes))
    subsetter.subset(font)
    out = io.BytesIO()
    subset.save_font(font, out, _options())
    return out.getvalue()


def user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulesmith" / "fonts"


def _prebuilt_keys(fonts: Path) -> dict[str, str]:
    try:
        return json.loads((fonts.parent / PREBUILT / "keys.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def woff2_subset(otf_path: Path, suffix: str, project_cache: Path) -> bytes:
    """The subset `<name><suffix>.woff2` of one face: prebuilt, cached, or made (and cached)."""
    otf = otf_path.read_bytes()
    unicodes = PARTS[suffix]
    key = subset_key(otf, unicodes)
    name = otf_path.stem + suffix
    prebuilt = otf_path.parent.parent / PREBUILT / f"{name}.woff2"
    if _prebuilt_keys(otf_path.parent).get(name) == key and prebuilt.is_file():
        log.debug("web font %s: shipped prebuilt", name)
        return prebuilt.read_bytes()
    for folder in (user_cache(), project_cache):
        cached = folder / f"{key}.woff2"
        if cached.is_file():
            log.debug("web font %s: from the cache in %s", name, folder)
            return cached.read_bytes()
    log.debug("web font %s: subset made (no prebuilt or cached subset of this font, ranges and tools)", name)
    data = make_subset(otf, unicodes)
    for folder in (user_cache(), project_cache):
        try:
            write_atomic(folder / f"{key}.woff2", data)
            break
        except OSError:  # a read-only home: the project's own cache instead
            continue
    return data


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
    return {f"{otf.stem}{suffix}.woff2": woff2_subset(otf, suffix, cache)
            for otf, *_ in _faces(fonts) for suffix in PARTS}


def font_face_css(fonts: Path, folder: str = "fonts/", display: str = "optional") -> str:
    """The @font-face rules of the web fonts, their files under `folder` (relative to the CSS).
    "optional": drawn if the font arrives within the first moments (from cache, it always does),
    else the page keeps the system font, so that text never reflows under the reader (a swap moved
    a whole page by a line: Lighthouse's layout shift 0.21). Flowcharts fit either (rulesmith.js).
    A chart's own file (flowchart/chart.py) has no text to reflow and waits for its font: "swap"."""
    return "".join(
        f'@font-face {{ font-family: "{family}"; src: url("{folder}{otf.stem}{suffix}.woff2") format("woff2"); '
        f"font-weight: {weight}; font-style: {style}; font-display: {display}; unicode-range: {unicodes}; }}\n"
        for otf, family, weight, style in _faces(fonts) for suffix, unicodes in PARTS.items())


def prebuild(fonts: Path) -> list[str]:
    """Make the shipped subsets (templates/webfonts/) and their keys anew."""
    folder = fonts.parent / PREBUILT
    for old in folder.glob("*.woff2"):
        old.unlink()
    keys = {}
    for otf, *_ in _faces(fonts):
        data = otf.read_bytes()
        for suffix, unicodes in PARTS.items():
            write_atomic(folder / f"{otf.stem}{suffix}.woff2", make_subset(data, unicodes))
            keys[otf.stem + suffix] = subset_key(data, unicodes)
    write_atomic(folder / "keys.json", (json.dumps(keys, indent=2, sort_keys=True) + "\n").encode())
    return sorted(keys)


if __name__ == "__main__":
    import logging

    from rulesmith.project import templates

    logging.basicConfig(level=logging.WARNING, format="%(message)s")  # fontTools' own chatter stays quiet
    logging.getLogger("rulesmith").setLevel(logging.INFO)
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else templates() / "fonts"
    made = prebuild(folder)
    logging.getLogger("rulesmith").info("made %s in %s", ", ".join(made), folder.parent / PREBUILT)

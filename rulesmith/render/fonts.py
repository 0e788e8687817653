"""Web fonts: WOFF2 subsets of the shipped OTFs for the site (the PDFs keep the OTFs).

A subset keeps the characters a European-language rules text uses (Latin, punctuation, arrows,
maths signs) and drops the rest, about a tenth of the OTF's weight. Making the five subsets takes
about 2.5 s, the same for every project, so they are made once, not once per project:

1. shipped prebuilt in templates/webfonts/ (made by `python -m rulesmith.render.fonts`), used
   when their key still matches: the font's bytes, the character ranges, the options below and
   the versions of fontTools and Brotli, all in one hash. A font or a pin that changed makes the
   key differ (a test says so: run the module to make them anew), and then
2. cached in the user's cache folder ($XDG_CACHE_HOME/rulesmith/fonts, by default
   ~/.cache/rulesmith/fonts; the project's .cache/fonts when that folder cannot be written),
   under the key, shared by every project on the machine.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from pathlib import Path

import fontTools

from ..files import write_atomic

# Basic Latin, Latin-1, Latin Extended-A, basic Cyrillic (the content quotes some), general punctuation, super/subscripts, the euro,
# arrows, maths operators, geometric shapes (▲ ■ ●) and the replacement character. A character
# outside falls back to the reader's system font, which is legible, only not Inter.
UNICODES = "U+0000-017F,U+0400-045F,U+2000-206F,U+2070-209F,U+20AC,U+2190-21FF,U+2200-22FF,U+25A0-25FF,U+FFFD"
VERSION = "4"  # bump to remake every cached subset when the options below change
PREBUILT = "webfonts"  # beside the fonts folder (templates/webfonts/): <name>.woff2, keys.json ({name: key})


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


def subset_key(otf: bytes) -> str:
    """What a subset is made from: the font, the ranges, the options' version, the tools' versions."""
    return hashlib.sha256(b"\0".join([otf, UNICODES.encode(), VERSION.encode(), _tools().encode()])).hexdigest()[:32]


def make_subset(otf: bytes) -> bytes:
    from fontTools import subset

    font = subset.load_font(io.BytesIO(otf), _options())
    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
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


def woff2_subset(otf_path: Path, project_cache: Path) -> bytes:
    otf = otf_path.read_bytes()
    key = subset_key(otf)
    prebuilt = otf_path.parent.parent / PREBUILT / f"{otf_path.stem}.woff2"
    if _prebuilt_keys(otf_path.parent).get(otf_path.stem) == key and prebuilt.is_file():
        return prebuilt.read_bytes()
    for folder in (user_cache(), project_cache):
        cached = folder / f"{key}.woff2"
        if cached.is_file():
            return cached.read_bytes()
    data = make_subset(otf)
    for folder in (user_cache(), project_cache):
        try:
            write_atomic(folder / f"{key}.woff2", data)
            break
        except OSError:  # a read-only home: the project's own cache instead
            continue
    return data


def web_fonts(fonts: Path, cache: Path) -> dict[str, bytes]:
    """`name.woff2` -> bytes for every `name.otf` in `fonts`."""
    return {f"{otf.stem}.woff2": woff2_subset(otf, cache) for otf in sorted(fonts.glob("*.otf"))}


def prebuild(fonts: Path) -> list[str]:
    """Make the shipped subsets (templates/fonts/web/) and their keys anew."""
    keys = {}
    for otf in sorted(fonts.glob("*.otf")):
        data = otf.read_bytes()
        write_atomic(fonts.parent / PREBUILT / f"{otf.stem}.woff2", make_subset(data))
        keys[otf.stem] = subset_key(data)
    write_atomic(fonts.parent / PREBUILT / "keys.json", (json.dumps(keys, indent=2, sort_keys=True) + "\n").encode())
    return sorted(keys)


if __name__ == "__main__":
    from ..project import templates

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else templates() / "fonts"
    print(f"made {', '.join(prebuild(folder))} in {folder.parent / PREBUILT}")

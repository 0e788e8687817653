"""The SVG glyphs icons are drawn from: the icon sets mkdocs-material ships (open licences)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import material

GLYPH_ROOT = Path(material.__file__).resolve().parent / "templates" / ".icons"


def glyph_exists(name: str) -> bool:
    return (GLYPH_ROOT / f"{name}.svg").is_file()


@cache
def glyph_svg(name: str) -> str:
    """One glyph as inline SVG, hidden from screen readers (the icon's label speaks for it)."""
    svg = (GLYPH_ROOT / f"{name}.svg").read_text(encoding="utf-8")
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)

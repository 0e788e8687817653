"""The colour palette's stylesheet: Material's palette.css, served inside assets/site.css.

Material's bundle sets the palette on every page view: it marks the body with
`data-md-color-switching` while it sets the colours, then reads the header's computed style. Its
palette.css has one rule keyed on that mark (no transitions while switching) that reaches every
element of the page (`[data-md-color-switching] *`), so marking the body made the browser restyle
the whole page inside the bundle's first run: a forced style recalculation of about 50 ms on a
desktop, four times that on Lighthouse's phone, the largest long task of most pages (issue 29).
Here that rule is left out; the colours are Material's, unchanged. The only loss: a reader who
switches between light and dark sees Material's own colour transitions (a quarter second) play.

The build writes it under Material's own path and name (rulesmith/build.py, static_files): a file
of the docs folder takes the place of the theme's, so every page links it as before, from disk
and under any subpath too. Another engine's theme names its palette otherwise and keeps its own.
"""

from __future__ import annotations

from pathlib import Path

import material
import tinycss2

STYLESHEETS = Path(material.__file__).resolve().parent / "templates" / "assets" / "stylesheets"
SWITCHING = "data-md-color-switching"


def material_palette() -> Path:
    """The pinned Material's palette stylesheet (its name carries a hash of its content)."""
    found = sorted(STYLESHEETS.glob("palette.*.min.css"))
    if len(found) != 1:
        raise RuntimeError(f"expected one palette stylesheet in {STYLESHEETS}, found {len(found)}")
    return found[0]


def palette_css() -> str:
    """Material's palette stylesheet without the rule keyed on the palette-switching mark."""
    rules = tinycss2.parse_stylesheet(material_palette().read_text(encoding="utf-8"))
    return tinycss2.serialize(_without_switching(rules)).strip() + "\n"


def _without_switching(rules: list) -> list:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule" and SWITCHING in tinycss2.serialize(rule.prelude):
            continue
        if rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword == "media":
            inner = _without_switching(tinycss2.parse_rule_list(rule.content))
            rule.content = [token for r in inner for token in ([r] if r.type != "whitespace" else [])]
        kept.append(rule)
    return kept

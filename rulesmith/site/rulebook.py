"""The site's "From the rulebook": an item's rulebook lines, rendered from templates/site/rulebook.html.j2.

What an item comes from is content/provenance.py's (the one home of item -> source, lines,
marks); this module only fills the template: the reference readers see ("Statecraft Rulebook,
lines 233–240"), and folded below it the lines exactly as the source text has them (only where
the game may show its texts: `game.show_source_texts`), the item's own text beside them, the
marks at the lines they concern and the errata that changed the item (the rulebook's value and
the corrected one side by side).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup

from rulesmith import words
from rulesmith.content import provenance
from rulesmith.project import templates
from rulesmith.values import fieldtypes, outcomes
from rulesmith.values import status as statuses

if TYPE_CHECKING:
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index


@lru_cache(maxsize=4)
def _template(language: str = words.ENGLISH) -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates() / "site"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    words.install(env, language)
    env.globals["status_label"] = lambda status: words.of(language).gettext(statuses.of(status).label)
    return env.get_template("rulebook.html.j2")


def _shown(value) -> str:
    """An erratum's value on one line, as its type shows it."""
    return " ".join(value.split()) if isinstance(value, str) else fieldtypes.shown(value)


def errata_of(game: Game, index: Index, key: str, language: str = words.ENGLISH) -> list[dict]:
    """The errata that changed an item, oldest first: what, the rulebook's value, the current one."""
    return [{"what": outcomes.field_label(game, index, e), "old": _shown(e.old), "new": _shown(e.new),
             "date": e.date.isoformat(), "label": words.of(language).gettext("erratum %(id)s") % {"id": e.id}}
            for e in sorted((e for e in game.errata if e.target == key), key=lambda e: (e.date, e.id))]


def rulebook(game: Game, index: Index, found: provenance.Provenance, ours: str = "", step: bool = False,
             language: str = words.ENGLISH) -> str:
    """The HTML of an item's "From the rulebook", or "" where the source map names no line of it.
    `ours` is the HTML of the item's own text, shown beside the lines; a `step` (the walker's, the
    Bot turn page's) shows its procedure's lines alone, folded under their reference."""
    if not found.passages:
        return ""
    groups = found.by_source()
    return _template(language).render(
        groups=groups, ranges=[provenance.reference(passages) for _, passages in groups], shown=found.shown,
        ours=Markup(ours) if found.shown else "", own_marks=found.marks,
        errata=errata_of(game, index, found.key, language), step=step)

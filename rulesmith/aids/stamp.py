"""Which errata change what an aid shows: the aid is stamped (footer, page 1, downloads) with the
latest of them, and an erratum elsewhere leaves the aid byte for byte as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith import words
from rulesmith.aids import contents
from rulesmith.content.game import latest_erratum
from rulesmith.content.link import REFERENCE
from rulesmith.values import references as values

if TYPE_CHECKING:
    from rulesmith.aids.kinds import AidKind
    from rulesmith.content import model
    from rulesmith.pipeline import Checked


def errata_in(checked: Checked, kind: AidKind) -> list[model.Erratum]:
    """The errata that change what this aid shows: those to an item it shows or to an item that
    refers to something it shows; on the solo aid, errata to rules text always count (it decides
    which tables are the bot's). tests/commands/test_errata.py checks this against the HTML."""
    game, index = checked.game, checked.index
    shown = contents.shown_keys(game, index, kind)
    items = {"table", "term", "rule", "procedure", "example", "gap"} | {k.id for k in game.kinds}
    always = {"rule"} if kind.needs == "procedures" else set()
    # A condensed section prints its condensed wording, not its full text: what it refers to is
    # what that wording refers to.
    condensed = [entry for entries in contents.planned(game, index, kind.key).values()
                 for entry in entries if not entry.full]
    printed_refs = {_item_of(match.group(1)) for entry in condensed for match in REFERENCE.finditer(entry.condensed or "")}
    full_text_shown = shown - {entry.key for entry in condensed}

    def changes_it(erratum: model.Erratum) -> bool:
        prefix = erratum.target.split(":", 1)[0]
        return (prefix in always or prefix not in items
                or erratum.target in shown or erratum.target in printed_refs
                or any(owner in full_text_shown for owner in index.backlinks.get(erratum.target, [])))

    return [erratum for erratum in game.errata if changes_it(erratum)]


def _item_of(target: str) -> str:
    """The item a reference names: `value:country:nigeria.ct` names country:nigeria."""
    return values.owner(target) if target.startswith(values.PREFIX) else target


RULED = ("table", "procedure", "rule", "gap")  # and every entity kind: printed with their rulings


def ruled_key(game, key: str) -> bool:
    """Whether an aid prints the rulings about this item with it (cards, tables, procedures, rules
    sections and gaps in the source)."""
    prefix = key.partition(":")[0]
    return prefix in RULED or game.kind(prefix) is not None


def rulings_in(checked: Checked, kind: AidKind) -> list[model.Ruling]:
    """The current rulings this aid prints: those about a card, table, procedure, rules section
    or gap in the source it shows."""
    game, index = checked.game, checked.index
    keys = contents.shown_keys(game, index, kind)
    keys |= {g["key"] for g in contents.gaps_in(game, index, keys) if g["key"].startswith("gap:")}
    shown = {key for key in keys if ruled_key(game, key)}
    return [r for r in game.rulings if r.status == "current" and any(key in shown for key in r.about)]


def current_to(checked: Checked, kind: AidKind):
    """The date up to which the aid shows every erratum and ruling of what it prints: the latest
    of those that change it, else the data's release date, else None."""
    dates = [e.date for e in errata_in(checked, kind)] + [r.date for r in rulings_in(checked, kind)]
    if checked.game.info.released is not None:
        dates.append(checked.game.info.released)
    return max(dates, default=None)


def latest_erratum_in(checked: Checked, kind: AidKind) -> model.Erratum | None:
    return latest_erratum(errata_in(checked, kind))


def latest_erratum_text(latest: model.Erratum | None, say=words.gettext) -> str:
    """The footer's "Errata: …": date and id of the latest erratum that changed the aid, or none
    (`say`: the tool's words in the aid's language)."""
    return f"{latest.date.isoformat()} ({latest.id})" if latest else say("none")

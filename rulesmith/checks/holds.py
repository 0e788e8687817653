"""An aid holds the rules of a module: the solo aid holds the solo rules.

An aid plan's `holds: <module>` says that every rules section of that module is on the aid: as an
entry of its own, inside an entry printed in full with its subsections, or stood for by a
condensed entry, or else listed under `leaves_out` with why (the aid prints that list). A game
that declares a bot has a solo-aid plan that names the module it holds, so that no solo rule is
left off the solo aid unseen (issue 37: Falcon's rules GC 509, 608, 613 were).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith.problems import nearest

if TYPE_CHECKING:
    from rulesmith.content import model
    from rulesmith.content.game import Game
    from rulesmith.problems import Problems

SOLO_AID = "solo-aid"


def module_sections(game: Game, module: str) -> list[str]:
    """rule:… of every section of a module (a subsection belongs to its page's module unless it names its own)."""
    found = []
    for section, page in game.all_sections():
        if (section.module or page.module) == module:
            found.append(f"rule:{section.id}")
    return found


def printed(game: Game, plan: model.AidPlan) -> set[str]:
    """rule:… of every section the plan prints (in full or condensed)."""
    entries = [entry for part in ("sequence", "setup", "body") for entry in getattr(plan, part)]
    own = {entry.show for entry in entries}
    found = set(own)
    sections = {f"rule:{section.id}": section for section, _page in game.all_sections()}
    for entry in entries:
        section = sections.get(entry.show)
        if section is None or not entry.subsections:
            continue
        stack = list(section.sections)
        while stack:
            sub = stack.pop()
            if f"rule:{sub.id}" not in own:
                found.add(f"rule:{sub.id}")
                stack += sub.sections
    return found


def check_holds(game: Game, problems: Problems) -> None:
    modules = [m.id for m in game.modules]
    solo = [plan for plan in game.aids if plan.aid == SOLO_AID]
    if game.bot is not None and not solo:
        problems.add(game.bot.where(), "the game declares a bot, but no solo-aid plan holds its solo rules",
                     "add to aids.yaml: - aid: solo-aid, with holds: <the solo rules' module> "
                     "(every section of it printed, or listed under leaves_out with why)")
    for plan in game.aids:
        if plan.holds is None:
            if plan.aid == SOLO_AID and game.bot is not None:
                problems.add(plan.where("aid"), "the solo aid does not say which module's rules it holds",
                             "give holds: <module> (the solo rules), every section of it printed or under leaves_out")
            for n, _left in enumerate(plan.leaves_out):
                problems.add(plan.where("leaves_out", n), "leaves_out without holds: left out of what?",
                             "give holds: <module>, or remove leaves_out")
            continue
        if plan.holds not in modules:
            problems.add(plan.where("holds"), f"unknown module '{plan.holds}'",
                         nearest(plan.holds, modules) or "modules: " + ", ".join(modules))
            continue
        held = module_sections(game, plan.holds)
        shown = printed(game, plan)
        left = {}
        for n, item in enumerate(plan.leaves_out):
            if item.show not in held:
                problems.add(item.where("show"), f"{item.show} is not a section of module '{plan.holds}'",
                             nearest(item.show, held) or "leave out only sections of the module the aid holds")
            elif item.show in shown:
                problems.add(item.where("show"), f"{item.show} is printed on the aid, and listed as left out",
                             "remove it from leaves_out")
            left[item.show] = n
        for key in held:
            if key not in shown and key not in left:
                problems.add(plan.where("holds"), f"{key} of module '{plan.holds}' is neither on the {plan.aid} nor under leaves_out",
                             f"print it (show: \"{key}\"), or list it: leaves_out: [{{show: \"{key}\", why: …}}]")

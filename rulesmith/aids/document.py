"""The complete HTML of one aid on one paper size, from templates/pdf/ (one template per aid
kind, shared macros and print CSS, the geometry from templates/pdf/aids.yaml)."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup

from rulesmith import words
from rulesmith.aids import charts, contents, notes, stamp, structure
from rulesmith.aids.context import AidContext, source_mark, titled
from rulesmith.aids.kinds import AidKind, Paper, geometry
from rulesmith.aids.pagerefs import page_mention, pageref
from rulesmith.flowchart.chart import at_once
from rulesmith.project import templates
from rulesmith.site import layout
from rulesmith.text.references import plain_text
from rulesmith.translations.freshness import TRANSLATED
from rulesmith.values import status as statuses

if TYPE_CHECKING:
    from pathlib import Path

    from rulesmith.pipeline import Checked

TEMPLATES = templates()


def css_string(value: str) -> Markup:
    """A value as a quoted CSS string (for the footer's margin boxes): its text, a template's
    escaped words (`_()`) unescaped first."""
    if isinstance(value, Markup):
        value = value.unescape()
    escaped = "".join(c if c.isalnum() or c in " .,:;-_/()%+#&'·–—" else f"\\{ord(c):x} " for c in str(value))
    return Markup(f'"{escaped}"')


@lru_cache(maxsize=4)
def environment(language: str = words.ENGLISH) -> jinja2.Environment:
    """The aids' templates, their own words (`_()`) in a language (an aid of a translated game)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES / "pdf"),
                             autoescape=jinja2.select_autoescape(["html", "html.j2", "css.j2"], default=True),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["css_string"] = css_string
    env.globals["pageref"] = pageref
    env.globals["page_mention"] = partial(page_mention, language=language)
    env.globals["grouped_gaps"] = contents.grouped_gaps
    env.globals["IN_FULL"] = notes.IN_FULL
    env.globals["STATUSES"] = statuses.TABLE
    env.tests["doubtful"] = statuses.doubtful
    env.globals["geometry"] = geometry()
    return words.install(env, language)


def language_of(checked: Checked) -> str:
    """The language an aid of this game prints the tool's words in: that of a game in another
    language (commands/build.in_language) that has a catalog in it, else English."""
    return checked.language if checked.translation is not None and checked.language else words.ENGLISH


def translated_up_to(checked: Checked) -> list[str]:
    """What page 1 of an aid in another language says of its translation (plain text, in that
    language): how far it is current ("translated up to <date>, n entries outdated": the date is
    the catalog's PO-Revision-Date, else the newest day an entry was brought up to date), and that
    no reviewer has checked it while none has. Nothing for an aid in the game's own language."""
    shown = checked.translation
    if shown is None or checked.language is None:
        return []
    said = words.of(checked.language)
    _, ngettext = said.gettext, said.ngettext
    texts = shown.texts()
    day = shown.saved or max((t.current_since for t in texts if t.state == TRANSLATED and t.current_since), default=None)
    counts = shown.counts()
    outdated = counts.outdated
    if day is None:
        line = ngettext("Translated, %(num)d entry outdated", "Translated, %(num)d entries outdated",
                        outdated) % {"num": outdated}
    else:
        line = ngettext("Translated up to %(date)s, %(num)d entry outdated",
                        "Translated up to %(date)s, %(num)d entries outdated",
                        outdated) % {"date": day.isoformat(), "num": outdated}
    lines = [line + "."]
    if counts.missing:
        lines.append(_("%(missing)s of %(total)s texts are not yet translated: they are shown in English, marked.")
                     % {"missing": counts.missing, "total": counts.total})
    if not shown.reviewed:
        lines.append(_("No reviewer has checked this translation yet."))
    return lines


def changelog_qr(checked: Checked, site_url: str) -> tuple[str, Markup] | None:
    """(the address of the game's changelog, its QR code as inline vector SVG) when the site's
    address is known and is an https:// address with a host, else None."""
    import segno

    from rulesmith.checks.check import https_url

    if not site_url:
        return None
    address = site_url.rstrip("/") + "/" + layout.shared_page(checked.game.id, "erratum").removesuffix(".md") + ".html"
    if not https_url(address):
        return None
    svg = segno.make(address, error="m", micro=False).svg_inline(scale=0.5, border=2, unit="mm")
    return address, Markup(titled(svg, f"QR code: {address}"))


def _solo_pages(checked: Checked, ctx: AidContext, paper: Paper, chart_cache: Path) -> list[dict]:
    """Each procedure with its chart laid out for the page, the tables it uses and its gaps."""
    game, index = checked.game, checked.index
    geo = geometry()
    plan = contents.planned(game, index, "solo-aid")
    front = plan["setup"] + plan["body"]  # page 1: the bot's set-up and its other rules
    pages, rooms, seen = [], [], {e.item.id for e in front if e.kind == "table"}
    for procedure in game.procedures:
        tables = contents.procedure_tables(game, index, procedure)
        first = [t for t in tables if t.id not in seen]  # the anchor goes on a table's first page
        seen |= {t.id for t in tables}
        keys = {f"procedure:{procedure.id}"} | {f"table:{t.id}" for t in tables}
        gaps = contents.gaps_in(game, index, keys)
        head = [plain_text(procedure.description or "", index)]
        heading = 9 + charts.text_height(head, paper.content_width, geo)
        extras = sum(ctx.table_height(t, paper.content_width / (2 if len(t.columns) <= 3 else 1), geo.body_pt,
                                      geo.line_height) for t in tables)
        extras = extras / 2 if sum(1 for t in tables if len(t.columns) <= 3) > 1 else extras
        extras += charts.text_height([plain_text(g["title"] + ": " + g["note"], index) for g in gaps],
                                     paper.content_width, geo) + (4 if gaps else 0)
        ruled = [r for key in sorted(keys) for r in ctx.current_rulings(key)]  # printed with the procedure or table
        extras += charts.text_height([plain_text(f"Ruling {r.id} ({r.date}): {r.question} {r.answer}", index)
                                      for r in ruled], paper.content_width, geo) + (2 if ruled else 0)
        pages.append({"procedure": procedure, "tables": tables, "gaps": gaps, "anchored": {t.id for t in first}})
        rooms.append((heading, extras))
    # Placing a chart lays it out: the charts are placed at once (chart.at_once).
    placements = at_once(lambda page, room: charts.place(page["procedure"], index, paper, geo, chart_cache,
                                                         room[0], room[1], say=ctx._), pages, rooms)
    for page, placement in zip(pages, placements, strict=True):
        page["chart"] = placement
    return pages


def left_out(game, index, kind) -> list[tuple[str, str]]:
    """(section name, why) of each section of the module the aid holds that it does not print."""
    plan = game.aid_plan(kind.key)
    return [(index.name(item.show), item.why) for item in (plan.leaves_out if plan else [])]


def render_html(checked: Checked, kind: AidKind, paper: Paper, chart_cache: Path,
                site: dict | None = None) -> str:
    """The complete HTML of one aid on one paper size."""
    game, index = checked.game, checked.index
    shown = contents.shown_keys(game, index, kind)
    site = site or {"name": "", "url": ""}
    language = language_of(checked)
    ctx = AidContext(game, index, shown, site["url"], contents.condensed_cover(game, index, kind), language=language)
    latest = stamp.latest_erratum_in(checked, kind)
    plan = contents.planned(game, index, kind.key)
    variables = {
        "game": game, "index": index, "c": ctx, "aid": kind, "paper": paper, "geometry": geometry(),
        "latest": latest, "latest_text": stamp.latest_erratum_text(latest, words.of(language).gettext),
        "current_to": stamp.current_to(checked, kind), "rulings": stamp.rulings_in(checked, kind),
        "changelog": changelog_qr(checked, site["url"]),
        "date": latest.date.isoformat() if latest else None, "plan": plan,
        "site": site, "gaps": contents.gaps_in(game, index, shown),
        "procedures": [], "bot_tables": [], "procedure_keys": [], "left_out": left_out(game, index, kind),
        "front_gaps": [], "table_gaps": [], "body": [],
        "lang": language if language != words.ENGLISH else game.info.language, "translation": translated_up_to(checked),
        "english_mark": source_mark(game) if checked.translation is not None and checked.translation.counts().missing else None}
    if kind.key == "solo-aid":
        variables["procedures"] = _solo_pages(checked, ctx, paper, chart_cache)
        variables["procedure_keys"] = sorted({g["key"] for page in variables["procedures"] for g in page["gaps"]})
        used = {t.id for page in variables["procedures"] for t in page["tables"]}
        used |= {e.item.id for e in plan["setup"] + plan["body"] if e.kind == "table"}
        # The bot's other tables (those its rules use, not a procedure) go after the procedures.
        variables["bot_tables"] = [t for t in contents.bot_tables(game, index) if t.id not in used]
        # Each block's notes print with it, on the page of its marks: page 1's matter, the bot's
        # other tables, the solo rules (each procedure's are on its page, _solo_pages).
        front = set().union(*[contents.entry_keys(game, e) for part in ("sequence", "setup") for e in plan[part]])
        variables["front_gaps"] = contents.gaps_in(game, index, front)
        variables["table_gaps"] = contents.gaps_in(game, index, {f"table:{t.id}" for t in variables["bot_tables"]})
        variables["body"] = [(e, contents.gaps_in(game, index, contents.entry_keys(game, e))) for e in plan["body"]]
    return notes.clear(structure.alt_texts(environment(language).get_template(kind.template).render(**variables)))

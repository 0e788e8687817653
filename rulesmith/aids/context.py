"""What an aid's template may ask about the content on paper: a reference is an in-document link
when its target is on this aid (with its page number), plain text otherwise; an unknown or
doubtful printed value is a compact mark that the legend on page 1 explains once."""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING

from markupsafe import Markup

from rulesmith import words
from rulesmith.aids import notes
from rulesmith.aids.charts import text_lines
from rulesmith.aids.pagerefs import page_mention
from rulesmith.content import affects, marks, model, provenance
from rulesmith.content.items import TABLE, all_items, page_item
from rulesmith.site import layout
from rulesmith.site.pages import PageContext
from rulesmith.text.escape import html_text
from rulesmith.text.references import Output, icon_html
from rulesmith.values import outcomes
from rulesmith.values import status as statuses
from rulesmith.values.fieldtypes import Value

if TYPE_CHECKING:
    from rulesmith.content.game import Game
    from rulesmith.content.link import Index

LONG_TABLE_LINES = 16  # a table of more lines than this may break between its rows


def source_mark(game: Game) -> str:
    """The mark of a text on an aid in another language shown in the game's own: its language's
    code ("EN"), framed (print.css)."""
    return game.info.language.upper()


class AidContext(PageContext):
    def __init__(self, game: Game, index: Index, anchors: set[str], site_url: str = "",
                 covered: dict[str, str] | None = None, language: str = words.ENGLISH):
        super().__init__(game, index, page="", language=language)  # a translated game's marks in its language
        self.anchors, self.site_url = anchors, site_url
        self.covered = covered or {}  # subsection key -> the condensed section on the aid that stands for it

    @staticmethod
    def anchor(key: str) -> str:
        return "x-" + key.replace(":", "--")

    def on_aid(self, key: str) -> str:
        """The key this aid prints a key under: its own, or the condensed section standing for it."""
        return key if key in self.anchors else self.covered.get(key, key)

    def href(self, key: str) -> str | None:
        key = self.on_aid(key)
        return "#" + self.anchor(key) if key in self.anchors else None

    def address(self, key: str) -> str | None:
        return self.href(key)

    @property
    def output(self) -> Output:
        """On paper: a link to what is on this aid, with its page number; the rest by name; a
        gap's mark holds the place its note may be called from (notes.at)."""
        return AidOutput(self.index, self.href, icon=self.icon, marker=self.value_marker,
                         after_link=lambda key: str(page_mention(self.anchor(self.on_aid(key)), self.language)))

    # ---- notes at the foot of the page of their mark (aids/notes.py)

    @staticmethod
    def note_at(key: str, inner: str | None = None) -> Markup:
        """The place a note about an item (or a field or cell "row.column" of it) is called from."""
        return Markup(notes.at(key + (f"#{inner}" if inner else "")))

    @staticmethod
    def cell_key(table: model.Table, row: list, column: int) -> str:
        return affects.cell_key(table, row, column)

    def with_notes(self, html: str, groups: list[dict], note) -> Markup:
        """A block of the aid with each of its notes called from its mark (`note(c, group)`
        renders one)."""
        return Markup(notes.placed(str(html), [(group["places"], str(note(self, group))) for group in groups]))

    def _place(self, html: str) -> Markup:
        return Markup(html)

    @staticmethod
    def translation_icon() -> str:
        """On paper a translation's mark is its words, framed (print.css), without the site's icon."""
        return ""

    # After a text, its mark is bound to the text's last word (a no-break space): it ends the
    # text's last line, never a line of its own (a cell's "concluded" then "EN" alone under it).
    before_mark = "\u00a0"

    def missing_words(self) -> str:
        """On paper a text shown in English is marked compactly, by its language's code framed
        (source_mark), which the legend on page 1 explains once (the site's words beside every
        text had made the German Deep State rules summary 10 pages, its English 8)."""
        return f"<em>{source_mark(self.game)}</em>"

    # ---- the card reference's compact line references (content/provenance.py)

    def line_ref(self, key: str) -> Markup:
        """Where an entry comes from, compactly: "GC 233–240, 270–271; HS 5" (the rulebook texts'
        short names and line ranges), or nothing where the source map names no line of it."""
        found = self.provenances.of(key)
        parts = [f"{provenance.short_name(source)} " + ", ".join(
            f"{first}–{last}" if last > first else str(first) for first, last in provenance.reference(passages))
            for source, passages in found.by_source()]
        return Markup(html_text("; ".join(parts)))

    def line_ref_sources(self) -> list[tuple[str, str]]:
        """(short name, title) of each rulebook text a line reference may name: the legend."""
        return [(provenance.short_name(s), s.title) for s in self.game.info.sources]

    def condensed_gaps(self, entry) -> str:
        """The markers of the gaps that affect a condensed section or any subsection it stands
        for, unless its condensed wording names them."""
        from rulesmith.aids.contents import subsection_keys

        keys = [entry.key] + (subsection_keys(entry) if entry.kind == "rule" else [])
        return Markup(self._gap_markers(marks.gaps_within(self.game, self.index, keys, already=entry.condensed or "")))

    def step_gaps(self, procedure: model.Procedure, node: model.Node) -> str:
        """The markers of the gaps that affect a step, but those its own text names already:
        on a procedure's page room is short, and the reader meets the gap in the step's words."""
        return self._place(self._gap_markers(marks.gaps(self.game, self.index, f"procedure:{procedure.id}", node.id,
                                                        already=node.text or "")))

    def icon(self, name: str) -> str:
        return titled(icon_html(self.index, name), self.index.icons[name]["label"])

    def marker(self, status: str, note: str, short: bool = False, names: str = "") -> str:
        """The status's mark only (one per status, values/status.py): the aids' legend says what
        each means, in words, not colour (note and names are the site's)."""
        mark = statuses.of(status).mark
        return Markup(f'<span class="rs-gap rs-gap--{status}">{html.escape(mark)}</span>')

    def value_marker(self, status: str, note: str) -> str:
        """After a doubtful value in a text: its mark, and its note beside it (on paper the reader
        has no other way to tell which of two printed numbers holds, or why)."""
        mark = self.marker(status, "")
        return Markup(f'{mark} <span class="mark-note">({html.escape(note)})</span>') if note else mark

    @staticmethod
    def gap_reference_mark() -> Markup:
        """The mark a text's reference to a gap prints before the gap's title (for the legend)."""
        from rulesmith.text.references import GAP_MARK

        return Markup(GAP_MARK)

    def current_rulings(self, key: str) -> list[model.Ruling]:
        """The current rulings about an item, newest first, printed with it on the aid."""
        return [r for r in self.game.rulings_about(key) if r.status == "current"]

    def field_label(self, erratum: model.Erratum) -> str:
        """The value an erratum changed, as readers know it (plain text)."""
        return outcomes.field_label(self.game, self.index, erratum)

    @staticmethod
    def check_source_marks() -> list[str]:
        """The marks of the statuses that send readers to the printed source (the legend says so
        after them; the others, such as our reading, are explained on the site)."""
        return [s.mark for s in statuses.marked() if s.check_source]

    def legend(self) -> list[tuple[str, str]]:
        """(mark, meaning) for the legend, in a fixed order."""
        return [(s.mark, self._(s.label)) for s in statuses.marked()]

    def page_example(self) -> tuple[str, str] | None:
        """(name, anchor) of something on this aid, for the legend's example of a page reference:
        the first table on it, else its first item (in the registry's order)."""
        for _type, key, _item in sorted(all_items(self.game), key=lambda found: found[0] is not TABLE):
            if key in self.anchors:
                return self.index.name(key), self.anchor(key)
        return None

    def ref(self, key: str) -> Markup:
        return Markup(self.output.link(key, self.index.name(key)))

    def full_text_at(self, key: str) -> str:
        """Where the site prints an item in full: its address when the site's is known, else
        the path a reader follows in the site's navigation (page title › section title)."""
        page, anchor = layout.page_of(self.game, key)
        if self.site_url:
            return self.site_url + page.removesuffix(".md") + ".html" + (f"#{anchor}" if anchor else "")
        host = page_item(self.game, key)  # a subsection is read on its section's page
        return f"{self.index.name(host)} › {self.index.name(key)}" if host != key else self.index.name(key)

    def in_full_places(self, entry) -> list[tuple[str, str]]:
        """(names, where) of the parts a condensed block leaves conditions to, one per page of the
        site (a section with its subsections, a kind's page with its entities): the aid points to
        each page once, naming what to read there. With the site's address, `where` is the page's
        (the part's own, anchor and all, where it is the page's only one); without it, the path a
        reader follows ("The round › Storms"), and no names."""
        pages: dict[str, list[str]] = {}
        for pointer in entry.in_full:
            keys = pages.setdefault(layout.page_of(self.game, pointer.part)[0], [])
            if pointer.part not in keys:
                keys.append(pointer.part)
        places = []
        for page, keys in pages.items():
            names = ", ".join(self.index.name(key) for key in keys)
            if len(keys) == 1:
                places.append((names if self.site_url else "", self.full_text_at(keys[0])))
            elif self.site_url:
                places.append((names, self.site_url + page.removesuffix(".md") + ".html"))
            else:
                host = page_item(self.game, keys[0])
                places.append(("", f"{self.index.name(host)} › {names}" if host not in keys else names))
        return places

    def kind_of(self, entity: model.Entity) -> model.Kind:
        return self.game.kind_of(entity)

    def known(self, kind: model.Kind) -> int:
        return len([e for e in self.game.entities_of(kind.id) if e.status != "missing"])

    def split_fields(self, entity: model.Entity, text: bool):
        """(fields with a value, fields marked missing) of an entity, text fields or the others."""
        shown: list[model.FieldDef] = []
        missing: list[model.FieldDef] = []
        for spec in self.kind_of(entity).fields:
            if (spec.field_type.text_format == "markdown") != text or spec.id not in entity.fields:
                continue
            (missing if Value.of(entity.fields[spec.id]).missing else shown).append(spec)
        return shown, missing

    def table_lines(self, table: model.Table) -> int:
        """About how many lines a table takes (to keep short ones in one piece)."""
        width = 36 / max(1, len(table.columns))
        return 3 + sum(max([1, *(math.ceil(len(plain_value(cell)) / max(width, 8)) for cell in row)])
                       for row in table.rows)

    def narrow(self, table: model.Table) -> bool:
        """Fits half the page width: few columns of short cells."""
        widths = [max([len(c.title), *(len(plain_value(row[i])) for row in table.rows if i < len(row))])
                  for i, c in enumerate(table.columns)]
        return sum(min(w, 40) for w in widths) <= 60

    def long(self, table: model.Table) -> bool:
        """Long enough to break between its rows (its header repeated) rather than move whole."""
        return self.table_lines(table) > LONG_TABLE_LINES

    def table_rows(self, tables: list[model.Table]) -> list[list[model.Table]]:
        """Tables in print order, two narrow short ones side by side (a long one runs on over
        pages, and a side-by-side pair would move to the next page in one piece)."""
        rows: list[list[model.Table]] = []
        pairable = lambda t: self.narrow(t) and not self.long(t)  # noqa: E731
        for table in tables:
            if pairable(table) and rows and len(rows[-1]) == 1 and pairable(rows[-1][0]):
                rows[-1].append(table)
            else:
                rows.append([table])
        return rows

    def table_height(self, table: model.Table, width_mm: float, body_pt: float, line_height: float) -> float:
        """A generous estimate (mm) of a table set at this width (the solo aid sizes charts by it)."""
        columns = max(1, len(table.columns))
        line = body_pt * line_height / 2.835 + 1.1
        rows = [[c.title for c in table.columns]] + [[plain_value(v) for v in row] for row in table.rows]
        height = sum(max(text_lines(str(cell) or "-", width_mm / columns - 2, body_pt) for cell in row) * line
                     for row in rows)
        return height + 8 + (4 if table.description else 0)


class AidOutput(Output):
    """References as an aid prints them: a gap's mark is also where its note is called from."""

    def reference(self, target: str, label: str | None) -> str:
        shown = super().reference(target, label)
        return shown + notes.at(target) if target.startswith("gap:") else shown


def titled(svg_html: str, label: str) -> str:
    """Inline SVG with a <title>: the text alternative of a figure in the tagged PDF."""
    title = f"<title>{html.escape(label)}</title>"
    return re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + title, svg_html)


def plain_value(value) -> str:
    value = Value.of(value).value
    value = "" if value is None else value
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

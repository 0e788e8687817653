"""Site pages: every game's content as Markdown pages for MkDocs, filled from templates/site/.

Templates decide how things look; this module only decides which pages exist, what each
receives, and the navigation. A new entity kind renders with the generic `kind.md.j2` until
someone writes `kinds/<kind>.md.j2`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from rulesmith import fingerprint, words
from rulesmith.content import affects, marks, model, provenance
from rulesmith.content.items import EXAMPLE, ITEM_TYPES, PROCEDURE, items_of, key_of, name_of, tag_of, type_of
from rulesmith.files import write_atomic
from rulesmith.flowchart.chart import inline_svg, numbering
from rulesmith.format import reference as formatref
from rulesmith.project import templates
from rulesmith.site import layout, rulebook
from rulesmith.site.botturn import companion_json, reached_procedures, state_choices, tables_read
from rulesmith.site.overview import bot_turn, play
from rulesmith.site.walker import walker_procedures, walker_steps
from rulesmith.text import html as text_html
from rulesmith.text.escape import html_text, markdown_value
from rulesmith.text.escape import markdown_inline as escape_inline
from rulesmith.text.escape import url as escape_url
from rulesmith.text.glyphs import glyph_svg
from rulesmith.text.placed import placed
from rulesmith.text.references import Output, plain_text
from rulesmith.translations import catalog as catalogs
from rulesmith.translations import translated
from rulesmith.values import addresses, fieldtypes, outcomes
from rulesmith.values import references as values
from rulesmith.values import status as statuses
from rulesmith.values.expressions import plain
from rulesmith.values.fieldtypes import Value

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

    from rulesmith.content.game import Game
    from rulesmith.content.link import Index
    from rulesmith.pipeline import Checked

TEMPLATES = templates()
log = logging.getLogger(__name__)


@dataclass
class Page:
    path: str  # relative to the docs folder
    text: str


@dataclass
class Site:
    pages: list[Page] = field(default_factory=list)
    nav: list = field(default_factory=list)


@lru_cache(maxsize=4)  # compiled templates are kept; Jinja reloads a template whose file changed
def environment(language: str = words.ENGLISH) -> jinja2.Environment:
    """The site's templates, with the tool's words in `language` (rulesmith/words.py: `_("…")`)."""
    # Escape by default: every `{{ value }}` is escaped for Markdown and HTML (markup.markdown_value)
    # unless it is Markup: checked Markdown (PageContext.md) or markup this package built.
    # `autoescape` makes macros return Markup, so their output is not escaped twice.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / "site"), autoescape=True, finalize=markdown_value,
        # Comments are {## … ##} because Markdown attribute lists use {#id}.
        comment_start_string="{##", comment_end_string="##}",
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["inline"] = env.filters["e"] = env.filters["escape"] = markdown_value
    env.filters["url"] = lambda url: Markup(escape_url(url))
    env.globals["STATUSES"] = statuses.TABLE
    env.tests["doubtful"] = statuses.doubtful
    env.globals["SOURCE_LABELS"] = layout.SOURCE_LABELS
    env.globals["reads_data"] = values.reads_data
    env.globals["value_inputs"] = values.value_inputs
    env.globals["value_owner"] = values.owner
    env.globals["shown"] = fieldtypes.shown
    env.globals["walker_steps"] = walker_steps
    env.globals["walker_procedures"] = walker_procedures
    return words.install(env, language)


# Where a block's last line of text ends: before the closing tags of its last paragraph, list
# item or table cell (and the lists, rows, table or quote around it) at the very end of the HTML:
# a text that ends in a table ends it in its last row's last cell.
LAST_LINE_END = re.compile(r"(?:</p>|</li>|</td>)(?:\s*</(?:p|li|ul|ol|td|tr|tbody|table|blockquote)>)*\s*$")

# An element that makes HTML a block (a span around it would not be valid HTML).
BLOCKS = re.compile(r"<(?:p|ul|ol|dl|table|div|blockquote|pre|h[1-6])\b")


class PageContext:
    """What a template may ask about the content, relative to the page it renders."""

    def __init__(self, game: Game, index: Index, page: str, provenances: provenance.Provenances | None = None,
                 language: str = words.ENGLISH):
        self.game, self.index, self.page = game, index, page
        self.language = language
        self.source = game.info.language  # the language the game's own texts are written in
        self._ = words.of(language).gettext  # the tool's own words, in the site's language
        self._provenances = provenances
        self._converted: dict[str, str] = {}  # html()'s answers: the same text on one page is converted once

    # Every method a template calls returns Markup (text it may print as it is) or plain data;
    # inside, text is built as str and marked only on the way out. Content text is converted to
    # HTML once (text/html.py) and placed as that HTML (`_place`: on the site a token that the
    # page shows as exactly that HTML, text/placed.py; on an aid, aids/context.py, the HTML).

    def href(self, key: str) -> str | None:
        """The Markdown link target of a key from this page, for a template's own links (the
        engine resolves and checks them)."""
        target_page, anchor = layout.page_of(self.game, key)
        return Markup(escape_url(layout.link(self.page, target_page, anchor)))

    def address(self, key: str) -> str | None:
        """The address of a key from this page as the built site has it, for links in HTML."""
        target_page, anchor = layout.page_of(self.game, key)
        return layout.built_link(self.page, target_page, anchor)

    @property
    def output(self) -> Output:
        """How this page shows what content text refers to."""
        return Output(self.index, self.address, marker=lambda status, _note: self._marker(status, "", short=True), say=self._)

    def _place(self, html: str) -> Markup:
        return placed(html)

    def anchor(self, key: str) -> str:  # Markup at run time (see md)
        """The anchor of a key on its own page (page_of), for the element that carries it."""
        return Markup(escape_url(layout.page_of(self.game, key)[1]))

    def listed(self, key: str) -> Markup:
        """A link from a marked place to its row on the Gaps in the source page (the row links back)."""
        _ = self._
        listed = html_text(_("Listed in the gaps in the source"))
        return Markup(f'<small class="rs-listed">[{listed}]'
                      f'({self.to(layout.shared_page(self.game.id, "gap"), layout.gap_row_anchor(key))})</small>')

    def to(self, path: str, anchor: str = "") -> Markup:
        return Markup(escape_url(layout.link(self.page, path, anchor)))

    def shared_page(self, prefix: str) -> Markup:
        """The link to the one page every target of a type is on ("table": the tables page,
        "gap": Gaps in the source, "erratum": the changelog, "bot": the Bot turn page)."""
        return self.to(layout.shared_page(self.game.id, prefix))

    def html(self, text: str | None) -> str:
        """The HTML of a Markdown field of the content: the one conversion, sanitized. A text met
        again on the same page (its "From the rulebook" fold repeats the item's text) is not
        converted again: the conversion depends only on the text and this page."""
        if not text:
            return ""
        if text not in self._converted:
            self._converted[text] = str(text_html.convert(text, self.output))
        return self._converted[text]

    def md(self, text: str | None) -> str:
        """A Markdown field of the content, as blocks (a paragraph, a list …). The mark of a text
        not yet translated ends its last paragraph, list item or table cell (in the page's
        language): on a line of its own it would cost a line at every such text, and could part
        from its text at a page's end (a German aid's page began with a mark alone)."""
        html = self.html(text)
        last = LAST_LINE_END.search(html) if translated.missing(text) else None
        if last:
            at = last.start()
            return self._place(self._in_english(text, html[:at] + self.translation_mark(text, in_english=True) + html[at:],
                                                block=True))
        return self._place(self._in_english(text, html, block=True) + self.translation_mark(text, block=True))

    def inline(self, text: str | None) -> str:
        """A Markdown field on a line (after a label, in a list item): one paragraph without its <p>."""
        return self._place(self._in_english(text, text_html.inline(self.html(text))) + self.translation_mark(text))

    def cell(self, text: str | None) -> str:
        """A Markdown field in a table cell."""
        return self._place(self._in_english(text, text_html.cell(self.html(text))) + self.translation_mark(text))

    def lead(self, label: str, text: str | None, stop: str = "") -> str:
        """A Markdown field after a bold label that opens its first paragraph ("Question." …).
        A label that is a text of the game (the Bot turn's title) carries its own mark, as the
        text does; `stop` ends the label (given apart: a template's `~` would make the label a
        plain str, which no longer knows how its translation stands)."""
        label_html = (f"<strong>{self._in_english(label, html_text(label))}{html_text(stop)}</strong>"
                      + self.translation_mark(label))
        # str(): with_lead's Markup would escape the mark's HTML added to it (shown as its tags)
        return self._place(str(text_html.with_lead(self._in_english(text, self.html(text), block=True), label_html))
                           + self.translation_mark(text, block=True))

    def _in_english(self, text: str | None, html: str, block: bool = False) -> str:
        """A text shown in the game's own language on a page in another (its translation
        missing, or the game not translated: translated.in_source), said to be in it (`lang`:
        read aloud, hyphenated and searched in that language)."""
        if not html or not translated.in_source(text, self.game, self.language):
            return str(html)
        if block or BLOCKS.search(html):  # a span may not hold a paragraph (a cell's text of two)
            return f'<div lang="{self.source}">{html}</div>'
        return f'<span lang="{self.source}">{html}</span>'

    def heading(self, text: str | None, key: str | None = None) -> Markup:
        """The attribute list of a Markdown heading (or a glossary's term) titled `text`: the
        anchor of `key` and, for a text shown in the game's own language on a page in another,
        its `lang` (read aloud and hyphenated in it, as the texts under it are); nothing when it
        has neither."""
        anchor = self.anchor(key) if key else ""
        attributes = [a for a in (f"#{anchor}" if anchor else "", self.english(text).strip()) if a]
        return Markup(" {" + " ".join(attributes) + "}" if attributes else "")

    def english(self, text: str | None) -> Markup:
        """` lang="…"` (the game's own language) for an element that holds a plain text shown in
        that language on a page in another (translated.in_source), else nothing."""
        return Markup(f' lang="{self.source}"' if translated.in_source(text, self.game, self.language) else "")

    def translation_mark(self, text: str | None, block: bool = False, in_english: bool = False) -> str:
        """What a reader of another language is shown beside a text that is not plainly translated
        (translations/translated.py says how it stands): a missing one is the English, marked "not
        yet translated" (in the English's language); an outdated one is the translation, marked
        with the day the English changed, the current English beside it. `block`: after a block
        (a paragraph, a list), else on its line (a cell, after a label); `in_english`: on a line of
        the English text, so said to be in the page's language."""
        found = translated.mark(text)
        if found is None:
            return ""
        _ = self._
        icon = self.translation_icon()
        if found.state == translated.MISSING:
            return self.missing_mark(block, in_english)
        said = html_text(_("Outdated translation: the English changed on %(date)s") % {"date": found.changed.isoformat()}
                         if found.changed else _("Outdated translation: the English changed"))
        english = self.html(found.english or "") if block else text_html.inline(self.html(found.english or ""))
        now = html_text(_("The English now reads:"))
        if block:
            return (f'<div class="rs-translation rs-translation--outdated"><p>{icon}<em>{said}</em> {now}</p>'
                    f'<div lang="{self.source}">{english}</div></div>')
        return (f' <span class="rs-translation rs-translation--outdated">{icon}<em>{said}</em> {now} '
                f'<span lang="{self.source}">{english}</span></span>')

    # What joins a mark to the text before it on a line (an aid binds it to the text's last word).
    before_mark = " "

    def missing_mark(self, block: bool = False, in_english: bool = False) -> str:
        """The mark of a text shown in English because it is not yet translated (missing_words),
        a paragraph of its own after a block, else after the text on its line; `in_english`: on a
        line of the English text, so said to be in the page's language."""
        lang = f' lang="{self.language}"' if in_english else ""
        shown = f'<span class="rs-translation rs-translation--missing"{lang}>{self.missing_words()}</span>'
        return f"<p>{shown}</p>" if block else self.before_mark + shown

    def missing_words(self) -> str:
        """The words of a missing text's mark: its icon, then "not yet translated" in the page's language."""
        said = html_text(self._("Not yet translated: in English"))  # outside the f-string: Babel extracts it
        return self.translation_icon() + f"<em>{said}</em>"

    @staticmethod
    def translation_icon() -> str:
        """The icon before a translation's mark (the aids print the mark's words alone)."""
        return glyph_svg("material/translate")

    def summary(self, text: str | None) -> Markup:
        """One line about a game for its home-page card: the first sentence (up to a colon) of a
        text, as plain escaped text."""
        first = plain_text(text or "", self.index).split("\n\n")[0].replace("\n", " ")
        first = first.split(". ")[0].split(": ")[0].rstrip(".")
        return Markup(escape_inline(first + ".") if first else "")

    def name(self, key: str) -> str:
        return self.index.name(key)

    def ref(self, key: str) -> str:
        return Markup(f"[{escape_inline(self.index.name(key))}]({self.href(key)})")

    def backlinks(self, key: str) -> list[str]:
        return [k for k in self.index.backlinks.get(key, []) if k in self.index.targets]

    def labelled_ref(self, key: str) -> Markup:
        """A link followed by what the target is, so two things of the same name stay apart; not
        where the name says it already ("Trend Table", not "Trend Table (table)")."""
        tag = tag_of(self.game, key)
        if self.game.kind(key.partition(":")[0]) is None:  # the tool's word for the type, not a kind's own name
            tag = self._(tag)
        if re.search(rf"(?i)(?<![\w-]){re.escape(tag)}$", self.index.name(key)):
            return Markup(self.ref(key))
        return Markup(f"{self.ref(key)} <small>({escape_inline(tag)})</small>")

    def value(self, raw, spec, entity_status: str = statuses.VERIFIED, short: bool = False) -> Markup:
        """A field or cell value with its status marker where it has one."""
        return self._place(self.value_html(raw, spec, entity_status, short))

    def value_html(self, raw, spec, entity_status: str = statuses.VERIFIED, short: bool = False) -> str:
        mark = marks.value(raw, entity_status)
        if mark is not None and (raw is None or mark.status == "missing"):
            return self._marker(mark.status, mark.note, short)
        if raw is None:
            return "—"
        shown = self._value(Value.of(raw).value, spec)
        if mark is not None:
            shown += " " + self._marker(mark.status, mark.note, short)
        return shown

    def repeated_notes(self, table: model.Table) -> dict[int, tuple[str, str]]:
        """Per column, the status and note most of its cells share (at least 3 cells, half the
        rows): the site shows it once under the table and each of those cells only its marker, so a
        note repeated in every row does not make the table screens tall (issue 43)."""
        found: dict[int, tuple[str, str]] = {}
        for c in range(len(table.columns)):
            counts: dict[tuple[str, str], int] = {}
            for row in table.rows:
                cell = Value.of(row[c]) if c < len(row) and row[c] is not None else None
                if cell is not None and cell.doubtful and cell.note:
                    counts[(cell.status, cell.note)] = counts.get((cell.status, cell.note), 0) + 1
            if counts:
                shared, times = max(counts.items(), key=lambda pair: pair[1])
                if times >= 3 and 2 * times >= len(table.rows):
                    found[c] = shared
        return found

    def cell_value(self, table: model.Table, row: list, column: int, repeated: dict[int, tuple[str, str]]) -> Markup:
        """A table cell: its value and marker; its note unless it is the column's repeated one."""
        raw, spec = row[column], table.columns[column]
        cell = Value.of(raw) if raw is not None else None
        if column in repeated and cell is not None and (cell.status, cell.note) == repeated[column] and cell.value is not None:
            return self._place(self._value(cell.value, spec) + " " + self._marker(cell.status, "", short=True))
        return self.value(raw, spec)

    def repeated_note(self, table: model.Table, column: int, shared: tuple[str, str]) -> Markup:
        """Under a table: the note its column's marked cells share, said once."""
        title = html_text(table.columns[column].title)
        _ = self._
        every = html_text(_("every marked row:"))
        return self._place(f"<em>{title}</em>, {every} " + self._marker(shared[0], shared[1]))

    def _value(self, value, spec) -> str:
        """A value as its field type shows it (fieldtypes.shown), a reference as a link, Markdown as HTML."""
        kind = spec.field_type
        item = kind.item if isinstance(kind, fieldtypes.ListType) else kind
        if isinstance(value, list):
            return ", ".join(self._value(v, spec) for v in value) or "—"
        if isinstance(item, fieldtypes.RefType) and f"{spec.to}:{value}" in self.index.targets:
            key = f"{spec.to}:{value}"
            return self.output.link(key, self.index.name(key))
        if item.text_format == "markdown":
            shown = str(text_html.cell(self.html(str(value))))
        else:
            shown = html_text(fieldtypes.shown(value, item))
        # a text of the game on a page in another language: said to be in the game's own where
        # it is shown in it, and marked where its translation is not plain
        return self._in_english(value, shown) + self.translation_mark(value) if isinstance(value, str) else shown

    def step_number(self, target: str, node_id: str) -> str:
        """The number readers see for a procedure's node (the flowchart's and the list's)."""
        item = self.index.targets.get(target)
        procedure = getattr(item, "item", None)
        if isinstance(procedure, model.Procedure):
            return numbering(procedure).get(node_id, node_id)
        return node_id

    def check_where(self, item) -> str:
        """What a reader checks where the data is not (fully) from the source: the printed card for
        a card or component, the printed rulebook for a rule, a table, a procedure or an example."""
        _ = self._
        return _("check the printed card") if isinstance(item, model.Entity) else _("check the printed rulebook")

    def coverage(self, kind: model.Kind) -> str:
        """How much of a kind the source gives: "6 of 7 in the source, 1 reconstructed"."""
        given, rebuilt = coverage(self.game, kind)
        _ = self._
        shown = (_("%(given)s of %(count)s in the source") % {"given": given, "count": kind.count} if kind.count is not None
                 else _("%(given)s in the source") % {"given": given})
        return shown + (", " + _("%(count)s reconstructed") % {"count": rebuilt} if rebuilt else "")

    def complete(self, kind: model.Kind) -> bool:
        """Whether the source gives every one of a kind (none missing, none reconstructed)."""
        return kind.count is None or coverage(self.game, kind)[0] >= kind.count

    def missing_fields(self, entity: model.Entity) -> list[str]:
        """Names of this entity's fields that the source does not give (one marker names them all)."""
        kind = self.game.kind_of(entity)
        return [spec.name for spec in kind.fields if Value.of(entity.fields.get(spec.id)).missing]

    def marker(self, status: str, note: str, short: bool = False, names: str = "") -> str:
        return self._place(self._marker(status, note, short, names))

    def _marker(self, status: str, note: str, short: bool = False, names: str = "") -> str:
        """A quiet marker (HTML): an icon and a few words naming what is missing or doubtful. What
        it means ("check the printed card") is said once per page by legend(); the note follows
        only where the marker stands alone (not in a table cell)."""
        found = statuses.of(status)
        text = html_text(self._(found.short if short else found.label))
        if names:
            text += ": " + html_text(names)
        shown = f'<span class="rs-gap rs-gap--{status}">{glyph_svg("material/alert-outline")}<em>{text}</em></span>'
        if note and not short:
            shown += " " + str(text_html.inline(self.html(note)))
        return shown

    # ---- gaps shown where they are met: the places each gap `affects` (rulesmith/content/affects.py)

    @staticmethod
    def item_key(item) -> str:
        """kind:id of a content item (a section is rule:id, an entity its kind:id)."""
        return key_of(type_of(item), item)

    def gaps_at(self, key: str, inner: str | None = None, already: str = "") -> Markup:
        """The markers of the gaps that affect an item (or a field, cell "row.column" or step of
        it): each the gap's marker and a link to it, as a [[gap:…]] reference renders; a gap the
        text `already` refers to is not repeated."""
        return self._place(self._gap_markers(marks.gaps(self.game, self.index, key, inner, already)))

    def _gap_markers(self, gaps: list[model.Gap]) -> str:
        return " ".join(self.output.reference(f"gap:{g.id}", None) for g in gaps)

    def step_marks(self, procedure: model.Procedure, node: model.Node) -> Markup:
        """The marks of a step shown alone (the walker, the Bot turn page: marks.step): the
        procedure's own status where the walk enters it, then the gaps, each as on its page."""
        shown = []
        for mark in marks.step(self.game, self.index, procedure, node):
            shown.append(self.output.reference(f"gap:{mark.gap.id}", None) if mark.gap
                         else self._marker(mark.status, mark.note))
        return self._place(" ".join(shown))

    def item_gaps(self, item) -> Markup:
        """The markers of the gaps that affect an item as a whole, unless its own text names them."""
        if not any(type(item) is item_type.model for item_type in ITEM_TYPES):
            return Markup("")  # not an item a gap can name (the bot's turn): its own status marks it
        own = " ".join(str(getattr(item, name, "") or "") for name in ("body", "text", "description", "definition", "note"))
        return self.gaps_at(self.item_key(item), already=own)

    def cell_gaps(self, table: model.Table, row: list, column: int) -> Markup:
        return self.gaps_at(f"table:{table.id}", affects.cell_key(table, row, column))

    def field_gaps(self, entity: model.Entity, field_id: str, short: bool = False) -> Markup:
        """The markers of the gaps that affect a field, unless its note, printed beside its value
        (not when the value is shown `short`, as value() does), names them."""
        noted = "" if short else str(entity.fields.get(field_id) or "")
        return self.gaps_at(f"{entity.kind}:{entity.id}", field_id, already=noted)

    def step_gaps(self, procedure: model.Procedure, node: model.Node) -> str:  # Markup at run time (see md)
        """The markers of the gaps that affect a step, unless the step's own text names them."""
        return self.gaps_at(f"procedure:{procedure.id}", node.id, already=node.text)

    def affected_places(self, gap: model.Gap) -> list[Markup]:
        """The places a gap affects as links a reader follows: the item's name, then the field,
        the cell (row / column) or the step number."""
        shown = []
        for address in gap.affects or []:
            try:
                place = affects.parse(self.index, address)
            except values.ValueError_:
                continue
            link = str(self.ref(place.key))
            item: Any = self.index.targets[place.key].item
            if place.step is not None:
                link += f", step {self.step_number(place.key, place.step)}"
            elif place.field is not None:
                link += ": " + escape_inline(field_name(self.game, item, place.field))
            elif place.row is not None:
                row = values.row_of(item, place.row)
                column = next(c.title for c in item.columns if c.id == place.column)
                link += ": " + escape_inline(f"{row_label(self.game, item, row)} / {column}")
            shown.append(Markup(link))
        return shown

    def has_gaps(self, prefix: str) -> bool:
        """Whether any marked place's key starts with `prefix` (say "table:"): the page's legend."""
        return any(gap["key"].startswith(prefix) for gap in gaps_of(self.game))

    def errata_for(self, key: str) -> list:
        """Errata that changed this item, newest first (the 'changed by erratum' marker)."""
        return sorted((e for e in self.game.errata if e.target == key), key=lambda e: (e.date, e.id), reverse=True)

    def rulings_for(self, key: str) -> list[model.Ruling]:
        """The rulings about this item, newest first (current and superseded alike)."""
        return self.game.rulings_about(key)

    def history(self, key: str) -> list[tuple[str, model.Erratum | model.Ruling]]:
        """("erratum" | "ruling", record) of everything that changed or ruled on this item, oldest first."""
        found: list[tuple[str, model.Erratum | model.Ruling]] = [("erratum", e) for e in self.game.errata if e.target == key]
        found += [("ruling", r) for r in self.game.rulings if key in r.about]
        return sorted(found, key=lambda pair: (pair[1].date, pair[0] == "ruling", pair[1].id))

    def changes(self) -> list[tuple[str, model.Erratum | model.Ruling]]:
        """("erratum" | "ruling", record) of the game's changelog, newest first (on one day, the
        later record first)."""
        found: list[tuple[tuple[datetime.date, int], str, model.Erratum | model.Ruling]] = [
            ((e.date, n), "erratum", e) for n, e in enumerate(self.game.errata)]
        found += [((r.date, n), "ruling", r) for n, r in enumerate(self.game.rulings)]
        return [(what, x) for _, what, x in sorted(found, key=lambda t: (t[0][0], t[1] == "ruling", t[0][1]), reverse=True)]

    def outcome(self, example: model.Example):
        """How an arithmetic example works out now and as printed (outcomes.Outcome), or None."""
        return outcomes.outcome(self.game, self.index, example)

    def erratum_label(self, erratum: model.Erratum) -> Markup:
        """What an erratum changed and to what, as readers know it (escaped Markdown):
        "Nigeria, Conflict threshold (D3): 2"."""
        return Markup(escape_inline(f"{outcomes.value_label(self.game, self.index, erratum)}: "
                                    f"{fieldtypes.shown(erratum.new)}"))

    @staticmethod
    def erratum_address(erratum: model.Erratum) -> addresses.Address:
        """The place an erratum changed (its field, cell or step), for the changelog's wording."""
        return addresses.of_erratum(erratum.target, erratum.field)

    # ---- where each item comes from (content/provenance.py), shown by site/rulebook.py

    @property
    def provenances(self) -> provenance.Provenances:
        if self._provenances is None:
            self._provenances = provenance.Provenances(self.game, self.index)
        return self._provenances

    def rulebook(self, item) -> Markup:
        """An item's "From the rulebook": its lines' reference and, folded, the lines beside its text."""
        key = item if isinstance(item, str) else self.item_key(item)
        found = self.provenances.of(key)
        if not found.passages:
            return Markup("")
        ours = self._own_text(self.index.targets[key].item) if found.shown and key in self.index.targets else ""
        return self._place(rulebook.rulebook(self.game, self.index, found, ours, language=self.language))

    def step_rulebook(self, procedure: model.Procedure) -> Markup:
        """A step's lines on demand (the walker, the Bot turn page): its procedure's, one tap away."""
        found = self.provenances.of(f"procedure:{procedure.id}")
        return self._place(rulebook.rulebook(self.game, self.index, found, step=True, language=self.language)) if found.passages else Markup("")

    def _own_text(self, item) -> str:
        """The item's own text, as its page shows it, to be read beside the rulebook's lines."""
        shown = [self.html(getattr(item, name)) for name in ("text", "body", "definition", "description")
                 if isinstance(getattr(item, name, None), str) and getattr(item, name)]
        key = self.item_key(item)

        def gaps(inner: str, already: str = "") -> str:  # a place's gap markers, as on the page
            found = self._gap_markers(marks.gaps(self.game, self.index, key, inner, already))
            return f" {found}" if found else ""

        if isinstance(item, model.Entity):
            rows = "".join(f"<li><strong>{html_text(spec.name)}:</strong> {value}"
                           f"{gaps(spec.id, str(item.fields.get(spec.id) or ''))}</li>"
                           for spec, value in ((spec, self.value_html(item.fields.get(spec.id), spec, item.status))
                                               for spec in self.game.kind_of(item).fields))
            shown.append(f"<ul>{rows}</ul>" if rows else "")
        elif isinstance(item, model.Table):
            head = "".join(f"<th>{html_text(col.title)}</th>" for col in item.columns)
            body = "".join("<tr>" + "".join(f"<td>{self._cell_html(item, cell, col)}"
                                            f"{gaps(affects.cell_key(item, row, i))}</td>"
                                            for i, (cell, col) in enumerate(zip(row, item.columns, strict=False)))
                           + "</tr>" for row in item.rows)
            shown.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif isinstance(item, model.Procedure):
            numbers = numbering(item)
            shown.append("<ol>" + "".join(f"<li value=\"{html_text(numbers[n.id])}\">{text_html.inline(self.html(n.text))}"
                                           f"{gaps(n.id, n.text)}</li>"
                                           if str(numbers[n.id]).isdigit() else
                                           f"<li>{html_text(numbers[n.id])}. {text_html.inline(self.html(n.text))}"
                                           f"{gaps(n.id, n.text)}</li>"
                                           for n in item.nodes) + "</ol>")
        return "\n".join(shown)

    def _cell_html(self, table: model.Table, cell, column: model.Column) -> str:
        """A cell as the table on the page shows it: a column naming an entity kind shows the kind's name."""
        if column.id in table.kind_columns and isinstance(cell, str) and self.game.kind(cell):
            return self.output.link(f"kind:{cell}", self.index.name(f"kind:{cell}"))
        return self.value_html(cell, column)

    def fields(self, entity: model.Entity) -> list[tuple[model.FieldDef, str]]:
        kind = self.game.kind_of(entity)
        return [(spec, self.value(entity.fields.get(spec.id), spec, entity.status)) for spec in kind.fields]

    def steps(self, procedure: model.Procedure) -> list[dict]:
        numbers = numbering(procedure)
        following = dict(zip([n.id for n in procedure.nodes], [n.id for n in procedure.nodes[1:]] + [None], strict=True))
        return [{"node": node, "number": numbers[node.id], "next": numbers.get(node.next) if node.next else None,
                 "follows": node.next is None or node.next == following[node.id],  # no "→ step" needed
                 "branches": [(b.when, numbers.get(b.to)) for b in node.branches]}
                for node in procedure.nodes]


def coverage(game: Game, kind: model.Kind) -> tuple[int, int]:
    """(entities of a kind the source gives, entities reconstructed): a missing one is in neither."""
    entities = game.entities_of(kind.id)
    rebuilt = len([e for e in entities if e.status == "reconstructed"])
    return len([e for e in entities if e.status not in ("missing", "reconstructed")]), rebuilt


def gaps_of(game: Game, language: str = words.ENGLISH) -> list[dict]:
    """Every place the data marks as not (fully) from the source: the gaps page and the tests."""
    found = []
    _ = words.of(language).gettext

    def add(key, title, status, note, where, inner=None):
        # inner: the field or cell ("row.column") of the item the note is about, None for the item
        found.append({"key": key, "title": title, "status": status, "note": note or "", "where": where, "anchor": "",
                      "inner": inner})

    for kind in game.kinds:
        have = len(game.entities_of(kind.id))
        known = len([e for e in game.entities_of(kind.id) if e.status != "missing"])
        if kind.count is not None and known < kind.count:
            numbers = {"known": known, "count": kind.count, "kinds": kind.plural, "listed": have - known}
            add(f"kind:{kind.id}", _("%(kinds)s: %(known)s of %(count)s in the source") % numbers,
                "missing", kind.count_note or (_("The rulebook gives %(known)s of the %(count)s %(kinds)s") % numbers
                                               + ("; " + _("%(listed)s are listed as missing.") % numbers
                                                  if have > known else ".")), kind.where())
    for entity in game.entities:
        key = f"{entity.kind}:{entity.id}"
        if statuses.doubtful(entity.status):
            add(key, entity.name, entity.status, entity.note, entity.where())
        for name, raw in entity.fields.items():
            value = Value.of(raw)
            if value.doubtful:
                add(key, f"{entity.name}: {field_name(game, entity, name)}", value.status, value.note,
                    entity.where("fields", name), name)
    for section, _page in game.all_sections():
        if statuses.doubtful(section.status):
            add(f"rule:{section.id}", section.title, section.status, section.note, section.where())
    for table in game.tables:
        if statuses.doubtful(table.status):
            add(f"table:{table.id}", table.title, table.status, table.note, table.where())
        for r, row in enumerate(table.rows):
            for c, raw in enumerate(row):
                value = Value.of(raw)
                if value.doubtful:
                    column = table.columns[c].title if c < len(table.columns) else c
                    add(f"table:{table.id}", f"{table.title}: {row_label(game, table, row)} / {column}",
                        value.status, value.note, table.where("rows", r, c),
                        affects.cell_key(table, row, c) if c < len(table.columns) else None)
    for item_type in (PROCEDURE, EXAMPLE):
        for item in items_of(game, item_type):
            if statuses.doubtful(item.status):
                add(key_of(item_type, item), name_of(item_type, item), item.status, item.note, item.where())
    for what, title, item in marks.bot_marked(game):
        key = layout.bot_key(what)
        add(key, title, item.status, item.note, item.where())
        found[-1]["anchor"] = layout.gap_row_anchor(key)
    for gap in game.gaps:
        add(f"gap:{gap.id}", gap.title, gap.status, gap.note, gap.where())
    return found


def row_label(game: Game, table: model.Table, row: list) -> str:
    """A table row as readers know it: its first cell, the entity's name where that cell refers
    to one (a row keyed 'mass-riots' is the Mass Riots row)."""
    first, column = plain(row[0]), table.columns[0] if table.columns else None
    if column is not None and column.type == "ref" and column.to:
        entity = next((e for e in game.entities_of(column.to) if e.id == first), None)
        if entity is not None:
            return entity.name
    return first


def field_name(game: Game, entity: model.Entity, field_id: str) -> str:
    """The name a kind declares for one of its fields (what readers see), else the key."""
    kind = game.kind(entity.kind)
    spec = next((f for f in kind.fields if f.id == field_id), None) if kind else None
    return spec.name if spec else field_id


def render_game(env: jinja2.Environment, checked: Checked, downloads: list[dict],
                charts: dict[str, bytes]) -> Site:
    game, index = checked.game, checked.index
    g = game.id
    site = Site()

    provenances = provenance.Provenances(game, index)  # worked out once for the game's pages
    language = str(env.globals["language"])
    _ = words.of(language).gettext  # the navigation's words, in the site's language

    banner = translation_banner(checked, language)

    def page(path: str, template: str | list[str | jinja2.Template], **context) -> str:
        ctx = PageContext(game, index, path, provenances, language=language)
        text = env.get_or_select_template(template).render(game=game, index=index, c=ctx, **context)
        if banner:
            text = _after_title(text, banner)
        site.pages.append(Page(path, text))
        return path

    def page_of(key: str) -> str:
        return layout.page_of(game, key)[0]

    overview = page(page_of(f"game:{g}"), "overview.md.j2", gaps=gaps_of(game, language), play=play(game, index),
                    downloads=[d for d in downloads if d["game"] == g])
    rules = [{escape_nav(s.title): page(page_of(f"rule:{s.id}"), "section.md.j2", section=s)}
             for s in game.sections]
    kinds = [{escape_nav(k.plural): page(page_of(f"kind:{k.id}"), [f"kinds/{k.id}.md.j2", "kind.md.j2"],
                                         kind=k, entities=game.entities_of(k.id))}
             for k in game.kinds]
    nav: list[dict[str, Any]] = [{_("Overview"): overview}]
    if rules:
        nav.append({_("Rules"): rules})
    if kinds:
        nav.append({_("Cards and components"): kinds})
    if game.tables:
        nav.append({_("Reference tables"): page(layout.shared_page(g, "table"), "tables.md.j2")})
    def flowchart(procedure: model.Procedure) -> str | None:
        svg = charts.get(layout.flowchart_file(g, procedure.id))
        return Markup(inline_svg(svg, procedure.title, say=_)) if svg is not None else None

    if game.procedures:
        solo = _("Solo bot")
        nav.append({solo: [{escape_nav(p.title): page(page_of(f"procedure:{p.id}"), "procedure.md.j2",
                                                            procedure=p, flowchart=flowchart(p),
                                                            chart_file=layout.flowchart_file(g, p.id))}
                                 for p in game.procedures]})
        # The turn walks the procedures no other procedure calls, in the content's order; the ones
        # they call are reached from their steps.
        if game.bot is not None:  # the turn as the game declares it (rulesmith/content/turn.py)
            turn_page = page(layout.shared_page(g, "bot"), "bot-companion.md.j2", data=companion_json(game, language), choices=state_choices(game, language),
                             procedures=reached_procedures(game), read_tables=tables_read(game),
                             charts={p.id: flowchart(p) for p in game.procedures},
                             chart_files={p.id: layout.flowchart_file(g, p.id) for p in game.procedures})
        else:
            entry, called = bot_turn(game, index)
            turn_page = page(layout.shared_page(g, "bot"), "bot-turn.md.j2", procedures=entry, called=called,
                             charts={p.id: flowchart(p) for p in game.procedures})
        nav[-1][solo].insert(0, {_("Bot turn"): turn_page})
    if game.examples:
        nav.append({_("Worked examples"): page(layout.shared_page(g, "example"), "examples.md.j2")})
    nav.append({_("Glossary"): page(layout.shared_page(g, "term"), "glossary.md.j2")})
    nav.append({_("Gaps in the source"): page(layout.shared_page(g, "gap"), "gaps.md.j2", gaps=gaps_of(game, language))})
    nav.append({_("Changelog"): page(layout.shared_page(g, "erratum"), "changelog.md.j2")})
    site.nav = [{escape_nav(game.info.name): nav}]
    return site


def translation_banner(checked: Checked, language: str) -> str:
    """What every page of a game in another language says once, at its top (HTML; "" in the
    game's own language): that the game is not translated into it (shown in English), or how far
    its translation has come and that it is not reviewed (translations/freshness.py)."""
    if checked.language is None:
        return ""
    _ = words.of(language).gettext
    icon = glyph_svg("material/translate")
    name = language_name(language)
    shown = checked.translation
    if shown is None:
        said = _("%(game)s is not translated into %(language)s: its texts are shown in English.") % {
            "game": checked.game.info.name, "language": name}
        return f'<p class="rs-translation rs-translation--page">{icon}<em>{html_text(said)}</em></p>'
    counts = shown.counts()
    said = _("Translated into %(language)s: %(translated)s of %(total)s texts; %(outdated)s outdated, "
             "%(missing)s shown in English.") % {"language": name, "translated": counts.translated,
                                                 "total": counts.total, "outdated": counts.outdated,
                                                 "missing": counts.missing}
    if not shown.reviewed:
        said += " " + _("No reviewer has checked this translation yet.")
    return f'<p class="rs-translation rs-translation--page">{icon}<em>{html_text(said)}</em></p>'


def language_name(language: str) -> str:
    """A language's name in that language ("Deutsch", "français"), as a language switch lists it."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(language.replace("-", "_")).get_display_name(language.replace("-", "_")) or language
    except (ValueError, UnknownLocaleError):
        return language


def _after_title(text: str, html: str) -> str:
    """A page's Markdown with a block of HTML after its title (its first "# " line), else at its top."""
    block = str(placed(html)) + "\n\n"
    found = re.search(r"^# .*\n", text, re.MULTILINE)
    if found is None:
        return block + text
    return text[:found.end()] + "\n" + block + text[found.end():]


FORMAT_FRONT_MATTER = "---\nsearch:\n  exclude: true\n---\n\n"


def escape_nav(title: str) -> str:
    return title.replace("\n", " ")


PAGES_FORMAT = "rulesmith-pages-1"
# Entries kept per game, the ones used last: the preview's (no downloads) and the build's (with them)
# differ, so a maintainer who alternates `serve` and `build` finds both.
PAGES_KEPT = 2


def game_pages(env: jinja2.Environment, checked: Checked, downloads: list[dict], charts: dict[str, bytes],
               cache: Path | None = None, software: str = "") -> Site:
    """One game's pages and navigation (render_game), from `cache` when what they are made from
    is as before: every file of the game's folder (one game's pages never show another's), the
    software (fingerprint.software_digest: code, templates, distributions), the game's downloads
    and its flowcharts. The PAGES_KEPT entries of a game used last are kept (`<game>-<key>.json`)."""
    if cache is None:
        return render_game(env, checked, downloads, charts)
    game = checked.game
    mine = [d for d in downloads if d["game"] == game.id]
    digest = hashlib.sha256()
    for part in (PAGES_FORMAT, software, str(env.globals["language"]),
                 # the pages in the game's own language do not read its translation catalogs (a catalog's
                 # edit renders none of them again); another language's pages do
                 fingerprint.tree_digest(game.folder, frozenset() if checked.language else frozenset({catalogs.FOLDER})), json.dumps(mine, sort_keys=True),
                 *(f"{path} {hashlib.sha256(charts[path]).hexdigest() if path in charts else '-'}"
                   for path in (layout.flowchart_file(game.id, p.id) for p in game.procedures))):
        digest.update(part.encode("utf-8") + b"\0")
    stored = cache / f"{game.id}-{digest.hexdigest()[:32]}.json"
    try:
        entry = json.loads(stored.read_text(encoding="utf-8"))
        found = Site([Page(path, text) for path, text in entry["pages"]], entry["nav"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    else:
        with contextlib.suppress(OSError):
            os.utime(stored)  # last used now: the entries kept are the ones used last
        log.debug("pages of %s%s: from the cache (its files, the software, its downloads and charts as before)",
                  game.id, f" ({checked.language})" if checked.language else "")
        return found
    log.debug("pages of %s%s: rendered (its files, the software, its downloads or its charts changed)",
              game.id, f" ({checked.language})" if checked.language else "")
    site = render_game(env, checked, downloads, charts)
    try:
        write_atomic(stored, json.dumps({"pages": [[p.path, p.text] for p in site.pages], "nav": site.nav},
                                        ensure_ascii=False).encode("utf-8"))
        entries = [e for e in cache.glob(f"{game.id}-*.json")
                   if re.fullmatch(rf"{re.escape(game.id)}-[0-9a-f]{{32}}\.json", e.name)]
        entries.sort(key=lambda e: (e != stored, -e.stat().st_mtime_ns))  # the one just written first
        for old in entries[PAGES_KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be written: the pages are made every time
    return site


def render_site(checked: list[Checked], downloads: list[dict], charts: dict[str, bytes] | None = None,
                cache: Path | None = None, site_name: str | None = None, language: str = words.ENGLISH) -> Site:
    """All pages of the site, with the navigation MkDocs should show. `charts` holds the flowchart
    SVGs by layout.flowchart_file path; the procedure pages show them inline. With `cache`, each
    game's pages come from there when nothing they are made from changed (game_pages); the
    site-wide pages are made every time. `language`: the site's (theme.language), which the
    tool's own words follow."""
    env = environment(language)
    site = Site()
    software = fingerprint.software_digest() if cache is not None else ""
    games = [c.game for c in checked]
    home = {c.game.id: PageContext(c.game, c.index, layout.HOME_PAGE, language=language) for c in checked}
    site.pages.append(Page(layout.HOME_PAGE, env.get_template("home.md.j2").render(
        games=games, home=home, play={c.game.id: play(c.game, c.index) for c in checked},
        site_name=site_name or "Rules references")))
    _ = words.of(language).gettext
    site.nav.append({_("Home"): layout.HOME_PAGE})
    for item in checked:
        game_site = game_pages(env, item, downloads, charts or {}, cache, software)
        site.pages += game_site.pages
        site.nav += game_site.nav
    site.pages.append(Page(layout.DOWNLOADS_PAGE, env.get_template("downloads.md.j2").render(
        games=games, downloads=downloads)))  # each game's data date: game.data_date()
    changes = sorted(((what, x, c.game, PageContext(c.game, c.index, layout.CHANGELOG_PAGE, language=language)) for c in checked
                      for what, x in PageContext(c.game, c.index, layout.CHANGELOG_PAGE).changes()),
                     key=lambda t: (t[1].date, t[2].id, t[0] == "ruling", t[1].id), reverse=True)
    site.pages.append(Page(layout.CHANGELOG_PAGE, env.get_template("site-changelog.md.j2").render(changes=changes)))
    site.nav += [{_("Downloads"): layout.DOWNLOADS_PAGE}, {_("Changelog"): layout.CHANGELOG_PAGE}]
    # For contributors: the content format reference, the same text as `rulesmith format`; kept out
    # of the search, where its examples (Interpol, conflict dice) would stand among the game's pages,
    # and out of the readers' navigation (its subject is the content's own syntax): the home page
    # links it (templates/mkdocs.yml: not_in_nav).
    site.pages.append(Page(layout.FORMAT_PAGE, FORMAT_FRONT_MATTER + formatref.render()))
    return site

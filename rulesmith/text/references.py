"""What a content text refers to, as an output shows it: `[[kind:id]]` references, `[[icon:…]]`
icons and `[[value:…]]` values.

Each becomes trusted HTML that this package builds (a link with an escaped label, an icon, a
value with its mark) and that the conversion (text/html.py) sets into the text only after the
content's own Markdown has been converted and sanitized: content never writes a link, an element
or an attribute of its own that the sanitizer has not judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesmith.content.link import REFERENCE, Index
from rulesmith.text.escape import html_text
from rulesmith.text.glyphs import glyph_svg
from rulesmith.values import outcomes
from rulesmith.values import references as values
from rulesmith.values import status as statuses

if TYPE_CHECKING:
    from collections.abc import Callable


def icon_html(index: Index, name: str) -> str:
    icon = index.icons[name]
    label = html_text(icon["label"])
    glyphs = "".join(glyph_svg(g) for g in icon["glyphs"])
    return f'<span class="rs-icon" role="img" aria-label="{label}" title="{label}">{glyphs}</span>'


def gap_mark(status: str = "missing", say: Callable[[str], str] = lambda text: text) -> str:
    """The mark before a gap's name: an icon a screen reader reads as what the gap is."""
    word = html_text(statuses.gap_word(status, say))
    return f'<span class="rs-gap-ref" role="img" aria-label="{word}">{glyph_svg("material/alert")}</span>'


GAP_MARK = gap_mark()


def gap_status(index: Index, target: str) -> str:
    """The status of the gap a [[gap:…]] reference names (missing where it names none)."""
    found = index.targets.get(target)
    return getattr(getattr(found, "item", None), "status", "missing")


@dataclass(frozen=True)
class Output:
    """How one output (a site page, an aid) shows what content text refers to.

    `href(key)` is the address of a target from where the text is placed, or None where the
    output does not link it (it is then its label, as plain text); `after_link(key)` follows a
    link (an aid's page number); `marker(status, note)` follows a value the data marks."""

    index: Index
    href: Callable[[str], str | None]
    icon: Callable[[str], str] | None = None
    marker: Callable[[str, str], str] | None = None
    after_link: Callable[[str], str] = field(default=lambda _key: "")
    say: Callable[[str], str] = field(default=lambda text: text)  # the tool's own words in the output's language

    def link(self, key: str, label: str) -> str:
        address = self.href(key)
        shown = html_text(label)
        if address is None:
            return shown
        return f'<a href="{html_text(address)}">{shown}</a>' + self.after_link(key)

    def reference(self, target: str, label: str | None) -> str:
        """The HTML of one reference."""
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return self.icon(ident) if self.icon else icon_html(self.index, ident)
        if kind == "value":
            shown = html_text(values.shown(self.index, ident)) + self.printed(ident)
            status, note = values.status(self.index, ident)
            return shown + (" " + self.marker(status, note) if self.marker and statuses.doubtful(status) else "")
        if kind == "gap":  # the reader meets a gap here: its mark, and its name as its status says it
            status = gap_status(self.index, target)
            return gap_mark(status, self.say) + self.link(target, label or statuses.gap_label(status, self.index.name(target), self.say))
        return self.link(target, label if label else self.index.name(target))

    def printed(self, ref: str) -> str:
        """After a value errata changed: what the rulebook prints and which erratum changed it, so
        readers see both numbers ("2 (the rulebook prints 3; erratum e1)")."""
        found = outcomes.printed_value(self.index, ref)
        if found is None:
            return ""
        printed, chain = found
        _ = self.say
        names = ", ".join(self.link(f"erratum:{erratum.id}", _("erratum %(id)s") % {"id": erratum.id}) for erratum in chain)
        prints = html_text(_("the rulebook prints"))
        return f" ({prints} {html_text(values.shown(self.index, ref, printed))}; {names})"


def fold_echoes(text: str, index: Index) -> str:
    """A reference that says again what the words beside it say, said once: "a conflict
    ([[rule:conflict]])" reads "a conflict" (linked), "the [[module:weather]] cards" (the module
    being "Weather cards") reads "the Weather cards", "see [[gap:x]]." after a gap titled
    "Which Supplies?" reads "see Which Supplies?". A labelled reference stays as written."""
    def name(target: str) -> str | None:
        kind = target.partition(":")[0]
        return None if kind in ("icon", "value") or target not in index.targets else index.name(target)

    def before(match: re.Match) -> str:
        words, emphasis, target = match.group(1), match.group(2) or "", match.group(3)
        shown = name(target)
        said = shown and re.search(r"(?i)(?<![\w-])" + r"\s+".join(map(re.escape, shown.split())) + "$", words)
        if not said:
            return match.group(0)
        return f"{words[:said.start()]}[[{target}|{words[said.start():]}]]{emphasis}"

    def after(match: re.Match) -> str:
        target, word = match.group(1), match.group(2)
        shown = name(target)
        if shown is None or not re.search(rf"(?i)(?<![\w-]){re.escape(word)}$", shown):
            return match.group(0)
        return f"[[{target}]]"

    def stop(match: re.Match) -> str:
        shown = match.group(2) or name(match.group(1)) or ""
        return match.group(0)[:-1] if shown[-1:] in ("?", "!", ".") else match.group(0)

    if "[[" not in text:
        return text
    text = _sub_before(text, before)
    text = re.sub(r"\[\[([^\[\]|]+)\]\][ \t]+(\w+)(?![\w-])", after, text)
    # a name that ends a sentence itself ("which Supplies?") takes no full stop after it
    return re.sub(r"\[\[([^\[\]|]+)(?:\|([^\[\]]*))?\]\]\.(?!\w)", stop, text)


# Words, then maybe emphasis and spaces, then a bare reference in brackets: "a conflict ([[rule:conflict]])".
_BEFORE = re.compile(r"([^()\[\]*_]{1,120}?)(\*{1,2}|_{1,2})?[ \t]*\(\[\[([^\[\]|]+)\]\]\)")
_BRACKETED = re.compile(r"\(\[\[([^\[\]|]+)\]\]\)")


def _sub_before(text: str, replace: Callable[[re.Match], str]) -> str:
    """`_BEFORE.sub(replace, text)`, searched only just before each bracketed reference: the
    same matches (the words cannot span a bracket, so a match ends at the first reference after
    the previous one, and starts at most 120 characters, emphasis and spaces before it), without
    trying the lazy 120-character run at every position of every text."""
    out, last = [], 0
    for ref in _BRACKETED.finditer(text):
        start = ref.start()
        while start > last and text[start - 1] in " \t":
            start -= 1
        found = _BEFORE.search(text, max(last, start - 122), ref.end())
        if found is None:
            continue
        out += [text[last:found.start()], replace(found)]
        last = found.end()
    return "".join(out) + text[last:] if out else text


def plain_text(text: str, index: Index) -> str:
    """Text without markup: references become their labels, icons their labels (flowcharts,
    summaries, tooltips)."""
    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "icon":
            return f"[{index.icons[ident]['label']}]"
        if kind == "value":
            return values.shown(index, ident) + _printed_plain(index, ident)
        if kind == "gap":  # the same mark as the site's gap marker: the reader meets a gap here
            return "▲\u00a0" + (label or statuses.gap_label(gap_status(index, target), index.name(target)))
        return label or index.name(target)

    text = REFERENCE.sub(replace, fold_echoes(text, index))
    return re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text)


def _printed_plain(index: Index, ref: str) -> str:
    found = outcomes.printed_value(index, ref)
    if found is None:
        return ""
    printed, chain = found
    return f" (the rulebook prints {values.shown(index, ref, printed)}; {', '.join(f'erratum {e.id}' for e in chain)})"

"""Each Markdown text of the content converted to HTML once, on its own, and sanitized: the HTML
that every output places as it is (the site through text/placed.py, the aids directly), and that
the check judges.

One conversion (`convert`):

1. the text's references, icons and values become slots (text/references.py builds their HTML);
2. the rest is read with the one Markdown configuration (text/markdown_config.py), raw HTML and
   attribute lists escaped, brackets that never close as text;
3. the result is sanitized by nh3 (the Python binding of ammonia) with the allowlist below: the
   elements Markdown makes, their few attributes, https links only, no images;
4. the slots are filled with the HTML this package built.

The check (`judge`) converts each text the same way and refuses any text whose HTML the sanitizer
would change, saying what it would have made. The forms (`inline`, `cell`, `with_lead`) only take
away paragraph tags or add our own label: they make nothing the sanitizer has not seen.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser

import nh3
from markupsafe import Markup

from rulesmith.content import model
from rulesmith.content.link import REFERENCE
from rulesmith.text import markdown_config
from rulesmith.text.escape import content_source, converted_text, html_text
from rulesmith.text.references import Output, fold_echoes

# What Markdown with the one configuration makes, and nothing else.
TAGS = {
    "p", "a", "em", "strong", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
    "div", "details", "summary", "dl", "dt", "dd", "sup", "sub",
}
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "details": {"open"}, "th": {"style"}, "td": {"style"}}
# Admonitions (`!!! note`) and collapsed blocks (`??? note`) of the types the theme styles.
ADMONITION_TYPES = {"note", "abstract", "summary", "tldr", "info", "todo", "tip", "hint", "important", "success",
                    "check", "done", "question", "help", "faq", "warning", "caution", "attention", "failure",
                    "fail", "missing", "danger", "error", "bug", "example", "quote", "cite"}
CLASSES = {"div": {"admonition"} | ADMONITION_TYPES, "p": {"admonition-title"}, "details": ADMONITION_TYPES}
URL_SCHEMES = {"https"}

# Python-Markdown's inline pass grows with the square of a paragraph's length: a bound on the
# paragraph keeps any text's conversion short (the longest in the shipped games is 2,297).
MAX_PARAGRAPH = 4000
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ue000-\uf8ff]")
# A slot: where the HTML of one reference goes, in private-use characters content never has.
SLOT = re.compile("\ue000(\\d+)\ue001")
# A list item written with '+' ("+ 1 Model" in a rulebook is a plus, not a bullet).
PLUS_ITEM = re.compile(r"^(\s*)\+ (?=\S)", re.MULTILINE)
PLUS_MARK = '<span class="list-mark">+</span>'


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, url_relative="deny",
                       allowed_classes=CLASSES, filter_style_properties={"text-align"}, link_rel=None,
                       strip_comments=True, clean_content_tags={"script", "style"})


def sanitize(html: str) -> str:
    """HTML with only the allowed elements, attributes, classes and links."""
    return _cleaner().clean(html)


def _source(text: str, output: Output | None) -> tuple[str, list[str]]:
    """The text as Markdown source with each reference a slot, and the slots' HTML."""
    text = CONTROL.sub("\ufffd", text)
    if output is not None:
        text = fold_echoes(text, output.index)
    slots: list[str] = []

    def slot(html: str) -> str:
        slots.append(html)
        return f"\ue000{len(slots) - 1}\ue001"

    text = PLUS_ITEM.sub(lambda m: f"{m.group(1)}- {slot(PLUS_MARK)} ", text)
    parts, last = [], 0
    for match in REFERENCE.finditer(text):
        parts.append(content_source(text[last:match.start()]))
        parts.append(slot(output.reference(match.group(1), match.group(2)) if output else "ref"))
        last = match.end()
    parts.append(content_source(text[last:]))
    return markdown_config.literal_brackets("".join(parts)), slots


def _fill(html: str, slots: list[str]) -> str:
    html = re.sub("<li>((?:\\s*<p>)?)\ue000(\\d+)\ue001",
                  lambda m: f'<li class="as-written">{m.group(1)}\ue000{m.group(2)}\ue001'
                  if slots[int(m.group(2))] == PLUS_MARK else m.group(0), html)
    return SLOT.sub(lambda m: slots[int(m.group(1))], html)


def convert(text: str | None, output: Output) -> Markup:
    """The HTML of one Markdown text of the content, as every output places it."""
    if not text:
        return Markup("")
    source, slots = _source(str(text), output)
    return Markup(_fill(sanitize(converted_text(markdown_config.to_html(source))), slots).strip())


def plain(text) -> Markup:
    """A plain-text value as HTML: escaped, never read as Markdown ("2. then 3" stays so)."""
    return Markup(html_text(text))


# ---- the forms a placement takes: they only remove paragraph tags or add our own label

_ONE_PARAGRAPH = re.compile(r"\A<p>((?:(?!</?p[ >]).)*)</p>\Z", re.DOTALL)


def inline(html: str) -> Markup:
    """For a line (after a label, in a heading's run): the one paragraph without its <p>; a text
    of several blocks keeps them."""
    found = _ONE_PARAGRAPH.match(str(html).strip())
    return Markup(found.group(1) if found else str(html))


def cell(html: str) -> Markup:
    """For a table cell: as `inline`; several paragraphs stay paragraphs (set close in cells)."""
    return inline(html)


def with_lead(html: str, lead: str) -> Markup:
    """A text that follows a label on its line ("Question." …): the label (our HTML) opens the
    text's first paragraph, so a text of several paragraphs is still valid HTML."""
    html = str(html)
    if html.startswith("<p>"):
        return Markup(f"<p>{lead} {html[3:]}")
    return Markup(f"<p>{lead}</p>{html}")


# ---- the check: what the sanitizer would change, said as the text's problem

class _Events(HTMLParser):
    """Elements, attributes and text of an HTML fragment, for comparing two of them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag, tuple(sorted((k, _style(k, v or "")) for k, v in attrs))))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self.events.append(("end", tag))

    def handle_data(self, data):
        if data.strip():
            self.events.append(("text", " ".join(data.split())))


def _style(name: str, value: str) -> str:
    return re.sub(r"\s+|;$", "", value) if name == "style" else value


def _events(html: str) -> list[tuple]:
    parser = _Events()
    parser.feed(html)
    parser.close()
    return parser.events


# What in a text's source (its references already slots; `&`, `<` and `{` already text) could make
# HTML the sanitizer changes: a link or image (`[`), a table's alignment (`|`), an admonition or a
# collapsed block (`!!!`, `???` anywhere: not only at a line's start, as inside a quote, a list item
# or a definition, `> !!! x`, they open one too), a character HTML parsers read otherwise (a
# noncharacter). A text without any of them converts to elements of TAGS alone and their text, so
# the check leaves its conversion to the outputs (most texts: 1,510 of the shipped games' 1,516).
# tests/security/test_hostile.py holds this to the full judgement, on every shipped text and on
# generated texts of every Markdown character.
MAY_BE_CHANGED = re.compile(r"[\[|\ufdd0-\ufdef\ufffe\uffff\U0001fffe-\U0010ffff]|!!!|\?\?\?")

LINK_HINT = "links in content must be https:// URLs; use [[kind:id]] for references"
MARKUP_HINT = "write Markdown only; content text never becomes markup"
IMAGE_HINT = ("a reader's browser would fetch it from another site: say what it shows in words, "
              "or use an icon ([[icon:name]])")


def _explain(events: list[tuple], kept: list[tuple]) -> list[tuple[str, str, str]]:
    """What the sanitizer took away, as (message, the part of the text to locate it by, hint)."""
    found: list[tuple[str, str, str]] = []
    kept_starts = [e for e in kept if e[0] == "start"]
    for event in events:
        if event[0] != "start":
            continue
        tag, attrs = event[1], dict(event[2])
        if tag == "img":
            source = attrs.get("src", "")
            found.append((f"the text shows an image ('{source}'): content text has no images", source or "![", IMAGE_HINT))
            continue
        if tag not in TAGS:
            found.append((f"the text makes a <{tag}> element", tag, MARKUP_HINT))
            continue
        same = next((k for k in kept_starts if k[1] == tag), None)
        if same is not None:
            kept_starts.remove(same)
        kept_attrs = dict(same[2]) if same else {}
        for name, value in attrs.items():
            if kept_attrs.get(name) == value:
                continue
            if name in ("href", "src"):
                problem = model.https_url_problem(value) or "not a link the site keeps"
                found.append((f"link target '{value}' is not allowed ({problem})", value or "](", LINK_HINT))
            elif name == "class":
                kind = value.split()[-1] if value.split() else ""
                found.append((f"the text makes a block of type '{kind}', which the site does not show", kind or "!!!",
                              "use one of: " + ", ".join(sorted(ADMONITION_TYPES))))
            else:
                found.append((f"the text makes an attribute '{name}'", name, MARKUP_HINT))
    return found


def judge(text: str) -> list[tuple[str, str, str]]:
    """Problems of one Markdown text as readers would get it: (message, the part to locate, hint)."""
    found: list[tuple[str, str, str]] = []
    control = CONTROL.search(text)
    if control:
        found.append((f"the text contains the control character U+{ord(control.group(0)):04X}",
                      control.group(0), "remove it (a control or private-use character)"))
    longest = max(text.split("\n\n"), key=len)
    if len(longest) > MAX_PARAGRAPH:
        found.append((f"a paragraph of {len(longest):,} characters is too long to read (at most {MAX_PARAGRAPH:,})",
                      longest[:40].split("\n")[0], "split it with a blank line, or into subsections"))
        return found
    source, _slots = _source(text, None)
    if not MAY_BE_CHANGED.search(source):
        return found  # nothing Markdown could make of it is what the sanitizer would change
    html = converted_text(markdown_config.to_html(source))
    kept = sanitize(html)
    events, kept_events = _events(html), _events(kept)
    if events != kept_events:
        found += _explain(events, kept_events) or [("the text makes markup that readers would not get",
                                                    text.strip().split("\n")[0][:40], MARKUP_HINT)]
    return found

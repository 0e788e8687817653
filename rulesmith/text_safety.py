"""Content text judged as readers get it: converted by the one Markdown configuration, then every
element, attribute and link of the resulting HTML checked. No nesting or syntax trick can show
this check something other than what the site and the PDFs make of the same text.

Brackets that never close are text (markdown_config.literal_brackets), here as on the site, which
also keeps the converter's work linear.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from . import markdown_config, model
from .link import REFERENCE

# What the converter makes of Markdown, and nothing else: content can never add an element.
ALLOWED_TAGS = {
    "p", "a", "em", "strong", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
    "div", "details", "summary", "dl", "dt", "dd", "img", "span", "sup", "sub",
}
ALLOWED_ATTRIBUTES = {"href", "src", "alt", "title", "class", "id", "open", "style", "start", "align"}
TABLE_ALIGN = re.compile(r"^text-align: (left|right|center);?$")
# Python-Markdown's inline pass grows with the square of a paragraph's length: a bound on the
# paragraph keeps any text's conversion short (the longest in the shipped games is 2,297).
MAX_PARAGRAPH = 4000
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _Judge(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[tuple[str, str]] = []  # (what, the part of the text to locate it by)

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED_TAGS:
            self.problems.append((f"the text makes a <{tag}> element", tag))
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name not in ALLOWED_ATTRIBUTES:
                self.problems.append((f"the text makes an attribute '{name}'", name))
            elif name in ("href", "src"):
                problem = model.https_url_problem(value)
                if problem:
                    self.problems.append((f"link target '{value}' is not allowed ({problem})", value or "]("))
            elif name == "style" and not TABLE_ALIGN.match(value):
                self.problems.append((f"the text makes a style '{value}'", "style"))

    handle_startendtag = handle_starttag


def judge(text: str) -> list[tuple[str, str]]:
    """Problems of one Markdown text as readers would get it: (message, the part to locate)."""
    found: list[tuple[str, str]] = []
    if CONTROL.search(text):
        char = CONTROL.search(text).group(0)
        found.append((f"the text contains the control character {char!r}", char))
    source = REFERENCE.sub("ref", text)  # a reference becomes a link of ours: never content's
    longest = max(text.split("\n\n"), key=len)
    if len(longest) > MAX_PARAGRAPH:
        found.append((f"a paragraph of {len(longest):,} characters is too long to read (at most {MAX_PARAGRAPH:,})",
                      longest[:40].split("\n")[0]))
        return found
    if "[" not in source and "<" not in source:
        return found  # no link, image or element can come from a text without '[' or '<'
    # As the site reads it: render.markup.escape_markup, brackets that never close as text.
    escaped = markdown_config.literal_brackets(
        source.replace("&", "&amp;").replace("<", "&lt;").replace("{", "&#123;"))
    html = markdown_config.to_html(escaped)
    parser = _Judge()
    parser.feed(html)
    parser.close()
    return found + parser.problems

"""The 404 page, made to work wherever it is opened: served in place of a missing page at any
depth (under a subpath too), and opened from disk (file://).

MkDocs writes it with links rooted at the site's path ("/assets/…", "/rules/assets/…" for
--site-url https://example.org/rules/), which a server resolves at any depth but a file://
address does not. Here the links become relative to a <base> element, written by a one-line
script before anything else in the page is read: the site's path when served, the page's own
folder from disk. (A static <base> changed by the script for file:// would let the browser's
preload scanner fetch every asset from the wrong place first.)
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from rulesmith.files import write_if_changed
from rulesmith.project import NOT_FOUND

if TYPE_CHECKING:
    from pathlib import Path

BASE_SCRIPT = ('<script id="rs-base">document.write(\'<base href="\' + (location.protocol === "file:" ? '
               'location.href.replace(/[^/]*([?#].*)?$/, "") : {root}) + \'">\');</script>')


_HEAD = re.compile(r"<head\b[^>]*>(\s*<meta charset=[^>]*>)?", re.I)


def head_start(html: str) -> int | None:
    """Where what must come before any script goes in a page: the start of <head>, after the
    charset (which a browser looks for in the first 1,024 bytes). The 404 page's base script
    and every page's Content-Security-Policy (site/csp.py) go there."""
    head = _HEAD.search(html)
    return head.end() if head else None


def portable(html: str) -> str:
    if 'id="rs-base"' in html:
        return html
    found = re.search(r'"base": "([^"]*)"', html)  # Material's configuration: MkDocs' base URL
    if not found:
        return html
    root = found.group(1).rstrip("/") + "/"
    html = re.sub(r'(\s(?:href|src)=")' + re.escape(root) + r'(?!/)', r"\1", html)
    html = html.replace(found.group(0), '"base": "."', 1)
    script = BASE_SCRIPT.replace("{root}", json.dumps(root).replace("<", "\\u003c").replace("'", "\\u0027"))
    start = head_start(html)
    return html if start is None else html[:start] + "\n" + script + html[start:]


def write_404(site: Path) -> None:
    page = site / f"{NOT_FOUND}.html"
    if page.is_file():
        write_if_changed(page, portable(page.read_text(encoding="utf-8")).encode("utf-8"))

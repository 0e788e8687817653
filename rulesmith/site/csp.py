"""The Content-Security-Policy every page of the site carries, so that nothing but the site's own
scripts runs in a reader's browser, whatever a page holds.

It is a `<meta http-equiv>` in the page itself, so it holds from disk (file://) and on any host
without server settings. It is written after the engine has built the site (build.finish_site),
as the first thing in <head> after the charset, before any script: a policy set by <meta> covers
only what follows it. What it allows:

- scripts from the site's own files, and of the inline scripts only those the theme writes
  (Material's, Zensical's and ours in templates/theme, the 404 page's base script): each by the
  hash of its text on this page (Material's differ by the page's depth). An inline script a page
  holds for any other reason (a content text that got through) has no hash here and does not
  run; neither does an event attribute (`onclick`) or a `javascript:` link, which a policy
  without 'unsafe-inline' refuses, reporting a `securitypolicyviolation` event;
- images, fonts, styles, manifests, workers (the offline worker) and requests from the site
  itself; images also as data: URLs (Material's stylesheet draws its icons with them); styles
  also in `style` attributes (a Markdown table's column alignment), never as <style> elements or
  from elsewhere (where a browser knows style-src-elem);
- no plugins (`object-src 'none'`), no <base> (`base-uri 'none'`, but for the 404 page, whose
  base script is what lets it work at any depth: its own site only), no form sent anywhere
  (`form-action 'none'`) and no frames.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import logging
import re
from functools import lru_cache
from pathlib import Path

from rulesmith.files import write_if_changed
from rulesmith.project import NOT_FOUND, templates
from rulesmith.site.notfound import BASE_SCRIPT, head_start

log = logging.getLogger(__name__)

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",  # and the hashes of the page's own inline scripts
    "style-src": "'self' 'unsafe-inline'",
    "style-src-elem": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "frame-src": "'none'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'none'",
}
# The one page whose inline script sets a <base> (site/notfound.py): to its own site only.
BASE_PAGES = (f"{NOT_FOUND}.html",)

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)
_SRC = re.compile(r"\bsrc\s*=", re.I)
# Types a browser runs; any other (application/json: Material's configuration) is data.
SCRIPT_TYPES = {"", "text/javascript", "application/javascript", "module"}
# What a template's {{ value }} inside a script can be: a path or address within a string literal.
_HOLE = r"""[^"'`\\<>\n]*"""


@lru_cache(maxsize=1)
def theme_scripts() -> tuple[re.Pattern[str], ...]:
    """The inline scripts the theme may write, as patterns: each inline script of the engines'
    templates and ours, its `{{ value }}`s as holes; and the 404 page's base script, its `{root}`
    a JSON string. A script with Jinja statements in it is not one the site uses (analytics,
    consent), and is left out."""
    folders = [templates() / "theme"]
    for package in ("material", "zensical"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            folders.append(Path(spec.origin).parent / "templates")
    found = set()
    for folder in folders:
        for path in folder.rglob("*.html"):
            for attributes, text in _SCRIPT.findall(path.read_text(encoding="utf-8")):
                if _runs(attributes) and text.strip() and "{%" not in text and "{#" not in text:
                    found.add(r"\s*".join(_holes(line.strip()) for line in text.strip().splitlines()))

    base = BASE_SCRIPT[BASE_SCRIPT.index(">") + 1:BASE_SCRIPT.rindex("</script>")]
    before, _, after = base.partition("{root}")
    found.add(re.escape(before) + r'"(?:[^"\\\n<>]|\\.)*"' + re.escape(after))
    return tuple(re.compile(r"\s*" + pattern + r"\s*") for pattern in sorted(found))


def _holes(line: str) -> str:
    return _HOLE.join(re.escape(part) for part in re.split(r"\{\{.*?\}\}", line))


def _runs(attributes: str) -> bool:
    """Whether a <script> with these attributes is inline code a browser runs."""
    if _SRC.search(attributes):
        return False
    kind = _TYPE.search(attributes)
    return (kind.group(1).lower() if kind else "") in SCRIPT_TYPES


def inline_scripts(html: str) -> list[str]:
    """The text of each inline script of a page that a browser would run, as the browser reads it
    (its line ends made \\n, as the HTML parser does)."""
    return [text.replace("\r\n", "\n").replace("\r", "\n")
            for attributes, text in _SCRIPT.findall(html) if _runs(attributes)]


def unlisted_scripts(html: str) -> list[str]:
    """The inline scripts of a page that are not the theme's: the policy lets none of them run.
    (For a check over a built site: a page should hold none.)"""
    return [text for text in inline_scripts(META.sub("", html))
            if not any(p.fullmatch(text) for p in theme_scripts())]


def digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def policy(html: str, *, base: bool = False) -> str:
    """The policy of a page: its theme scripts by hash; `base`: the page may set its <base> to its
    own site (the 404 page)."""
    allowed = [text for text in inline_scripts(html) if any(p.fullmatch(text) for p in theme_scripts())]
    directives = dict(POLICY)
    directives["script-src"] = " ".join([POLICY["script-src"], *sorted(set(map(digest, allowed)))])
    if base:
        directives["base-uri"] = "'self'"
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def with_policy(html: str, *, base: bool = False) -> str:
    """The page with its policy as the first element of <head> (after the charset), in place of
    one written before (an unchanged page of an incremental build, the preview's pages)."""
    html = META.sub("", html, count=1)
    start = head_start(html)
    if start is None:
        return html
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(html, base=base)}">'
    return html[:start] + meta + html[start:]


def allowing(html: str, scripts: list[str]) -> str:
    """The page with its policy letting these inline scripts run too (the preview's live reload)."""
    hashes = "".join(" " + digest(text) for text in scripts)
    return META.sub(lambda m: m.group(0).replace("script-src 'self'", "script-src 'self'" + hashes, 1), html, count=1)


def write_policies(site: Path) -> None:
    """Every page of a built site with its policy (the standalone chart SVGs cannot carry one:
    a <meta> policy is HTML's; they hold no script)."""
    written = 0
    for path in site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        page = with_policy(html, base=path.relative_to(site).as_posix() in BASE_PAGES)
        written += write_if_changed(path, page.encode("utf-8"))
    log.debug("content security policy: written into %d page(s), the others already had theirs", written)

"""The final gate: after every build, what was built is judged as readers get it.

The check judges each content text before anything is made, and the conversion places only
sanitized HTML (text/html.py). This gate does not trust either: it reads every page the engine
wrote, every script and JSON file filled in from content, and every PDF's links, and refuses the
build (before the new site replaces the old one) on anything outside what the site is made of:

- an event-handler attribute (`onclick` …), an element that embeds or redirects (`iframe`,
  `object`, `embed`, `base`, a refresh `meta`);
- a link or a resource whose address is not https and not the site's own (`javascript:`,
  `data:`, `http:` …), a resource (script, style, image, font, frame) from another host;
- an inline script that is not one of the theme's own (their text comes from the theme's
  templates, the parts Jinja fills in standing for a quoted address), JSON that does not parse;
- a link to a page or an anchor the site does not have (the engine does not see links inside
  the placed HTML of content texts);
- a filled-in script of the search index that is not exactly its JSON data;
- a PDF link annotation to anything but an https address or a place in the same PDF.

Each finding names the built file and, where a content text holds the offending value, the
content file:line:column that produced it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from rulesmith.content.link import texts
from rulesmith.files import write_atomic
from rulesmith.problems import BuildError
from rulesmith.site import csp

if TYPE_CHECKING:
    from pathlib import Path

log = logging.getLogger(__name__)

URL_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "data", "cite", "background", "ping",
                  "xlink:href", "manifest", "srcset", "imagesrcset"}
FORBIDDEN_ELEMENTS = {"iframe", "frame", "frameset", "object", "embed", "applet", "base", "portal"}
# Elements whose address the browser loads as part of the page (not a link the reader follows).
LOADS = {"script", "img", "iframe", "audio", "video", "source", "track", "input", "image", "use", "object", "embed"}
LINK_LOADS = {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload", "modulepreload", "prefetch", "mask-icon",
              "dns-prefetch", "preconnect", "prerender", "pingback"}
DATA_SCRIPTS = {"application/json", "application/ld+json"}


@dataclass(frozen=True)
class Finding:
    output: str  # the built file, relative to the site
    what: str  # what is wrong, for a reader of the build's output
    value: str  # the offending value, by which the content that produced it is found

    def __str__(self) -> str:
        return f"{self.output}: {self.what}"


# ---- the theme's own inline scripts

def _known_script(text: str) -> bool:
    """One of the theme's own inline scripts (csp.theme_scripts: the one list, which the policy hashes)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return any(p.fullmatch(text) for p in csp.theme_scripts())


# ---- one page, read as a browser reads it

# A browser that runs scripts reads what a <noscript> holds as text, up to the first `</noscript`
# (wherever that stands, an attribute's value included); `noembed` is read so by every HTML5 parser.
NOSCRIPT = re.compile(r"(</?)noscript", re.IGNORECASE)
# SVG elements that set another attribute over time: setting `href` (or an event) runs or loads.
ANIMATIONS = {"animate", "set", "animatemotion", "animatetransform", "animatecolor"}
ANIMATED_VALUES = ("values", "to", "from", "by")
# Attributes that send the reader's browser somewhere on their own (not a link the reader follows).
SENDS = {"action", "formaction", "ping"}
TEMPLATE_START = re.compile(r'<template(?:\s+[^\s=>]+(?:="[^"]*")?)*>', re.IGNORECASE)
MAX_TEMPLATES = 20  # <template> inside <template>: each level is read again, as a fragment


class _Judge:
    """Findings, anchors and relative links of one page (or SVG file), element by element."""

    def __init__(self):
        self.ids: set[str] = set()
        self.found: list[tuple[str, str]] = []  # (what, value)
        self.links: list[str] = []  # relative addresses, to resolve against the site

    def add(self, what: str, value: str) -> None:
        if (what, value) not in self.found:
            self.found.append((what, value))

    def html(self, html: str, depth: int = 0) -> None:
        """A document parsed by an HTML5 parser (lexbor, through selectolax): the tree a browser
        builds, foreign content (SVG, MathML) and broken markup included."""
        from selectolax.lexbor import LexborHTMLParser

        tree = LexborHTMLParser(html)
        if tree.root is None:
            return
        for node in tree.root.traverse():
            tag = (node.tag or "").lower()
            if tag.startswith(("-", "#")):
                continue
            attrs = {name: value or "" for name, value in node.attributes.items()}
            self.element(tag, attrs, lambda node=node: node.text(deep=True))
            if tag == "template":  # its content is a fragment of its own: read it too
                inner = TEMPLATE_START.sub("", node.html or "", count=1).removesuffix("</template>")
                if depth >= MAX_TEMPLATES:
                    self.add("templates nested too deep to read", "template")
                elif inner.strip():
                    self.html(inner, depth + 1)

    def element(self, tag: str, attrs: dict[str, str], text) -> None:
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        if tag in FORBIDDEN_ELEMENTS:
            self.add(f"a <{tag}> element", tag)
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            self.add("a refresh <meta> element", attrs.get("content", ""))
        loads = tag in LOADS or (tag == "link" and bool(set(attrs.get("rel", "").lower().split()) & LINK_LOADS))
        for name, value in attrs.items():
            lower = name.lower()
            if lower.startswith("on"):
                self.add(f"an event attribute '{name}'", value or name)
            elif lower in URL_ATTRIBUTES:
                for address in (re.split(r"\s*,\s*", value) if "srcset" in lower else
                                value.split() if lower == "ping" else [value]):
                    address = address.strip().split()[0] if "srcset" in lower and address.strip() else address.strip()
                    self._address(tag, name, address, loads or lower in SENDS)
            elif lower == "style":
                self._css(tag, "style", value)
        if tag in ANIMATIONS:
            animated = attrs.get("attributeName", attrs.get("attributename", "")).strip().lower()
            if animated in ("href", "xlink:href") or animated.startswith("on"):
                values = " ".join(attrs.get(name, "") for name in ANIMATED_VALUES).strip()
                self.add(f"an SVG <{tag}> that sets '{animated}'", values or animated)
        if tag == "style":
            self._css(tag, "text", text())
        if tag == "script" and not attrs.get("src") and not attrs.get("href") and not attrs.get("xlink:href"):
            kind, body = attrs.get("type", "").lower(), text()
            if kind in DATA_SCRIPTS:
                try:
                    json.loads(body)
                except ValueError:
                    self.add("a JSON data block that does not parse", body[:60])
            elif body.strip() and not _known_script(body):
                self.add("an inline script that is not one of the theme's", body[:80])

    def _address(self, tag: str, name: str, address: str, loads: bool) -> None:
        scheme = urlsplit(address).scheme.lower() if ":" in address else ""
        if scheme == "" and not address.startswith("//"):
            if name in ("href", "src") and address:
                self.links.append(address)
            return
        if scheme != "https":
            self.add(f"a {scheme or 'protocol-relative'} address in {tag} {name}", address)
        elif loads:
            self.add(f"a {'place another site is sent to' if name.lower() in SENDS else 'resource from another site'} "
                     f"in {tag} {name}", address)

    def _css(self, tag: str, where: str, css: str) -> None:
        """Every address a style sheet or a style attribute loads (url(), src(), image-set(),
        @import): read by tinycss2, the CSS tokenizer WeasyPrint uses, so escapes and comments read
        as a browser reads them."""
        for address in css_addresses(css):
            if CSS_DATA.match(address):
                continue  # an image or font held in the style itself: it loads nothing
            self._address(tag, f"{where} url()", address, True)


CSS_DATA = re.compile(r"\s*data:\s*(?:image|font|application/(?:x-)?font)[/-]", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def css_addresses(css: str) -> tuple[str, ...]:
    """The addresses in a CSS text (a sheet or a declaration list), in order. Kept per text: a
    site's pages and charts repeat the same few style attributes thousands of times, and reading
    each again was a twentieth of a build."""
    import tinycss2

    found: list[str] = []

    def walk(tokens) -> None:
        tokens = list(tokens)
        for index, token in enumerate(tokens):
            kind = token.type
            if kind == "url":
                found.append(token.value)
            elif kind == "function":
                if token.lower_name in ("url", "src", "image-set", "-webkit-image-set", "image"):
                    found.extend(t.value for t in token.arguments if t.type == "string")
                walk(token.arguments)
            elif kind in ("() block", "[] block", "{} block"):
                walk(token.content)
            elif kind == "at-keyword" and token.lower_value == "import":
                following = next((t for t in tokens[index + 1:] if t.type not in ("whitespace", "comment")), None)
                if following is not None and following.type == "string":
                    found.append(following.value)

    walk(tinycss2.parse_component_value_list(css, skip_comments=True))
    return tuple(found)


def read_html(html: str) -> _Judge:
    """One page judged as a browser reads it, with scripts (a <noscript>'s inside as text) and
    without (as markup): a finding in either reading counts."""
    judge = _Judge()
    judge.html(html)
    if NOSCRIPT.search(html):
        judge.html(NOSCRIPT.sub(lambda m: m.group(1) + "noembed", html))
    return judge


def read_svg(data: bytes) -> _Judge:
    """An SVG file judged as a browser opening it would run it: its elements (namespaces dropped,
    xlink:href named so) through the same rules as a page's. One that does not parse is a finding."""
    import xml.etree.ElementTree as ET

    judge = _Judge()
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        judge.add(f"an SVG file that does not parse ({error})", "svg")
        return judge
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        tag = element.tag.rsplit("}", 1)[-1].lower()
        attrs = {("xlink:" if name.startswith("{http://www.w3.org/1999/xlink}") else "") + name.rsplit("}", 1)[-1]: value
                 for name, value in element.attrib.items()}
        judge.element(tag, attrs, lambda element=element: "".join(element.itertext()))
    return judge


@dataclass
class _Read:
    """What the gate keeps of one page: its anchors, its relative links and its findings."""

    ids: set[str]
    links: list[str]
    found: list[tuple[str, str]]


GATE_CACHE = "gate-pages.json"
MAX_PAGE_BYTES = 20 * 10**6  # the shipped games' largest page is 0.3 MB
GATE_VERSION = b"rulesmith-gate-3\n"  # what a page was read by: a changed gate reads every page again


def _policy_finding(html: str) -> list[list[str]]:
    """A page must carry its Content-Security-Policy before anything it could run (site/csp.py)."""
    found = csp.META.search(html)
    first_script = html.lower().find("<script")
    if found is None or len(csp.META.findall(html)) != 1 or (first_script != -1 and first_script < found.start()):
        return [["a page without its Content-Security-Policy first in <head>", "Content-Security-Policy"]]
    return []


class _Kept:
    """What the gate found in each file it read, by the file's bytes (and the gate's version), kept
    in the work folder: an incremental build changes a few pages and charts, and reading all of
    them again took seconds. {digest: [ids, links, findings]}."""

    def __init__(self, cache: Path | None):
        self.cache = cache
        self.before: dict[str, list] = {}
        self.now: dict[str, list] = {}
        if cache is not None:
            try:
                self.before = json.loads((cache / GATE_CACHE).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.before = {}

    def read(self, data: bytes, reading) -> list:
        """[ids, links, findings] of a file's bytes: kept, else `reading(data)`."""
        # the reading's name too: a page and a chart of the same bytes are read differently
        digest = hashlib.sha256(GATE_VERSION + reading.__name__.encode() + b"\n" + data).hexdigest()
        found = self.before.get(digest)
        self.now[digest] = found if found is not None else reading(data)
        return self.now[digest]

    def save(self) -> None:
        if self.cache is not None and self.now != self.before:
            with contextlib.suppress(OSError):
                write_atomic(self.cache / GATE_CACHE, json.dumps(self.now).encode("utf-8"))


def _read_page(data: bytes) -> list:
    if len(data) > MAX_PAGE_BYTES:  # not parsed: the check bounds what content makes, this is the net
        return [[], [], [[f"a page of {len(data) / 1e6:.1f} MB, more than a reader's browser should "
                          f"load (at most {MAX_PAGE_BYTES // 10**6} MB)", ""]]]
    html = data.decode("utf-8", errors="replace")
    page = read_html(html)
    return [sorted(page.ids), page.links, [list(f) for f in page.found] + _policy_finding(html)]


def _read_svg_file(data: bytes) -> list:
    return [[], [], [list(f) for f in read_svg(data).found]]


def _pages(site: Path, kept: _Kept) -> dict[str, _Read]:
    """Every page read (or what was found in it when its bytes were last read)."""
    read = {}
    for path in sorted(site.rglob("*.html")):
        ids, links, found = kept.read(path.read_bytes(), _read_page)
        read[path.relative_to(site).as_posix()] = _Read(set(ids), links, [tuple(f) for f in found])
    return read


def _link_findings(site: Path, pages: dict[str, _Read]) -> list[Finding]:
    found = []
    files: dict[str, bool] = {}  # target: is a file of the site (asked once each: pages link the same few)

    def is_file(target: str) -> bool:
        if target not in files:
            files[target] = target in pages or (site / target).is_file()
        return files[target]

    for name, page in pages.items():
        for address in page.links:
            parts = urlsplit(address)
            path = unquote(parts.path)
            if path.startswith("/"):  # from the host's root: the site's, or the address's path under which it is hosted
                segments = path.lstrip("/").split("/")
                path = next(("/".join(segments[n:]) for n in range(len(segments))
                             if (site / "/".join(segments[n:])).exists()), path.lstrip("/"))
                target = posixpath.normpath(path) if path else "index.html"
            else:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
            if target.startswith("../") or target == "..":
                found.append(Finding(name, f"a link out of the site: {address}", address))
                continue
            if parts.path and not is_file(target):
                if (site / target).is_dir() and (site / target / "index.html").is_file():
                    target = posixpath.join(target, "index.html")
                else:
                    found.append(Finding(name, f"a link to a file the site does not have: {address}", address))
                    continue
            fragment = unquote(parts.fragment)
            if fragment and target in pages and fragment not in pages[target].ids:
                found.append(Finding(name, f"a link to an anchor the page does not have: {address}", address))
    return found


# ---- filled-in scripts and PDFs

def _script_findings(site: Path, kept: _Kept, languages: tuple[str, ...] = ()) -> list[Finding]:
    """The search index files: the one call that hands over one JSON value, nothing else; each
    offline worker its template. `languages`: the folders of the sites in other languages, each
    with its own search and its own root worker (site/<lang>/sw.js)."""
    from rulesmith.site.search import FOLDER, read_index

    found = []
    roots = {site, *(site / language for language in languages)}
    for path in sorted(path for root in roots for path in (root / FOLDER).glob("*.js")):
        try:
            read_index(path)
        except ValueError:
            found.append(Finding(path.relative_to(site).as_posix(), "a search index that is not one JSON value",
                                 path.read_text(encoding="utf-8")[:60]))
    for path in sorted(site.rglob("sw.js")):
        if not _filled_worker(path.read_text(encoding="utf-8", errors="replace"), root=path.parent in roots):  # a site's root worker, else a game's
            found.append(Finding(path.relative_to(site).as_posix(),
                                 "an offline worker that is not its template with JSON values filled in", path.name))
    for path in sorted(site.rglob("*.svg")):
        found += [Finding(path.relative_to(site).as_posix(), what, value)
                  for what, value in kept.read(path.read_bytes(), _read_svg_file)[2]]
    for path in sorted(site.rglob("*.webmanifest")) + sorted(site.rglob("*.json")):
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            found.append(Finding(path.relative_to(site).as_posix(), "a JSON file that does not parse", path.name))
    return found


def _filled_worker(text: str, *, root: bool = False) -> bool:
    """Whether a sw.js is exactly the worker's template (templates/site/webapp/sw.js, or root-sw.js
    for the site's root) with each __NAME__ one JSON value, as webapp.fill_script writes it:
    nothing else can have been added."""
    from rulesmith.site import webapp

    template = webapp.worker_template(root=root)
    parts = webapp.PLACEHOLDER.split(template)  # text, name, text, name … text
    pattern = "".join(re.escape(part) if n % 2 == 0 else "(.*?)" for n, part in enumerate(parts))
    matched = re.fullmatch(pattern, text, re.DOTALL)
    if matched is None:
        return False
    for value in matched.groups():
        try:
            if json.dumps(json.loads(value), ensure_ascii=False, indent=None) != value:
                return False
        except ValueError:
            return False
    return True


def pdf_links(pdf: bytes) -> list[str]:
    """Every URI of a PDF's link annotations, and every action that is not a move inside it."""
    import io

    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            for annotation in page.obj.get("/Annots", []):
                action = annotation.get("/A")
                if action is None:
                    continue
                if "/URI" in action:
                    found.append(str(action["/URI"]))
                elif str(action.get("/S", "/GoTo")) != "/GoTo":
                    found.append(f"action {action.get('/S')}")
    return found


def _pdf_findings(site: Path) -> list[Finding]:
    found = []
    for path in sorted(site.rglob("*.pdf")):
        for uri in pdf_links(path.read_bytes()):
            if urlsplit(uri).scheme.lower() != "https":
                found.append(Finding(path.relative_to(site).as_posix(), f"a link annotation to {uri}", uri))
    return found


# ---- all of it

def findings(site: Path, cache: Path | None = None, own: str = "", languages: tuple[str, ...] = ()) -> list[Finding]:
    """Everything wrong with a built site; `own`: the address it is served at (the preview's
    loopback address, which MkDocs writes into canonical links), counted as the site's own;
    `languages`: the folders of the sites in other languages in it (site/<lang>/)."""
    kept = _Kept(cache)
    pages = _pages(site, kept)
    found = [Finding(name, what, value) for name, page in pages.items() for what, value in page.found]
    found += _link_findings(site, pages)
    found += _script_findings(site, kept, languages)
    found += _pdf_findings(site)
    kept.save()
    return [f for f in found if not (own and f.value.startswith(own))]


def traced(finding: Finding, games: list) -> str:
    """The finding, with the content file:line:column of every text that holds its value."""
    places = []
    needle = finding.value.strip()
    if len(needle) >= 4:
        for game in games:
            for text in texts(game):
                if needle in text.value:
                    file, line, column = text.item._file.find_text(text.item._path + text.path, needle)
                    places.append(f"{file}:{line}:{column}")
    return str(finding) + (f" (from {', '.join(places)})" if places else " (made by a template, not by content)")


def check_site(site: Path, games: list, cache: Path | None = None, own: str = "",
               languages: tuple[str, ...] = ()) -> None:
    """Refuse the build on any finding (all at once)."""
    found = findings(site, cache, own, languages)
    log.debug("final gate: %d pages and files read, %d findings", sum(1 for _ in site.rglob("*")), len(found))
    if found:
        listed = "\n".join("  " + traced(f, games) for f in found)
        raise BuildError(f"the built site carries what readers must never get ({len(found)}):\n{listed}\n"
                         "hint: this is a fault of Rulesmith's templates or check; nothing was published")

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
import hashlib
import json
import logging
import posixpath
import re
from dataclasses import dataclass
from html.parser import HTMLParser
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
LINK_LOADS = {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload", "modulepreload", "prefetch", "mask-icon"}
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


# ---- one page

class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.found: list[tuple[str, str]] = []  # (what, value)
        self.links: list[str] = []  # relative addresses, to resolve against the site
        self._script: tuple[str, list[str]] | None = None  # (type, text so far)

    def handle_starttag(self, tag, attrs):
        values = {name: value or "" for name, value in attrs}
        for key in ("id", "name"):
            if values.get(key):
                self.ids.add(values[key])
        if tag in FORBIDDEN_ELEMENTS:
            self.found.append((f"a <{tag}> element", tag))
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            self.found.append(("a refresh <meta> element", values.get("content", "")))
        loads = tag in LOADS or (tag == "link" and bool(set(values.get("rel", "").lower().split()) & LINK_LOADS))
        for name, value in values.items():
            if name.startswith("on"):
                self.found.append((f"an event attribute '{name}'", value or name))
            elif name in URL_ATTRIBUTES:
                for address in (re.split(r"\s*,\s*", value) if "srcset" in name else [value]):
                    address = address.strip().split()[0] if "srcset" in name and address.strip() else address.strip()
                    self._address(tag, name, address, loads)
        if tag == "script" and not values.get("src"):
            self._script = (values.get("type", "").lower(), [])

    handle_startendtag = handle_starttag

    def _address(self, tag: str, name: str, address: str, loads: bool) -> None:
        scheme = urlsplit(address).scheme.lower() if ":" in address else ""
        if scheme == "" and not address.startswith("//"):
            if name in ("href", "src") and address:
                self.links.append(address)
            return
        if scheme != "https":
            self.found.append((f"a {scheme or 'protocol-relative'} address in {tag} {name}", address))
        elif loads:
            self.found.append((f"a resource from another site in {tag} {name}", address))

    def handle_data(self, data):
        if self._script is not None:
            self._script[1].append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            kind, parts = self._script
            text = "".join(parts)
            self._script = None
            if kind in DATA_SCRIPTS:
                try:
                    json.loads(text)
                except ValueError:
                    self.found.append(("a JSON data block that does not parse", text[:60]))
            elif text.strip() and not _known_script(text):
                self.found.append(("an inline script that is not one of the theme's", text[:80]))


@dataclass
class _Read:
    """What the gate keeps of one page: its anchors, its relative links and its findings."""

    ids: set[str]
    links: list[str]
    found: list[tuple[str, str]]


GATE_CACHE = "gate-pages.json"


def _policy_finding(html: str) -> list[list[str]]:
    """A page must carry its Content-Security-Policy before anything it could run (site/csp.py)."""
    found = csp.META.search(html)
    first_script = html.lower().find("<script")
    if found is None or len(csp.META.findall(html)) != 1 or (first_script != -1 and first_script < found.start()):
        return [["a page without its Content-Security-Policy first in <head>", "Content-Security-Policy"]]
    return []


def _pages(site: Path, cache: Path | None) -> dict[str, _Read]:
    """Every page read, from `cache` where a page's bytes are as when it was last read (the
    incremental build changes a few pages; reading all of them took seconds)."""
    kept: dict[str, list] = {}
    if cache is not None:
        try:
            kept = json.loads((cache / GATE_CACHE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
    read, keep = {}, {}
    for path in sorted(site.rglob("*.html")):
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest in kept:
            ids, links, found = kept[digest]
        else:
            html = data.decode("utf-8", errors="replace")
            page = _Page()
            page.feed(html)
            page.close()
            ids, links, found = sorted(page.ids), page.links, [list(f) for f in page.found] + _policy_finding(html)
        keep[digest] = [ids, links, found]
        read[path.relative_to(site).as_posix()] = _Read(set(ids), links, [tuple(f) for f in found])
    if cache is not None and keep != kept:
        with contextlib.suppress(OSError):
            write_atomic(cache / GATE_CACHE, json.dumps(keep).encode("utf-8"))
    return read


def _link_findings(site: Path, pages: dict[str, _Read]) -> list[Finding]:
    found = []
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
            if parts.path and not (site / target).is_file():
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

def _script_findings(site: Path) -> list[Finding]:
    """The search index files: the one call that hands over one JSON value, nothing else."""
    from rulesmith.site.search import FOLDER, read_index

    found = []
    for path in sorted((site / FOLDER).glob("*.js")):
        try:
            read_index(path)
        except ValueError:
            found.append(Finding(path.relative_to(site).as_posix(), "a search index that is not one JSON value",
                                 path.read_text(encoding="utf-8")[:60]))
    for path in sorted(site.rglob("*.webmanifest")) + sorted(site.rglob("*.json")):
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            found.append(Finding(path.relative_to(site).as_posix(), "a JSON file that does not parse", path.name))
    return found


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

def findings(site: Path, cache: Path | None = None, own: str = "") -> list[Finding]:
    """Everything wrong with a built site; `own`: the address it is served at (the preview's
    loopback address, which MkDocs writes into canonical links), counted as the site's own."""
    pages = _pages(site, cache)
    found = [Finding(name, what, value) for name, page in pages.items() for what, value in page.found]
    found += _link_findings(site, pages)
    found += _script_findings(site)
    found += _pdf_findings(site)
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


def check_site(site: Path, games: list, cache: Path | None = None, own: str = "") -> None:
    """Refuse the build on any finding (all at once)."""
    found = findings(site, cache, own)
    log.debug("final gate: %d pages and files read, %d findings", sum(1 for _ in site.rglob("*")), len(found))
    if found:
        listed = "\n".join("  " + traced(f, games) for f in found)
        raise BuildError(f"the built site carries what readers must never get ({len(found)}):\n{listed}\n"
                         "hint: this is a fault of Rulesmith's templates or check; nothing was published")

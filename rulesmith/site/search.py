"""The search index: one small file per game, read from the built pages, for MiniSearch in the browser.

A reader searching on a game's pages loads that game's file only (about 100 KB, not one index of
every game), and MiniSearch (vendored in templates/site/assets/vendor/minisearch) finds what was
typed with a typo or as a prefix. The index is read from the site's HTML, so it holds exactly
what readers read: every heading with an anchor and every glossary term starts an entry; the text
until the next one is its text. "Referred to by" and "Source" lines are left out (they repeat
other items' names everywhere), and so are the permalink marks and inline pictures.

What is stored is small on purpose: each entry's distinct words (stop words left out, accents
folded, the same way search.js folds a query), its title, the aliases of a glossary term and a
short excerpt to show under the title. Each file is a script (`search/<game>.js`) that hands its
data to search.js, so that search works from disk (file://), where a page may not fetch a file.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from rulesmith.content import items
from rulesmith.files import write_if_changed
from rulesmith.project import FORMAT, NOT_FOUND, SEARCH, SITE_SEARCH

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pathlib import Path

FOLDER = SEARCH
SITE = SITE_SEARCH  # the index of the pages outside any game: home, downloads, changelog
EXCERPT = 110  # characters shown under a result's title
# Words too common to help find anything; search.js leaves them out of a query too (same list).
STOP_WORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "if", "in", "is", "it", "its", "of", "on", "or", "that", "the", "their", "then", "this", "to", "was", "were", "will", "with"])
# An item's "From the rulebook" (site/rulebook.py) counts by the rulebook's own lines only: its
# reference, headings and the item's own text said again beside them are left out.
SKIPPED_CLASSES = ("headerlink", "rs-backlinks", "rs-source", "md-source-file", "rs-rulebook__ref",
                   "rs-rulebook__summary", "rs-rulebook__head", "rs-rulebook__at", "rs-rulebook__ours")
SKIPPED_TAGS = {"script", "style", "svg", "template", "button", "nav"}
BLOCKS = {"p", "li", "td", "th", "tr", "div", "dd", "dt", "ul", "ol", "table", "blockquote", "details", "summary",
          "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "br"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ALSO = re.compile(r"^\s*\((?:also|or)\s+(.*)\)\s*$", re.S)
# A box's title (an admonition's, a <details>' summary) is a line of its own on the page; in an
# excerpt it ends as a sentence does, so that it does not run into the box's text.
BOX_TITLES = ("admonition-title",)


def stop_words(language: str = "en") -> frozenset[str]:
    """The words left out of a language's search (accents folded as the index folds them):
    English, ours (STOP_WORDS, search.js's too); another language, the list Material for MkDocs'
    search uses for it (its `lang`: lunr-languages' stop word filter, from Snowball), read from
    the installed theme; a language it has none for, ours."""
    base = language.replace("_", "-").split("-")[0].lower()
    if base == "en":
        return STOP_WORDS
    return _theme_stop_words(base) or STOP_WORDS


@lru_cache(maxsize=8)
def _theme_stop_words(language: str) -> frozenset[str]:
    from importlib.resources import files

    try:
        script = (files("material") / "templates" / "assets" / "javascripts" / "lunr" / "min"
                  / f"lunr.{language}.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError):
        return frozenset()
    found = re.search(r'generateStopWordFilter\("([^"]*)"\.split\(" "\)\)', script) or re.search(
        r'generateStopWordFilter\("([^"]*)"', script)
    if found is None:
        log.warning("search: no stop words for '%s' in the theme's lunr.%s.min.js: the English ones are used",
                    language, language)
        return frozenset()
    return frozenset(w for word in found.group(1).split() for w in words(word))


def words(text: str) -> list[str]:
    """Lower-case words with accents folded: 'Québec's' -> ['quebec', 's'] (search.js: fold())."""
    folded = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))
    return re.findall(r"[^\W_]+", folded)


@dataclass
class Entry:
    anchor: str
    title: str = ""
    aliases: str = ""
    text: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (href as written, its text) in the entry's text


class _Article(HTMLParser):
    """The entries of one page: the text of its <article>, split at headings and terms with an id."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries: list[Entry] = []
        self.page_title = ""
        self.depth = 0  # inside the article: its element depth, else 0
        self.skip = 0  # depth at which a skipped element started, else 0
        self.heading = 0  # depth of the heading or term whose text is being read, else 0
        self.strong = False  # inside the <strong> of a glossary term
        self.title_parts: list[str] = []
        self.rest_parts: list[str] = []
        self.in_title = False
        self.term = False
        self.box_titles: list[tuple[int, int]] = []  # each box title being read: its depth, where its text starts
        self.link: tuple[int, str, list[str]] | None = None  # a link in an entry's text: its depth, href, text

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "title":
            self.in_title = True
        if not self.depth:
            if tag == "article":
                self.depth = 1
            return
        if tag in BLOCKS:
            self._gap()
        if tag in VOID:
            return
        self.depth += 1
        classes = (attributes.get("class") or "").split()
        if not self.skip and (tag in SKIPPED_TAGS or any(c in SKIPPED_CLASSES for c in classes)):
            self.skip = self.depth
        if self.skip or self.heading:
            self.strong = self.strong or bool(self.heading and tag == "strong")
            return
        if tag == "summary" or any(c in BOX_TITLES for c in classes):
            self.box_titles.append((self.depth, len(self.entries[-1].text) if self.entries else 0))
        if tag == "a" and attributes.get("href") and self.entries and self.link is None:
            self.link = (self.depth, attributes["href"] or "", [])
        if attributes.get("id") and (re.fullmatch(r"h[1-6]", tag) or tag == "dt"):
            self.entries.append(Entry(attributes["id"]))
            self.heading, self.title_parts, self.rest_parts = self.depth, [], []
            self.term = tag == "dt"

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if not self.depth or tag in VOID:
            return
        if self.box_titles and self.box_titles[-1][0] == self.depth:
            self._end_sentence(self.box_titles.pop()[1])
        if tag in BLOCKS:
            self._gap()
        if self.link and self.link[0] == self.depth:
            self.entries[-1].links.append((self.link[1], _clean("".join(self.link[2]))))
            self.link = None
        if self.skip == self.depth:
            self.skip = 0
        elif self.heading == self.depth:
            entry, self.heading = self.entries[-1], 0
            if self.term and self.title_parts:  # <dt><strong>Term</strong> (also Alias, alias)</dt>
                entry.title = _clean("".join(self.title_parts))
                rest = _clean("".join(self.rest_parts))
                also = ALSO.match(rest)
                entry.aliases = also.group(1) if also else rest
            else:
                entry.title = _clean("".join(self.title_parts + self.rest_parts))
        elif self.heading and tag == "strong":
            self.strong = False
        self.depth -= 1

    def _gap(self):
        """Words of two blocks stay apart: "dice.</p><p>Next" reads "dice. Next"."""
        if not self.skip and self.entries and not self.heading:
            self.entries[-1].text.append(" ")

    def _end_sentence(self, start: int):
        """A full stop after the text read since `start`, unless it ends with a mark of its own."""
        if self.entries and not self.skip and not self.heading:
            parts = self.entries[-1].text
            if not "".join(parts[start:]).strip():
                return
            while not parts[-1].strip():
                parts.pop()
            if parts[-1].rstrip()[-1] not in ".?!:;…":
                parts[-1] = parts[-1].rstrip() + ". "

    def handle_data(self, data):
        if self.in_title:
            self.page_title += data
        if not self.depth or self.skip:
            return
        if self.heading:
            (self.title_parts if (self.strong or not self.term) else self.rest_parts).append(data)
        elif self.entries:
            self.entries[-1].text.append(data)
            if self.link:
                self.link[2].append(data)
        elif data.strip():  # text before the first heading: an entry for the page itself
            self.entries.append(Entry("", text=[data]))


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _parts_read(html: str) -> str:
    """The page's <title> and its <article>: all that _Article reads. The header, navigation
    and footer around them (most of a page's markup) are not parsed at all."""
    start, end = html.find("<article"), html.rfind("</article>")
    title_start, title_end = html.find("<title"), html.find("</title>")
    if start < 0 or end < start or not 0 <= title_start < title_end < start:
        return html
    return html[title_start:title_end + len("</title>")] + html[start:end + len("</article>")]


def page_entries(html: str) -> tuple[str, list[Entry]]:
    """The page's title (before " - <site name>") and its entries."""
    parser = _Article()
    parser.feed(_parts_read(html))
    parser.close()
    title = _clean(parser.page_title).rsplit(" - ", 1)[0]
    return title, parser.entries


def _excerpt(text: str) -> str:
    if len(text) <= EXCERPT:
        return text
    cut = text[:EXCERPT].rsplit(" ", 1)[0]
    return cut.rstrip(",;:·") + " …"


def game_index(site: Path, folder: str, game_id: str, name: str, language: str = "en") -> dict:
    """The index of the pages under `folder` of the site (a game's folder, or "" for the site's own
    pages), as compact rows: [page number, anchor, title, aliases, words, excerpt]; a page is [path,
    title], and its weight in the ranking where it is not 1 (PAGE_WEIGHTS). A row of a text that
    condenses numbers printed in a table elsewhere (it links to the game's reference tables) ends
    with those tables, [[location, title], …]: the result offers them, one tap to the numbers."""
    root = site / folder if folder else site
    pages: list[list[str | float]] = []
    rows: list[list] = []
    # The content-format page is for contributors, not readers: not in the readers' search.
    paths = sorted(root.rglob("*.html")) if folder else sorted(p for p in site.glob("*.html") if p.stem not in (NOT_FOUND, FORMAT))
    weights = _page_weights(game_id) if folder else {}
    tables = PurePosixPath(items.TABLE.shared_page(game_id)).relative_to(game_id).with_suffix(".html").as_posix() if folder else None
    for path in paths:
        page_title, page_rows = _page_rows(path.read_text(encoding="utf-8"), language)
        number = len(pages)
        relative = path.relative_to(root).as_posix()
        pages.append([relative, page_title] + ([weights[relative]] if relative in weights else []))
        for *row, links in page_rows:
            numbers = _numbers(relative, links, tables) if tables and relative != tables else []
            rows.append([number, *row] + ([numbers] if numbers else []))
    found = {"game": game_id, "name": name, "pages": pages, "docs": rows}
    if stop_words(language) is not STOP_WORDS:  # search.js leaves them out of a query too
        found["stop"] = sorted(stop_words(language))
    return found


NUMBERS = 2  # tables offered with one result, at most


def _numbers(page: str, links: tuple[tuple[str, str], ...], tables: str) -> list[list[str]]:
    """The reference tables an entry of `page` links to: [[location in the game's folder, title], …]."""
    found: dict[str, str] = {}
    for href, text in links:
        target, _, anchor = href.partition("#")
        if not anchor or "://" in target or not target:
            continue
        location = PurePosixPath(posixpath.normpath(posixpath.join(posixpath.dirname(page), target))).as_posix()
        if location == tables and text:
            found.setdefault(f"{location}#{anchor}", text)
    return [[location, title] for location, title in found.items()][:NUMBERS]


# How much a result counts by the page it is on: a complete table above a worked example that
# shows one case of it (issue 36: the complete High Society tie table came 7th, under examples).
PAGE_WEIGHTS = {items.TABLE: 1.6, items.EXAMPLE: 0.6}


def _page_weights(game_id: str) -> dict[str, float]:
    """A game's pages that weigh more or less in its search, by path inside the game's folder."""
    return {PurePosixPath(item_type.shared_page(game_id)).relative_to(game_id).with_suffix(".html").as_posix(): weight
            for item_type, weight in PAGE_WEIGHTS.items()}


@lru_cache(maxsize=4096)
def _page_rows(html: str, language: str = "en") -> tuple[str, tuple[tuple, ...]]:
    """A page's title and its rows but the page number, each ending with its entry's links. Kept by the page's HTML: `rulesmith
    serve` writes the index after every edit, and only the pages the edit changed are read again."""
    page_title, entries = page_entries(html)
    rows = []
    for entry in entries:
        text = _clean("".join(entry.text))
        title = entry.title or page_title
        stop = stop_words(language)
        seen = dict.fromkeys(w for w in words(text) if w not in stop)
        for w in words(title + " " + entry.aliases):
            seen.pop(w, None)  # already found through the title or an alias
        rows.append((entry.anchor, title, entry.aliases, " ".join(seen), _excerpt(text), tuple(entry.links)))
    return page_title, tuple(rows)


def script(data: dict) -> bytes:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "</" would end an inline script; the file is loaded by src, but keep it inert in any case.
    payload = payload.replace("</", "<\\/")
    return ("rulesmithSearch.add(" + payload + ");\n").encode("utf-8")


def read_index(path: Path) -> dict:
    """The data of an index file written by script() (for tests and tools)."""
    text = path.read_text(encoding="utf-8")
    prefix, suffix = "rulesmithSearch.add(", ");\n"
    if not (text.startswith(prefix) and text.endswith(suffix)):
        raise ValueError(f"{path}: not a search index file")
    return json.loads(text[len(prefix):-len(suffix)])


def entries(data: dict) -> list[dict]:
    """An index's rows as named fields, with each entry's location relative to the site."""
    folder = "" if data["game"] == SITE else data["game"] + "/"
    return [{"location": folder + data["pages"][page][0] + (f"#{anchor}" if anchor else ""), "title": title,
             "aliases": aliases, "words": found, "text": excerpt,
             "numbers": [[folder + location, name] for location, name in (numbers[0] if numbers else [])]}
            for page, anchor, title, aliases, found, excerpt, *numbers in data["docs"]]


def write_search(site: Path, games: list[tuple[str, str]], language: str = "en") -> None:
    """Write search/<game>.js for every (id, name) and search/site.js (the site's own pages and
    the list of games, each with the size of its index so a reader can be told before loading),
    each without the stop words of the site's language (stop_words)."""
    listed = []
    for game_id, name in games:
        data = script(game_index(site, game_id, game_id, name, language))
        written = write_if_changed(site / FOLDER / f"{game_id}.js", data)
        log.debug("search index of %s: %d bytes, %s", game_id, len(data), "written" if written else "unchanged")
        listed.append({"id": game_id, "name": name, "bytes": len(data)})
    own = game_index(site, "", SITE, "", language)
    own["games"] = listed
    write_if_changed(site / FOLDER / f"{SITE}.js", script(own))

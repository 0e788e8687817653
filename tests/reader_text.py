"""The reader's-text check: what a reader sees, judged as text (issue 29).

One module of checks that each take a text (and, for the ids and the foreign names, what the
loaded content calls things), and the extractors that turn every output into that text: the
visible text of a site page (script and style left out; tooltips, image labels and the flowcharts'
SVG text and <title>s in), a search index entry, a flowchart SVG, a PDF's text layer.

Each rule is one function returning the offending excerpts; `problems` runs them all and drops
the few accepted exceptions of `reader_text_exceptions.yaml` (each with its reason).
"""

from __future__ import annotations

import fnmatch
import html
import html.parser
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

EXCEPTIONS_FILE = Path(__file__).resolve().parent / "reader_text_exceptions.yaml"

# --- the rules --------------------------------------------------------------------------------

# Markdown, Python-Markdown extension and Jinja syntax that only shows when something went wrong.
_MARKUP = [
    ("admonition", re.compile(r"(?:!!!|\?\?\?\+?)(?=\s*\w|\s*\")")),
    ("reference", re.compile(r"\[\[|\]\]")),
    ("template", re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}|\{##|\{:")),
    ("attribute list", re.compile(r"\{\s*[.#][\w-]+[^}]*\}")),
    ("bold", re.compile(r"\*\*|(?<![\w_])__(?=\w)|(?<=\w)__(?![\w_])")),
    ("emphasis", re.compile(r"(?<![\w*\\])\*(?=[^\s*])[^*\n]{1,80}(?<=[^\s*])\*(?![\w*])")),
    ("link", re.compile(r"\]\(|\[[^\]\n]{1,80}\]\[")),
    ("code", re.compile(r"`")),
    ("escape", re.compile(r"\\[\\`*_\[\]{}#|!<>-]")),
    ("html", re.compile(r"</?(?:span|div|p|a|br|small|em|strong|b|i|svg|img|td|tr|li|ul|table)\b[^>]*>", re.I)),
    ("entity", re.compile(r"&(?:[a-z]+|#\d+|#x[0-9a-f]+);", re.I)),
    ("heading", re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+\w")),
]


def markup(text: str, vocabulary: Vocabulary | None = None) -> list[Hit]:
    """Markdown or template syntax left in the text: `!!! check`, `[[rule:x]]`, `{{ x }}`, `**`, `](`;
    not where the game's own text writes the same characters (shown as written, escaped)."""
    found = []
    for _name, pattern in _MARKUP:
        for m in pattern.finditer(text):
            if vocabulary is None or not _written(text, m.start(), m.end(), vocabulary.literal):
                found.append(_around(text, m.start(), m.end()))
    return found


def _written(text: str, start: int, end: int, literal: str, width: int = 8) -> bool:
    """Whether the content's own text has this match with the few characters before or after it."""
    def squash(piece: str) -> str:
        return " ".join(piece.split())
    return bool(literal) and (squash(text[max(0, start - width):end]) in literal
                              or squash(text[start:end + width]) in literal)


# An address or a file name is not wording: its words may be ids (downloads/deep-state/…).
_ADDRESS = re.compile(r"\b(?:https?://|www\.)\S+|\S+\.(?:html|pdf|svg|json|yaml)\b\S*", re.I)
_ID_TOKEN = re.compile(r"(?<![\w-])[a-z0-9]+(?:(?:->|[-_])[a-z0-9]+)+(?![\w-])")
_KEY = re.compile(r"(?<![\w-])([a-z][a-z0-9-]*):([a-z0-9][a-z0-9-]*)(?![\w-])")


def internal_ids(text: str, vocabulary: Vocabulary) -> list[Hit]:
    """Content ids, field keys, kind ids and node ids as written in the data ("faction-skill",
    "leader_cards", "trigger->high-difficulty", "alliance:interpol"), unless the rulebook's own
    text uses the word."""
    text = _ADDRESS.sub(" ", text)
    found = []
    for m in _ID_TOKEN.finditer(text):
        token = m.group(0)
        machine = "->" in token or "_" in token or token in vocabulary.ids
        if machine and token not in vocabulary.words:
            found.append(_around(text, m.start(), m.end()))
    for m in _KEY.finditer(text):
        if m.group(1) in vocabulary.prefixes and m.group(0) not in vocabulary.words:
            found.append(_around(text, m.start(), m.end()))
    return found


# Within a line; across a line break only in lower case ("cards / cards" broken over two lines of
# a PDF): a title on the line after the same title is layout (a menu and its sub-menu's heading).
_REPEATED_WORD = re.compile(r"(?<![\w-])([^\W\d_]{2,})(?:[^\S\n]+\1)+(?![\w-])", re.I)
_REPEATED_LOWER_WORD = re.compile(r"(?<![\w-])([^\W\d_A-Z]{2,})\s*\n\s*\1(?![\w-])")
_REPEATED_LABEL = re.compile(r"(?<![\w-])([^\W\d_][\w' -]{0,40}?:)[^\S\n]+\1", re.I)
_SELF_GLOSS = re.compile(r"(?<![\w-])([^\W\d_][\w'.:, -]{0,100}?)[^\S\n]*\(\1\)", re.I)


def repeated(text: str) -> list[Hit]:
    """A word, a label prefix or a name said twice in a row: "cards cards", "Bot: Bot:",
    "Trends (Trends)"."""
    found = []
    for pattern in (_REPEATED_WORD, _REPEATED_LOWER_WORD, _REPEATED_LABEL, _SELF_GLOSS):
        for m in pattern.finditer(text):
            words = m.group(0).split()
            if pattern is _REPEATED_WORD and all(w[:1].isupper() for w in words):
                continue  # "Stage Stage card", "Yes Yes": a table's or a chart's cells side by side in a PDF
            if pattern is _REPEATED_LOWER_WORD and not m.group(1).islower():
                continue  # a title on the line after the same title, its capital not ASCII ("Änderungen")
            found.append(_around(text, m.start(), m.end()))
    return found


_PUNCTUATION_RUN = re.compile(r"[.?!,;:][.?!,;:]+")
_LEADER = re.compile(r"\.{4,}")  # a contents page's dot leaders
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|pp?|no)|\b[A-Za-z])\.$", re.I)


def doubled_punctuation(text: str) -> list[Hit]:
    """Two marks of punctuation where one belongs: "reshuffle?.", "Set-up:.", "the end.."; an
    ellipsis, "?!" and an abbreviation's full stop before a comma ("e.g.,") are fine."""
    text = _LEADER.sub(" ", _ADDRESS.sub(" ", text))
    found = []
    for m in _PUNCTUATION_RUN.finditer(text):
        mark = m.group(0)
        if re.fullmatch(r"\.{3,}[,;:]?|[?!]+", mark):
            continue
        if mark[0] == "." and _ABBREVIATION.search(text[max(0, m.start() - 8):m.start() + 1]):
            continue
        found.append(_around(text, m.start(), m.end()))
    return found


def foreign_names(text: str, vocabulary: Vocabulary) -> list[Hit]:
    """Names of another game's items in this game's outputs ("Storms p.2" in every game's legend):
    text that came from a template, not from the game."""
    found = []
    for _name, pattern in vocabulary.foreign:
        found += [_around(text, m.start(), m.end()) for m in pattern.finditer(text)]
    return found


@lru_cache(maxsize=8)
def _page_reference(language: str) -> tuple[re.Pattern, re.Pattern]:
    """In an aid's language (the tool's word catalog): a page reference ("Antiterror p.3", German
    "Antiterror S.3": aids/pagerefs.PAGE), and a note's number before the page it is on ("(in
    full: note 2 p.2)", German "(vollständig: Anmerkung 2 S.2)": the word before the number in
    aids/notes.IN_FULL)."""
    from rulesmith import words
    from rulesmith.aids import notes, pagerefs

    said = words.of(language)
    page = re.escape(said.gettext(pagerefs.PAGE))
    note = said.gettext(notes.IN_FULL).split("%(number)s")[0].split()[-1]
    return (re.compile(rf"([^\s“”\"]+)[ \u00a0]{page}(?:\d+|\?)(?!\w)"), re.compile(rf"\b{re.escape(note)} \d+$"))


def _last_word(name: str) -> str:
    words = name.split()
    return words[-1].strip("()“”\"'.,:;!?").lower() if words else ""


def page_references(text: str, vocabulary: Vocabulary) -> list[Hit]:
    """A page reference ("Antiterror p.3") names something of this game: one naming nothing of it
    ("Storms p.2" as every aid's example) came from a template."""
    found = []
    reference, note_before = _page_reference(vocabulary.language)
    for m in reference.finditer(text):
        # "(in full: note 2 p.2)": a note of the aid, on its page (the note's word and a space before its number)
        if note_before.search(text, max(0, m.start(1) - len(note_before.pattern)), m.end(1)):
            continue
        if vocabulary.name_ends and _last_word(m.group(1)) not in vocabulary.name_ends:
            found.append(_around(text, m.start(), m.end()))
    return found


RULES = {
    "markup": markup,
    "internal id": internal_ids,
    "repeated": lambda text, _vocabulary: repeated(text),
    "doubled punctuation": lambda text, _vocabulary: doubled_punctuation(text),
    "foreign name": foreign_names,
    "page reference": page_references,
}


class Hit(tuple):
    """What a rule found: the offending text, and the same with a little context, on one line."""

    def __new__(cls, match: str, context: str):
        return super().__new__(cls, (match, context))

    def __str__(self) -> str:
        return f"«{self[0]}» in «{self[1]}»"


def _around(text: str, start: int, end: int, width: int = 30) -> Hit:
    def line(piece: str) -> str:
        return re.sub(r"\s+", " ", piece).strip()
    return Hit(line(text[start:end]), "…" + line(text[max(0, start - width):end + width]) + "…")


# --- what the content calls things ------------------------------------------------------------

@dataclass
class Vocabulary:
    """The ids of one game's data (what a reader must not see), the words of its rulebook texts
    (which a reader may see, even where an id spells the same) and other games' names."""

    ids: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)  # reference prefixes: rule, table, the kinds …
    words: set[str] = field(default_factory=set)  # hyphenated words and key-like tokens of the rulebooks
    foreign: list[tuple[str, re.Pattern]] = field(default_factory=list)
    name_ends: set[str] = field(default_factory=set)  # the last word of every item's name (page references)
    literal: str = ""  # every text of the game's data as written, whitespace squashed
    language: str = "en"  # the language its aids print the tool's words in (aids/document.language_of)


def vocabulary(checked, others=(), rulebook_texts: list[str] | None = None) -> Vocabulary:
    """What the loaded model calls things, for one game (`checked`: a pipeline.Checked)."""
    from rulesmith.checks.source_map import source_lines
    from rulesmith.content import items

    game = checked.game
    from rulesmith.aids.document import language_of

    found = Vocabulary(language=language_of(checked))
    found.ids.add(game.id)
    found.prefixes |= {t.prefix for t in items.ITEM_TYPES if t.prefix != "entity"} | {"icon", "value"}
    written = [game.info.model_dump(mode="json")] + [plan.model_dump(mode="json") for plan in game.aids]
    for item_type, key, item in items.all_items(game):
        written.append(item.model_dump(mode="json"))
        found.ids.add(str(item.id))
        found.prefixes.add(key.partition(":")[0])
        found.name_ends.add(_last_word(items.name_of(item_type, item)))
    for kind in game.kinds:
        found.ids |= {f.id for f in kind.fields}
    for table in game.tables:
        found.ids |= {c.id for c in table.columns}
    for procedure in game.procedures:
        found.ids |= {n.id for n in procedure.nodes}
    for example in game.examples:
        found.ids |= set(example.inputs)
    found.literal = " ".join(" ".join(_strings(written)).split())
    from rulesmith.content.link import REFERENCE  # a reference's own label names its target too: "([[rule:x|effects]])"
    found.name_ends |= {_last_word(m.group(2)) for m in REFERENCE.finditer(found.literal) if m.group(2)}
    for plan in game.aids:  # an aid may show an item under a title of its own ("A round at a glance")
        found.name_ends |= {_last_word(title) for title in _titles(plan.model_dump(mode="json"))}
    if rulebook_texts is None:
        rulebook_texts = ["\n".join(source_lines(game, s.id) or []) for s in game.info.sources]
    for text in rulebook_texts:
        lowered = text.lower()
        found.words |= set(_ID_TOKEN.findall(lowered)) | {m.group(0) for m in _KEY.finditer(lowered)}
    own_names = {name.lower() for name in _names(checked)}
    own_text = "\n".join(rulebook_texts).lower()
    for other in others:
        for name in sorted(_names(other)):
            lowered = name.lower()
            if len(name) >= 4 and lowered not in own_names and not re.search(
                    rf"(?<![\w-]){re.escape(lowered)}(?![\w-])", own_text):
                found.foreign.append((name, re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")))
    return found


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _titles(value) -> list[str]:
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in ([v] if k == "title" and isinstance(v, str) else _titles(v))]
    if isinstance(value, list):
        return [t for v in value for t in _titles(v)]
    return []


def _names(checked) -> set[str]:
    from rulesmith.content import items

    game = checked.game
    names = set()  # not the game's name: every page's navigation names every game
    for item_type, _key, item in items.all_items(game):
        if item_type.prefix in ("entity", "term"):  # not a kind's name: "Cards", "Leaders" are everyone's words
            names.add(items.name_of(item_type, item))
    return names


# --- the exceptions ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Exception_:
    rule: str
    text: str  # a piece of the offending excerpt
    where: str  # a glob over the output's name ("*" everywhere)
    reason: str


def exceptions(path: Path = EXCEPTIONS_FILE) -> list[Exception_]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    found = []
    for entry in data:
        assert set(entry) <= {"rule", "text", "where", "reason"} and entry.get("reason"), entry
        assert entry["rule"] in RULES, f"unknown rule {entry['rule']!r} in {path.name}"
        found.append(Exception_(entry["rule"], entry["text"], entry.get("where", "*"), entry["reason"]))
    return found


def problems(text: str, vocabulary: Vocabulary, where: str, allowed: list[Exception_] | None = None) -> list[str]:
    """Every rule on one text, as `where: rule: excerpt` lines, less the accepted exceptions."""
    allowed = exceptions() if allowed is None else allowed
    found = []
    for rule, check in RULES.items():
        for hit in check(text, vocabulary):
            if not any(e.rule == rule and e.text in hit[0] and fnmatch.fnmatch(where, e.where) for e in allowed):
                found.append(f"{where}: {rule}: {hit}")
    return found


# --- the outputs as text ----------------------------------------------------------------------

_BLOCK = {"p", "div", "li", "ul", "ol", "table", "tr", "td", "th", "thead", "tbody", "h1", "h2", "h3", "h4",
          "h5", "h6", "br", "hr", "dt", "dd", "dl", "nav", "header", "footer", "section", "article", "aside",
          "details", "summary", "label", "form", "figure", "figcaption", "blockquote", "pre", "main", "g",
          "text", "title", "svg", "input", "button", "option", "select", "textarea", "caption", "body", "head",
          "html", "tspan"}
_SKIP = {"script", "style", "template", "noscript"}
_SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.attributes: dict[str, None] = {}  # tooltips and labels, each once, after the text
        self.skipping = 0
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP:
            self.skipping += 1
            return
        if tag in _BLOCK:
            self.parts.append("\n")
        self.pre += tag == "pre"
        for name, value in attrs:
            if name in _SHOWN_ATTRIBUTES and value and not self.skipping:
                self.attributes[" ".join(value.split())] = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in _SKIP:
            self.skipping -= 1

    def handle_endtag(self, tag):
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK:
            self.parts.append("\n")
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data):
        if not self.skipping:  # source line breaks inside a paragraph are spaces to a reader
            self.parts.append(data if self.pre else re.sub(r"\s+", " ", data))


def html_text(markup_: str) -> str:
    """The text a reader sees in an HTML page or fragment (or an SVG): blocks on their own lines;
    tooltips, labels and alternatives as lines of their own; no script or style."""
    parser = _Text()
    parser.feed(markup_)
    parser.close()
    text = "".join(parser.parts) + "\n" + "\n".join(parser.attributes)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def language_folders(site: Path) -> list[str]:
    """The folders of the site's versions in other languages (site/<lang>/: its own sitemap.xml
    and search, which a game's folder has neither of)."""
    return [p.name for p in sorted(site.iterdir()) if p.is_dir() and (p / "sitemap.xml").is_file() and (p / "search").is_dir()]


def site_texts(site: Path) -> dict[str, str]:
    """Every page of a built site, in every language (by its path in the site) and every flowchart
    SVG file."""
    found = {}
    formats = {"format.html", *(f"{folder}/format.html" for folder in language_folders(site))}
    for path in sorted(site.rglob("*.html")):
        if path.relative_to(site).as_posix() in formats:
            continue  # the contributors' format reference: its subject is the content's own syntax
        found[path.relative_to(site).as_posix()] = html_text(path.read_text(encoding="utf-8"))
    for path in sorted(site.rglob("*.svg")):
        if "assets" not in path.relative_to(site).parts:
            found[path.relative_to(site).as_posix()] = html_text(path.read_text(encoding="utf-8"))
    return found


_HTML_LANG = re.compile(r'<html lang="([^"]+)"')


def search_entries(site: Path) -> list[dict]:
    """Every entry of every search index file of a built site (one per game, and the site's own);
    of the site in the site's own language, or of one language's site (site/<lang>). Each says
    the site's language (`language`: its home page's <html lang>), whose stop words its search
    leaves out of a query."""
    from rulesmith.site import search

    files = sorted((site / search.FOLDER).glob("*.js"))
    home = site / "index.html"
    said = _HTML_LANG.search(home.read_text(encoding="utf-8")) if home.is_file() else None
    language = said.group(1) if said else "en"
    found = []
    for path in files:
        try:
            found += [entry | {"language": language} for entry in search.entries(search.read_index(path))]
        except ValueError:
            continue  # search.js and the library itself
    assert found, f"no search index under {site / search.FOLDER}: the reader's-text check reads every entry of it"
    return found


def search_holds(entry: dict, phrase: str) -> bool:
    """Whether a search entry finds a phrase: each of its words is in the entry, but the stop
    words of its site's language (search.stop_words), which the site's search leaves out of a query."""
    from rulesmith.site import search

    held = set(str(entry["words"]).split()) | set(search.words(entry["title"] + " " + entry["text"]))
    stop = search.stop_words(entry.get("language", "en"))
    return all(word in held for word in search.words(phrase) if word not in stop)


def search_texts(site: Path) -> dict[str, str]:
    """Every entry of the search index of the site in every language, by `search:<location>`
    (`search:<lang>/<location>` for another language's site): what a result shows, its title,
    aliases and excerpt."""
    return {f"search:{prefix}{doc['location']}": html_text(f"<h1>{html.escape(doc['title'])}</h1>\n<div>{html.escape(doc['text'])}"
                                                          f" {html.escape(doc['aliases'] or '')}</div>")
            for folder in ("", *language_folders(site)) for prefix in [f"{folder}/" if folder else ""]
            for doc in search_entries(site / folder)}


def pdf_text(data: bytes) -> str:
    """The text layer of a PDF, page by page, in reading order (pypdf follows the content stream:
    a column before the next), as a reader who copies or searches it gets it."""
    import pdf_text

    text = pdf_text.text(data)  # read once per test process
    return re.sub(r"(?<=\w-) ?\n(?=\w)", "", text)  # "set-" at a line's end and "up" on the next: "set-up"


_LANGUAGE_FOLDER = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]+)?")


def game_of(where: str, games: set[str]) -> str | None:
    """The game an output belongs to: the first folder of its path (downloads/<game>/ for PDFs),
    after the language's folder of a site in another language (de/<game>/…)."""
    parts = where.removeprefix("search:").split("/")
    if parts[0] not in games and len(parts) > 1 and _LANGUAGE_FOLDER.fullmatch(parts[0]):
        parts = parts[1:]
    if parts[0] == "downloads" and len(parts) > 1:
        parts = parts[1:]
    return parts[0] if parts[0] in games else None

"""Player aids, PDF side: HTML from aids/ to PDF with WeasyPrint, sandboxed, cached, parallel.

- Sandboxed: WeasyPrint fetches only files under templates/ and content/ and data: URLs. Any
  other URL (http, https, file:// elsewhere) stops the build with a AidError naming the
  content file and line that asked for it.
- Deterministic: no clock anywhere. The PDF dates are the date of the latest erratum that
  changed the aid (none without errata), the file identifier is a hash of the content, fonts
  are subset by name and hash.
- Cached: a PDF is stored under a hash of everything it depends on (its HTML, which holds the
  game's content, the flowcharts and the stamp of the latest erratum that changed the aid; the
  game's other files; templates/pdf and the fonts it loads; WeasyPrint's version and options),
  so an unchanged aid is never rendered again, and an erratum re-renders only the aids that
  show what it changed.
- Parallel: the aids that must be rendered are laid out in a pool of processes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import mimetypes
import re
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import weasyprint
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from rulesmith import fingerprint, words
from rulesmith.aids import balance, document, notes, pagerefs, stamp, structure
from rulesmith.aids.kinds import aid_kinds, aid_path, geometry
from rulesmith.aids.weasy import anchor_pages, fill_page_numbers, layout_problems, measured_positions, note_pages
from rulesmith.content.link import texts
from rulesmith.files import write_atomic
from rulesmith.problems import ContentError, Problem
from rulesmith.project import project_of_content, templates
from rulesmith.translations.catalog import FOLDER as catalog_folder

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from collections.abc import Callable

    from rulesmith.pipeline import Checked

TEMPLATES = templates()
WORKERS = 2
CACHE_FORMAT = "rulesmith-aid-4"  # 4: the number each note prints (Rendered.notes)
NOTE_LAYOUTS = 8  # at most this many layouts more to set each note once on the page of its mark
# Tagged PDF (structure tree, language, title, alt text for figures) with the PDF/UA-1
# identification in its XMP metadata. WeasyPrint 70 leaves the footers (margin boxes) out of
# the structure tree rather than marking them as artifacts, so the PDF/UA claim is WeasyPrint's
# best effort, not validated: veraPDF cannot be installed here.
PDF_OPTIONS = {"pdf_variant": "pdf/ua-1", "pdf_identifier": True}
URL_IN_TEXT = re.compile(r"\]\(\s*<?([^)\s>]+)|<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]+)>|((?:https?|file|ftp)://[^\s)\]>]+)")


class AidError(ContentError):
    """A player aid cannot be built; carries located problems like ContentError (same CLI output)."""


class SandboxError(FatalURLFetchingError):
    """Raised inside WeasyPrint for a URL outside the sandbox; fatal, so rendering stops at once."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


class SandboxFetcher(URLFetcher):
    """Serves files under the given roots and data: URLs; refuses everything else.

    `asked_by` maps URLs written in content text to where they are written (file, line,
    column), so the error names the content file that asked for a refused URL.
    """

    def __init__(self, roots, asked_by: dict[str, tuple[str, int, int]] | None = None, aid_name: str = "player aid"):
        super().__init__(fail_on_errors=True)
        self.roots = [Path(r).resolve() for r in roots]
        self.asked_by = asked_by or {}
        self.aid_name = aid_name
        self.refused: list[Problem] = []

    def fetch(self, url, headers=None):
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme == "file":
            path = self._local(url)
            if path is not None:
                kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})
        problem = self._problem(url)
        self.refused.append(problem)
        raise SandboxError(problem)

    def _local(self, url: str) -> Path | None:
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            return None
        path = Path(unquote(parts.path)).resolve()  # resolves .. and symlinks before the check
        if path.is_file() and any(path.is_relative_to(root) for root in self.roots):
            return path
        return None

    def _problem(self, url: str) -> Problem:
        where = self.asked_by.get(url) or next(
            (w for asked, w in self.asked_by.items() if asked and (url.endswith(asked) or asked.endswith(url))), None)
        message = f"the {self.aid_name} may not load '{url}'"
        hint = "a PDF may load only files under templates/ and content/ and data: URLs; remove the image or link"
        if where is None:
            return Problem("templates/pdf", 1, 1, message + " (asked for by a template, not by content)", hint)
        return Problem(where[0], where[1], where[2], message, hint)


def urls_in_content(checked: Checked) -> dict[str, tuple[str, int, int]]:
    """Every URL written in the game's texts, with the place it is written."""
    found = {}
    for text in texts(checked.game):
        for match in URL_IN_TEXT.finditer(text.value):
            url = next(g for g in match.groups() if g)
            if url not in found and text.item._file is not None:
                found[url] = text.item._file.find_text(text.item._path + text.path, url)
    return found


@dataclass
class Job:
    """One PDF to make: everything a worker process needs, and nothing it must not touch."""

    game: str
    title: str
    paper: str
    path: str  # downloads/<game>/<aid>-<paper>.pdf
    html: str
    roots: tuple[str, ...]
    asked_by: dict = field(default_factory=dict)
    depends: str = ""  # digest of the files the HTML may load
    erratum: str | None = None  # id of the latest erratum that changed this aid (its footer says so)
    contains: str = ""  # what the aid holds, for the downloads list (templates/pdf/aids.yaml)
    inputs: str = ""  # digest of everything the HTML is made from (input_key)
    known: str = ""  # the PDF's key, found by `inputs` in the cache: then `html` is not made ("")
    language: str | None = None  # an aid of a game in another language (its site's), else None

    @property
    def base_url(self) -> str:
        return (TEMPLATES / "pdf").as_uri() + "/"

    def key(self) -> str:
        if self.known:
            return self.known
        digest = hashlib.sha256()
        for part in (CACHE_FORMAT, weasyprint.__version__, json.dumps(PDF_OPTIONS, sort_keys=True),
                     self.path, self.depends, self.html):
            digest.update(part.encode("utf-8"))
            digest.update(b"\0")
        return digest.hexdigest()[:32]


@dataclass
class Rendered:
    pdf: bytes
    pages: int
    warnings: list[str] = field(default_factory=list)  # WeasyPrint's own (unsupported CSS …)
    layout: list[str] = field(default_factory=list)  # layout_problems(): should stay empty
    # by each note's number in the HTML: the number it prints and how ("full", "short", "call"; pdf.laid_out)
    notes: dict[str, list] = field(default_factory=dict)


def _digest_files(*folders: Path, skip: tuple[str, ...] = ()) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.endswith(skip)):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _software() -> str:
    """What an aid's HTML is made from besides its game's files: Rulesmith's code and templates,
    the installed distributions, Python, the RULESMITH_* environment (fingerprint.software), and
    what lays the flowcharts out (Graphviz's version and fonts)."""
    from rulesmith.flowchart.chart import layout_tools

    return hashlib.sha256(fingerprint.software_digest().encode() + layout_tools()).hexdigest()


def input_key(software: str, game_files: str, site: dict, path: str) -> str:
    """The key of one aid by what its HTML is made from: the software, every file of its game
    (its content: one game's aids never depend on another's), the site's name and address, and
    the aid and paper (its path). Coarser than the HTML: an erratum changes the key of every aid
    of its game, whose HTML is then made and looked up by Job.key()."""
    digest = hashlib.sha256()
    for part in (CACHE_FORMAT, weasyprint.__version__, json.dumps(PDF_OPTIONS, sort_keys=True), software,
                 game_files, json.dumps(site, sort_keys=True), path):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def _known(cache: Path, inputs: str) -> str:
    """The PDF key stored for these inputs, when that PDF is in the cache; else ""."""
    try:
        known = (cache / "inputs" / inputs).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return ""
    ok = re.fullmatch(r"[0-9a-f]{32}", known) and (cache / f"{known}.pdf").exists() and (cache / f"{known}.json").exists()
    return known if ok else ""


def jobs_for(checked: list[Checked], chart_cache: Path | None = None, site_url: str | None = None,
             cache: Path | None = None) -> list[Job]:
    """Every aid of every game, in both paper sizes, with its HTML. `chart_cache` holds the
    flowcharts laid out again for the page (default: the project's cache). With the PDF `cache`,
    an aid whose inputs (input_key) are those of a PDF there gets no HTML: `known` names that PDF."""
    templates = _digest_files(TEMPLATES / "pdf", TEMPLATES / "fonts")
    software = _software() if cache is not None else ""
    jobs = []
    for item in checked:
        game = item.game
        content_root = game.folder.resolve().parent
        project = project_of_content(content_root)
        charts = chart_cache or project.cache / "flowcharts"
        # A game in another language (commands/build.in_language) has its aids in that language's
        # site, whose address they print.
        language = item.language if item.translation is not None else None
        site = _site(project, site_url, [c.game for c in checked], language)
        # The YAML is already in the HTML; only other files of the game folder (images) may be loaded.
        # The aids in the game's own language do not read its translation catalogs (a catalog's
        # edit lays out none of them again); those in another language read that language's only.
        depends = templates + _digest_files(game.folder, skip=(".yaml", ".yml", ".po", ".pot"))
        game_files = fingerprint.tree_digest(game.folder, frozenset({catalog_folder})) if cache is not None else ""
        if cache is not None and item.translation is not None:
            catalog = item.translation.path
            game_files += hashlib.sha256(catalog.read_bytes() if catalog.is_file() else b"").hexdigest()
        asked_by = urls_in_content(item)
        for kind in aid_kinds(game):
            latest = stamp.latest_erratum_in(item, kind)
            for paper in geometry().papers:
                path = aid_path(game.id, kind, paper, language)
                inputs = input_key(software, game_files, site, path) if cache is not None else ""
                known = _known(cache, inputs) if cache is not None else ""
                jobs.append(Job(game=game.id, title=kind.title, paper=paper.name, path=path,
                                html="" if known else document.render_html(item, kind, paper, charts, site),
                                roots=(str(TEMPLATES), str(content_root)), asked_by=asked_by, depends=depends,
                                erratum=latest.id if latest else None, contains=kind.contains,
                                inputs=inputs, known=known, language=language))
    return jobs


def _site(project, site_url: str | None = None, games=(), language: str | None = None) -> dict:
    """The reference site's name and address (MkDocs' site_name and site_url, or the build's
    --site-url), for page 1; in another language, its site's (site_url/<lang>/)."""
    from rulesmith.site.mkdocs_config import default_site_name, project_settings, settings

    config = settings(project, trusted=True, games=games)  # only read here: the build checked the file (build.build)
    url = site_url or config.get("site_url") or ""
    # Named by the project's mkdocs.yml or its one game, never by its folder: the same content
    # prints the same aids wherever the project is checked out.
    own = project_settings(project, trusted=True).get("site_name") or default_site_name(project, games, folder=False)
    url = url if not url or url.endswith("/") else url + "/"
    return {"name": own, "url": url + f"{language}/" if url and language else url}


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def render_document(job: Job) -> weasyprint.Document:
    """Lay out one aid (a WeasyPrint Document) with its page numbers filled in; raises
    AidError for a refused URL (laid_out)."""
    return laid_out(job)[0]


def laid_out(job: Job) -> tuple[weasyprint.Document, dict[int, tuple[int, str]]]:
    """Lay out one aid with its page numbers filled in, and the number each of its notes prints
    (by its number in the HTML, notes.NUMBER: the number it prints, and whether it prints in
    "full", "short" or only as a "call" of the same note above it). The notes first: a note said again on a page
    that holds it already is only called there (notes.repeated); a note the layout sets on a
    later page than its mark takes its mark's row there (notes.to_next_page); a note said on an
    earlier page prints in short (notes.said_before). Then the page
    numbers: one layout more, unless a page number does not fit its placeholder (see
    aids/pagerefs.py); then the numbers go into the HTML and the aid is laid out again until
    they stop moving."""
    fetcher = SandboxFetcher(job.roots, job.asked_by, aid_name=f"{job.title} ({job.path})")
    source = _balance_columns(job, fetcher)
    repeats: dict[int, int] = {}
    shorts = notes.said_before(source)
    html = notes.shown(source, repeats, shorts, job.language or words.ENGLISH)
    document = _layout(job, html, fetcher)
    for _attempt in range(NOTE_LAYOUTS):
        calls, set_on = note_pages(document, notes.NUMBER)
        # a repeat stays one while its call is on the page of the note it repeats
        kept = {n: first for n, first in repeats.items() if calls.get(n) is not None and calls.get(n) == set_on.get(first)}
        kept.update(notes.repeated(source, calls, set_on, kept))
        moved = source
        if kept == repeats:  # no note to leave out: a note set after its mark takes the mark's row along
            late = {n for n, page in calls.items() if n not in repeats and set_on.get(n, page) != page}
            moved = notes.to_next_page(source, late) if late else source
        if kept == repeats and moved == source:
            break
        source, repeats = moved, kept
        html = notes.shown(source, repeats, shorts, job.language or words.ENGLISH)
        document = _layout(job, html, fetcher)
    printed = {n: (shown, "call" if n in repeats else "short" if n in shorts else "full")
               for n, shown in notes.numbers(source, repeats).items()}
    pages = anchor_pages(document)
    if fill_page_numbers(document, pages):
        return document, printed
    for _attempt in range(4):
        document = _layout(job, pagerefs.number_pages(html, pages), fetcher)
        found = anchor_pages(document)
        if found == pages:
            break
        pages = found
    return document, printed


def _balance_columns(job: Job, fetcher: SandboxFetcher) -> str:
    """The aid's HTML with its balanced blocks set in columns, from one measuring layout
    (aids/balance.py: far cheaper than CSS columns); unchanged when it has none."""
    blocks = balance.blocks_of(job.html)
    if not blocks:
        return job.html
    tops: dict[int, float] = {}
    bottoms: dict[int, float] = {}
    if any(not block.even for block in blocks):
        measuring = balance.measuring(job.html, blocks)
        tops, bottoms = measured_positions(_layout(job, measuring, fetcher), balance.MARK, balance.BLOCK_MARK)
    return balance.balanced(job.html, balance.heights(tops, bottoms, job.html, blocks), blocks)


def _layout(job: Job, html: str, fetcher: SandboxFetcher) -> weasyprint.Document:
    try:
        document = weasyprint.HTML(string=html, base_url=job.base_url, url_fetcher=fetcher).render(**PDF_OPTIONS)
    except SandboxError as error:
        raise AidError([error.problem]) from None
    except FatalURLFetchingError as error:
        cause = error.__cause__ or error
        raise AidError([Problem("templates/pdf", 1, 1, f"{job.path}: {error} ({cause})",
                                  "check the file names in templates/pdf")]) from None
    if fetcher.refused:
        raise AidError(fetcher.refused)
    return document


def render(job: Job) -> Rendered:
    """One PDF, in this process. WeasyPrint's warnings come back with it (tests want none)."""
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        document, printed = laid_out(job)
        try:
            pdf = structure.complete(document.write_pdf(**PDF_OPTIONS))
        except SandboxError as error:
            raise AidError([error.problem]) from None
    finally:
        logger.removeHandler(collect)
    return Rendered(pdf, len(document.pages), collect.messages, layout_problems(document),
                    {str(n): list(shown) for n, shown in printed.items()})


def _cached(job: Job, cache: Path) -> Rendered | None:
    pdf, meta = cache / f"{job.key()}.pdf", cache / f"{job.key()}.json"
    if pdf.exists() and meta.exists():
        info = json.loads(meta.read_text())
        return Rendered(pdf.read_bytes(), info["pages"], info["warnings"], info["layout"], info["notes"])
    return None


def _store(job: Job, result: Rendered, cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for suffix, data in ((".pdf", result.pdf),
                         (".json", json.dumps({"pages": result.pages, "warnings": result.warnings, "layout": result.layout,
                                     "notes": result.notes}).encode())):
        write_atomic(cache / f"{job.key()}{suffix}", data)


def _remember_inputs(job: Job, cache: Path) -> None:
    """Which PDF these inputs make, so that the next build finds it without making the HTML."""
    if job.inputs and not job.known:
        path = cache / "inputs" / job.inputs
        if not path.exists() or path.read_text(encoding="ascii").strip() != job.key():
            write_atomic(path, job.key().encode("ascii"))


def render_all(jobs: list[Job], cache: Path, workers: int = WORKERS,
               progress: Callable[[int, int, str], None] | None = None) -> dict[str, Rendered]:
    """Every job's PDF by path: from the cache, or rendered in parallel; all problems at once.
    `progress(done, total, path)` is told as each PDF that had to be laid out is finished."""
    results, todo = {}, []
    for job in jobs:
        hit = _cached(job, cache)
        if hit is not None:
            log.debug("aid %s: from the cache (%s)", job.path, "its inputs are as before: no HTML made" if job.known
                      else "its HTML is as before: not laid out again")
            results[job.path] = hit
        elif job.known:  # found by its inputs a moment ago, gone now: another build is pruning the cache
            raise AidError([Problem(str(cache), 1, 1, f"{job.path}: its cached PDF was removed during the build",
                                    "build again")])
        else:
            log.debug("aid %s: laid out (its HTML changed, or it was never made)", job.path)
            todo.append(job)
    problems, outcomes = [], []
    tell = progress or (lambda _done, _total, _path: None)
    if len(todo) <= 1 or workers <= 1:
        for job in todo:
            try:
                outcomes.append((job, render(job)))
            except AidError as error:
                problems += error.problems
            tell(len(outcomes) + len(problems), len(todo), job.path)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(todo))) as pool:
            # Longest first, so that two workers finish at about the same time.
            futures = {pool.submit(render, job): job for job in sorted(todo, key=lambda j: -len(j.html))}
            for done, future in enumerate(as_completed(futures), start=1):
                job = futures[future]
                try:
                    outcomes.append((job, future.result()))
                except AidError as error:
                    problems += error.problems
                tell(done, len(todo), job.path)
    outcomes.sort(key=lambda pair: pair[0].path)  # finishing order varies; what is stored does not
    for job, result in outcomes:
        _store(job, result, cache)
        results[job.path] = result
    if problems:
        raise AidError(sorted(set(problems)))
    for job in jobs:  # only once every PDF is stored: a key never names a PDF that is not there
        _remember_inputs(job, cache)
    return results


def human_size(size: int) -> str:
    if size < 1024 * 1024:
        return f"{max(1, round(size / 1024))} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def build_aids(checked: list[Checked], cache: Path, site_url: str | None = None,
               progress: Callable[[int, int, str], None] | None = None) -> tuple[dict[str, bytes], list[dict]]:
    """Every player aid: {site path: PDF bytes} and the downloads list for the site's pages."""
    jobs = jobs_for(checked, cache.parent / "flowcharts", site_url, cache=cache)
    results = render_all(jobs, cache, progress=progress)
    aids = {job.path: results[job.path].pdf for job in jobs}
    downloads = [{"game": job.game, "title": job.title, "paper": job.paper, "path": job.path,
                  "pages": results[job.path].pages, "size": human_size(len(results[job.path].pdf)),
                  "erratum": job.erratum, "contains": job.contains} | ({"language": job.language} if job.language else {})
                 for job in jobs]
    return aids, downloads

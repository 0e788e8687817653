"""One command builds everything: check, flowcharts, player aids, pages, MkDocs, atomically.

Outputs are cached by content hash (flowcharts, PDFs) or written only when changed (pages), and
the new site replaces the old one in one rename, so a failed build leaves the last good site.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulesmith import fingerprint, words
from rulesmith.files import exchange, make_readable, write_atomic, write_if_changed
from rulesmith.flowchart.chart import procedure_svgs, standalone_svg
from rulesmith.format.schema import write_schema
from rulesmith.pipeline import Checked, check_content
from rulesmith.problems import PROGRESS, BuildError, UsageError
from rulesmith.project import ASSETS, project_of_content, templates
from rulesmith.site import gate, layout
from rulesmith.site.csp import write_policies
from rulesmith.site.engines import DEFAULT_ENGINE, ENGINES, INCREMENTAL
from rulesmith.site.fonts import font_face_css, web_fonts
from rulesmith.site.mkdocs_config import language as site_language
from rulesmith.site.mkdocs_config import settings, write_config
from rulesmith.site.navmarks import mark_english_titles
from rulesmith.site.notfound import write_404
from rulesmith.site.pages import language_name, render_site
from rulesmith.site.search import write_search
from rulesmith.site.webapp import write_webapp
from rulesmith.translations import freshness

TEMPLATES = templates()
log = logging.getLogger(__name__)


class Progress:
    """Step-by-step progress on the `rulesmith` logger, with the time of each step; within a long
    step (the PDFs), a count that rewrites its own line on a terminal and stays silent elsewhere
    (logs, CI, -q)."""

    def __init__(self, quiet: bool):
        self.quiet = quiet or not log.isEnabledFor(logging.INFO)
        self.timings: dict[str, float] = {}
        self.cpu: dict[str, float] = {}  # CPU seconds of each step: this process and the workers it waited for
        self.live = not self.quiet and sys.stderr.isatty()
        self.current = ""

    def count(self, done: int, total: int, what: str) -> None:
        if self.live:
            PROGRESS.info("  %s… %d/%d %s", self.current, done, total, what)

    @contextlib.contextmanager
    def step(self, name: str):
        started, cpu = time.perf_counter(), _cpu_seconds()
        self.current = name
        try:
            yield
        except BaseException:
            if self.live:
                PROGRESS.info("")  # clears the progress line
            if not self.quiet:
                log.info("  %s… failed", name)
            raise
        elapsed = time.perf_counter() - started
        self.timings[name] = elapsed
        self.cpu[name] = _cpu_seconds() - cpu
        if self.live:
            PROGRESS.info("")  # clears the progress line
        if not self.quiet:
            log.info("  %s… %.2f s", name, elapsed)


def _cpu_seconds() -> float:
    import resource

    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN)))


def sync_tree(target: Path, files: dict[str, bytes]) -> None:
    """Make `target` hold exactly `files` (relative path -> bytes), touching only what changed."""
    written = [rel for rel, data in files.items() if write_if_changed(target / rel, data)]
    wanted = {target / rel for rel in files}
    removed = 0
    if target.exists():
        for path in sorted(target.rglob("*"), reverse=True):
            if path.is_file() and path not in wanted:
                path.unlink()
                removed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    log.debug("generated pages in %s: %d written (%s), %d unchanged, %d removed", target, len(written),
              ", ".join(written[:6]) + (" …" if len(written) > 6 else "") if written else "none",
              len(files) - len(written), removed)


# The site's own styles and scripts are each served as one file, their parts (templates/site/assets)
# in this order: a phone's first page makes two requests for them, not eight (Lighthouse, issue 29).
# The stylesheet opens with the fonts' @font-face rules (site/fonts.py).
BUNDLES = {f"{ASSETS}/site.css": ["rulesmith.css", "walker.css", "botturn.css"],
           f"{ASSETS}/site.js": ["words.js", "search.js", "rulesmith.js", "offline.js"],
           f"{ASSETS}/walking.js": ["place.js", "procedure.js"]}
# walking.js (the place in the history and the procedure interpreter, which both use), walker.js and
# botturn.js go to the pages that have a walker or the Bot turn companion only
# (templates/theme/main.html): a page does not load a script it does not use.
WEB_FONTS = f"{ASSETS}/fonts"  # the site's web fonts: the stylesheet's @font-face rules and each chart's file use them


def static_files(cache: Path) -> dict[str, bytes]:
    """The site's assets: the bundles above (the stylesheet after the fonts' @font-face rules), the
    vendored libraries and WOFF2 subsets of the shipped fonts (the OTFs are for the PDFs)."""
    assets = TEMPLATES / "site" / "assets"
    parts = {name for names in BUNDLES.values() for name in names}
    files = {f"{ASSETS}/{p.relative_to(assets).as_posix()}": p.read_bytes()
             for p in assets.rglob("*") if p.is_file() and p.relative_to(assets).as_posix() not in parts}
    for bundle, names in BUNDLES.items():
        head = font_face_css(TEMPLATES / "fonts").encode() if bundle.endswith(".css") else b""
        files[bundle] = head + b"\n".join(f"/* {name} */\n".encode() + (assets / name).read_bytes() for name in names)
    for name, data in web_fonts(TEMPLATES / "fonts", cache / "fonts").items():
        files[f"{WEB_FONTS}/{name}"] = data
    files[f"{WEB_FONTS}/LICENSE.txt"] = (TEMPLATES / "fonts" / "LICENSE.txt").read_bytes()
    return files


def flowcharts(checked: list[Checked], cache: Path, language: str = "en") -> dict[str, bytes]:
    """The site's flowcharts, their own words (a calling step's) in the site's language."""
    charts = [(c, p) for c in checked for p in c.game.procedures]
    svgs = procedure_svgs([(p, c.index) for c, p in charts], cache / "flowcharts", say=words.of(language).gettext)
    return {layout.flowchart_file(c.game.id, p.id): svg for (c, p), svg in zip(charts, svgs, strict=True)}


def chart_files(checked: list[Checked], charts: dict[str, bytes], language: str = "en") -> dict[str, bytes]:
    """Each flowchart as a file of its own, titled for the reader (no node ids as tooltips), in
    the site's web fonts (static_files)."""
    say = words.of(language).gettext
    return {path: standalone_svg(charts[path], p.title, fonts=layout.link(path, WEB_FONTS) + "/", say=say)
            for c in checked for p in c.game.procedures if (path := layout.flowchart_file(c.game.id, p.id)) in charts}


def render_docs(checked: list[Checked], charts: dict[str, bytes], downloads: list[dict], docs: Path,
                aids: dict[str, bytes] | None = None, *, cache: Path, site_name: str | None = None,
                language: str = "en") -> list:
    """Write the Markdown pages (flowcharts inline), PDFs and assets MkDocs builds from; return the nav.
    The PDFs go in with the pages so that MkDocs copies them and checks every link to them."""
    rendered = render_site(checked, downloads, charts, cache=cache / "pages", site_name=site_name, language=language)
    files = {page.path: page.text.encode("utf-8") for page in rendered.pages}
    files.update(aids or {})
    files.update(chart_files(checked, charts, language))  # each chart as a file too: a page's "Whole chart" (pinch zoom)
    files.update(static_files(cache))
    sync_tree(docs, files)
    return rendered.nav


def build(content: Path, site: Path, pdfs: bool = True, quiet: bool = False,
          work: Path | None = None, cache: Path | None = None, engine: str = DEFAULT_ENGINE,
          site_url: str | None = None, cpu: dict[str, float] | None = None,
          games: list[str] | None = None, trust_config: bool = False) -> dict[str, float]:
    """Check and build everything into `site`; returns the time of each step (and fills `cpu`,
    when given, with each step's CPU seconds, the PDF workers' included).
    `work` (default .build/) holds the generated pages, `cache` (default .cache/) the outputs
    cached by content hash; the benchmark points both at empty folders for a clean build.
    `trust_config`: the project's mkdocs.yml may set more than how the site looks (mkdocs_config)."""
    project = project_of_content(content)
    # A build given a work folder of its own (tests, the benchmark, two builds at once) keeps its
    # cache there too; otherwise both are the project's.
    cache = cache or (work / "cache" if work else project.cache)
    work = work or project.work
    progress = Progress(quiet)
    if cpu is not None:
        progress.cpu = cpu
    with progress.step("check content"):
        checked = _only(check_content(content), games)
    site_settings = settings(project, trusted=trust_config, games=[c.game for c in checked])  # the project's
    # mkdocs.yml, checked before anything is made: the site's name and its language (the tool's words follow it)
    named, language = site_settings["site_name"], site_language(site_settings)
    if not quiet:
        from rulesmith.problems import warning_line

        for warning in (w for c in checked for w in c.warnings):
            log.warning("%s", warning_line(warning))
    # The editor schema the content files' `$schema` lines point to, current with the content.
    write_schema(project.shared_schema, [c.game for c in checked])
    with progress.step("flowcharts"):
        charts = flowcharts(checked, cache, language)
    downloads: list[dict] = []
    aids: dict[str, bytes] = {}
    if pdfs:
        from rulesmith.aids.pdf import build_aids

        with progress.step("player aids (PDF)"):
            aids, downloads = build_aids(checked, cache / "pdf", site_url, progress=progress.count)
        _remember_pdfs(work, downloads)
    else:
        aids, downloads = _kept_pdfs(work, {c.game.id for c in checked})
        if not quiet and downloads:
            log.info("  --no-pdf: keeping the %d PDFs of the last build with PDFs", len(downloads))
    others = other_languages(checked, language)
    alternates = alternate_links(language, others)
    with progress.step("render pages"):
        docs = work / "docs"
        nav = render_docs(checked, charts, downloads, docs, aids, cache=cache, site_name=named, language=language)
    site = site.resolve()
    config = write_config(project, work, nav, site_url, trusted=trust_config, games=[c.game for c in checked],
                          alternates=alternates)
    parts = [_Part("", config, docs, [c.game for c in checked], language, work)]
    # The site in every other language a game has a catalog in, under site/<lang>/: each game in
    # that language (its catalog's texts, marked where missing or outdated), or in English,
    # marked as not translated, where it has no catalog in it.
    for other in others:
        in_other = in_language(checked, other)
        other_work = work / other
        # The aids of each game translated into it, in its site (a game not translated keeps its
        # English aids there); a catalog's edit lays out that language's aids only (aids/pdf.py).
        other_aids, other_downloads = _in_language_aids(aids, downloads, in_other, cache, site_url, other_work,
                                                        pdfs, progress, other)
        with progress.step(f"render pages ({other})"):
            other_docs = other_work / "docs"
            other_nav = render_docs(in_other, flowcharts(in_other, cache, other), other_downloads, other_docs,
                                    other_aids, cache=cache, site_name=named, language=other)
            other_config = write_config(project, other_work, other_nav, _url_in(site_url, other), trusted=trust_config,
                                        games=[c.game for c in in_other], in_other=other,
                                        alternates=alternate_links(language, others, other))
        parts.append(_Part(other, other_config, other_docs, [c.game for c in in_other], other, other_work))
    for part in parts:
        part.inputs = _site_inputs(part.docs, part.config, engine)
        part.record = _site_record(part.work, site / part.folder, [] if part.folder else others)
        # Same pages, PDFs, assets and configuration as the site on disk was built from: the engine
        # would write the same site again, so it is not run. Same frame (configuration, navigation,
        # the list of files, templates and theme) but some pages changed: only those are rebuilt,
        # on a copy of the site on disk.
        part.current = part.record is not None and part.record.get("inputs") == part.inputs["all"]
        part.incremental = (not part.current and part.record is not None and engine in INCREMENTAL
                            and part.record.get("frame") == part.inputs["frame"])
    current = all(part.current for part in parts)
    with progress.step(f"{engine} build"):
        if not current:
            _build_site(engine, site, parts, cache=cache, every_game=[g for part in parts for g in part.games])
    if not current:
        for part in parts:
            _remember_site(part.work, site / part.folder, part.inputs, [] if part.folder else others)
    for part in parts:
        log.debug("%s build%s: %s", engine, f" ({part.folder})" if part.folder else "", why_rebuilt(part.record, part.inputs))
        if not quiet:
            log.info("  %s%s", f"{part.folder}: " if part.folder else "",
                     f"the site is unchanged: {engine} was not run" if part.current else
                     "changed pages only (the navigation, configuration, templates and files are as before)"
                     if part.incremental else "every page")
    if not quiet:
        log.info("built %s (%.1f s)", site, sum(progress.timings.values()))
    return progress.timings


def _in_language_aids(aids: dict[str, bytes], downloads: list[dict], in_other: list[Checked], cache: Path,
                      site_url: str | None, work: Path, pdfs: bool, progress: Progress,
                      language: str) -> tuple[dict[str, bytes], list[dict]]:
    """The aids and downloads list of the site in another language: each translated game's aids
    laid out in that language (or, with --no-pdf, those of the last build that made them), the
    English ones of a game without a catalog in it."""
    translated = [c for c in in_other if c.translation is not None]
    games = {c.game.id for c in translated}
    if pdfs and translated:
        from rulesmith.aids.pdf import build_aids

        with progress.step(f"player aids (PDF, {language})"):
            own, listed = build_aids(translated, cache / "pdf", site_url, progress=progress.count)
        _remember_pdfs(work, listed)
    else:
        own, listed = _kept_pdfs(work, games)
    kept = [d for d in downloads if d["game"] not in games]
    return ({p: pdf for p, pdf in aids.items() if p in {d["path"] for d in kept}} | own,
            sorted(kept + listed, key=lambda d: [c.game.id for c in in_other].index(d["game"])))


@dataclass
class _Part:
    """The site in one language: the project's at the site's root, each other under its folder."""

    folder: str  # "" for the site's own language, else the language (site/<lang>/)
    config: Path
    docs: Path
    games: list
    language: str
    work: Path
    inputs: dict = field(default_factory=dict)
    record: dict | None = None
    current: bool = False
    incremental: bool = False


def other_languages(checked: list[Checked], language: str) -> list[str]:
    """The languages other than the site's that some game has a translation catalog in."""
    found = {other for c in checked for other in freshness.languages(c.game)}
    return sorted(found - {language})


def alternate_links(language: str, others: list[str], at: str | None = None) -> list[dict]:
    """The language switch's entries from the site in `at` (None: the site's own language, at
    the root): each language's name in that language, its site's folder from this site's root."""
    if not others:
        return []
    up = "../" if at else ""
    return ([{"name": language_name(language), "link": up, "lang": language}]
            + [{"name": language_name(other), "link": "" if other == at else f"{up}{other}/", "lang": other}
               for other in others])


def _url_in(site_url: str | None, language: str) -> str | None:
    if not site_url:
        return None
    return (site_url if site_url.endswith("/") else site_url + "/") + language + "/"


def in_language(checked: list[Checked], language: str) -> list[Checked]:
    """Every game in another language: with its catalog's texts put in (translations/translated.py),
    linked again (its names are the translated names; not checked again: the check judged the
    English and every catalog), or as it is where it has no catalog in that language."""
    from rulesmith.content.link import build_index, resolve
    from rulesmith.problems import Problems
    from rulesmith.translations import translated

    found = []
    for c in checked:
        if language not in freshness.languages(c.game):
            found.append(Checked(c.game, c.index, [], None, language))
            continue
        shown = freshness.translation(c.game, language)
        game = translated.translated(c.game, shown)
        problems = Problems()
        index = build_index(game, problems)
        resolve(game, index, problems)
        found.append(Checked(game, index, [], shown, language))
    return found


def _only(checked: list[Checked], games: list[str] | None) -> list[Checked]:
    """The games asked for (`--game`), every one when none is named."""
    if not games:
        return checked
    known = {c.game.id for c in checked}
    for game in games:
        if game not in known:
            from rulesmith.problems import nearest

            raise UsageError(f"no game '{game}' in the content (games: {', '.join(sorted(known))})",
                             nearest(game, known) or "pass the id of a game folder in content/")
    return [c for c in checked if c.game.id in games]


def finish_site(site: Path, games: list, webapp: bool = True, language: str = "en") -> None:
    """What the site engine does not make, written into the built site: the search index of each
    game (read from the built pages), a 404 page that works from disk too, and each game's web app (manifest, icons, offline worker;
    not in the preview, where a worker answering from its cache would hide every edit). Every
    page's Content-Security-Policy (site/csp.py) goes in once its scripts are final (the web
    app's links are not scripts) and before the worker's version is taken from the pages."""
    mark_english_titles(site, games, language)  # before the index and the policies: the navigation as it is read
    write_search(site, [(game.id, game.info.name) for game in games], language)
    write_404(site)
    write_policies(site)
    if webapp:
        write_webapp(site, games, language)


def _build_site(engine: str, site: Path, parts: list[_Part], cache: Path | None = None, every_game: list | None = None) -> None:
    """The engine's site in every language, built in a staging folder that then replaces `site`.
    The site's own language at the root (a build that is not incremental starts from an empty
    folder), each other at once beside it (_make_parts), then under its folder. A part that is current is the one on disk,
    copied; an incremental one starts as a copy of the one on disk (modification times kept) and
    the engine rebuilds only the pages whose Markdown is newer than their HTML: MkDocs' "dirty"
    build, which `rulesmith serve` uses too. The search index, 404 page and web app are written
    afresh from the whole part either way. The gate judges every language's pages at once."""
    try:
        site.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned(site.parent)
        staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=site.parent))
    except OSError as error:
        raise UsageError(f"cannot write the site to {site}: {error.strerror}",
                         "choose a folder you can write to with --site") from None
    try:
        root, others = parts[0], parts[1:]
        if root.current or root.incremental:
            shutil.copytree(site, staging, dirs_exist_ok=True, symlinks=True)
        # Each other language is made in a folder of its own beside the staging folder (the
        # root's engine empties `staging` on a build that is not incremental), in a process of
        # its own while this one makes the root: then set in its place.
        aside = {part.folder: Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-{part.folder}-", dir=site.parent))
                 for part in others}
        try:
            for part in others:
                target = aside[part.folder] / "part"
                if part.current or part.incremental:
                    if (staging / part.folder).is_dir():  # copied with the root: modification times kept
                        (staging / part.folder).rename(target)
                    elif (site / part.folder).is_dir():
                        shutil.copytree(site / part.folder, target, symlinks=True)
            _make_parts(engine, root, staging, [(part, aside[part.folder] / "part") for part in others])
            for part in others:
                if (aside[part.folder] / "part").is_dir():
                    shutil.rmtree(staging / part.folder, ignore_errors=True)
                    (aside[part.folder] / "part").rename(staging / part.folder)
        finally:
            for folder in aside.values():
                shutil.rmtree(folder, ignore_errors=True)
        known = {part.folder for part in others}
        for path in list(staging.iterdir()) if known else []:  # a language no game has a catalog in any more
            if path.is_dir() and len(path.name) <= 8 and (path / "sitemap.xml").exists() and path.name not in known \
                    and (site / path.name / "search").is_dir():
                shutil.rmtree(path, ignore_errors=True)
        gate.check_site(staging, every_game or root.games, cache, languages=tuple(sorted(known)))  # what was built, judged as readers get it, before it is published
        make_readable(staging)
        _swap(staging, site)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _make_parts(engine: str, root: _Part, staging: Path, others: list[tuple[_Part, Path]]) -> None:
    """The root part into `staging` here and each other part into its folder in a process of its
    own, at once (an engine builds one page at a time: the languages are what can run side by
    side). A forked process has the parts already (the checked games are not sent to it); a
    part's failure is raised here as it would be in this process."""
    context = multiprocessing.get_context("fork")
    children = []
    for part, target in others:
        if not part.current:
            receiver, sender = context.Pipe(duplex=False)
            child = context.Process(target=_part_in_child, args=(engine, part, target, sender), daemon=True)
            child.start()
            sender.close()
            children.append((part, child, receiver))
    try:
        _make_part(engine, root, staging)
    finally:
        failures = [_outcome(part, child, receiver) for part, child, receiver in children]
    for failure in failures:
        if failure is not None:
            raise failure


def _part_in_child(engine: str, part: _Part, target: Path, sender) -> None:
    try:
        _make_part(engine, part, target)
    except BaseException as error:  # sent to the parent, which raises it
        try:
            sender.send(error)
        except Exception:  # not picklable: its message is
            sender.send(BuildError(f"the site in {part.language} could not be built: {error!r}"))
    else:
        sender.send(None)
    finally:
        sender.close()


def _outcome(part: _Part, child, receiver) -> BaseException | None:
    """What the child making `part` ended with: None, or the error to raise."""
    try:
        outcome = receiver.recv()
    except EOFError:  # it ended without a word: killed, or out of memory
        outcome = BuildError(f"the site in {part.language} could not be built: its process ended unexpectedly")
    child.join()
    return outcome


def _make_part(engine: str, part: _Part, target: Path) -> None:
    """One language's part of the site into `target`: as it is when current, the changed pages
    only when incremental (`target` then holds a copy of the part on disk), else every page; then
    what the engine does not make (finish_site)."""
    if part.incremental:
        INCREMENTAL[engine](part.config, target)
    elif not part.current:
        ENGINES[engine](part.config, target)
    if not part.current:
        finish_site(target, part.games, language=part.language)


STAGING = ".site-"  # a site being built, or the old one being removed: .site-<pid>-…


def _remove_abandoned(folder: Path) -> None:
    """Staging folders left by a build that was killed (its process is gone)."""
    for path in folder.glob(f"{STAGING}*"):
        pid = path.name[len(STAGING):].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


SITE_RECORD = "site-built.json"  # in the work folder: what the site on disk was built from
PDF_RECORD = "pdfs-built.json"  # in the work folder: the downloads list of the last build with PDFs


def _remember_pdfs(work: Path, downloads: list[dict]) -> None:
    write_atomic(work / PDF_RECORD, json.dumps(downloads, sort_keys=True).encode())


def _kept_pdfs(work: Path, games: set[str]) -> tuple[dict[str, bytes], list[dict]]:
    """The PDFs of the last build that made them, still in the generated pages, for a build
    without PDFs (`--no-pdf` keeps them rather than removing them from the site)."""
    try:
        recorded = json.loads((work / PDF_RECORD).read_text())
    except (OSError, ValueError):
        return {}, []
    aids, downloads = {}, []
    for entry in recorded:
        path = work / "docs" / entry.get("path", "")
        if entry.get("game") in games and path.is_file():
            aids[entry["path"]] = path.read_bytes()
            downloads.append(entry)
    return aids, downloads


def _site_inputs(docs: Path, config: Path, engine: str) -> dict:
    """Digests of what the engine builds the site from, by part, so that a build can say what
    changed: the configuration (navigation included), the engine and its versions, the site
    templates and theme overrides, Rulesmith's own code, the names of the generated files, and
    each generated file (page, PDF, asset). "frame" is every part but the files' bytes and the
    code: what every page shows or is laid out by, so that a change in it rebuilds every page;
    "all" is every part."""
    templates_digest = hashlib.sha256()
    for path in sorted(p for folder in ("site", "theme") for p in TEMPLATES.joinpath(folder).rglob("*") if p.is_file()):
        templates_digest.update(str(path.relative_to(TEMPLATES)).encode() + b"\0" + path.read_bytes() + b"\0")
    files = {str(path.relative_to(docs)): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in sorted(p for p in docs.rglob("*") if p.is_file())}
    parts = {
        "the configuration": hashlib.sha256(config.read_bytes()).hexdigest(),
        "the engine": hashlib.sha256(f"{engine} {_engine_versions(engine)}".encode()).hexdigest(),
        "the site templates": templates_digest.hexdigest(),
        "the list of files": hashlib.sha256("\0".join(files).encode()).hexdigest(),
    }
    frame = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    # Rulesmith's own code too: what finish_site writes into every page (the search index, the
    # pages' policy) changes with it, though no generated page does.
    every = hashlib.sha256(json.dumps([frame, fingerprint.software_digest(), files], sort_keys=True).encode()).hexdigest()
    return {"all": every, "frame": frame, "parts": parts, "files": files}


def why_rebuilt(record: dict | None, inputs: dict) -> str:
    """What the engine is run for, in a reader's words: nothing, some pages (which), or every page
    (because of what)."""
    if record is None:
        return "every page: no site of an earlier build to start from"
    if record.get("inputs") == inputs["all"]:
        return "nothing: the site is as its last build made it"
    changed = [name for name, digest in inputs["parts"].items() if record.get("parts", {}).get(name) != digest]
    if changed:
        return "every page: " + ", ".join(changed) + " changed"
    before = record.get("pages", {})
    pages = [name for name, digest in inputs["files"].items() if before.get(name) != digest]
    if not pages:
        return "what Rulesmith writes into every page: its code changed"
    shown = ", ".join(pages[:8]) + (f" and {len(pages) - 8} more" if len(pages) > 8 else "")
    return f"{len(pages)} changed file(s): {shown}"


def _engine_versions(engine: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    names = ["rulesmith"] + (["mkdocs", "mkdocs-material", "pymdown-extensions", "Markdown"] if engine == "mkdocs" else [engine])
    found = []
    for name in names:
        try:
            found.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name}: none")
    return " ".join(found)


def _site_files(site: Path, others: list[str] | tuple = ()) -> list:
    """What the site folder holds now (to notice a site changed or removed since it was built),
    but the sites in other languages in it (`others`: their folders)."""
    return [[str(p.relative_to(site)), p.stat().st_size, p.stat().st_mtime_ns]
            for p in sorted(site.rglob("*")) if p.is_file() and p.relative_to(site).parts[0] not in others] \
        if site.is_dir() else []


def _site_record(work: Path, site: Path, others: list[str] | tuple = ()) -> dict | None:
    """What the site on disk was built from, if it is still as that build left it."""
    try:
        record = json.loads((work / SITE_RECORD).read_text())
    except (OSError, ValueError):
        return None
    if record.get("site") == str(site) and record.get("files") == _site_files(site, others) and record.get("files"):
        return record
    return None


def _remember_site(work: Path, site: Path, inputs: dict, others: list[str] | tuple = ()) -> None:
    record = {"site": str(site), "inputs": inputs["all"], "frame": inputs["frame"], "parts": inputs["parts"],
              "pages": inputs["files"], "files": _site_files(site, others)}
    write_atomic(work / SITE_RECORD, json.dumps(record).encode())


def _swap(staging: Path, site: Path) -> None:
    """Replace the old site with the new one in one exchange of names, so readers never see half
    a site, nor none; the old one is then removed from the staging name."""
    exchange(staging, site)
    shutil.rmtree(staging, ignore_errors=True)


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    from rulesmith.site.mkdocs_config import TRUST_CONFIG_HELP

    parser.add_argument("--site", help="output folder (default: site/ in the project)")
    parser.add_argument("--no-pdf", action="store_true",
                        help="do not make the PDF player aids now: the site keeps those of the last build that made them")
    parser.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT_ENGINE,
                        help=f"site engine (default: {DEFAULT_ENGINE}; zensical needs `pip install rulesmith[zensical]`)")
    parser.add_argument("--site-url", help="the address the site is hosted at, e.g. https://example.org/rules/ "
                        "(also `site_url:` in mkdocs.yml): the 404 page, sitemap and canonical links use it")
    parser.add_argument("--work", help="folder for the generated MkDocs project and the cache (default: .build and "
                        ".cache); two builds at once need two")
    parser.add_argument("--game", action="append", metavar="ID",
                        help="build only this game (repeat for several; all content is still checked): one job of a "
                             "CI matrix, whose PDFs and flowcharts the cache then hands to the build of the whole site")
    parser.add_argument("--trust-config", action="store_true", help=TRUST_CONFIG_HELP)
    parser.set_defaults(run=run)


def run(args) -> int:
    from rulesmith.commands import output_path

    build(args.project.content, output_path(args.site, args.project.site), pdfs=not args.no_pdf,
          quiet=args.quiet, work=output_path(args.work, None), engine=args.engine, site_url=args.site_url,
          games=args.game or None, trust_config=args.trust_config)
    return 0

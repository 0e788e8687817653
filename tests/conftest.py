"""Shared fixtures: run the real `rulesmith` command under resource limits; a previously built site.
Test tiers: every test is `unit`, `site`, `pdf` or `browser`, by what it does (README, Tests).

Keep this file small; helpers used by one test module live in that module.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml
from hypothesis import settings

if TYPE_CHECKING:
    from collections.abc import Iterator

# Hypothesis, for every property test: no deadline (a shared machine's load is not a defect; speed
# is measured by the benchmark, never asserted by a test). ./scripts/test runs the "ci" profile:
# the same examples on every run, so a run passes or fails on its code alone; plain pytest keeps
# drawing new ones and remembers the failures it finds (.hypothesis/).
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

ROOT = Path(__file__).resolve().parent.parent
RULESMITH = ROOT / ".venv" / "bin" / "rulesmith"
FIXTURE_SITE_CONTENT = ROOT / "tests" / "fixtures" / "site"
FIXTURE_PDF_CONTENT = ROOT / "tests" / "fixtures" / "pdf" / "content"
FIXTURE_ERRATA_CONTENT = ROOT / "tests" / "fixtures" / "errata"
# The shipped games, discovered: a new game folder is tested without editing any test.
GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
TIERS = ("unit", "site", "pdf", "browser")  # slowest last; a test takes the slowest that applies
# Modules whose every test needs a whole build of that tier.
MODULE_TIERS = {"test_site": "site", "test_links": "site", "test_serve": "site", "test_install": "site",
                "test_pdf": "pdf", "test_newcomer": "pdf", "test_browser": "browser", "test_walker": "browser",
                "test_bot_turn": "browser"}
# Fixtures that build a site or open a browser lift a test into that tier wherever it is.
FIXTURE_TIERS = {"fixture_site": "site", "real_site": "site", "breakout_site": "site", "built": "site",
                 "real_pages": "site", "pdf_fixture_site": "pdf",
                 "fixture_aids": "pdf", "real_aids": "pdf", "real_language_aids": "pdf", "browser": "browser", "playwright_driver": "browser",
                 "server": "browser", "server_with_pdfs": "browser"}
MEMORY_LIMIT = 1 << 30
# Debian's Chromium, driven by Playwright (./scripts/test installs both).
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]  # 1 GiB of address space: bad input must fail with bounded memory


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def _limits() -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def run_rulesmith(*args: str, cwd: Path, timeout: float = 120) -> Run:
    """`rulesmith --content . <args>` in `cwd` (a content folder), limited to 1 GiB and 60 s of CPU."""
    started = time.perf_counter()
    result = subprocess.run([str(RULESMITH), "--content", ".", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=timeout, preexec_fn=_limits)
    return Run(result.returncode, result.stdout, result.stderr, time.perf_counter() - started)


def rulesmith_here(*args: str, cwd: Path, content: str | None = ".") -> Run:
    """`rulesmith [--content .] <args>` in `cwd`, run in this process: the command's own code
    (`rulesmith.cli.main`) with its stdout and stderr captured and its exit code, without the
    0.5 s of starting Python and importing. An exception that escapes is printed to stderr as a
    traceback with exit code 1, as the interpreter would. Content that could exhaust memory or
    time goes through `run_rulesmith`, whose process has limits; the installed command itself is
    run by test_install and test_errata."""
    import contextlib
    import io
    import logging
    import os
    import traceback

    from rulesmith.cli import main

    loggers = [logging.getLogger(name) for name in ("rulesmith", "rulesmith.results")]
    saved = [(lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    out, err, before = io.StringIO(), io.StringIO(), Path.cwd()
    started = time.perf_counter()
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([*(["--content", content] if content else []), *args])
            except SystemExit as done:  # argparse's usage errors and --help
                code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
            except Exception:
                traceback.print_exc()
                code = 1
    finally:
        os.chdir(before)
        for lg, (handlers, level, propagate) in zip(loggers, saved, strict=True):
            lg.handlers[:], lg.level, lg.propagate = handlers, level, propagate
    return Run(code, out.getvalue(), err.getvalue(), time.perf_counter() - started)


@pytest.fixture(autouse=True)
def _loggers_as_before():
    """Each test finds the tool's loggers as the session began: a test that runs the command
    (cli.main) leaves its handlers on and propagation off, so a later test's `caplog` in the same
    worker saw nothing; a test passed or failed by which tests ran before it."""
    import logging

    loggers = [logging.getLogger(name) for name in ("rulesmith", "rulesmith.results", "rulesmith.progress")]
    saved = [(lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    yield
    for lg, (handlers, level, propagate) in zip(loggers, saved, strict=True):
        lg.handlers[:], lg.level, lg.propagate = handlers, level, propagate


def disk_full_after(monkeypatch, room: int) -> list[int]:
    """From now on in this process, files written through Python's open() fill a disk that has
    `room` bytes left: a write that does not fit writes what fits, then fails with ENOSPC, as a
    full disk does (no small filesystem is needed). Returns [bytes written so far]."""
    import builtins
    import errno
    import io

    written = [0]

    class Filling:
        def __init__(self, file):
            self._file = file

        def write(self, data):
            fits = max(0, min(len(data), room - written[0]))
            written[0] += fits
            if fits < len(data):
                self._file.write(data[:fits])
                raise OSError(errno.ENOSPC, "No space left on device")
            return self._file.write(data)

        def __getattr__(self, name):
            return getattr(self._file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._file.close()

    real = io.open

    def opening(file, mode="r", *args, **kwargs):
        handle = real(file, mode, *args, **kwargs)
        return Filling(handle) if any(m in mode for m in "wax+") else handle

    monkeypatch.setattr(io, "open", opening)
    monkeypatch.setattr(builtins, "open", opening)
    return written


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a test reads responses, not the access log
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser that drops a connection mid-response (a page left, a fetch aborted) is not a failure.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """A static HTTP server for `folder` on a free local port while the block runs: its address."""
    httpd = _QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def language_sites(site: Path) -> dict[str, list[Path]]:
    """The built site in each language, as its readers get it: "" for the site's own language at
    the root, then each other language's folder (site/<lang>/: its own sitemap.xml and search,
    which a game's folder has neither of), each with its HTML pages (the root's without those of
    the sites in other languages)."""
    others = [p for p in sorted(site.iterdir()) if p.is_dir() and (p / "sitemap.xml").is_file() and (p / "search").is_dir()]
    found = {"": sorted(p for p in site.rglob("*.html") if not any(p.is_relative_to(o) for o in others))}
    found.update((o.name, sorted(o.rglob("*.html"))) for o in others)
    return found


def build_site(content: Path, site: Path, work: Path) -> None:
    """Build a site in-process with its own work folder (not the shared .build/ of the checkout)."""
    from rulesmith.commands.build import build

    build(content, site, pdfs=False, quiet=True, work=work)


class Shared:
    """Outputs made once per test run and shared by every pytest-xdist worker (./scripts/test runs
    two): the first worker to ask makes one under a file lock while the other waits for it, then
    both read it. Each folder is read-only to the tests (copy it to change it)."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    @contextlib.contextmanager
    def lock(self, name: str) -> Iterator[Path]:
        """Hold `name`'s lock while the block makes (or reuses) what is in its folder."""
        from filelock import FileLock

        with FileLock(str(self.root / f"{name}.lock")):
            yield self.root / name

    def folder(self, name: str, make) -> Path:
        """`name`'s folder, made by `make(folder)` the first time any worker asks."""
        with self.lock(name) as folder:
            if not (folder / ".made").is_file():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir(parents=True)
                make(folder)
                (folder / ".made").touch()
        return folder


@pytest.fixture(scope="session")
def shared(tmp_path_factory, worker_id) -> Shared:
    """The run's shared folder: beside the workers' own temporary folders (one run, every worker)."""
    import pdf_text

    base = tmp_path_factory.getbasetemp()
    shared = Shared((base.parent if worker_id != "master" else base) / "shared")
    pdf_text.SHARED = shared  # a PDF's text layer, read by one worker for both
    return shared


def built_site(shared: Shared, name: str, content: Path) -> Path:
    """The site of `content` (no PDFs), built once per run for every worker: its folder."""
    return shared.folder(name, lambda folder: build_site(content, folder / "site", folder / "work")) / "site"


def warm_work(site: Path, work: Path) -> Path:
    """A work folder for another build of the same games, holding a copy of the cache that the
    shared build of `site` filled (flowcharts, web fonts, rendered pages): the new build remakes
    only what differs (its own options, its own edits), as a second build on a machine does."""
    shutil.copytree(site.parent / "work" / "cache", work / "cache")
    return work


@pytest.fixture(scope="session")
def fixture_site(shared) -> Path:
    """The site built from tests/fixtures/site: a known good build (read-only: copy it to change it)."""
    return built_site(shared, "fixture-site", FIXTURE_SITE_CONTENT)


@pytest.fixture(scope="session")
def shipped_games() -> dict:
    """content/ checked once per session: {game id: its checked game} (read-only)."""
    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError

    try:
        return {checked.game.id: checked for checked in check_content(ROOT / "content")}
    except ContentError as error:
        pytest.fail(f"content/ does not check clean ({len(error.problems)} problems, first: {error.problems[0]})")


@pytest.fixture(scope="session")
def real_site(shared, shipped_games) -> Path:
    """The site built from content/ (no PDFs), once per run (read-only: copy it to change it)."""
    return built_site(shared, "real-site", ROOT / "content")


@pytest.fixture(scope="session")
def pdf_fixture_site(shared, fixture_aids) -> Path:
    """The site of tests/fixtures/pdf/content (small made-up games) with their PDFs, built once per
    run (read-only): the downloads pages and offline tests read it. Its build starts from a copy
    of the cache fixture_aids filled: the same aids, so none is laid out a second time."""
    from rulesmith.commands.build import build

    def make(folder: Path) -> None:
        shutil.copytree(fixture_aids.cache, folder / "work" / "cache")
        build(FIXTURE_PDF_CONTENT, folder / "site", pdfs=True, quiet=True, work=folder / "work")

    return shared.folder("pdf-fixture-site", make) / "site"


@pytest.fixture(scope="session")
def fixture_aids(shared):
    """The player aids of tests/fixtures/pdf/content, rendered once per run (the second worker
    reads them from the cache the first one filled)."""
    from built_aids import Built

    from rulesmith.pipeline import check_content

    with shared.lock("fixture-aids") as folder:
        return Built(check_content(FIXTURE_PDF_CONTENT), folder)


@pytest.fixture(scope="session")
def real_aids(shared):
    """The player aids of every game of content/, rendered once per run into the project's own
    cache (so the PDFs ./scripts/build makes are rendered once). A game that does not check
    fails the tests that need its aids (never left out)."""
    from built_aids import Built

    from rulesmith.pipeline import check_content
    from rulesmith.problems import ContentError

    try:
        checked = check_content(ROOT / "content")
    except ContentError as error:
        pytest.fail(f"content/ does not check clean ({len(error.problems)} problems, first: {error.problems[0]})")
    with shared.lock("real-aids"):
        return Built(checked, ROOT / ".cache")


@pytest.fixture(scope="session")
def real_language_aids(shared):
    """The player aids of every game of content/ that has a German catalog, in German (as the
    build lays them out for site/de/), rendered once per run into the project's own cache."""
    from built_aids import Built

    from rulesmith.commands.build import in_language
    from rulesmith.pipeline import check_content

    translated = [c for c in in_language(check_content(ROOT / "content"), "de") if c.translation is not None]
    with shared.lock("real-language-aids"):
        return Built(translated, ROOT / ".cache", "de")


KNOWN_FAILURES = yaml.safe_load((Path(__file__).parent / "known_failures.yaml").read_text(encoding="utf-8")) or {}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups, and before -m reads the tiers
def pytest_collection_modifyitems(items) -> None:
    """Give every test exactly one tier marker: its own, else its module's or fixtures', else unit.
    A test listed in known_failures.yaml runs as a strict expected failure (a fix makes it fail)."""
    for item in items:
        if item.nodeid in KNOWN_FAILURES:
            item.add_marker(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[item.nodeid]))
        declared = [t for t in TIERS if item.get_closest_marker(t)]
        if len(declared) > 1:  # `-m unit` would select a test that builds: one tier per test
            raise pytest.UsageError(f"{item.nodeid} is marked {' and '.join(declared)}: give it one tier, by what it does")
        found = declared + [MODULE_TIERS.get(item.module.__name__, "unit")]
        found += [FIXTURE_TIERS[f] for f in getattr(item, "fixturenames", ()) if f in FIXTURE_TIERS]
        tier = max(found, key=TIERS.index)
        if tier not in declared:
            item.add_marker(tier)
        # pytest-xdist (--dist loadgroup): a module's tests run on one worker, so its module-scoped
        # fixtures (a browser, a served site, a build of its own) are made once
        item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    # The slowest modules first (by their slowest tier), so that the two workers end together
    # rather than one running a browser module alone at the end; a module's tests keep their order.
    slowest: dict[str, int] = {}
    for item in items:
        tier = next(t for t in TIERS if item.get_closest_marker(t))
        slowest[item.module.__name__] = max(slowest.get(item.module.__name__, 0), TIERS.index(tier))
    items.sort(key=lambda item: -slowest[item.module.__name__])


class SuiteTimes:
    """Where the run's time went: each test's setup, call and teardown summed per tier, printed at
    the end of every run (after pytest's slowest tests) and, when RULESMITH_SUITE_TIMES names a
    file, written there as JSON for the benchmark (benchmarks/suite.py)."""

    def __init__(self):
        self.started = time.time()
        self.tests: dict[str, tuple[str, float]] = {}

    def pytest_runtest_logreport(self, report) -> None:
        tier = next((t for t in TIERS if t in report.keywords), "unit")
        _, seconds = self.tests.get(report.nodeid, (tier, 0.0))
        self.tests[report.nodeid] = (tier, seconds + report.duration)

    def figures(self) -> dict:
        tiers = {t: {"tests": 0, "seconds": 0.0} for t in TIERS}
        for tier, seconds in self.tests.values():
            tiers[tier]["tests"] += 1
            tiers[tier]["seconds"] += seconds
        return {"wall_s": time.time() - self.started, "tests": len(self.tests),
                "tiers": {t: {"tests": f["tests"], "seconds": round(f["seconds"], 1)} for t, f in tiers.items()}}

    def pytest_terminal_summary(self, terminalreporter) -> None:
        figures = self.figures()
        terminalreporter.section("time per tier")
        for tier, f in figures["tiers"].items():
            if f["tests"]:
                terminalreporter.write_line(f"{tier:>8}: {f['tests']:5d} tests, {f['seconds']:8.1f} s of test time")
        terminalreporter.write_line(f"{'all':>8}: {figures['tests']:5d} tests in {figures['wall_s']:.1f} s of wall time"
                                    " (test time is summed over the workers)")
        if os.environ.get("RULESMITH_SUITE_TIMES"):
            import json

            Path(os.environ["RULESMITH_SUITE_TIMES"]).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def pytest_report_header(config) -> list[str]:
    """Whether the shipped games' rulebook texts are where their game.yaml says (README): without
    them the tests of fidelity, source maps and rulebook lines fail, and this says why first."""
    from rulesmith.content.game import load_games
    from rulesmith.content.sources import source_path
    from rulesmith.problems import Problems

    missing = [source_path(game, source).resolve() for game in load_games(ROOT / "content", Problems())
               for source in game.info.sources if not source_path(game, source).is_file()]
    if not missing:
        return ["rulebook texts: every shipped game's found"]
    return [f"rulebook texts: {len(missing)} not found (first: {missing[0]}): the tests of fidelity, source maps "
            "and rulebook lines will fail; put the texts where content/*/game.yaml says (README)"]


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without workers) sees every report
        config.pluginmanager.register(SuiteTimes(), "rulesmith-suite-times")


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright, started once per worker (a test that needs a browser of its own, with another
    environment, launches it from here)."""
    from playwright import sync_api as playwright  # a test dependency (pyproject.toml): never skipped

    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed; ./scripts/test installs it with apt-get")
    with playwright.sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """One headless Chromium per worker; each test opens the contexts and pages it needs."""
    instance = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield instance
    instance.close()


# A page is ready to be read once its load event has fired (every deferred script has run: the
# site's and Material's), its fonts are in and Material has framed every table of the article.
_SETTLED = """() => [...document.querySelectorAll('article table')].every(t => t.closest('.md-typeset__scrollwrap'))"""


def page_ready(page) -> None:
    """Wait until the page just opened can be read (never a fixed time, nor the network's idleness)."""
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    page.wait_for_function(_SETTLED)


def press_the_pages_back(page, button) -> None:
    """Click a page's own Back button (the walker's, the Bot turn page's: place.js) and return once
    the page's address has left the undone answer's place. The page shows the step before at
    once, but goes back through the browser's history (history.back()), whose move comes a moment
    later: the address read before it is the old one, and an answer given before it is undone by it."""
    from playwright.sync_api import TimeoutError as Timeout

    before = page.evaluate("location.href")
    button.click()
    try:
        page.wait_for_function("before => location.href !== before", arg=before)
    except Timeout:
        pytest.fail(f"the page's Back left its address at {before}")


@pytest.fixture(scope="session")
def built(fixture_aids):
    """The player aids of the made-up games (tests/fixtures/pdf), by path."""
    return fixture_aids


@pytest.fixture(scope="session")
def real(real_aids):
    """The player aids of the shipped games, by path."""
    return real_aids


def search(page, query: str, said: tuple[str, str] = ("result", "Nothing found")) -> list[dict]:
    """Open search from the header, type the query, return the results shown (where, title, link,
    and the reference tables it offers: numbers, [[title, link], …]). `said`: what the search's
    status says once it has answered, in the page's language (found, nothing found)."""
    page.locator(".rs-search-button").click()
    page.locator(".rs-search__input").fill("")
    page.keyboard.type(query)
    page.locator(".rs-search__status").filter(has_text=said[0]).or_(
        page.locator(".rs-search__status").filter(has_text=said[1])).wait_for(timeout=15000)
    return page.evaluate("""() => [...document.querySelectorAll('.rs-search__results li')].map(li => {
        const a = li.querySelector('a');
        return {where: a.querySelector('.rs-search__where').textContent,
                title: a.querySelector('.rs-search__title').textContent, href: a.href,
                numbers: [...li.querySelectorAll('a.rs-search__numbers')].map(n => [n.textContent, n.href])};
    })""")



@pytest.fixture
def errata_content(tmp_path) -> Path:
    """The errata fixture's content, copied: a maintainer records errata and rulings in it."""
    target = tmp_path / "content"
    shutil.copytree(FIXTURE_ERRATA_CONTENT, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def run_cli(capsys, content: Path, *args: str) -> tuple[int, str, str]:
    """`rulesmith --content <content> <args>` in this process: (exit code, stdout, stderr)."""
    from rulesmith import cli

    code = cli.main(["--content", str(content), *args])
    out, err = capsys.readouterr()
    return code, out, err


# The contrast of an element's text with what is drawn behind it (WCAG 2: relative luminance),
# each colour composed over the ones beneath it (alpha), up to the page's own background.
CONTRAST = """(selector) => {
  const parse = c => { const v = c.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat(1);
  const behind = element => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const luminance = rgb => rgb.slice(0, 3).map(c => c / 255)
    .map(c => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  return [...document.querySelectorAll(selector)].map(element => {
    const back = behind(element), text = over(parse(getComputedStyle(element).color), back);
    const [a, b] = [luminance(text), luminance(back)].sort((x, y) => y - x);
    return {text: element.textContent.trim(), end: element.closest('[data-end]') !== null,
            ratio: (a + 0.05) / (b + 0.05)};
  });
}"""

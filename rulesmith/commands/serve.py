"""`rulesmith serve`: a live preview that shows a saved YAML edit in the browser within a second.

MkDocs' live-reload server does the HTTP side, the browser reloads and the change detection; it
watches content/, templates/ and mkdocs.yml and, after each change, runs `Preview.build`:

1. check the content and render the pages into a docs folder of our own. Only the files whose
   bytes changed are rewritten (`sync_tree`), so every other page keeps its mtime;
2. `mkdocs build` "dirty": MkDocs re-renders only the pages whose Markdown is newer than their
   HTML, a few pages instead of ~130 (~0.3 s instead of ~2.2 s). The first build is full, and so
   is any build after the navigation or mkdocs.yml changed, since every page shows the nav.
   Material's templates are compiled once per process (engines.keeping_compiled), not per edit.

The site in every other language a game has a catalog in is built the same way under `<lang>/`
(Preview.build_in), as `rulesmith build` makes it.

Nothing watches the docs folder, so each change causes exactly one build. The docs and site
folders are temporary: the preview never touches `rulesmith build`'s .build/ (pages and PDFs)
nor site/. Content problems are printed as file:line:column and the last good pages stay up
until a save fixes them.
"""

from __future__ import annotations

import logging
import shutil
import signal
import sys
import tempfile
import time
import typing
from pathlib import Path
from urllib.parse import urlsplit

from watchdog.events import FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent

if typing.TYPE_CHECKING:  # watchdog picks the native observer class at run time (inotify on Linux);
    # they all have the polling observer's interface, which is what the type checker reads
    from watchdog.observers.polling import PollingObserver as Observer
else:
    from watchdog.observers import Observer

from rulesmith.commands.build import alternate_links, finish_site, flowcharts, in_language, other_languages, render_docs
from rulesmith.problems import BuildError, ContentError, UsageError
from rulesmith.project import project_of_content, templates
from rulesmith.site import csp, gate
from rulesmith.site.engines import DirtyNotice, keeping_compiled
from rulesmith.site.mkdocs_config import language as site_language
from rulesmith.site.mkdocs_config import settings, write_config

DEBOUNCE_S = 0.05  # a save can be several file events; MkDocs waits this long for the last one


log = logging.getLogger(__name__)

class Preview:
    """The builder MkDocs' server runs at startup and after every change (always on one thread)."""

    def __init__(self, content: Path, folder: Path, dev_addr: str, trust_config: bool = False):
        self.content, self.dev_addr, self.trust_config = content, dev_addr, trust_config
        self.project = project_of_content(content)
        self.folder, self.docs, self.site = folder, folder / "docs", folder / "site"
        self.docs.mkdir()
        self.url = ""  # the server's address, once known
        self.built: tuple[list, bytes] | None = None  # (nav, mkdocs.yml) of the last successful MkDocs build
        self.built_in: dict[str, tuple[list, bytes]] = {}  # the same, of the site in each other language
        self.kept: dict = {}  # the games that passed, not checked again while unchanged (check_content)

    def config(self, nav: list | None = None, games=(), alternates: list[dict] | None = None):
        from mkdocs.config import load_config

        config_file = write_config(self.project, self.folder, nav or [], trusted=self.trust_config, games=games,
                                   alternates=alternates)
        config = load_config(str(config_file), dev_addr=self.dev_addr, **({} if nav else {"nav": None}))
        keeping_compiled(config)
        if self.url:
            config.site_url = self.url
        return config

    def build_in(self, checked: list, other: str, language: str, others: list[str], site_name: str, full: bool) -> list:
        """The site in another language (`build`'s site/<lang>/), under the preview's site: each
        game in that language, rendered into its own docs folder and built "dirty" as the site's
        own language is, fully after a full build of that (which empties the whole site) or when
        its navigation or configuration changed. Its games, for the gate."""
        from mkdocs.commands.build import build as mkdocs_build
        from mkdocs.config import load_config

        in_other = in_language(checked, other)
        games = [c.game for c in in_other]
        work = self.folder / other
        nav = render_docs(in_other, flowcharts(in_other, self.project.cache, other), [], work / "docs",
                          cache=self.project.cache, site_name=site_name, language=other)
        config_file = write_config(self.project, work, nav, trusted=self.trust_config, games=games, in_other=other,
                                   alternates=alternate_links(language, others, other))
        config = load_config(str(config_file), dev_addr=self.dev_addr, site_dir=str(self.site / other))
        keeping_compiled(config)
        if self.url:
            config.site_url = self.url + other + "/"
        state = (nav, config_file.read_bytes())
        full = full or state != self.built_in.get(other)
        mkdocs_build(config, serve_url=config.site_url, dirty=not full)
        finish_site(self.site / other, games, webapp=False, language=other)
        self.built_in[other] = state
        return games

    def build(self) -> None:
        """Never raises (but for Ctrl-C): if the server's builder fails, MkDocs holds every request
        until a build succeeds. A failure prints why and leaves the last good pages up."""
        from mkdocs.commands.build import build as mkdocs_build
        from mkdocs.exceptions import MkDocsException

        from rulesmith.pipeline import check_content

        started = time.perf_counter()
        try:
            checked = check_content(self.content, kept=self.kept)
            games = [c.game for c in checked]
            site_settings = settings(self.project, self.trust_config, games)
            language = site_language(site_settings)
            nav = render_docs(checked, flowcharts(checked, self.project.cache, language), [], self.docs,
                              cache=self.project.cache, site_name=site_settings["site_name"], language=language)
            # the site in every other language a game has a catalog in, under site/<lang>/ (as `build` makes it)
            others = other_languages(checked, language)
            config = self.config(nav, games, alternate_links(language, others))
            state = (nav, (self.folder / "mkdocs.yml").read_bytes())
            full = state != self.built
            if full:
                self.built_in.clear()  # a full build empties the whole site, the other languages' too
            mkdocs_build(config, serve_url=self.url, dirty=not full)
            finish_site(self.site, [c.game for c in checked], webapp=False, language=language)
            every_game = list(games)
            for other in others:
                every_game += self.build_in(checked, other, language, others, site_settings["site_name"], full)
            gate.check_site(self.site, every_game, self.project.cache, own=self.url,
                            languages=tuple(others))  # as `build` does
            # Only now: after a failed build following a change of navigation, the next one is
            # full again. After a failed dirty build, the pages it missed are still older than
            # their Markdown, so the next dirty build catches up.
            self.built = state
        except ContentError as error:
            for problem in error.problems:
                log.warning("%s", problem)
            log.warning("%s", f"{len(error.problems)} problem(s); still showing the last good pages.")
            return
        except (BuildError, MkDocsException) as error:  # MkDocs has logged its warnings above
            log.warning("%s", f"error: {error}")
            return
        except Exception:  # e.g. a syntax error in a template being edited: its traceback, on the log
            log.exception("%s", "the preview could not be built")
            log.info("%s", "still showing the last good pages.")
            return
        kind = "full" if full else "changed pages only"
        log.info("%s", f"preview updated in {time.perf_counter() - started:.2f} s ({kind})")


class _WriteObserver(Observer):
    """watchdog's native observer (inotify on Linux), reporting writes only, for MkDocs' server.

    MkDocs polls for changes every 0.5 s: up to half a second of lag, and a poll fast enough not
    to matter costs several % of a core while idle. inotify reports a save at once, but also
    every read, and each build reads all of content/ and templates/: with every event, each build
    would start the next. So the watches MkDocs asks for are limited to writes."""

    def schedule(self, event_handler, path, *, recursive=False, event_filter=None, follow_symlink=False):
        return super().schedule(event_handler, path, recursive=recursive, follow_symlink=follow_symlink,
                                event_filter=[FileCreatedEvent, FileModifiedEvent, FileMovedEvent, FileDeletedEvent])


def _log_to_stderr() -> None:
    """MkDocs' messages as `mkdocs serve` shows them (its own command line sets this up, not MkDocs)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logging.getLogger("mkdocs.commands.build").addFilter(DirtyNotice())


def serve(content: Path, dev_addr: str, trust_config: bool = False) -> int:
    if not content.is_dir():  # nothing to watch: say so rather than fail inside MkDocs' watcher
        raise UsageError(f"content folder {content} not found", "run from the project or pass --content")
    _log_to_stderr()
    # SIGTERM ends the preview like Ctrl-C does, so that the temporary folder is removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    folder = Path(tempfile.mkdtemp(prefix="rulesmith-serve-"))
    try:
        _serve(Preview(content.resolve(), folder, dev_addr, trust_config))
    except KeyboardInterrupt:
        log.info("%s", "stopped.")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def _serve(preview: Preview) -> None:
    """What `mkdocs serve` does, with our builder and watcher (mkdocs/commands/serve.py)."""
    config = preview.config()
    host, port = config.dev_addr
    mount = urlsplit(config.site_url or "/").path
    preview.url = f"http://{host}:{port}{mount}"
    # Not "dirty" for the plugins (a project's own plugins see a whole build each time).
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        server = _server_class()(builder=preview.build, host=host, port=port, root=str(preview.site),
                                 mount_path=mount)
    except OSError as error:
        raise UsageError(f"cannot serve on {host}:{port}: {error.strerror}",
                         "another program uses that port: pass --dev-addr 127.0.0.1:<another port>") from None
    # both set by LiveReloadServer.__init__ (MkDocs is pinned) and used only once serving starts
    server.observer, server.build_delay = _WriteObserver(), DEBOUNCE_S
    server.error_handler = lambda code: _error_page(preview.site, code)
    try:
        log.info("%s", f"pages generated in {preview.docs}")
        preview.build()
        watched = [preview.content, templates()]
        if preview.project.mkdocs_config is not None:
            watched.append(preview.project.mkdocs_config)
        for path in watched:
            server.watch(str(path))
        config.plugins.on_serve(server, config=config, builder=preview.build)
        server.serve()
    finally:
        server.shutdown()
        config.plugins.on_shutdown()


def _server_class():
    from mkdocs.livereload import LiveReloadServer

    class Server(LiveReloadServer):
        def _serve_request(self, environ, start_response):  # MkDocs' own, for the pinned version
            # A path with a NUL byte names no file; MkDocs would fail opening it (a traceback).
            if "\x00" in environ.get("PATH_INFO", ""):
                return None  # Not found
            return super()._serve_request(environ, start_response)

        def _inject_js_into_html(self, content, epoch):  # MkDocs' own, for the pinned version
            # The page's policy (site/csp.py) lets MkDocs' live-reload script run, the one it adds.
            page = super()._inject_js_into_html(content, epoch).decode("utf-8")
            before = csp.inline_scripts(content.decode("utf-8"))
            return csp.allowing(page, [s for s in csp.inline_scripts(page) if s not in before]).encode("utf-8")

    return Server


def _error_page(site: Path, code: int) -> bytes | None:
    page = site / f"{code}.html"
    return page.read_bytes() if page.is_file() else None


# ---------------------------------------------------------------- the command line

def configure(parser) -> None:
    from rulesmith.site.mkdocs_config import TRUST_CONFIG_HELP

    parser.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default 127.0.0.1:8000)")
    parser.add_argument("--trust-config", action="store_true", help=TRUST_CONFIG_HELP)
    parser.set_defaults(run=run)


def run(args) -> int:
    return serve(args.project.content, args.dev_addr, trust_config=args.trust_config)

"""`rulesmith serve`, end to end over HTTP on a copy of tests/fixtures/site: an edit shows up,
a bad edit is reported with its location while the last good page stays up, fixing it recovers,
a new page reaches every page's navigation, and `rulesmith build`'s work folder is left alone.

Functional only, with generous timeouts: how fast an edit shows up is measured by scripts/bench.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import FIXTURE_SITE_CONTENT, ROOT, RULESMITH

from rulesmith.site.search import entries, read_index

TIMEOUT = 60
CARDS = "demo/kinds/card.html"  # no directory URLs (mkdocs.yml), so that the site works from disk
BUILD_DOCS = ROOT / ".build" / "docs"


@dataclass
class Server:
    proc: subprocess.Popen
    url: str
    log: Path
    content: Path
    scratch: Path  # for atomic saves, outside the watched folder

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def get(self, page: str) -> str | None:
        try:
            with urllib.request.urlopen(self.url + page, timeout=10) as response:
                return response.read().decode("utf-8")
        except OSError:
            return None

    def save(self, rel: str, text: str) -> None:
        """Replace a content file in one step, as many editors do (and one file event)."""
        tmp = self.scratch / "save.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.content / rel)

    def rename(self, entity: str, name: str, cost: int = 3) -> None:
        """Give a card of demo/entities.yaml a new name; an invalid `cost` makes the edit bad."""
        text = (self.content / "demo" / "entities.yaml").read_text(encoding="utf-8")
        text, renamed = re.subn(rf"(- id: {entity}\n +name: )[^\n]*", rf"\g<1>{name}", text)
        assert renamed == 1
        text, costed = re.subn(rf"(- id: {entity}\n[^-]*fields: {{cost: )\d+", rf"\g<1>{cost}", text)
        assert costed == 1
        self.save("demo/entities.yaml", text)

    def folder(self) -> Path:
        """The preview's own folder, as it prints it at startup."""
        return Path(re.search(r"pages generated in (\S+)", self.output())[1]).parent


def wait_for(what: str, condition, server: Server):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if result := condition():
            return result
        assert server.proc.poll() is None, f"rulesmith serve exited:\n{server.output()}"
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}:\n{server.output()[-3000:]}")


def _snapshot(folder: Path) -> dict[str, int] | None:
    if not folder.exists():
        return None
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


@contextlib.contextmanager
def serving(tmp: Path, fixture: Path, first_page: str):
    """`rulesmith serve` on a copy of a fixture's content, once it serves `first_page`."""
    content = tmp / "content"
    shutil.copytree(fixture, content, ignore=shutil.ignore_patterns("README.md"))
    (tmp / "scratch").mkdir()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp / "serve.log"
    build_docs = _snapshot(BUILD_DOCS)
    with log.open("wb") as out:
        proc = subprocess.Popen([str(RULESMITH), "--content", str(content), "serve", "--dev-addr", f"127.0.0.1:{port}"],
                                cwd=tmp, stdout=out, stderr=subprocess.STDOUT)
    running = Server(proc, f"http://127.0.0.1:{port}/", log, content, tmp / "scratch")
    try:
        wait_for("the first page", lambda: running.get(first_page), running)
        yield running
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _snapshot(BUILD_DOCS) == build_docs, "rulesmith serve changed .build/docs"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("serve"), FIXTURE_SITE_CONTENT, CARDS) as running:
        yield running


def test_an_edit_shows_up_with_one_rebuild(server):
    assert "Beta" in server.get(CARDS)
    builds = server.output().count("preview updated")
    server.rename("beta", "Betamax One")
    wait_for("the edited name", lambda: "Betamax One" in (server.get(CARDS) or ""), server)
    # The page can be served before its build has said it is done: wait for the saying, then see
    # that the pages it rewrote do not start another build.
    wait_for("the build's report", lambda: server.output().count("preview updated") > builds, server)
    time.sleep(1.0)
    assert server.output().count("preview updated") == builds + 1


def test_a_bad_edit_is_located_and_the_last_good_page_stays(server):
    server.rename("beta", "Betamax Two")
    wait_for("the edited name", lambda: "Betamax Two" in (server.get(CARDS) or ""), server)

    server.rename("beta", "Betamax Bad", cost=99)
    located = re.compile(r"entities\.yaml:\d+:\d+: field 'cost': 99 is out of range")
    wait_for("the located problem", lambda: located.search(server.output()), server)
    page = server.get(CARDS)
    assert "Betamax Two" in page and "Betamax Bad" not in page
    assert "still showing the last good pages" in server.output()

    server.rename("beta", "Betamax Bad", cost=3)
    wait_for("the fixed page", lambda: "Betamax Bad" in (server.get(CARDS) or ""), server)


def test_a_path_with_a_nul_byte_is_not_found(server):
    import urllib.error

    for path in ("%00", "demo/%00.html", "demo/kinds/%00"):
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(server.url + path, timeout=10)
        assert error.value.code == 404
    assert "Traceback" not in server.output()
    assert server.get(CARDS) is not None  # still serving


def test_a_new_page_reaches_the_navigation_of_every_page(server):
    server.save("demo/rules/50-extra.yaml", (
        "defaults: {module: base, source: {section: Extra, page: 9}}\n"
        "sections:\n"
        "  - {id: extra, title: Extra rules, body: \"More about [[card:alpha]].\"}\n"))
    wait_for("the new page", lambda: "Extra rules" in (server.get("demo/rules/extra.html") or ""), server)
    # the card page's Markdown did not change: only a full build puts the new page in its nav
    assert 'href="../rules/extra.html"' in server.get(CARDS)


def test_the_search_index_has_every_page_once_and_the_latest_text(server):
    server.rename("alpha", "Alphorn", cost=2)
    wait_for("the edited name", lambda: "Alphorn" in (server.get(CARDS) or ""), server)
    indexes = [entries(read_index(path)) for path in sorted((server.folder() / "site" / "search").glob("*.js"))]
    locations = Counter(doc["location"] for docs in indexes for doc in docs)
    assert [location for location, n in locations.items() if n > 1] == []
    docs = server.folder() / "docs"
    pages = {p.relative_to(docs).with_suffix(".html").as_posix() for p in docs.rglob("*.md")
             if not p.read_text(encoding="utf-8").startswith("---\nsearch:\n  exclude: true\n")}  # the format page
    assert "format.html" not in pages and (docs / "format.md").is_file()
    assert {location.split("#")[0] for location in locations} == pages
    text = json.dumps(indexes)
    assert "Alphorn" in text and "Alpha" not in text  # pages that name the card were re-indexed


def test_the_preview_carries_the_policy_and_its_reload_runs_under_it(server, browser):
    """Each page the preview serves carries the site's Content-Security-Policy, which lets MkDocs'
    live-reload script (added to every page as it is served) run: an edit reloads the open page,
    and nothing is refused."""
    page = browser.new_page()
    page.add_init_script("""window.__violations = [];
        document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.violatedDirective));""")
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(server.url + CARDS)
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    page.wait_for_function("() => document.readyState === 'complete'")
    server.rename("beta", "Betamax Reloaded")
    # the reload's new document has no body for a moment: the wait asks again rather than fail on it
    page.wait_for_function("() => !!document.body && document.body.textContent.includes('Betamax Reloaded')",
                           timeout=TIMEOUT * 1000)
    found = page.evaluate("window.__violations")
    page.close()
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-inline'" not in policy.split(";")[1]
    assert found == [] and errors == []


def test_it_stops_on_sigterm_and_removes_its_folder(server):
    folder = server.folder()
    assert folder.is_dir() and not folder.is_relative_to(ROOT)
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=TIMEOUT) == 0
    assert not folder.exists()


def test_the_preview_shows_the_site_in_every_language_a_catalog_is_in(tmp_path):
    """As `rulesmith build` makes it: the fixture game `tale` has a German catalog, so the preview
    serves the German site under de/ (its pages German, each linked to its English one and back),
    and a translator's saved edit of the catalog shows up there."""
    with serving(tmp_path, ROOT / "tests" / "fixtures" / "translations", "de/tale/index.html") as preview:
        german = preview.get("de/tale/index.html") or ""
        assert '<html lang="de"' in german and "Märchen" in german
        assert '<link rel="alternate " hreflang="en" href="../../tale/index.html">' in german
        english = preview.get("tale/index.html") or ""
        assert '<html lang="en"' in english and '<link rel="alternate " hreflang="de" href="../de/tale/index.html">' in english
        assert (preview.get("de/search/tale.js") or "").startswith("rulesmithSearch.add(")
        catalog = preview.content / "tale" / "translations" / "de.po"
        preview.save("tale/translations/de.po", catalog.read_text(encoding="utf-8").replace('msgstr "Märchen"', 'msgstr "Zaubermärchen"', 1))
        wait_for("the edited translation", lambda: "Zaubermärchen" in (preview.get("de/tale/index.html") or ""), preview)
        assert "Zaubermärchen" not in (preview.get("tale/index.html") or "")

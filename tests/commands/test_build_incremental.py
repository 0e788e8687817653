"""`rulesmith build` after an erratum rebuilds only the pages whose Markdown changed, and the
site it leaves is the one a clean build makes, byte for byte (every file: pages, sitemap, search
index, 404 page, web app). A change every page shows (the configuration) rebuilds every page."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from rulesmith.cli import main
from rulesmith.commands.build import build
from rulesmith.pipeline import check_content

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.site


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _mtimes(site: Path) -> dict[str, int]:
    return {str(p.relative_to(site)): p.stat().st_mtime_ns for p in site.rglob("*.html")}


def _integer_field(content: Path) -> tuple[str, str, str, int]:
    """A plain integer field of an entity, as the benchmark's erratum changes one."""
    for checked in check_content(content):
        game = checked.game
        for entity in game.entities:
            for spec in game.kind(entity.kind).fields:
                value = entity.fields.get(spec.id)
                if spec.type == "integer" and type(value) is int and (spec.max is None or value + 1 <= spec.max):
                    return game.id, f"{entity.kind}:{entity.id}", spec.id, value
    raise AssertionError("the content has no entity with a plain integer field")


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # the sitemap's dates: both builds on one day
    shutil.copytree(ROOT / "content", tmp_path / "project" / "content")
    return tmp_path / "project"


def test_an_erratum_rebuilds_its_pages_only_and_gives_the_clean_build_byte_for_byte(project, tmp_path, capsys):
    content, site, work = project / "content", project / "site", project / ".build"
    build(content, site, pdfs=False, quiet=True, work=work)
    before, first = _mtimes(site), _files(site)
    game, key, field, value = _integer_field(content)
    assert main(["--content", str(content), "errata", "add", game, key, f"fields.{field}", str(value + 1),
                 "--source", "publisher-faq", "--description", "Test erratum",
                 "--note", f"{field} {value} → {value + 1}."]) == 0
    # each language's site has its pages: work/docs for the project's language, work/<lang>/docs
    # for a catalog's (its pages at site/<lang>/); an erratum shows in each of them
    docs = {"": work / "docs", **{f"{d.parent.name}/": d for d in work.glob("*/docs")}}
    docs_before = {p: p.stat().st_mtime_ns for folder in docs.values() for p in folder.rglob("*.md")}
    capsys.readouterr()
    build(content, site, pdfs=False, quiet=False, work=work)
    assert "changed pages only" in capsys.readouterr().err
    changed_md = {prefix + str(p.relative_to(folder)) for prefix, folder in docs.items() for p in folder.rglob("*.md")
                  if docs_before.get(p) != p.stat().st_mtime_ns}
    assert changed_md and len(changed_md) < len(docs_before) / 4
    after = _mtimes(site)
    rewritten = {page for page in after if after[page] != before.get(page)}
    kept = set(after) - rewritten
    assert kept and len(kept) > len(after) / 2  # most pages were not rendered again
    assert {page for page in rewritten if not page.endswith("404.html")} == {
        md.removesuffix(".md") + ".html" for md in changed_md}  # the engine re-rendered exactly these
    incremental = _files(site)
    assert incremental != first  # the erratum shows

    clean = tmp_path / "clean"
    build(content, clean / "site", pdfs=False, quiet=True, work=clean / "work")
    expected = _files(clean / "site")
    assert sorted(incremental) == sorted(expected)
    differ = [name for name in expected if incremental[name] != expected[name]]
    assert differ == []
    assert any(name.startswith("search/") for name in expected) and "sitemap.xml" in expected


def test_a_change_every_page_shows_rebuilds_every_page(project, caplog):
    content, site, work = project / "content", project / "site", project / ".build"
    build(content, site, pdfs=False, quiet=True, work=work)
    before = _mtimes(site)
    (project / "mkdocs.yml").write_text("site_name: Our rules\n", encoding="utf-8")
    # read from the log itself: what prints it to stderr is set up by the command (cli.main), which
    # this test does not run (it passed only after another test in the same worker had)
    with caplog.at_level(logging.INFO, logger="rulesmith"):
        build(content, site, pdfs=False, quiet=False, work=work)
    assert any(r.getMessage().strip() == "every page" for r in caplog.records), [r.getMessage() for r in caplog.records]
    after = _mtimes(site)
    assert all(after[page] != before[page] for page in after)
    assert "Our rules" in (site / "index.html").read_text(encoding="utf-8")

"""End to end: build the real site into a temporary folder and read it as a reader would."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import language_sites, warm_work

from rulesmith.pipeline import check_content
from rulesmith.site.search import entries, read_index

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(real_site):
    """The session's build of content/ (no PDFs; read-only) and the checked games."""
    return real_site, check_content(ROOT / "content")


def _copy_of(site: Path, tmp_path: Path) -> Path:
    """A copy of a built site to build over (the session's build stays as it is for other tests)."""
    shutil.copytree(site, tmp_path / "site", copy_function=shutil.copy2)
    return tmp_path / "site"


def test_home_lists_every_game(built):
    site, checked = built
    home = (site / "index.html").read_text(encoding="utf-8")
    for item in checked:
        assert item.game.info.name.split(":")[0] in home
        assert f'href="{item.game.id}/index.html"' in home


def test_statecraft_pages_exist(built):
    site, checked = built
    statecraft = next(c.game for c in checked if c.game.id == "statecraft")
    expected = ["index.html", "tables.html", "glossary.html", "gaps.html", "examples.html", "changelog.html"]
    expected += [f"rules/{s.id}.html" for s in statecraft.sections]
    expected += [f"kinds/{k.id}.html" for k in statecraft.kinds]
    expected += [f"solo/{p.id}.html" for p in statecraft.procedures]
    missing = [page for page in expected if not (site / "statecraft" / page).exists()]
    assert missing == []


def test_a_page_loads_the_walker_and_bot_turn_scripts_only_when_it_has_one(built):
    """walker.js with every page that has a walker, botturn.js with every Bot turn page, walking.js
    (the place in the history and the procedure interpreter, which both use) with either, none with
    any other page (Lighthouse counts a script a page does not use: issue 29). In each language's
    site: each has every game's walkers and Bot turn page."""
    site, checked = built
    wrong = []
    for folder, pages in language_sites(site).items():
        walkers, bots = 0, 0
        for path in pages:
            html = path.read_text(encoding="utf-8")
            scripts = re.findall(r'<script defer src="[^"]*assets/([a-z]+\.js)"', html)
            walker, bot = 'class="rs-walker"' in html, 'class="rs-bot"' in html
            walkers, bots = walkers + walker, bots + bot
            if ("walker.js" in scripts) != walker or ("botturn.js" in scripts) != bot or "site.js" not in scripts \
                    or ("walking.js" in scripts) != (walker or bot):
                wrong.append(f"{path.relative_to(site)}: {scripts}")
        procedures = sum(len(c.game.procedures) for c in checked)
        assert walkers >= procedures and bots == sum(1 for c in checked if c.game.procedures), folder
        assert "Walker" not in (site / folder / "assets" / "site.js").read_text(encoding="utf-8"), folder
    assert wrong == []


def test_every_table_stands_in_a_box_of_its_own(built):
    """Each table of a page's content is wrapped (templates/theme/main.html: Material's bundle then
    restyles only the table when it moves it into its scrolling frame), one box per table, with
    or without attributes, and every box closed where its table ends."""
    site, _ = built
    wrong, tables = [], 0
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        opened = len(re.findall(r"<table[\s>]", html))
        tables += opened
        if not (html.count('<div class="rs-table"><table') == opened == html.count("</table></div>")):
            wrong.append(str(path.relative_to(site)))
    assert tables > 20 and wrong == []


def test_every_entity_has_an_anchor_on_its_kind_page(built):
    site, checked = built
    missing = []
    for item in checked:
        for entity in item.game.entities:
            page = (site / item.game.id / "kinds" / f"{entity.kind}.html").read_text(encoding="utf-8")
            if f'id="{entity.id}"' not in page:
                missing.append(f"{item.game.id}:{entity.kind}:{entity.id}")
    assert missing == []


def test_search_index_finds_every_entity_by_name(built):
    site, checked = built
    missing = []
    for item in checked:
        docs = entries(read_index(site / "search" / f"{item.game.id}.js"))
        titles = {doc["title"] for doc in docs}
        locations = {doc["location"] for doc in docs}
        for entity in item.game.entities:
            if entity.name not in titles or f"{item.game.id}/kinds/{entity.kind}.html#{entity.id}" not in locations:
                missing.append(entity.name)
    assert missing == []


def test_every_procedure_page_shows_its_flowchart_inline_with_its_steps(built):
    """Inline, so the chart is drawn in the page's font and palette (issue 14)."""
    site, checked = built
    problems = []
    for item in checked:
        for procedure in item.game.procedures:
            page = (site / item.game.id / "solo" / f"{procedure.id}.html").read_text(encoding="utf-8")
            chart = page.split('<svg class="rs-flowchart__svg"', 1)
            if len(chart) != 2:
                problems.append(f"{procedure.id}: page does not show its flowchart")
                continue
            nodes = chart[1].split("</svg>", 1)[0].count('class="node ')
            if nodes != len(procedure.nodes):
                problems.append(f"{procedure.id}: {nodes} nodes, expected {len(procedure.nodes)}")
    assert problems == []


def test_gaps_page_lists_every_gap(built):
    from rulesmith.site.pages import gaps_of
    from rulesmith.values import status as statuses

    site, checked = built
    missing = []
    for item in checked:
        page = (site / item.game.id / "gaps.html").read_text(encoding="utf-8")
        for gap in gaps_of(item.game):
            if gap["status"] not in statuses.MARKED:  # the statuses readers see a marker for, "reading" included
                missing.append(gap["key"])
        rows = page.split('<article', 1)[1].count("<li>")
        if rows != len(gaps_of(item.game)):
            missing.append(f"{item.game.id}: {rows} rows for {len(gaps_of(item.game))} gaps")
    assert missing == []


def test_a_field_the_source_lacks_is_marked_in_its_kind_table_not_shown_as_none(built):
    """A field written {status: missing} is "not in the source", which is not "none": its cell in the
    kind's table says so (a bare dash would read as "no similar alliances" where the text is silent)."""
    site, checked = built
    wrong = []
    for item in checked:
        for kind in item.game.kinds:
            entities = [e for e in item.game.entities if e.kind == kind.id]
            shown = [f for f in kind.fields if f.type not in ("text", "text-list")]
            if not entities or not shown:
                continue
            page = (site / item.game.id / "kinds" / f"{kind.id}.html").read_text(encoding="utf-8")
            table = page.split("<table", 1)[1].split("</table>", 1)[0]
            for entity in entities:
                row = next((r for r in re.findall(r"<tr>(.*?)</tr>", table, re.S) if f'href="#{entity.id}"' in r), None)
                cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row or "", re.S)]
                for column, spec in enumerate(shown, start=1):
                    raw = entity.fields.get(spec.id)
                    if isinstance(raw, dict) and raw.get("status") == "missing" and (
                            column >= len(cells) or "not in source" not in cells[column]):
                        wrong.append(f"{item.game.id}:{entity.kind}:{entity.id} {spec.id} = "
                                     f"{cells[column] if column < len(cells) else 'no cell'!r}")
    assert wrong == []


def test_referred_to_by_appears_on_referenced_entities(built):
    site, checked = built
    missing = []
    for item in checked:
        for key, owners in item.index.backlinks.items():
            kind, _, ident = key.partition(":")
            if item.game.kind(kind) is None or not owners:
                continue
            page = (site / item.game.id / "kinds" / f"{kind}.html").read_text(encoding="utf-8")
            section = page.split(f'id="{ident}"', 1)[1].split("<h2", 1)[0]
            if "Referred to by" not in section:
                missing.append(f"{item.game.id}:{key}")
    assert missing == []


def test_failed_build_leaves_previous_site_intact(built, tmp_path):
    site = _copy_of(built[0], tmp_path)
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    bad = tmp_path / "content" / "statecraft"
    bad.mkdir(parents=True)
    (bad / "game.yaml").write_text("game: [unclosed\n")
    result = subprocess.run([sys.executable, "-m", "rulesmith.cli", "--content", str(tmp_path / "content"),
                             "build", "--no-pdf", "--quiet", "--site", str(site), "--work", str(tmp_path / "work")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1 and "statecraft/game.yaml:2:1: YAML syntax error" in result.stderr
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before


def test_failure_while_building_keeps_the_old_site(built, tmp_path, monkeypatch):
    from rulesmith.commands import build as build_module

    site = _copy_of(built[0], tmp_path)
    before = {p.relative_to(site): p.stat().st_mtime_ns for p in site.rglob("*")}

    def broken(*args, **kwargs):
        raise RuntimeError("mkdocs failed half-way")

    monkeypatch.setitem(build_module.ENGINES, "mkdocs", broken)
    with pytest.raises(RuntimeError):
        build_module.build(ROOT / "content", site, pdfs=False, quiet=True, work=tmp_path / "work")
    assert {p.relative_to(site): p.stat().st_mtime_ns for p in site.rglob("*")} == before
    assert not [p for p in site.parent.iterdir() if p.name.startswith(".site-")]


def test_a_failure_in_another_languages_site_keeps_the_old_site_and_says_why(built, tmp_path, monkeypatch):
    """The German site is made in a process of its own while the English one is made here: its
    failure fails the build with its own message, and the site on disk is left as it was."""
    from rulesmith.commands import build as build_module
    from rulesmith.problems import BuildError

    site = _copy_of(built[0], tmp_path)
    before = {p.relative_to(site): p.stat().st_mtime_ns for p in site.rglob("*")}
    engine = build_module.ENGINES["mkdocs"]

    def broken_in_german(config_file, site_dir):
        if config_file.parent.name == "de":
            raise BuildError("mkdocs build failed: the German site broke half-way")
        engine(config_file, site_dir)

    monkeypatch.setitem(build_module.ENGINES, "mkdocs", broken_in_german)
    with pytest.raises(BuildError, match="the German site broke half-way"):
        build_module.build(ROOT / "content", site, pdfs=False, quiet=True, work=warm_work(built[0], tmp_path / "work"))
    assert {p.relative_to(site): p.stat().st_mtime_ns for p in site.rglob("*")} == before
    assert not [p for p in site.parent.iterdir() if p.name.startswith(".site-")]


def test_mkdocs_warning_fails_the_build_with_its_reason(tmp_path):
    from rulesmith.problems import BuildError
    from rulesmith.project import Project
    from rulesmith.site.engines import mkdocs_build
    from rulesmith.site.mkdocs_config import write_config

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[broken](missing.md)\n")
    config = write_config(Project(tmp_path), tmp_path, [{"Home": "index.md"}])
    with pytest.raises(BuildError) as error:
        mkdocs_build(config, tmp_path / "out")
    assert "missing.md" in str(error.value)


@pytest.mark.unit
def test_the_site_is_named_from_the_project(tmp_path):
    """Its mkdocs.yml's site_name, else its one game's name, else its folder's: never a generic name."""
    from types import SimpleNamespace

    from rulesmith.project import Project
    from rulesmith.site.mkdocs_config import settings

    project = Project(tmp_path / "harbour-rules")
    (project.content / "harbour").mkdir(parents=True)
    harbour = SimpleNamespace(id="harbour", info=SimpleNamespace(name="Harbour Lights"))
    assert settings(project, games=[harbour])["site_name"] == "Harbour Lights"
    (project.content / "storms").mkdir()
    assert settings(project, games=[harbour])["site_name"] == "harbour-rules"
    (project.root / "mkdocs.yml").write_text("site_name: Our rules\n")
    assert settings(project, games=[harbour])["site_name"] == "Our rules"


def test_two_clean_builds_are_byte_identical(built, tmp_path):
    """Reproducible site: a second build from scratch (own work folder) gives the same bytes,
    and nothing in it carries the build date (the PDFs' twice-built test is in test_pdf.py)."""
    import datetime

    from rulesmith.commands.build import build

    site, _ = built
    again = tmp_path / "site"
    build(ROOT / "content", again, pdfs=False, quiet=True, work=tmp_path / "work", cache=tmp_path / "cache")
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert sorted(first) == sorted(second)
    assert [str(p) for p in first if first[p] != second[p]] == []
    # Only the data's own dates (a release date, an erratum's) may appear; never the day of the build.
    site, checked = built
    data_dates = {d for c in checked for d in [c.game.data_date(), *(e.date for e in c.game.errata)] if d}
    today = datetime.date.today()
    if today in data_dates:  # the data was released today: build a copy dated otherwise
        content = tmp_path / "undated" / "content"
        shutil.copytree(ROOT / "content", content)
        for game_yaml in content.glob("*/game.yaml"):
            game_yaml.write_text(re.sub(r"(?m)^  released: .*\n", "", game_yaml.read_text()))
        assert not any(e for c in checked for e in c.game.errata if e.date == today), "an erratum dated today"
        build(content, tmp_path / "undated" / "site", pdfs=False, quiet=True, work=tmp_path / "undated" / "work")
        first = {p: p.read_bytes() for p in (tmp_path / "undated" / "site").rglob("*") if p.is_file()}
    assert [str(p) for p, data in first.items() if today.isoformat().encode() in data] == []


@pytest.mark.site
def test_the_engine_runs_again_only_when_the_site_would_change(tmp_path, monkeypatch):
    """A rebuild with the same pages, PDFs and configuration leaves the site as it is; a changed
    page, or a site folder changed since, is built again."""
    from rulesmith.commands import build as build_module

    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "site", content)
    runs = []
    engine = build_module.ENGINES["mkdocs"]
    monkeypatch.setitem(build_module.ENGINES, "mkdocs", lambda config, out: (runs.append(1), engine(config, out)))
    site, work = tmp_path / "site", tmp_path / "work"

    def build() -> int:
        build_module.build(content, site, pdfs=False, quiet=True, work=work)
        return len(runs)

    assert build() == 1
    assert build() == 1  # nothing changed: not run
    (site / "index.html").write_text("edited by hand")
    assert build() == 2  # the site was changed since: built again
    assert "edited by hand" not in (site / "index.html").read_text()
    game = next(p for p in content.iterdir() if (p / "game.yaml").is_file())
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("name: ", "name: Renamed ", 1))
    assert build() == 3  # a page changed
    shutil.rmtree(site)
    assert build() == 4 and (site / "index.html").is_file()


def test_a_note_repeated_in_most_rows_of_a_column_is_shown_once_under_its_table(built):
    """Statecraft's popular support table repeats one note in 8 of its 9 rows (issue 36: 3.4 screens
    tall on a phone): the site shows it once, under the table, each of those cells keeping its
    marker; the row with a note of its own keeps it in its cell."""
    import html as html_lib

    site, checked = built
    statecraft = next(c.game for c in checked if c.game.id == "statecraft")
    table = next(t for t in statecraft.tables if t.id == "popular-support-track")
    from rulesmith.values.fieldtypes import Value

    notes = [Value.of(cell).note for row in table.rows for cell in row if cell is not None and Value.of(cell).note]
    shared = max(set(notes), key=notes.count)
    assert notes.count(shared) >= 8
    page = html_lib.unescape((site / "statecraft" / "tables.html").read_text(encoding="utf-8"))
    start = page.index(str(table.rows[0][1])[:40])  # the table's first row
    section = page[start:page.index("</table>", start) + 2000]
    body, after = section.split("</table>", 1)
    words = shared.split("(")[0].split('"')[-1].strip()[:25]
    assert body.count(words) == 0 and after.count(words) == 1, words
    [status] = {Value.of(cell).status for row in table.rows for cell in row
                if cell is not None and Value.of(cell).note == shared}  # the status those cells carry, from the data
    assert body.count(f"rs-gap--{status}") == notes.count(shared)
    own = next(n for n in notes if n != shared)
    assert own[:40] in body

"""The printable player aids (issue 5): every quality the issue asks for, one test each.

Most tests run on a small made-up content tree (tests/fixtures/pdf/content: a game with every
content shape, a long table, a tall and a wide flowchart, an erratum; and a game without
procedures). The same checks run on the games of content/ that pass `rulesmith check` (the
`real` fixture); a game that does not check fails them.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import aid_headings
import pdf_text
import pypdf
import pytest
import weasyprint

from rulesmith.aids import contents, document, pagerefs, pdf, stamp, weasy
from rulesmith.aids import kinds as aidkinds
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.site.pages import render_site

if TYPE_CHECKING:
    from built_aids import Built

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "content"
MM = 72 / 25.4  # PDF points per mm

@pytest.fixture(params=["fixture", "real"])
def each(request) -> Built:
    return request.getfixturevalue("built" if request.param == "fixture" else "real")


def _text(pdf_bytes: bytes) -> str:
    return pdf_text.text(pdf_bytes)


def _squash(text: str) -> str:
    """Letters and digits only, lower case: immune to line breaks, hyphenation and spacing."""
    return re.sub(r"[^0-9a-z]+", "", re.sub(r"-\s*\n\s*", "", text).lower())


# --- what is built -----------------------------------------------------------------------------

def test_every_game_gets_its_planned_summary_a_card_reference_and_only_with_procedures_a_solo_aid(built):
    assert sorted(built.results) == sorted(
        [f"downloads/{g}/{k}-{p}.pdf" for g in ("harbour", "tiny") for k in ("rules-summary", "card-reference")
         for p in ("a4", "letter")]
        + ["downloads/harbour/solo-aid-a4.pdf", "downloads/harbour/solo-aid-letter.pdf"])


def test_build_aids_returns_the_pdfs_and_the_downloads_list(built):
    aids, downloads = pdf.build_aids(built.checked, built.cache / "pdf")
    assert set(aids) == set(built.results)
    assert [d["path"] for d in downloads] == [job.path for job in built.jobs]
    for entry in downloads:
        assert set(entry) == {"game", "title", "paper", "path", "pages", "size", "erratum", "contains"}
        assert entry["paper"] in ("A4", "US Letter")
        # the erratum its footer names: harbour's e1 (the galleon) changed the card reference and
        # the rules summary (its set-up names the galleon), not the solo aid
        changed = ("downloads/harbour/card-reference", "downloads/harbour/rules-summary")
        assert entry["erratum"] == ("e1" if entry["path"].startswith(changed) else None)
        assert entry["pages"] == len(pypdf.PdfReader(io.BytesIO(aids[entry["path"]])).pages)
        assert re.fullmatch(r"\d+ KB|\d+\.\d MB", entry["size"]), entry["size"]


def test_downloads_page_and_each_overview_list_every_pdf(built):
    _aids, downloads = pdf.build_aids(built.checked, built.cache / "pdf")
    pages = {page.path: page.text for page in render_site(built.checked, downloads).pages}
    for entry in downloads:
        assert entry["path"] in pages["downloads.md"] and entry["size"] in pages["downloads.md"]
        assert f"../{entry['path']}" in pages[f"{entry['game']}/index.md"]


# --- paper, pages, content ----------------------------------------------------------------------

def test_page_size_is_the_paper_of_the_variant(each):
    wrong = []
    for job in each.jobs:
        paper = each.paper(job)
        upright, turned = (paper.width * MM, paper.height * MM), (paper.height * MM, paper.width * MM)
        for number, page in enumerate(each.reader(job.path).pages, start=1):
            size = (float(page.mediabox.width), float(page.mediabox.height))
            if not any(abs(size[0] - w) < 0.5 and abs(size[1] - h) < 0.5 for w, h in (upright, turned)):
                wrong.append(f"{job.path} page {number}: {size[0]:.1f} x {size[1]:.1f} pt")
    assert not wrong, wrong


def test_a4_and_letter_have_the_same_content(each):
    """One template: the text of both sizes is the same once the paper's name, the page
    geometry (stylesheet, sizes) and the chart captions ("part 1 of 2") are set aside."""
    def content(job):
        html = re.sub(r"<style>.*?</style>|<figcaption>.*?</figcaption>", "", job.html, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", html).replace(job.paper, "")
        return " ".join(text.split())
    pairs = {}
    for job in each.jobs:
        pairs.setdefault((job.game, job.title), []).append(job)
    for (game, title), (a4, letter) in pairs.items():
        assert content(a4) == content(letter), f"{game} {title}"
        assert len(content(a4)) > 300


def test_page_count_stays_within_the_budget_of_each_aid(each):
    over = []
    for job in each.jobs:
        budget = each.kind(job).page_budget(each.game(job).game)
        pages = each.results[job.path].pages
        if budget is not None and pages > budget:
            over.append(f"{job.path}: {pages} pages, budget {budget}")
    assert not over, over


def test_text_is_extractable_and_names_everything_the_aid_lists(each):
    missing = []
    for job in each.jobs:
        item = each.game(job)
        text = _squash(_text(each.results[job.path].pdf))
        for name in contents.listed_names(item.game, item.index, each.kind(job)):
            if _squash(name) not in text:
                missing.append(f"{job.path}: {name}")
    assert not missing, missing


def test_card_reference_lists_every_kind_and_table_and_the_solo_aid_every_procedure(built):
    harbour = built.games["harbour"]
    names = contents.listed_names(harbour.game, harbour.index, aidkinds.kind("card-reference"))
    assert {k.plural for k in harbour.game.kinds if harbour.game.entities_of(k.id)} <= set(names)
    assert {t.title for t in harbour.game.tables} <= set(names)
    solo = contents.listed_names(harbour.game, harbour.index, aidkinds.kind("solo-aid"))
    assert {"Bot: Turn", "Bot: Sailing, step by step", "Bot: Choosing a port", "Bot destination by die roll"} <= set(solo)


def test_every_page_has_the_footer(each):
    missing = []
    for job in each.jobs:
        info = each.game(job).game
        latest = stamp.latest_erratum_text(stamp.latest_erratum_in(each.game(job), each.kind(job)))
        pages = each.texts(job.path)
        total = len(pages)
        for number, page in enumerate(pages, start=1):
            text = _squash(page)  # a long game name wraps in the footer
            for part in (f"{info.info.name} · {job.title}", f"Page {number}/{total}",
                         f"Data {info.info.data_version}", f"Errata: {latest}"):
                if _squash(part) not in text:
                    missing.append(f"{job.path} page {number}: {part!r}")
    assert not missing, missing[:20]


def test_front_page_says_what_it_covers_and_how_to_print(built):
    front = built.texts("downloads/harbour/rules-summary-a4.pdf")[0]
    front = " ".join(front.split())
    for part in ("Harbour Masters", "Rules summary", "0.3.1", "errata and rulings up to 2025-11-02 (latest erratum e1)",
                 "Print at 100 %, duplex, flip on long edge.", "In this summary", "A round at a glance"):
        assert part in front, part
    card = " ".join(built.texts("downloads/harbour/card-reference-a4.pdf")[0].split())
    assert "errata and rulings up to 2025-11-02 (latest erratum e1)" in card
    tiny = " ".join(built.texts("downloads/tiny/rules-summary-letter.pdf")[0].split())
    assert "no errata or rulings" in tiny and "US Letter" in tiny


def test_code_reads_as_written_on_paper(built):
    """`a & b {c} <d>` in backticks is that text on the rules summary: not `a &amp; b &#123;c}`
    (escaped twice), and not refused as raw HTML (issue 46)."""
    text = " ".join(_text(built.results["downloads/harbour/rules-summary-a4.pdf"].pdf).split())
    assert "Its log reads a & b {c} <d>." in text
    assert "&amp;" not in text and "&#123;" not in text


def test_the_front_page_holds_the_whole_table_of_contents(each):
    spilled = []
    for job in each.jobs:
        item, kind = each.game(job), each.kind(job)
        if kind.key == "solo-aid":
            titles = [p.title for p in item.game.procedures]
        elif kind.key == "card-reference":
            titles = [t.title for t in item.game.tables] + [k.plural for k in item.game.kinds]
        else:
            titles = [e.title for e in contents.planned(item.game, item.index, kind.key)["body"]]
        front = _squash(each.texts(job.path)[0])
        spilled += [f"{job.path}: {title}" for title in titles if _squash(title) not in front]
    assert not spilled, spilled


def test_references_inside_the_aid_show_their_page(built):
    pages = built.texts("downloads/harbour/rules-summary-a4.pdf")
    text = " ".join("\n".join(pages).split())
    storms_page = next(n for n, p in enumerate(pages, 1) if "Move each ship up to its speed" in p)
    assert f"Sailing p.{storms_page}" in text


def test_condensed_wording_says_where_the_site_prints_it_in_full(built, tmp_path):
    text = " ".join(_text(built.results["downloads/harbour/rules-summary-a4.pdf"].pdf).split())
    # under it, the gap that affects the section it condenses (tests/content/test_gap_markers.py), then the wording
    assert "Storms, in short In short; in full on the site: The round › Storms Gap in the source here: " \
           "Board illustration On a 6" in text
    # the condition the condensed wording leaves out ("Ships in port are not hit") is pointed to
    assert "+ one cargo lost per ship hit Not every condition is repeated here; read in full on the site: " \
           "The round › Storms." in text
    item = next(c for c in built.checked if c.game.id == "harbour")
    kind = next(k for k in aidkinds.kinds() if k.key == "rules-summary")
    html = document.render_html(item, kind, aidkinds.geometry().papers[0], tmp_path,
                                {"name": "Harbour", "url": "https://rules.example/ref/"})
    assert "In short; in full on the site: <span class=\"url\">https://rules.example/ref/harbour/rules/round.html#storms</span>" in html
    assert "read in full on the site: Storms, <span class=\"url\">https://rules.example/ref/harbour/rules/round.html#storms</span>." in html


def _count_layouts(monkeypatch) -> list[int]:
    """The layouts of the whole aid (not the measuring of its balanced columns) that follow."""
    calls = []
    layout = pdf._layout

    def counted(job, html, fetcher):
        if '<body class="measuring">' not in html:
            calls.append(1)
        return layout(job, html, fetcher)

    monkeypatch.setattr(pdf, "_layout", counted)
    return calls


def test_page_numbers_are_written_into_a_single_layout(built, monkeypatch):
    job = next(j for j in built.jobs if j.path == "downloads/harbour/rules-summary-a4.pdf")
    calls = _count_layouts(monkeypatch)
    document = pdf.render_document(job)
    assert len(calls) == 1
    pages = pdf_text.page_texts(document.write_pdf())
    storms_page = next(n for n, p in enumerate(pages, 1) if "Move each ship up to its speed" in p)
    assert f"Sailing p.{storms_page}" in " ".join("\n".join(pages).split())
    assert pdf.render(job).pdf == built.results[job.path].pdf  # the same bytes as the build's


def test_a_page_number_wider_than_its_placeholder_is_laid_out_again(built, monkeypatch):
    """Should a number not fit its placeholder (an aid of 100 pages), it goes into the HTML and
    the aid is laid out again, rather than overprinting the text after it."""
    job = next(j for j in built.jobs if j.path == "downloads/harbour/rules-summary-a4.pdf")
    monkeypatch.setattr(pagerefs, "page_number_text", lambda number: "?" if number is None else f"{number}00")
    calls = _count_layouts(monkeypatch)
    document = pdf.render_document(job)
    assert len(calls) >= 2
    pages = pdf_text.page_texts(document.write_pdf())
    storms_page = next(n for n, p in enumerate(pages, 1) if "Move each ship up to its speed" in p)
    assert f"Sailing p.{storms_page}00" in " ".join("\n".join(pages).split())


# --- fonts, metadata, determinism ----------------------------------------------------------------

def test_fonts_are_the_shipped_inter_embedded_and_subset(each):
    problems = []
    for job in each.jobs:
        seen = {}
        for page in each.reader(job.path).pages:
            fonts = page.get("/Resources", {}).get("/Font", {})
            for font in fonts.values():
                font = font.get_object()
                for described in [font] + [d.get_object() for d in font.get("/DescendantFonts", [])]:
                    if "/FontDescriptor" in described:
                        seen[str(described["/BaseFont"])] = described["/FontDescriptor"].get_object()
        if not seen:
            problems.append(f"{job.path}: no fonts")
        for name, descriptor in seen.items():
            if not re.fullmatch(r"/[A-Z]{6}\+Inter.*", name):
                problems.append(f"{job.path}: font {name} is not a subset of the shipped Inter")
            if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                problems.append(f"{job.path}: font {name} is not embedded")
    assert not problems, problems


def test_pdf_metadata_title_language_author_and_dates_from_the_errata(built):
    reader = built.reader("downloads/harbour/solo-aid-letter.pdf")
    meta = reader.metadata
    assert meta.title == "Harbour Masters: Solo-bot aid (US Letter)"
    assert meta.author.startswith("Rulesmith contributors, transcribed from Harbour Masters Rulebook")
    assert reader.trailer["/Root"]["/Lang"] == "en"
    # The dates are those of the latest erratum that changed the aid, never the clock: e1 (the
    # galleon's speed) changed the rules summary; the solo aid does not show the galleon.
    summary = built.reader("downloads/harbour/rules-summary-letter.pdf").metadata
    assert summary["/CreationDate"] == summary["/ModDate"] == "D:20251102"
    assert "/CreationDate" not in meta
    assert "/CreationDate" not in built.reader("downloads/tiny/rules-summary-a4.pdf").metadata  # no errata


def test_pdf_is_tagged_with_the_pdf_ua_identification(built):
    reader = built.reader("downloads/harbour/solo-aid-a4.pdf")
    root = reader.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    assert "/StructTreeRoot" in root
    assert b'pdfuaid:part="1"' in root["/Metadata"].get_object().get_data()


def test_building_twice_gives_byte_identical_pdfs(built, tmp_path):
    """A second build, in this process instead of the worker pool and without the cache."""
    again = pdf.render_all(built.jobs, tmp_path, workers=1)
    differ = [path for path, result in again.items() if result.pdf != built.results[path].pdf]
    assert not differ, differ


# --- cache and parallel rendering -----------------------------------------------------------------

def test_unchanged_aids_come_from_the_cache(built, monkeypatch):
    monkeypatch.setattr(pdf, "render", lambda job: pytest.fail(f"re-rendered {job.path}"))
    again = pdf.render_all(built.jobs, built.cache / "pdf")
    assert {p: r.pdf for p, r in again.items()} == {p: r.pdf for p, r in built.results.items()}


def test_cache_key_changes_with_the_game_and_only_its_aids(built, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "content")
    yaml = tmp_path / "content" / "tiny" / "game.yaml"
    yaml.write_text(yaml.read_text().replace("You win.", "You win at once."))
    changed = pdf.jobs_for(check_content(tmp_path / "content"), built.cache / "flowcharts")
    before = {job.path: job.key() for job in built.jobs}
    after = {job.path: job.key() for job in changed}
    # the card's text is printed in the card reference only (the summary names the card)
    assert [p for p in after if after[p] != before[p]] == [
        "downloads/tiny/card-reference-a4.pdf", "downloads/tiny/card-reference-letter.pdf"]


def _cache_copy(built, tmp_path) -> Path:
    """The session's PDF and flowchart caches, copied: what a test adds stays its own."""
    shutil.copytree(built.cache / "pdf", tmp_path / "cache" / "pdf")
    shutil.copytree(built.cache / "flowcharts", tmp_path / "cache" / "flowcharts")
    return tmp_path / "cache" / "pdf"


def test_an_unchanged_aid_is_found_by_its_inputs_without_making_its_html(built, tmp_path, monkeypatch):
    cache = _cache_copy(built, tmp_path)
    first, downloads = pdf.build_aids(built.checked, cache)  # HTML made, PDFs found by it, inputs noted
    assert first == {p: r.pdf for p, r in built.results.items()}
    monkeypatch.setattr(document, "render_html", lambda *a, **k: pytest.fail("made the HTML of an unchanged aid"))
    monkeypatch.setattr(pdf, "render", lambda job: pytest.fail(f"re-rendered {job.path}"))
    again, downloads_again = pdf.build_aids(built.checked, cache)
    assert again == first and downloads_again == downloads  # pages, sizes, stamps: the same list


def test_an_edit_makes_the_html_of_its_games_aids_and_renders_only_those_it_changed(built, tmp_path, monkeypatch):
    cache = _cache_copy(built, tmp_path)
    pdf.build_aids(built.checked, cache)
    shutil.copytree(FIXTURE, tmp_path / "content")
    yaml = tmp_path / "content" / "tiny" / "game.yaml"
    yaml.write_text(yaml.read_text().replace("You win.", "You win at once."))
    made, rendered = [], []
    real_html, real_render = document.render_html, pdf.render
    monkeypatch.setattr(document, "render_html", lambda checked, kind, paper, *a: made.append(
        (checked.game.id, kind.key, paper.name)) or real_html(checked, kind, paper, *a))
    monkeypatch.setattr(pdf, "render", lambda job: rendered.append(job.path) or real_render(job))
    real_render_all = pdf.render_all  # in this process, where the counting stand-ins are (not in a pool)
    monkeypatch.setattr(pdf, "render_all", lambda jobs, cache, **kw: real_render_all(jobs, cache, **{**kw, "workers": 1}))
    changed = check_content(tmp_path / "content")
    aids, _ = pdf.build_aids(changed, cache)
    # every aid of the edited game is made again as HTML (its inputs changed), no other game's
    assert {game for game, _, _ in made} == {"tiny"}
    assert len(made) == len([j for j in built.jobs if j.game == "tiny"])
    assert sorted(rendered) == ["downloads/tiny/card-reference-a4.pdf", "downloads/tiny/card-reference-letter.pdf"]
    # the same bytes as a clean render: the edited game's aids rendered afresh, the others' as the
    # session rendered them (their jobs, and so their inputs, are as before)
    jobs = pdf.jobs_for(changed, cache.parent / "flowcharts")
    before = {job.path: job.key() for job in built.jobs}
    assert all(job.key() == before[job.path] for job in jobs if job.game != "tiny")
    fresh = pdf.render_all([job for job in jobs if job.game == "tiny"], tmp_path / "fresh", workers=1)
    assert aids == {job.path: (fresh[job.path] if job.game == "tiny" else built.results[job.path]).pdf for job in jobs}


def test_the_inputs_key_changes_with_each_of_its_parts():
    parts = {"software": "s", "game_files": "g", "site": {"name": "n", "url": ""}, "path": "downloads/x/a-a4.pdf"}
    base = pdf.input_key(**parts)
    for name, other in (("software", "s2"), ("game_files", "g2"), ("site", {"name": "n", "url": "https://x.org/"}),
                        ("path", "downloads/x/a-letter.pdf")):
        assert pdf.input_key(**dict(parts, **{name: other})) != base, name


def test_independent_aids_render_in_a_pool_of_processes(built, tmp_path, monkeypatch):
    pools = []

    class Spy(pdf.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(pdf, "ProcessPoolExecutor", Spy)
    tiny = [job for job in built.jobs if job.game == "tiny"]
    results = pdf.render_all(tiny, tmp_path)
    assert pools == [2] and all(results[job.path].pdf == built.results[job.path].pdf for job in tiny)


# --- layout ------------------------------------------------------------------------------------------

def test_no_box_runs_off_the_page_or_out_of_its_column(each):
    """layout_problems walks WeasyPrint's layout boxes of every page (see pdf.layout_problems):
    boxes inside the page area, text and tables inside their column or cell, text of 8 pt or
    more, and a header row on every page a table runs onto."""
    found = {job.path: each.results[job.path].layout for job in each.jobs}
    assert not any(found.values()), {path: problems[:5] for path, problems in found.items() if problems}


def test_weasyprint_renders_without_warnings(each):
    found = {job.path: each.results[job.path].warnings for job in each.jobs}
    assert not any(found.values()), {path: w[:5] for path, w in found.items() if w}


def test_layout_check_catches_overflow_small_text_and_a_lost_table_header():
    rows = "".join(f"<tr><td>row {n}</td></tr>" for n in range(200))
    html = f"""<style>@page {{ size: 100mm 100mm; margin: 10mm }} .nohead thead {{ display: table-row-group }}</style>
    <div style="width: 150mm; border: 1pt solid">too wide</div><p style="font-size: 6pt">tiny</p>
    <div style="width: 20mm">Unbreakablewordoffiftymm</div>
    <table class="nohead"><thead><tr><th>Head</th></tr></thead><tbody>{rows}</tbody></table>"""
    problems = weasy.layout_problems(weasyprint.HTML(string=html).render())
    assert any("runs off the page area" in p for p in problems)
    assert any("text smaller than" in p for p in problems)
    assert any("wider than its column or cell" in p for p in problems)
    assert any("without its header row" in p for p in problems)


def test_a_long_table_repeats_its_header_on_every_page(built):
    pages = built.texts("downloads/harbour/rules-summary-a4.pdf")
    with_rows = [n for n, text in enumerate(pages, 1) if re.search(r"R\d-D\d+", text)]
    assert len(with_rows) >= 2, "the fixture's long table should run over several pages"
    assert all("Round and distance" in pages[n - 1] for n in with_rows)


def test_print_colours_are_greys_so_nothing_depends_on_colour(built):
    """Greyscale print loses nothing: the stylesheet and the flowcharts use only neutral greys."""
    css = (pdf.TEMPLATES / "pdf" / "print.css.j2").read_text()
    svgs = b"".join(built.charts.values()).decode()
    colours = re.findall(r"#([0-9a-fA-F]{6})\b", css + svgs)
    assert colours and all(c[0:2].lower() == c[2:4].lower() == c[4:6].lower() for c in colours), \
        sorted({c for c in colours if not c[0:2].lower() == c[2:4].lower() == c[4:6].lower()})
    assert not re.search(r"\b(rgb|hsl)a?\(", css)


# --- sandbox ---------------------------------------------------------------------------------------

def _fetcher(asked_by=None):
    return pdf.SandboxFetcher([pdf.TEMPLATES, FIXTURE], asked_by)


def test_fetcher_serves_templates_content_and_data_urls():
    fetcher = _fetcher()
    font = fetcher.fetch((pdf.TEMPLATES / "fonts" / "Inter-Regular.otf").as_uri())
    assert font.read()[:4] == b"OTTO"
    assert fetcher.fetch((FIXTURE / "tiny" / "game.yaml").as_uri()).read().startswith(b"#")
    assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"


@pytest.mark.parametrize("url", [
    "file:///etc/passwd",
    (pdf.TEMPLATES / ".." / ".." / ".." / "etc" / "passwd").as_uri(),
    "http://127.0.0.1:9/x.png",
    "https://example.invalid/x.png",
    "ftp://example.invalid/x",
    "file://otherhost/etc/passwd",
])
def test_fetcher_refuses_everything_else(url):
    with pytest.raises(pdf.SandboxError) as refused:
        _fetcher().fetch(url)
    assert url in str(refused.value)


def test_fetcher_error_names_the_content_file_that_asked():
    with pytest.raises(pdf.SandboxError) as refused:
        _fetcher({"https://evil.invalid/x.png": ("content/g/rules/a.yaml", 7, 12)}).fetch("https://evil.invalid/x.png")
    assert str(refused.value.problem).startswith("content/g/rules/a.yaml:7:12:")


def test_hostile_content_fails_the_build_naming_the_file(built, tmp_path, monkeypatch):
    """A tracking pixel is refused by the check; and were the check and the sanitizer both
    switched off, the aids' sandboxed fetcher still refuses it, naming the file."""
    from rulesmith.text import html as text_html

    shutil.copytree(FIXTURE / "tiny", tmp_path / "content" / "tiny")
    yaml = tmp_path / "content" / "tiny" / "game.yaml"
    yaml.write_text(yaml.read_text().replace(
        'body: "Play the [[card:ace]] to win."',
        'body: "Play the [[card:ace]] to win. ![map](https://tracker.invalid/pixel.png)"'))
    with pytest.raises(ContentError, match=r"tracker\.invalid/pixel\.png"):
        check_content(tmp_path / "content")
    monkeypatch.setattr(text_html, "judge", lambda _text: [])
    monkeypatch.setattr(text_html, "sanitize", lambda html: html)
    checked = check_content(tmp_path / "content")
    with pytest.raises(pdf.AidError) as failed:
        pdf.build_aids(checked, tmp_path / "cache")
    message = str(failed.value)
    assert f"{yaml}:" in message or "tiny/game.yaml:" in message, message
    assert "https://tracker.invalid/pixel.png" in message
    assert isinstance(failed.value, ContentError)  # the CLI prints it like any content problem


def test_local_file_links_in_content_are_refused_before_rendering(tmp_path):
    shutil.copytree(FIXTURE / "tiny", tmp_path / "content" / "tiny")
    yaml = tmp_path / "content" / "tiny" / "game.yaml"
    yaml.write_text(yaml.read_text().replace("Play the [[card:ace]] to win.",
                                             "Play the [[card:ace]] to win. ![x](file:///etc/passwd)"))
    with pytest.raises(ContentError, match="file:///etc/passwd"):
        check_content(tmp_path / "content")


def test_build_error_survives_the_process_boundary():
    import pickle

    error = pdf.AidError([pdf.Problem("content/a.yaml", 3, 4, "refused", "hint")])
    copy = pickle.loads(pickle.dumps(error))
    assert copy.problems == error.problems and str(copy) == str(error)


# --- issue 13: what a player would print (measured on the PDF's text layer: tests/pdf_text.py)

from pdf_text import page_layouts as _pages  # noqa: E402

from rulesmith.aids.kinds import PT_PER_MM  # noqa: E402


def test_smallest_text_on_every_page_is_at_least_the_minimum(each):
    minimum = aidkinds.geometry().min_text_pt
    small = [f"{job.path} page {n}: {min(p['sizes']):.2f} pt"
             for job in each.jobs for n, p in enumerate(_pages(each.results[job.path].pdf), 1)
             if p["sizes"] and min(p["sizes"]) < minimum - 0.01]
    assert not small, small


def test_one_page_size_and_orientation_per_file(each):
    mixed = {job.path: sorted({p["size"] for p in _pages(each.results[job.path].pdf)}) for job in each.jobs}
    assert not {path: sizes for path, sizes in mixed.items() if len(sizes) != 1}


def test_every_page_is_at_least_half_full_except_the_last(each):
    margin = aidkinds.geometry().papers[0].margin
    thin = []
    for job in each.jobs:
        pages = _pages(each.results[job.path].pdf)
        for number, page in enumerate(pages[:-1], start=1):
            area = page["height"] - (margin[0] + margin[2]) * PT_PER_MM
            used = (page["bottom"] - margin[0] * PT_PER_MM) / area
            if used < 0.5:
                thin.append(f"{job.path} page {number}: {used:.0%} full")
    assert not thin, thin


def test_no_heading_ends_a_page_parted_from_what_it_heads(each):
    """A heading (with what is said under it: the gaps that affect it, what it is short for) is
    followed on its page by the text it heads: never the last thing printed on a page
    (tests/aid_headings.py; the Statecraft card reference's Letter page 1 ended with a table's
    heading and its gap line, its table on page 2)."""
    parted = [f"{job.path} {where}" for job in each.jobs
              for where in aid_headings.parted_headings(job.html, each.results[job.path].pdf)]
    assert not parted, parted


def test_no_procedure_is_split_one_starts_each_page(each):
    """Each procedure starts a page (its title is the page's first line; the first procedure may
    instead follow page 1's matter) and the next one starts on the very next page: nothing of a
    procedure runs onto a second page."""
    problems = []
    for job in each.jobs:
        if each.kind(job).key != "solo-aid":
            continue
        pages = _pages(each.results[job.path].pdf)
        firsts = [_squash(p["lines"][0]) if p["lines"] else "" for p in pages]
        # a procedure's heading as printed (its punctuation too: a rules section's heading of
        # other words, 'Automa Mission Phase and End of Game', is not 'Automa: Mission Phase')
        heads = [" ".join(p["lines"][0].split()).lower() if p["lines"] else "" for p in pages]
        starts = []
        for number, procedure in enumerate(each.game(job).game.procedures):
            title = " ".join(procedure.title.split()).lower()
            where = [n for n, first in enumerate(heads, 1) if first.startswith(title)]
            if number == 0 and not where:  # below page 1's matter: a line of page 1 of its own
                where = [1] if _squash(procedure.title) in map(_squash, pages[0]["lines"]) else []
            if len(where) != 1:
                problems.append(f"{job.path}: {procedure.title!r} starts {len(where)} pages")
            starts += where
        # after the last procedure: the end, or the page of the bot's other tables or of the solo
        # rules the aid holds (each a heading of its own)
        after_last = firsts[starts[-1]] if starts and starts[-1] < len(pages) else None
        plan = each.game(job).game.aid_plan("solo-aid")
        headings = [_squash("The bot's other tables")] + [_squash(e.title or each.game(job).index.name(e.show))
                                                          for e in (plan.body[:1] if plan else [])]
        if starts != list(range(starts[0], starts[0] + len(starts))) or \
                not (after_last is None or any(after_last.startswith(h) for h in headings)):
            problems.append(f"{job.path}: procedures start on pages {starts} of {len(pages)}")
    assert not problems, problems


def test_the_text_layer_reads_whole_words(each):
    broken = [f"{job.path} page {n}" for job in each.jobs
              for n, p in enumerate(_pages(each.results[job.path].pdf), 1)
              if "\u2010" in p["text"] or "\u00ad" in p["text"]]
    assert not broken, broken


def test_markdown_list_markers_print_as_written(built):
    text = " ".join(_pages(built.results["downloads/harbour/rules-summary-a4.pdf"].pdf)[1]["text"].split()
                    + [line for p in _pages(built.results["downloads/harbour/rules-summary-a4.pdf"].pdf)
                       for line in p["lines"]])
    assert "+ one cargo lost per ship hit" in text


def test_a_table_cell_of_several_paragraphs_keeps_them_as_paragraphs_and_one_line_unwrapped():
    from rulesmith.text import html

    assert html.cell("<p>First <strong>part</strong>.</p>\n<p>Second part.</p>") == \
        "<p>First <strong>part</strong>.</p>\n<p>Second part.</p>"  # set a small gap apart by print.css (td > p)
    assert html.cell("<p>One line.</p>") == "One line."
    # a bold run over a blank line is not two paragraphs to Markdown: one paragraph, unwrapped
    assert html.cell(html.sanitize("<p>**a</p>\n<p>b**</p>")) == html.sanitize("<p>**a</p>\n<p>b**</p>")


def test_a_step_does_not_repeat_the_marker_of_a_gap_its_own_words_name():
    import html

    from rulesmith.aids.context import AidContext
    from rulesmith.content import affects
    from rulesmith.site.pages import PageContext
    from rulesmith.text.placed import unplaced

    found = 0
    for item in check_content(ROOT / "content"):
        aid, site = AidContext(item.game, item.index, set()), PageContext(item.game, item.index, page="")
        for gap, place in affects.places(item.game, item.index):
            if place.step is None:
                continue
            procedure = item.index.targets[place.key].item
            node = next(n for n in procedure.nodes if n.id == place.step)
            named = f"[[gap:{gap.id}]" in (node.text or "")
            assert (gap.title in html.unescape(aid.step_gaps(procedure, node))) is not named, (procedure.id, node.id)
            # the site's steps do the same: the reader meets the gap in the step's words there too
            assert (gap.title in html.unescape(unplaced(site.step_gaps(procedure, node)))) is not named, \
                (procedure.id, node.id)
            found += named
    assert found, "no step of the games names a gap that affects it: the test tests nothing"


def test_a_chart_that_fits_nowhere_takes_the_layout_of_least_height(tmp_path):
    from rulesmith.aids import charts

    geo = aidkinds.geometry()
    item = next(c for c in check_content(ROOT / "content") if c.game.procedures)
    procedure = max(item.game.procedures, key=lambda p: len(p.nodes))
    paper = geo.papers[1]
    placed = charts.place(procedure, item.index, paper, geo, tmp_path, 20, 1000)  # no room left at all
    assert placed.scale <= round(geo.chart.min_scale, 3)

    def taken(p):
        likely = charts.steps_height(procedure, item.index, paper.content_width - (p.width + geo.column_gap_mm
                                     if p.mode == "beside" else 0), p.steps_columns, geo) / charts.STEPS_GENEROSITY
        return max(p.height, likely) if p.mode == "beside" else p.height + charts.CAPTION_MM + likely

    # not taller than the old fallback (the last chart variant above three columns of steps)
    variant = charts.procedure_svg(procedure, item.index, tmp_path, grow=False, rankdir="LR", wrap=geo.chart.wrap,
                                   font_pt=geo.chart.font_pt, edge_pt=geo.chart.edge_pt, text=False, compact=True)
    w, h = (v / PT_PER_MM for v in charts.size_pt(variant))
    scale = min(geo.chart.min_scale, paper.content_width / w)
    old = charts.Placement("above", "", w * scale, h * scale, scale, False, 3)
    assert taken(placed) <= taken(old) + 0.01


def test_contents_page_numbers_lead_to_the_item(each):
    """Every line of a contents list names an item found on the page it gives."""
    wrong, checked = [], 0
    for job in each.jobs:
        pages = _pages(each.results[job.path].pdf)
        item, kind = each.game(job), each.kind(job)
        if kind.key == "solo-aid":
            titles = [p.title for p in item.game.procedures]
        elif kind.key == "card-reference":
            titles = [t.title for t in item.game.tables] + [k.plural for k in item.game.kinds]
        else:
            titles = [e.title for e in contents.planned(item.game, item.index, kind.key)["body"]]
        listed = " ".join(line for page in pages[:2] for line in page["column_lines"])
        for title in titles:
            # the title (it may wrap), the leader dots, the page number
            pattern = r"\s+".join(map(re.escape, title.split())) + r"[\s.…]*?(?P<page>\d+)(?!\d)"
            line = re.search(pattern, listed)
            if line is None:
                wrong.append(f"{job.path}: {title!r} not in the contents")
                continue
            number = int(line.group("page"))
            checked += 1
            on_page = (_squash(pages[number - 1]["text"]) + _squash(" ".join(pages[number - 1]["column_lines"]))
                       if 1 <= number <= len(pages) else "")
            if _squash(title) not in on_page:
                wrong.append(f"{job.path}: {title!r} listed on page {number}")
    assert checked and not wrong, wrong


def test_weasyprint_private_api_is_used_only_with_the_pinned_version():
    assert weasy.version_problem() is None, weasy.version_problem()
    pinned = re.search(r'"weasyprint==([^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert pinned == weasy.PINNED, "rulesmith/aids/weasy.py and pyproject.toml must pin the same version"


def test_weasy_version_check_fails_loudly_for_another_version(monkeypatch):
    monkeypatch.setattr(weasy.weasyprint, "__version__", "71.0")
    assert "71.0" in weasy.version_problem() and weasy.PINNED in weasy.version_problem()


def test_a_page_reference_is_a_word_of_its_own_in_the_text_layer(each):
    """'Sailing p.3', not 'Sailingp.3': a search for the name or for 'p.3' finds it (the page's
    lines, tests/pdf_text.py, split words where the text layer has a space or a gap wider than 3 pt)."""
    glued = [f"{job.path} page {n}: {m.group(0)!r}" for job in each.jobs
             for n, p in enumerate(_pages(each.results[job.path].pdf), 1)
             for m in re.finditer(r"\S*[A-Za-z)]p\.\d+", p["text"])]
    assert not glued, glued[:20]
    summary = " ".join(" ".join(p["text"] for job in each.jobs if each.kind(job).key == "rules-summary"
                                for p in _pages(each.results[job.path].pdf)).split())
    assert re.search(r"[A-Za-z] p\.\d", summary), "no page reference found at all"


def _reader_words(game) -> str:
    """What a reader of the game sees written: the prose (references taken out, they print as
    names), the names and titles."""
    from rulesmith.content.link import texts

    prose = [re.sub(r"\[\[[^\]]*\]\]", " ", t.value) for t in texts(game)]
    names = [e.name for e in game.entities] + [n for k in game.kinds for n in (k.name, k.plural)] \
        + [f.name for k in game.kinds for f in k.fields] + [t.title for t in game.tables] \
        + [c.title for t in game.tables for c in t.columns] + [p.title for p in game.procedures]
    return "\n".join(prose + names).lower()


def test_no_internal_id_is_printed(each):
    """Readers never see internal ids: no kind, entity, field or flowchart node id with a hyphen
    (the shape of an id, 'psionic-leader') in any aid's text layer, unless the game's own prose
    or names write that word."""
    printed = []
    for job in each.jobs:
        game = each.game(job).game
        ids = {k.id for k in game.kinds} | {e.id for e in game.entities} | {f.id for k in game.kinds for f in k.fields} \
            | {n.id for p in game.procedures for n in p.nodes}
        seen = _reader_words(game)
        ids = {i for i in ids if "-" in i and not re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", seen)}
        text = re.sub(r"-\s*\n\s*", "-", "\n".join(p["text"] for p in _pages(each.results[job.path].pdf))).lower()
        printed += [f"{job.path}: {i}" for i in sorted(ids)
                    if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert not printed, printed


def test_gaps_that_say_the_same_of_neighbouring_cells_are_printed_once():
    def gap(title, note="The text gives -2 to 5.", key="table:track", status="reconstructed"):
        return {"key": key, "title": title, "status": status, "note": note, "where": None}
    gaps = [gap("Track: -2 / Final PP"), gap("Track: -1 / Final PP"), gap("Track: TOP / Final PP", note="Not said."),
            gap("Track: 0 / Final PP"), gap("Setup", key="rule:setup")]
    assert [(g["title"], g["note"]) for g in contents.grouped_gaps(gaps)] == [
        ("Track: -2, -1, 0 / Final PP", "The text gives -2 to 5."), ("Track: TOP / Final PP", "Not said."),
        ("Setup", "The text gives -2 to 5.")]

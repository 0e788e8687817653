"""The aids as a screen reader gets them: the structure tree of every aid (fixture and shipped
games, A4 and Letter), read with pikepdf. Every figure has its alternate text (an icon its word,
the QR code where it leads, a flowchart its title) and every table header cell says whether it
heads a column or a row (rulesmith/aids/structure.py completes what WeasyPrint leaves out)."""

from __future__ import annotations

import io

import pikepdf
import pytest

from rulesmith.aids import structure


@pytest.fixture(params=["fixture", "real"])
def each(request):
    return request.getfixturevalue("built" if request.param == "fixture" else "real")


def tree(pdf: bytes):
    document = pikepdf.open(io.BytesIO(pdf))
    return document, structure.elements(document)


def test_every_figure_of_every_aid_has_alternate_text(each):
    bare, figures = [], 0
    for job in each.jobs:
        document, elements = tree(each.results[job.path].pdf)
        with document:
            for element in elements:
                if element.get("/S") == pikepdf.Name.Figure:
                    figures += 1
                    if not str(element.get("/Alt", "")).strip():
                        bare.append(job.path)
    assert figures, "no figure in any aid"
    assert bare == [], f"{len(bare)} figures without alternate text in {sorted(set(bare))}"


def test_the_qr_code_says_where_it_leads(built):
    """The QR code (printed when the site's https address is known) reads as "QR code:" and the
    address of the changelog it leads to, in the laid-out PDF's structure tree."""
    import weasyprint

    from rulesmith.aids.document import changelog_qr
    from rulesmith.aids.pdf import PDF_OPTIONS

    item = next(c for c in built.checked if c.game.id == "harbour")
    address, svg = changelog_qr(item, "https://rules.example/ref/")
    html = f'<html lang="en"><head><title>t</title></head><body><figure>{svg}</figure><p>Changelog</p></body></html>'
    pdf = structure.complete(weasyprint.HTML(string=html).write_pdf(**PDF_OPTIONS))
    document, elements = tree(pdf)
    with document:
        alts = [str(e.Alt) for e in elements if e.get("/S") == pikepdf.Name.Figure and "/Alt" in e]
    assert alts == [f"QR code: {address}"] and address.startswith("https://rules.example/ref/harbour/")


def test_every_table_header_cell_has_its_scope(each):
    missing, scopes = [], set()
    for job in each.jobs:
        document, elements = tree(each.results[job.path].pdf)
        with document:
            for element in elements:
                if element.get("/S") != pikepdf.Name.TH:
                    continue
                attributes = element.get("/A")
                found = [attributes] if isinstance(attributes, pikepdf.Dictionary) else list(attributes or [])
                scope = next((str(a.Scope) for a in found if "/Scope" in a), None)
                if scope not in ("/Column", "/Row"):
                    missing.append(job.path)
                scopes.add(scope)
    assert "/Column" in scopes
    assert missing == [], f"{len(missing)} header cells without scope in {sorted(set(missing))}"


def test_an_icon_reads_as_its_word_and_alt_texts_leave_titled_glyphs_alone():
    html = ('<span class="rs-icon" role="img" aria-label="Flag"><svg viewBox="0 0 1 1"><path/></svg></span>'
            '<span class="rs-gap-ref" role="img" aria-label="Our reading"><svg><path/></svg></span>'
            '<span role="img" aria-label="X"><svg><title>X</title></svg></span>')
    assert structure.alt_texts(html) == (
        '<span class="rs-icon" role="img" aria-label="Flag"><svg viewBox="0 0 1 1"><title>Flag</title><path/></svg></span>'
        '<span class="rs-gap-ref" role="img" aria-label="Our reading"><svg><title>Our reading</title><path/></svg></span>'
        '<span role="img" aria-label="X"><svg><title>X</title></svg></span>')

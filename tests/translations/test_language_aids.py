"""Issue 47 part B: the player aids in another language, as a reader prints them.

The shipped Deep State's German catalog (High Society translated, unreviewed) lays out its aids in
German (`real_language_aids`, rendered once per run): page 1 says how far the translation is
current ("translated up to <date>, n entries outdated"; the date is the catalog's
PO-Revision-Date), a translated text is German, a text not yet translated is the English, marked.
What a catalog's edit lays out again is tested with the fixture game `tale`
(test_translations.py: the English aids from the cache, the German ones laid out).
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import aid_headings
import pdf_text
import pypdf
import pytest
from built_aids import Built
from conftest import rulesmith_here

from rulesmith.commands.build import in_language
from rulesmith.pipeline import check_content
from rulesmith.translations import freshness


def said(page: str) -> str:
    """A page's text as read, its line breaks (and a word's hyphen at one) made plain."""
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", page))


def german_aids(built) -> dict[str, bytes]:
    return {job.path: built.results[job.path].pdf for job in built.jobs if job.game == "deep-state"}


def test_every_german_aid_says_on_page_1_how_far_its_translation_is_current(real_language_aids):
    shown = real_language_aids.games["deep-state"].translation
    assert shown is not None
    # the catalog's PO-Revision-Date, else (as the shipped one: a template's placeholder) the
    # newest day an entry was brought up to date
    day = shown.saved or max(t.current_since for t in shown.texts() if t.state == freshness.TRANSLATED and t.current_since)
    outdated = shown.counts().outdated
    line = (f"Übersetzt bis {day.isoformat()}, {outdated} "
            + ("Eintrag veraltet." if outdated == 1 else "Einträge veraltet."))
    aids = german_aids(real_language_aids)
    assert sorted(aids) == sorted(f"downloads/deep-state/{kind}-{paper}-de.pdf" for kind in
                                  ("rules-summary", "solo-aid", "card-reference") for paper in ("a4", "letter"))
    for path, pdf in aids.items():
        first = said(pdf_text.page_layouts(pdf)[0]["text"])  # page 1's lines as printed
        assert line in first, (path, first[:1500])
        assert "Noch hat niemand diese Übersetzung geprüft." in first, path
        assert pypdf.PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/Lang"] == "de", path


def test_a_translated_high_society_text_is_german_and_a_missing_one_english_marked(real_language_aids, shipped_games):
    pdf = german_aids(real_language_aids)["downloads/deep-state/rules-summary-a4-de.pdf"]
    text = said("\n".join(page["text"] for page in pdf_text.page_layouts(pdf)))
    assert "High-Society-Karten erbeuten" in text
    assert "Capturing High Society cards" not in text
    game = shipped_games["deep-state"].game
    translation = freshness.translation(game, "de")
    assert translation.text("table:high-society-capture.title").state == freshness.TRANSLATED
    # the rest of the game is English, marked compactly "EN", which page 1's legend explains once
    first = said(pdf_text.page_layouts(pdf)[0]["text"])
    assert "EN Noch nicht übersetzt: auf Englisch" in first
    assert text.count("Noch nicht übersetzt") == 1
    assert "Comintern EN" in text  # a table's cell, shown in English


def test_the_german_aids_keep_the_page_budgets_of_the_english(real_language_aids):
    """A German aid holds what its English one holds, in as many pages as its kind allows a
    translation (templates/pdf/aids.yaml: a quarter more, for the longer words and the marks of
    the texts shown in English)."""
    over = []
    for job in real_language_aids.jobs:
        budget = real_language_aids.kind(job).page_budget(real_language_aids.game(job).game, translated=True)
        pages = real_language_aids.results[job.path].pages
        print(f"{job.path}: {pages} pages, budget {budget}")
        if budget is not None and pages > budget:
            over.append(f"{job.path}: {pages} pages, budget {budget}")
    assert not over, over


def test_no_heading_of_a_german_aid_ends_a_page_parted_from_what_it_heads(real_language_aids):
    """The German rules summary's page 1 ended with a section's heading, what it is short for and
    the gaps that affect it, its list (in English, not yet translated) on page 2; so did the
    Letter one's page 5. Every German aid keeps a heading with the text it heads, as the English
    ones do (tests/aids/test_pdf.py)."""
    parted = [f"{job.path} {where}" for job in real_language_aids.jobs
              for where in aid_headings.parted_headings(job.html, real_language_aids.results[job.path].pdf)]
    assert not parted, parted


@pytest.mark.pdf
def test_a_text_not_yet_translated_that_ends_in_a_table_ends_its_last_cell_with_its_mark(tmp_path):
    """As a paragraph's mark ends its last line, a text that ends in a table has its mark in the
    table's last cell (pages.LAST_LINE_END), not on a line of its own under the table. The fixture
    game `tale` (tests/fixtures/translations) with its Knight's text ending in a table its German
    catalog does not translate; the German card reference prints it."""
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "translations", content)
    english = '"**Brave.** Wins against the [[card:dragon]] on a 6."'
    game = content / "tale" / "content.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        f"text: {english}", 'text: "**Brave.** Wins on a roll:\\n\\n| Roll | Result |\\n|---|---|\\n'
                            '| 1-5 | It loses. |\\n| 6 | It wins. |\\n"'), encoding="utf-8")
    catalog = content / "tale" / "translations" / "de.po"
    german = 'msgstr "**Tapfer.** Besiegt den [[card:dragon]] bei einer 6."'
    assert german in catalog.read_text(encoding="utf-8")
    catalog.write_text(catalog.read_text(encoding="utf-8").replace(german, 'msgstr ""'), encoding="utf-8")
    checked = [c for c in in_language(check_content(content), "de") if c.translation is not None]
    built = Built(checked, tmp_path / "cache", "de")
    path = "downloads/tale/card-reference-a4-de.pdf"
    # the cards are set two side by side: their lines read column by column
    lines = [line for page in pdf_text.page_layouts(built.results[path].pdf) for line in page["column_lines"]]
    assert "Roll Result" in lines and "1-5 It loses." in lines, lines
    assert "6 It wins. EN" in lines, lines  # the table's last line, its mark at its end
    assert "EN" not in lines, lines  # no mark on a line of its own


@pytest.mark.pdf  # lays out an aid
def test_an_erratum_to_a_translated_text_prints_it_outdated_with_the_new_english(tmp_path):
    """The maintainer's erratum to a text the German catalog translates, on paper: the German card
    reference prints the translation marked outdated, with the day the English changed and the
    English as it now reads beside it (the site's test: test_language_site.py)."""
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "translations", content,
                    ignore=shutil.ignore_patterns("README.md"))
    done = rulesmith_here("errata", "add", "tale", "card:knight", "text", "**Brave.** Beats the [[card:dragon]] on a 5 or 6.",
                          "--source", "publisher-faq", "--description", "Publisher FAQ v2",
                          "--url", "https://example.org/faq", "--note", "Easier.", "--date", "2026-03-02", cwd=content)
    assert done.returncode == 0, done.stderr
    checked = [c for c in in_language(check_content(content), "de") if c.translation is not None]
    assert checked[0].translation.text("card:knight.text").state == freshness.OUTDATED
    built = Built(checked, tmp_path / "cache", "de")
    shown = said("\n".join(built.texts("downloads/tale/card-reference-a4-de.pdf")))
    at = shown.find("Tapfer.")
    assert at >= 0, shown[:2000]
    near = shown[at:at + 400]
    assert "Veraltete Übersetzung: das Englische hat sich am 2026-03-02 geändert" in near, near
    assert "Das Englische lautet jetzt: Brave. Beats the" in near, near


# The aids' own fixed words (templates/pdf/*.j2, aids/*.py) as they print in English, and as the
# German aid prints them (the tool's word catalog, templates/locale/de.po).
FIXED_ENGLISH = ("Print at 100 %", "Rules summary", "Solo-bot aid", "Card reference", "In short; in full on the site",
                 "check the printed component", "the site gives the details", "A reference to something in this aid",
                 "In this summary", "Procedures, one per page", "The bot's other tables", "Beside each entry",
                 "The site shows them", "errata and rulings up to", "Not every condition is repeated here",
                 "Anything newer?", "(in full: note")
FIXED_GERMAN = {  # short enough to stay on one line of page 1's narrow box
    "rules-summary": ("REGELÜBERSICHT · A4", "In 100 % drucken", "Daten Version", "Papier A4", "Regelentscheide bis",
                      "bitte das", "die Website nennt die", "Ein Verweis auf etwas", "In dieser Übersicht",
                      "Kurz gefasst; vollständig", "Seite 1/", "Nicht bestätigt"),
    "solo-aid": ("SPIELHILFE SOLO-BOT · A4", "Abläufe, einer pro Seite", "Seite 1/"),
    "card-reference": ("KARTENREFERENZ · A4", "Neben jedem Eintrag die Zeilen der Spielregel", "Website zeigt sie.",
                       "sind die Zeilen 12 bis 20 aus", "Tabellen", "Seite 1/"),
}


def test_the_german_aids_print_the_tools_own_words_in_german(real_language_aids):
    """Page 1's facts and legend, the headings the templates write, the footer and a note's short
    form ("(vollständig: Anmerkung 2 S.5)") are German; none of the English fixed words is left."""
    aids = german_aids(real_language_aids)
    shorts = 0
    for path, pdf in aids.items():
        pages = [said(page["text"]) for page in pdf_text.page_layouts(pdf)]
        text = " ".join(pages)
        kind = path.split("/")[-1].rsplit("-", 2)[0]
        expected = [w.replace(" · A4", " · US LETTER") if "letter" in path else w for w in FIXED_GERMAN[kind]]
        expected = [w for w in expected if w not in ("Papier A4",)] + (["Papier US Letter"] if "letter" in path else [])
        for german in expected:
            assert german in text, (path, german)
        assert "Unverified" not in pages[0], path  # the legend's status labels are the language's too
        for english in FIXED_ENGLISH:
            assert english not in text, (path, english)
        assert not re.search(r"\bp\.\d", text), path  # "S.3" in German, never "p.3"
        assert not re.search(r"\bPage \d+/\d+", text), path
        shorts += len(re.findall(r"\(vollständig: Anmerkung \d+ S\.\d+\)", text))
        if kind == "solo-aid":  # the flowcharts' end boxes
            assert re.search(r"\b\d+\. Ende\b", text) and not re.search(r"\b\d+\. End\b", text), path
    assert shorts > 0  # a note said again on a later page, in short

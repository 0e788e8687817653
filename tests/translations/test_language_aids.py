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

import pdf_text
import pypdf

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
        first = said(pdf_text.page_layouts(pdf)[0]["text"])  # pdfplumber's text of page 1
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
    assert "Noch nicht übersetzt: auf Englisch" in text  # the rest of the game is English, marked

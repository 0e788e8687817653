"""What a reader reads, checked as text (issue 29): every page, search entry, flowchart and PDF.

The rules live in tests/reader_text.py, one function each, tested here on small texts; then every
output of the shipped games and of the test fixtures must pass all of them, less the few accepted
exceptions of tests/reader_text_exceptions.yaml (each with its reason).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import reader_text as rt
from conftest import FIXTURE_SITE_CONTENT, ROOT

from rulesmith.pipeline import check_content

# --- each rule on a small text ----------------------------------------------------------------


def matches(hits) -> list[str]:
    return [hit[0] for hit in hits]


def test_markup_finds_markdown_and_template_syntax():
    text = ('Recomputed. !!! check "Arithmetic" Works out to **5**, see [[rule:setup]] or {{ e.id }} '
            "[Set-up](setup.md) `code` \\* &amp; <span class=\"x\"> { .rs-legend } *stressed*")
    assert matches(rt.markup(text)) == ["!!!", "[[", "]]", "{{", "}}", "{ .rs-legend }", "**", "**",
                                        "*stressed*", "](", "`", "`", "\\*", '<span class="x">', "&amp;"]


def test_markup_leaves_plain_wording_alone():
    assert rt.markup("Roll 2 dice (3 × 4 = 12)! Is it over? Yes: 10 − 3 − 2 = 5; a 5* card, #1.") == []


def vocabulary(**given) -> rt.Vocabulary:
    return rt.Vocabulary(**{"ids": set(), "prefixes": {"rule", "alliance"}, "words": set(), **given})


def test_internal_ids_are_found_unless_the_rulebook_uses_the_word():
    words = vocabulary(ids={"faction-skill", "set-up", "high-difficulty"}, words={"set-up"})
    text = ("Category: faction-skill. At set-up, see trigger->high-difficulty, leader_cards and "
            "alliance:interpol; https://example.org/dei/faction-skill.html is an address.")
    assert matches(rt.internal_ids(text, words)) == ["faction-skill", "trigger->high-difficulty", "leader_cards",
                                                     "alliance:interpol"]


def test_a_hyphenated_word_that_is_no_id_is_fine():
    assert rt.internal_ids("A two-player game, end-of-round scoring.", vocabulary(ids={"setup"})) == []


def test_repeated_words_labels_and_names_are_found():
    text = ("Set up the Weather cards cards. Bot: Bot: Influence action. Both Trends (Trends) and "
            "Source: Deep State: High Society (Deep State: High Society); place the\nthe token.")
    assert matches(rt.repeated(text)) == ["cards cards", "the\nthe".replace("\n", " "), "Bot: Bot:",
                                          "Trends (Trends)", "Deep State: High Society (Deep State: High Society)"]


def test_side_by_side_cells_and_a_menu_over_its_title_are_not_repeats():
    # a PDF's table row ("Stage | Stage card"), chart labels ("Yes Yes"), a menu and its sub-menu's title
    assert rt.repeated("Stage Stage card\nYes Yes No\nRules\nRules\nPower Points (PP)") == []
    assert rt.repeated("Downloads\nÄnderungen\nÄnderungen¶") == []  # a title whose capital is not ASCII
    assert matches(rt.repeated("die\ndie Karte")) == ["die die"]  # in lower case, still found


def test_doubled_punctuation_is_found():
    assert matches(rt.doubled_punctuation("Which Supplies?. Then Set-up:. The end.. Or,, not?:")) == \
        ["?.", ":.", "..", ",,", "?:"]


def test_an_ellipsis_an_abbreviation_and_dot_leaders_are_fine():
    text = "Wait... what?! E.g., the U.S., p., etc.; Contents ........ 4 and https://x.org/a.b?c=.d"
    assert rt.doubled_punctuation(text) == []


def test_foreign_names_are_another_games_names_this_game_does_not_use(shipped_games):
    checked = shipped_games
    statecraft = rt.vocabulary(checked["statecraft"], [checked["dei"]], rulebook_texts=["Nigeria is a country."])
    assert matches(rt.foreign_names("Recruit a Fauns unit in Nigeria.", statecraft)) == ["Fauns"]
    dei = rt.vocabulary(checked["dei"], [checked["statecraft"]], rulebook_texts=["Fauns in Nigeria."])
    assert rt.foreign_names("Nigeria: Fauns", dei) == []  # its rulebook says Nigeria


def test_a_page_reference_names_something_of_the_game(shipped_games):
    checked = shipped_games
    statecraft = rt.vocabulary(checked["statecraft"], [])
    text = "A reference gives its page: “Storms p.2”. See Phases of a round p.2, A round at a glance p.1, Conflict\u00a0p.3 (Symbols p.4)."
    assert matches(rt.page_references(text, statecraft)) == ["Storms p.2"]


def test_a_page_reference_and_a_notes_number_are_read_in_the_aids_language():
    """A German aid says "Antiterror S.3" and "(vollständig: Anmerkung 2 S.5)" (the tool's word
    catalog): read as the English "p.3" and "(in full: note 2 p.5)" are."""
    german = rt.Vocabulary(name_ends={"antiterror"}, language="de")
    text = "Siehe Antiterror S.3. Ein Wert (vollständig: Anmerkung 2 S.5). Storms S.2"
    assert matches(rt.page_references(text, german)) == ["Storms S.2"]
    english = rt.Vocabulary(name_ends={"antiterror"})
    assert matches(rt.page_references("See Antiterror p.3. A value (in full: note 2 p.5). Storms p.2", english)) == ["Storms p.2"]
    assert matches(rt.page_references(text, english)) == []  # "S.2" is no page reference in English


def test_the_vocabulary_holds_the_models_ids_but_not_the_rulebooks_words(shipped_games):
    checked = shipped_games
    deep_state = rt.vocabulary(checked["deep-state"], [])
    procedure = checked["deep-state"].game.procedures[0]
    assert {"deep-state", procedure.id, procedure.nodes[0].id} <= deep_state.ids
    assert {"rule", "table", "procedure", "trend"} <= deep_state.prefixes
    assert "try-blackout" in deep_state.ids


def test_problems_names_the_output_the_rule_and_the_text_less_the_exceptions():
    allowed = [rt.Exception_("repeated", "cards cards", "dei/*", "a test")]
    found = rt.problems("the Weather cards cards?.", vocabulary(), "dei/index.html", allowed)
    assert found == ["dei/index.html: doubled punctuation: «?.» in «…the Weather cards cards?.…»"]
    assert rt.problems("the Weather cards cards", vocabulary(), "statecraft/index.html", allowed) == \
        ["statecraft/index.html: repeated: «cards cards» in «…the Weather cards cards…»"]


def test_every_exception_is_one_rule_one_text_and_a_reason():
    listed = rt.exceptions()
    assert len(listed) <= 10, "exceptions are rare: fix the output instead"
    assert all(e.reason and e.text for e in listed)


# --- the outputs as text ----------------------------------------------------------------------


def test_page_text_leaves_out_script_and_style_and_keeps_tooltips_and_chart_text():
    page = ('<html><head><title>Bot turn</title><style>p{}</style><script>var x="[[a]]"</script></head>'
            '<body><p>Roll\n  two <b>dice</b>.</p><span title="Gap in the source">▲</span>'
            '<svg><g class="node"><title>Step 1</title><text>1. Draw</text></g></svg></body></html>')
    assert rt.html_text(page) == "Bot turn\nRoll two dice.\n▲\nStep 1\n1. Draw\nGap in the source"


def test_an_output_belongs_to_the_game_of_its_folder():
    games = {"dei", "statecraft"}
    assert [rt.game_of(w, games) for w in ("dei/index.html", "search:statecraft/kinds/x.html#y",
                                           "downloads/dei/solo-aid-a4.pdf", "index.html", "downloads.html",
                                           "de/dei/index.html", "search:de/statecraft/kinds/x.html#y",
                                           "de/index.html", "de/downloads.html")] == \
        ["dei", "statecraft", "dei", None, None, "dei", "statecraft", None, None]


def test_the_header_partial_is_materials_with_the_game_as_its_topic():
    """The theme override copies Material's header; on a Material upgrade it must be copied again."""
    import material

    theirs = (Path(material.__file__).parent / "templates" / "partials" / "header.html").read_text(encoding="utf-8")
    ours = (ROOT / "templates" / "theme" / "partials" / "header.html").read_text(encoding="utf-8")
    body = lambda text: re.sub(r"\A\{#-.*?-#\}\n", "", text, flags=re.S)  # noqa: E731
    assert body(ours).replace("(page.ancestors | last).title if page and page.ancestors else config.site_name",
                              "config.site_name") == body(theirs)


def test_the_palette_partial_is_materials_not_marked_as_its_component():
    """The theme override copies Material's palette form, not marked for Material's bundle to mount
    (the page runs the palette: partials/javascripts/palette.html, tested in test_first_run.py);
    on a Material upgrade it must be copied again."""
    import material

    theirs = (Path(material.__file__).parent / "templates" / "partials" / "palette.html").read_text(encoding="utf-8")
    ours = (ROOT / "templates" / "theme" / "partials" / "palette.html").read_text(encoding="utf-8")
    body = lambda text: re.sub(r"\A\{#-.*?-#\}\n", "", text, flags=re.S)  # noqa: E731
    assert 'data-md-component="palette"' in body(theirs) and "data-md-component" not in body(ours)
    assert body(ours).replace('<form class="md-header__option">',
                              '<form class="md-header__option" data-md-component="palette">') == body(theirs)


# --- every output -----------------------------------------------------------------------------


def _vocabularies(checked) -> tuple[dict[str, rt.Vocabulary], rt.Vocabulary]:
    """Each game's vocabulary (the other games' names foreign to it), and all games' ids for the
    pages that belong to no game (home, downloads, changelog)."""
    games = {c.game.id: rt.vocabulary(c, [o for o in checked if o is not c]) for c in checked}
    shared = rt.Vocabulary()
    for vocabulary in games.values():
        shared.ids |= vocabulary.ids
        shared.prefixes |= vocabulary.prefixes
        shared.words |= vocabulary.words
    return games, shared


def _read_as_text(texts: dict[str, str], checked) -> list[str]:
    games, shared = _vocabularies(checked)
    allowed = rt.exceptions()
    found = []
    for where, text in texts.items():
        game = rt.game_of(where, set(games))
        found += rt.problems(text, games[game] if game else shared, where, allowed)
    return found


@pytest.mark.site
@pytest.mark.parametrize("which", ["real", "fixture"])
def test_every_page_search_entry_and_flowchart_reads_as_the_game(which, request):
    site = request.getfixturevalue("real_site" if which == "real" else "fixture_site")
    checked = check_content(ROOT / "content" if which == "real" else FIXTURE_SITE_CONTENT)
    texts = {**rt.site_texts(site), **rt.search_texts(site)}
    pages = [w for w in texts if w.endswith(".html") and not w.startswith("search:")]
    assert len(pages) > 10 and any(w.startswith("search:") for w in texts)
    assert any("<svg" in (site / w).read_text(encoding="utf-8") for w in pages), "no flowchart was read"
    assert _read_as_text(texts, checked) == []


@pytest.mark.pdf
@pytest.mark.parametrize("which", ["real", "fixture", "german"])
def test_every_pdf_reads_as_the_game(which, request):
    """Every aid, those in another language too (the German Deep State's: real_language_aids)."""
    aids = request.getfixturevalue({"real": "real_aids", "fixture": "fixture_aids", "german": "real_language_aids"}[which])
    texts = {path: rt.pdf_text(result.pdf) for path, result in aids.results.items()}
    assert texts and all(texts.values())
    assert _read_as_text(texts, aids.checked) == []


@pytest.mark.site
def test_a_search_entry_holds_a_phrase_less_the_stop_words_of_its_sites_language(real_site):
    """search_holds reads a query as the site's search does: the German site's leaves out the
    German stop words ("nicht", "wieder" …), the English site's its own short list."""
    from rulesmith.site import search

    german = [e for e in rt.search_entries(real_site / "de") if e["title"].startswith("High-Society-Karten erbeuten")]
    assert german and all(e["language"] == "de" for e in german)
    entry = german[0]
    held = set(str(entry["words"]).split()) | set(search.words(entry["title"] + " " + entry["text"]))
    # a German stop word that the entry does not hold and the English search would not leave out
    word = next(w for w in sorted(search.stop_words("de")) if w not in held and w not in search.STOP_WORDS and len(w) > 4)
    assert rt.search_holds(entry, f"{word} High-Society-Karten erbeuten")
    assert not rt.search_holds(entry | {"language": "en"}, f"{word} High-Society-Karten erbeuten")
    english = rt.search_entries(real_site)
    assert english and all(e["language"] == "en" for e in english)
    assert not rt.search_holds(entry, "Zwischenablagekarten High-Society-Karten")  # a word it does not hold

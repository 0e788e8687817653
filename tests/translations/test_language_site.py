"""Issue 47 part B: the site in another language, as its readers and maintainers meet it.

The shipped content's German catalog (Deep State, High Society translated, unreviewed) is read by
the real site's build (`real_site`, built once per run): the German site under `site/de/`, every
page saying its language and its other-language versions, a language switch that keeps the reader
on the same item, search in the German pages with accents forgiven, a missing text shown in
English and marked, a game without a German catalog shown in English and marked once per page.
The fixture game `tale` (tests/fixtures/translations) shows what a maintainer's erratum does to a
translated text: the German page shows it outdated, with the new English beside it.
"""

from __future__ import annotations

import re
import shutil
from html import escape, unescape
from pathlib import Path

import pytest
from conftest import build_site, rulesmith_here, search, served

from rulesmith.content.game import load_game
from rulesmith.problems import Problems
from rulesmith.translations import freshness

ROOT = Path(__file__).resolve().parents[2]
TALE = ROOT / "tests" / "fixtures" / "translations"
FAQ = ["--source", "publisher-faq", "--description", "Publisher FAQ v2", "--url", "https://example.org/faq"]


def text_of(html: str) -> str:
    """The article's words as a reader reads them (tags and icons out, spaces made one)."""
    article = html[html.find("<article"):html.find("</article>")]
    article = re.sub(r"<svg.*?</svg>", "", article, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", article)))


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


# ---------------------------------------------------------------- the pages say their language

def test_every_page_of_the_german_site_says_german_and_links_its_english_version(real_site):
    pages = sorted((real_site / "de").rglob("*.html"))
    assert len(pages) > 100
    for path in pages:
        html = path.read_text(encoding="utf-8")
        if path.name == "404.html":
            continue
        assert '<html lang="de"' in html, path
        page = path.relative_to(real_site / "de").as_posix()
        up = "../" * page.count("/")
        assert f'<link rel="alternate " hreflang="en" href="{up}../{page}">' in html, path
        assert f'<link rel="alternate " hreflang="de" href="{up}{page}">' in html, path
    english = read(real_site, "deep-state/tables.html")
    assert '<html lang="en"' in english
    assert '<link rel="alternate " hreflang="de" href="../de/deep-state/tables.html">' in english


def test_a_translated_text_is_german_and_the_page_says_the_translation_is_unreviewed(real_site):
    shown = text_of(read(real_site, "de/deep-state/tables.html"))
    assert "High-Society-Karten erbeuten" in shown
    assert shown.count("Übersetzung (Deutsch): 122 von 1187 Texten übersetzt") == 1
    assert "Noch hat niemand diese Übersetzung geprüft." in shown
    assert "Capturing High Society cards" not in text_of(read(real_site, "de/deep-state/tables.html")).split("Quelle")[0]


def test_a_missing_text_is_the_english_marked_not_yet_translated(real_site, shipped_games):
    game = shipped_games["deep-state"].game
    shown = freshness.translation(game, "de")
    missing = next(t for t in shown.texts() if t.state == freshness.MISSING and t.address.startswith("rule:brute-force.body"))
    page = text_of(read(real_site, "de/deep-state/rules/brute-force.html"))
    first = re.sub(r"\s+", " ", re.sub(r"[*_]", "", missing.english.split("\n\n")[0])).split("[")[0][:30]
    at = page.find(first)
    assert at >= 0, first
    assert "Noch nicht übersetzt: auf Englisch" in page[at:at + len(missing.english) + 200]
    assert "Noch nicht übersetzt" not in text_of(read(real_site, "deep-state/rules/brute-force.html"))


def test_a_heading_shown_in_english_on_a_german_page_says_it_is_english(real_site):
    """A heading whose text is not yet translated is English (`lang="en"`: read aloud and
    hyphenated as English, as the text under it), a translated one is the page's German; in
    English, no heading says its language."""
    headings = {unescape(re.sub(r"<[^>]+>", "", m.group(2).split('<a class="headerlink"')[0])).strip(): m.group(1)
                for page in ("de/deep-state/kinds/alliance.html", "de/deep-state/gaps.html")
                for m in re.finditer(r"<h[1-6]([^>]*)>(.*?)</h[1-6]>", read(real_site, page), flags=re.S)}
    assert 'lang="en"' in headings["Interpol"] and 'id="interpol"' in headings["Interpol"]  # an entity's name
    assert 'lang="en"' in headings["Alliance cards"]  # a kind's plural, the page's title
    assert 'lang="en"' not in headings["Anzahl der High-Society-Karten"]  # translated
    english = re.findall(r"<h[1-6][^>]*>", read(real_site, "deep-state/kinds/alliance.html"))
    assert english and not any("lang=" in h for h in english)


def test_the_bot_turns_label_carries_its_own_mark_on_the_german_page(real_site, shipped_games):
    """The Bot turn's title opens its description as a bold label: a text of the game, it says
    how its translation stands as any text does (it lost its mark when the template made it a
    plain str by adding the label's full stop)."""
    game = shipped_games["deep-state"].game
    title = freshness.translation(game, "de").text("bot:turn.title")
    html = read(real_site, "de/deep-state/bot-turn.html")
    shown = text_of(html)
    label = re.search(re.escape(title.text) + r" ?\.", shown)
    assert label, title.text
    after = shown[label.end():].lstrip()
    description = freshness.translation(game, "de").text("bot:turn.description")
    first = re.sub(r"[*_]", "", description.text).split("[")[0].strip()[:30]
    label_part = after[:after.find(first)]
    assert after.find(first) >= 0, first
    if title.state == freshness.MISSING:
        assert label_part.strip() == "Noch nicht übersetzt: auf Englisch", label_part
        assert f'<strong><span lang="en">{title.text.replace(chr(39), "&#x27;")}</span>.</strong>' in html
    elif title.state == freshness.OUTDATED:
        assert label_part.strip().startswith("Veraltete Übersetzung"), label_part
    else:
        assert label_part.strip() == "", label_part
    # the English page: the label as it was, with no mark
    english = text_of(read(real_site, "deep-state/bot-turn.html"))
    assert f"{title.english}. {first}" in english, first


def nav_items(html: str) -> dict[str, str]:
    """The navigation's links and labels as read: {title: the attributes of its tag}."""
    return {title.strip(): attributes for attributes, title in re.findall(
        r'<(?:a|label) ([^>]*class="md-nav__link[^>]*)>\s*<span class="md-ellipsis">\s*([^<]*?)\s*</span>', html)}


def test_the_german_navigation_says_which_titles_are_english(real_site, shipped_games):
    """A page whose title is not yet translated is English in the navigation too (`lang="en"`),
    as its texts are on the page; a translated title, and the tool's words, are not."""
    translation = freshness.translation(shipped_games["deep-state"].game, "de")
    assert translation.text("rule:doctrine-of-supremacy.title").state == freshness.MISSING
    assert translation.text("procedure:hoc-high-society.title").state == freshness.TRANSLATED
    for page in ("de/deep-state/rules/brute-force.html", "de/deep-state/tables.html", "de/index.html"):
        nav = nav_items(read(real_site, page))
        assert len(nav) > 5, page
        if page != "de/index.html":
            assert 'lang="en"' in nav["Doctrine of Supremacy"], page
            assert 'lang="en"' in nav["Trend cards"], page  # a kind's plural
            assert 'lang="en"' in nav["Falcon: capturing a trend"], page  # a procedure
            assert 'lang="en"' not in nav["HOC: High-Society-Karten erbeuten"], page
            assert 'lang="en"' not in nav["Zug des Bots"] and 'lang="en"' not in nav["Regeln"], page
        assert 'lang="en"' in nav["Deep State: Global Conspiracy and High Society"], page  # the game's name
        assert 'lang="en"' not in nav["Startseite"], page
    nav = nav_items(read(real_site, "de/deep-state/rules/brute-force.html"))
    assert 'lang="en"' in nav["Brute Force"]  # the page's own title, where the navigation is open at it
    assert 'lang="en"' not in nav["Antiterror Project"]  # the page's own headings are the page's to mark
    english = nav_items(read(real_site, "deep-state/rules/brute-force.html"))
    assert not any('lang="en"' in attributes for attributes in english.values())


def test_a_game_without_a_german_catalog_is_english_marked_once_per_page(real_site):
    for page in ("de/statecraft/index.html", "de/statecraft/glossary.html", "de/dei/tables.html"):
        shown = text_of(read(real_site, page))
        assert shown.count("ist nicht übersetzt (Deutsch): seine Texte werden auf Englisch gezeigt.") == 1, page
        assert "Noch nicht übersetzt" not in shown, page  # once per page, not at every text
        nav = nav_items(read(real_site, page))
        # its titles in the navigation are English, as its pages are (and the tool's words are not)
        assert 'lang="en"' in nav["Statecraft"] and 'lang="en"' in nav["D.E.I.: Divide et Impera"], page
        assert 'lang="en"' not in nav["Startseite"] and 'lang="en"' not in nav["Glossar"], page
    nav = nav_items(read(real_site, "de/statecraft/glossary.html"))
    assert 'lang="en"' in nav["Goal of the Game"] and 'lang="en"' in nav["Country cards"]  # a section, a kind


def test_a_game_without_a_german_catalog_says_its_texts_are_english(real_site, shipped_games):
    """On the German site, every text of a game without a German catalog is said to be English
    (`lang="en"`: read aloud, hyphenated and searched as English), headings and the page's title
    as the paragraphs, tables' cells and the bot's state; the tool's own words around them (the
    page's banner, labels) stay German. On the English site the same texts carry no `lang`."""
    game = shipped_games["statecraft"].game
    glossary = read(real_site, "de/statecraft/glossary.html")
    article = glossary[glossary.find("<article"):glossary.find("</article>")]
    terms = re.findall(r"<dt([^>]*)>", article)
    assert len(terms) == len(game.glossary) and all('lang="en"' in t for t in terms), terms[:3]
    assert article.count('<div lang="en">') >= len(game.glossary)  # each definition
    banner = re.search(r'<p class="rs-translation rs-translation--page">.*?</p>', article, re.S)
    assert banner and 'lang="en"' not in banner.group(0)  # the tool's words, German
    section = read(real_site, f"de/statecraft/rules/{game.sections[0].id}.html")
    assert re.search(r'<h1[^>]*lang="en"', section), "the section's title"
    assert '<div lang="en">' in section
    assert re.search(r'<td>(?:(?!</td>).)*<span lang="en">', read(real_site, "de/statecraft/tables.html"), re.S)
    turn = read(real_site, "de/statecraft/bot-turn.html")
    state = game.bot.state[0]
    assert f'<span lang="en">{escape(state.name)}</span>' in turn  # the bot's state, as a German game's missing name
    english = read(real_site, "statecraft/glossary.html")
    assert 'lang="en"' not in english[english.find("<article"):english.find("</article>")]


def test_the_german_site_has_its_own_search_and_offline_worker(real_site):
    assert (real_site / "de" / "search" / "deep-state.js").is_file()
    index = read(real_site, "de/search/deep-state.js")
    assert "kompatibilitat" in index  # accents folded in the index as in a query
    worker = read(real_site, "de/deep-state/sw.js")
    assert '"deep-state"' in worker
    assert (real_site / "de" / "sw.js").is_file()


def test_the_german_search_leaves_out_german_stop_words(real_site):
    """Each language's search leaves out its own stop words (those Material's search uses for the
    language): German 'und', 'der', 'die' are in no entry's words of the German index and its
    query leaves them out too (the index carries them for search.js); the English site's index
    is as before (its own list, in search.js)."""
    from rulesmith.site.search import read_index

    german = read_index(real_site / "de" / "search" / "deep-state.js")
    assert {"und", "der", "die", "fur", "uber"} <= set(german["stop"])  # folded as a query is
    found = {w for row in german["docs"] for w in row[4].split()}
    assert "erbeuten" in found or "gesammelten" in found  # German words of High Society are there
    stop = {"und", "der", "die", "das", "nicht", "fur"}
    assert not found & stop, found & stop
    english = read_index(real_site / "search" / "deep-state.js")
    assert "stop" not in english
    words_en = {w for row in english["docs"] for w in row[4].split()}
    assert not words_en & {"the", "and", "of"}


# ---------------------------------------------------------------- a reader on a phone

@pytest.fixture(scope="module")
def phone(browser, real_site):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    with served(real_site) as base:
        yield page, base
    context.close()
    assert errors == []  # no script error, no file the pages ask for and the site lacks


def test_a_reader_at_an_item_switches_to_german_and_stays_on_the_item(phone):
    page, base = phone
    page.goto(f"{base}/deep-state/tables.html#high-society-capture")
    page.wait_for_load_state("load")
    page.locator(".md-select button").click()
    page.locator("a.rs-language[hreflang=de]").click()
    page.wait_for_url(re.compile(r"/de/deep-state/tables\.html#high-society-capture$"))
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == "de"
    heading = page.locator("#high-society-capture")
    assert heading.inner_text().strip().startswith("High-Society-Karten erbeuten")
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 844, box  # the item is where the reader looks
    page.locator(".md-select button").click()
    page.locator("a.rs-language[hreflang=en]").click()
    page.wait_for_url(re.compile(r"/deep-state/tables\.html#high-society-capture$"))
    assert "/de/" not in page.url
    alternates = page.evaluate("""() => [...document.querySelectorAll('link[hreflang]')]
        .map(l => [l.relList.contains('alternate'), l.hreflang, l.href.split('/').slice(3).join('/')])""")
    assert alternates == [[True, "en", "deep-state/tables.html"], [True, "de", "de/deep-state/tables.html"]]


def test_the_german_bot_turn_says_which_state_names_are_english(phone, real_site, shipped_games):
    """The bot's state, remembered in the line above the turn and offered in the set-up form,
    is named from the translated game: a name not yet translated ("Difficulty level") is the
    English, said to be English (`lang="en"`), a translated one is not."""
    page, base = phone
    translation = freshness.translation(shipped_games["deep-state"].game, "de")
    assert translation.text("bot:state-difficulty.name").state == freshness.MISSING
    html = read(real_site, "de/deep-state/bot-turn.html")
    assert '<span lang="en">Difficulty level</span>' in html  # the form's label and the list of the state
    assert '<option value="medium" lang="en" selected>Medium</option>' in html
    assert 'lang="en">Difficulty level' not in read(real_site, "deep-state/bot-turn.html")
    page.goto(f"{base}/de/deep-state/bot-turn.html")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.locator(".rs-bot__setup button[type=submit]").click()
    line = page.locator(".rs-bot__state")
    line.wait_for(state="visible")
    english = line.evaluate("e => [...e.querySelectorAll('[lang=en]')].map(s => s.textContent)")
    assert english[:2] == ["Difficulty level", "Medium"], english
    assert line.inner_text().startswith("Difficulty level Medium · "), line.inner_text()
    page.goto(f"{base}/deep-state/bot-turn.html")  # the English page's line as before: plain text
    page.evaluate("localStorage.clear()")
    page.reload()
    page.locator(".rs-bot__setup button[type=submit]").click()
    page.locator(".rs-bot__state").wait_for(state="visible")
    assert page.locator(".rs-bot__state [lang]").count() == 0


def test_a_search_with_a_missing_accent_finds_the_german_word(phone):
    page, base = phone
    page.goto(f"{base}/de/deep-state/index.html")
    page.wait_for_load_state("load")
    found = search(page, "Kompatibilitat", said=("Treffer", "Nichts gefunden"))
    assert found, "nothing found"
    assert any("Kompatibilität" in r["title"] for r in found), found
    assert all("/de/" in r["href"] for r in found), found


def test_a_german_query_with_a_stop_word_and_a_missing_accent_finds_the_german_entry(phone, real_site):
    """Typed as a German reader types it: "und" (a German stop word, which no entry of the German
    index holds) is left out of the query, and "Terrorismusbekampfung" finds
    "Terrorismusbekämpfung": the results are the entries that hold both words. Were "und" a word
    of the query, no entry would hold all three and the search would show every entry that holds
    any (as it does for a word no entry holds)."""
    from reader_text import search_entries

    from rulesmith.site import search as site_search

    assert "und" in site_search.stop_words("de") and "und" not in site_search.STOP_WORDS
    both = {e["location"] for e in search_entries(real_site / "de")
            if all(any(w.startswith(term) for w in [*str(e["words"]).split(), *site_search.words(f"{e['title']} {e['aliases'] or ''}")])
                   for term in ("terrorismusbekampfung", "kompatibilitat"))}  # as search.js searches: title, aliases, words
    page, base = phone
    page.goto(f"{base}/de/deep-state/index.html")
    page.wait_for_load_state("load")
    found = search(page, "Terrorismusbekampfung und Kompatibilitat", said=("Treffer", "Nichts gefunden"))
    assert any(r["title"] == "TERRORISMUSBEKÄMPFUNG" and r["href"].endswith("/de/deep-state/glossary.html#counter-terrorism")
               for r in found), found
    shown = {r["href"].split("/de/", 1)[1] for r in found}
    assert shown and shown <= both, (shown, both)
    page.keyboard.press("Escape")  # the search closed, as a reader closes it
    anything = search(page, "Terrorismusbekampfung Quarkstrudel Kompatibilitat", said=("Treffer", "Nichts gefunden"))
    assert len(anything) > len(both), anything  # a word no entry holds: every entry holding any of the words


# ---------------------------------------------------------------- a maintainer's erratum

def test_an_erratum_to_a_translated_text_shows_it_outdated_with_the_new_english(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(TALE, content, ignore=shutil.ignore_patterns("README.md"))
    done = rulesmith_here("errata", "add", "tale", "card:knight", "text", "**Brave.** Beats the [[card:dragon]] on a 5 or 6.",
                          *FAQ, "--note", "Easier.", "--date", "2026-03-02", cwd=content)
    assert done.returncode == 0, done.stderr
    loaded = load_game(content / "tale", Problems(), content)
    assert loaded is not None
    assert freshness.translation(loaded, "de").text("card:knight.text").state == freshness.OUTDATED
    site = tmp_path / "site"
    build_site(content, site, tmp_path / "work")
    pages = [p for p in (site / "de" / "tale").rglob("*.html") if "Tapfer." in p.read_text(encoding="utf-8")]
    assert pages, "the German translation of the knight's text is on no page"
    shown = text_of(pages[0].read_text(encoding="utf-8"))
    at = shown.find("Tapfer.")
    near = shown[at:at + 300]
    assert "Veraltete Übersetzung: das Englische hat sich am 2026-03-02 geändert" in near, near
    assert "Das Englische lautet jetzt: Brave. Beats the" in near, near
    assert 'lang="en"' in pages[0].read_text(encoding="utf-8")
    # a field's text not yet translated: the English, said to be English and marked, as any text
    assert "Effect: Burn one card. Noch nicht übersetzt: auf Englisch" in shown
    assert '<span lang="en">Burn one card.</span>' in pages[0].read_text(encoding="utf-8")
    english = text_of(read(site, pages[0].relative_to(site / "de").as_posix()))
    assert "Brave. Beats the" in english and "Veraltete" not in english and "Tapfer" not in english

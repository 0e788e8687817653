"""Each game's site pages are kept in the cache by what they are made from (site/pages.py:
game_pages): an unchanged game's pages are not made again, an edited game's are, and either way
the pages are those a render without the cache makes."""

import shutil

from conftest import FIXTURE_PDF_CONTENT

from rulesmith.pipeline import check_content
from rulesmith.site import pages as site


def pages(rendered):
    return {page.path: page.text for page in rendered.pages}


def test_unchanged_games_come_from_the_cache_and_an_edited_one_is_made_again(tmp_path, monkeypatch):
    shutil.copytree(FIXTURE_PDF_CONTENT, tmp_path / "content")  # two small games
    checked = check_content(tmp_path / "content")
    cache = tmp_path / "pages"
    downloads = [{"game": "harbour", "title": "Rules summary", "paper": "A4", "path": "downloads/harbour/rules-summary-a4.pdf",
                  "pages": 4, "size": "200 KB", "erratum": None, "contains": "the rules"}]
    first = site.render_site(checked, downloads, cache=cache)
    assert pages(first) == pages(site.render_site(checked, downloads))  # the same as without the cache
    made = []
    real = site.render_game
    monkeypatch.setattr(site, "render_game", lambda env, c, *a: made.append(c.game.id) or real(env, c, *a))
    again = site.render_site(checked, downloads, cache=cache)
    assert made == [] and pages(again) == pages(first) and again.nav == first.nav

    edited = tmp_path / "content" / "harbour" / "game.yaml"
    text = edited.read_text(encoding="utf-8")
    assert "name: Harbour Masters" in text
    edited.write_text(text.replace("name: Harbour Masters", "name: Edited Harbour Masters", 1), encoding="utf-8")
    changed = check_content(tmp_path / "content")
    after = site.render_site(changed, downloads, cache=cache)
    assert made == ["harbour"]
    assert pages(after) == pages(site.render_site(changed, downloads)) and pages(after) != pages(first)
    for c in checked:  # the game's newest entries, no more
        assert len(list(cache.glob(f"{c.game.id}-*.json"))) == (2 if c.game.id == "harbour" else 1)

    made.clear()  # the game's downloads are an input too (its overview lists them)
    site.render_site(changed, [dict(downloads[0], pages=5)], cache=cache)
    assert made == ["harbour"]
    made.clear()  # and so are its flowcharts
    game = next(c for c in changed if c.game.procedures)
    chart = site.layout.flowchart_file(game.game.id, game.game.procedures[0].id)
    site.render_site(changed, [dict(downloads[0], pages=5)], {chart: b"<svg/>"}, cache=cache)
    assert made == [game.game.id]


def test_the_preview_and_the_build_do_not_push_each_other_out(tmp_path, monkeypatch):
    """`serve` renders without downloads and `build` with them: both stay cached, and a third
    kind of entry pushes out the oldest."""
    shutil.copytree(FIXTURE_PDF_CONTENT, tmp_path / "content")
    checked = check_content(tmp_path / "content")
    cache = tmp_path / "pages"
    built = [{"game": "harbour", "title": "Rules summary", "paper": "A4", "path": "downloads/harbour/rules-summary-a4.pdf",
              "pages": 4, "size": "200 KB", "erratum": None, "contains": "the rules"}]
    site.render_site(checked, built, cache=cache)
    site.render_site(checked, [], cache=cache)
    made = []
    real = site.render_game
    monkeypatch.setattr(site, "render_game", lambda env, c, *a: made.append(c.game.id) or real(env, c, *a))
    for downloads in (built, [], built):
        site.render_site(checked, downloads, cache=cache)
    assert made == []
    site.render_site(checked, [dict(built[0], pages=5)], cache=cache)  # a third: the oldest goes
    assert made == ["harbour"] and len(list(cache.glob("harbour-*.json"))) == 2
    made.clear()
    site.render_site(checked, built, cache=cache)  # the newest before it is kept
    assert made == []

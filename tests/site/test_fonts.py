"""The site's WOFF2 subsets are made once, not once per project: shipped prebuilt for the shipped
fonts, and cached in the user's cache folder (shared by every project) for any other."""

from __future__ import annotations

import pytest

from rulesmith.project import templates
from rulesmith.site import fonts

FONTS = templates() / "fonts"


@pytest.fixture
def user_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / "rulesmith" / "fonts"


def test_every_shipped_font_has_a_prebuilt_subset_made_with_the_pinned_tools():
    keys = fonts._prebuilt_keys(FONTS)
    shipped = sorted(otf.stem + suffix for otf in FONTS.glob("*.otf") for suffix in fonts.PARTS)
    assert shipped and sorted(keys) == shipped
    for otf in FONTS.glob("*.otf"):
        for suffix, unicodes in fonts.PARTS.items():
            assert keys[otf.stem + suffix] == fonts.subset_key(otf.read_bytes(), unicodes), (
                f"{otf.name}{suffix}: the prebuilt subset was made from another font, character set or "
                "fontTools/Brotli; run `python -m rulesmith.site.fonts` and commit templates/webfonts/")
            assert (FONTS.parent / fonts.PREBUILT / f"{otf.stem}{suffix}.woff2").is_file()


def test_a_prebuilt_subset_is_what_fonttools_makes_now():
    otf = FONTS / "Inter-Regular.otf"
    for suffix, unicodes in fonts.PARTS.items():
        made = fonts.make_subset(otf.read_bytes(), unicodes)
        assert made[:4] == b"wOF2"
        assert (FONTS.parent / fonts.PREBUILT / f"Inter-Regular{suffix}.woff2").read_bytes() == made


def test_a_clean_project_makes_no_subset(tmp_path, user_cache, monkeypatch):
    def refuse(_otf, _unicodes):
        raise AssertionError("a subset was made although a prebuilt one fits")

    monkeypatch.setattr(fonts, "make_subset", refuse)
    made = fonts.web_fonts(FONTS, tmp_path / "project" / ".cache" / "fonts")
    assert sorted(made) == sorted(f"{otf.stem}{suffix}.woff2" for otf in FONTS.glob("*.otf") for suffix in fonts.PARTS)
    assert made["Inter-Bold.woff2"] == (FONTS.parent / fonts.PREBUILT / "Inter-Bold.woff2").read_bytes()
    assert not user_cache.exists() and not (tmp_path / "project").exists()


def small_font(path) -> None:
    """A font of two glyphs (.notdef and a Latin A): a project's own font, quick to subset."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((250, 700))
    pen.lineTo((500, 0))
    pen.closePath()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "A": pen.glyph()})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (500, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Mine", "styleName": "Italic"})
    builder.setupOS2()
    builder.setupPost()
    builder.save(str(path))


def test_a_font_without_a_prebuilt_subset_is_made_once_for_every_project(tmp_path, user_cache, monkeypatch):
    own = tmp_path / "own-fonts"
    own.mkdir()
    small_font(own / "Mine-Italic.otf")
    first = fonts.web_fonts(own, tmp_path / "a" / ".cache" / "fonts")["Mine-Italic.woff2"]
    assert first[:4] == b"wOF2"
    otf = (own / "Mine-Italic.otf").read_bytes()
    assert sorted(p.name for p in user_cache.iterdir()) == sorted(
        f"{fonts.subset_key(otf, unicodes)}.woff2" for unicodes in fonts.PARTS.values())

    def refuse(_otf, _unicodes):
        raise AssertionError("made again for a second project")

    monkeypatch.setattr(fonts, "make_subset", refuse)
    assert fonts.web_fonts(own, tmp_path / "b" / ".cache" / "fonts")["Mine-Italic.woff2"] == first


def test_a_changed_character_set_does_not_reuse_a_subset(monkeypatch):
    otf = (FONTS / "Inter-Regular.otf").read_bytes()
    assert fonts.subset_key(otf, fonts.MAIN) != fonts.subset_key(otf, fonts.MAIN + ",U+0370-03FF")
    assert fonts.subset_key(otf, fonts.MAIN) != fonts.subset_key(otf, fonts.MORE)

"""The tool's own words (rulesmith/words.py): every word the code, the site's templates and its
scripts write is in the catalog, translated in German and French with its placeholders kept; a
site built in German reads German; a language without words is refused where it is set."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import FIXTURE_SITE_CONTENT, ROOT, build_site, run_cli

from rulesmith import words

LOCALE = ROOT / "templates" / "locale"
LANGUAGES = ("de", "fr")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)s|\{[A-Za-z_][A-Za-z0-9_]*\}")
# What a word may not bring into a page that its English does not have: markup (a translation is
# placed as the English is, in HTML and Markdown) and Markdown's emphasis and links.
SPECIAL = "<>\"&*_`[]#"


def _ids(path: Path) -> dict[str, object]:
    """The entries of a catalog by their msgid (a plural entry's: its singular)."""
    with path.open("rb") as file:
        return {m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(file) if m.id}


def _forms(message) -> list[tuple[str, str]]:
    """(English, translation) of each form of an entry: one, or each plural form beside the English plural."""
    if isinstance(message.id, str):
        return [(message.id, message.string)]
    return [(message.id[0] if k == 0 else message.id[1], text) for k, text in enumerate(message.string)]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, object]:
    """The words as Babel finds them now in the code, the templates and the scripts (babel.cfg, as
    scripts/words runs it): a word wrapped since the last `scripts/words` is among them."""
    pot = tmp_path_factory.mktemp("words") / "messages.pot"
    pybabel = Path(shutil.which("pybabel", path=str(ROOT / ".venv" / "bin")) or "pybabel")
    run = subprocess.run([str(pybabel), "extract", "-F", "babel.cfg", "-k", "T", "-k", "N_", "-o", str(pot), "."],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    return _ids(pot)


def test_every_word_of_the_code_templates_and_scripts_is_in_the_template(extracted):
    kept = _ids(LOCALE / "messages.pot")
    assert sorted(set(extracted) - set(kept)) == [], "run scripts/words: these words are not in messages.pot"
    assert sorted(set(kept) - set(extracted)) == [], "run scripts/words: messages.pot holds words no longer written"
    assert len(extracted) > 150  # the site's words, not a few


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_is_translated_with_its_placeholders_kept(extracted, language):
    catalog = _ids(LOCALE / f"{language}.po")
    assert sorted(set(extracted) - set(catalog)) == [], f"run scripts/words, then translate these in {language}.po"
    plurals = read_po((LOCALE / f"{language}.po").open("rb")).num_plurals
    for msgid, message in catalog.items():
        assert msgid in extracted, f"{language}.po: {msgid!r} is no longer a word of the tool (run scripts/words)"
        assert not message.fuzzy, f"{language}.po: {msgid!r} is outdated (fuzzy)"  # type: ignore[attr-defined]
        if not isinstance(message.id, str):  # type: ignore[attr-defined]
            assert len(message.string) == plurals, f"{language}.po: {msgid!r} needs {plurals} plural forms"  # type: ignore[attr-defined]
        for english, text in _forms(message):
            assert text, f"{language}.po: {msgid!r} is not translated"
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english)), \
                f"{language}.po: {english!r} → {text!r} does not keep the placeholders"
            assert text.count("%") == english.count("%"), f"{language}.po: {english!r} → {text!r}: a lone %"
            for char in SPECIAL:
                assert text.count(char) == english.count(char), f"{language}.po: {english!r} → {text!r}: {char!r}"
            assert text.strip() == text and "  " not in text


def test_no_word_is_wrapped_inside_an_f_string():
    """Babel reads an f-string as one string: a word wrapped inside one is never extracted."""
    inside = re.compile(r"""\bf(["'])(?:(?!\1).)*\{[^}]*\b(?:N_|_|gettext|ngettext)\(""")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "rulesmith").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if inside.search(line)]
    assert found == []


def test_no_script_labels_a_button_without_t():
    """A button the scripts make at run time is labelled `T("…")`, never a bare string literal
    (Babel extracts only T): the German Bot turn page showed an English "Go on"."""
    found = []
    for script in sorted((ROOT / "templates" / "site" / "assets").glob("*.js")):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bbutton\(\s*[\"']", line):
                found.append(f"{script.name}:{number}: {line.strip()}")
    assert found == []


def test_the_words_of_a_language_and_english():
    german = words.of("de")
    assert german.gettext("Referred to by:") == "Verwiesen von:"
    assert german.gettext("a word the tool never wrote") == "a word the tool never wrote"
    assert words.of("en").gettext("Referred to by:") == "Referred to by:"
    assert [german.ngettext("%(num)d page", "%(num)d pages", n) for n in (1, 2)] == ["%(num)d Seite", "%(num)d Seiten"]
    assert [words.of("fr").ngettext("%(num)d page", "%(num)d pages", n) for n in (0, 1, 2)] == \
        ["%(num)d page", "%(num)d page", "%(num)d pages"]
    assert words.of("en").ngettext("%(num)d page", "%(num)d pages", 1) == "%(num)d page"
    assert words.resolve("de-AT") == "de" and words.resolve("fr_CA") == "fr" and words.resolve("EN") == "en"
    assert words.resolve("tlh") is None and not words.known("pt-BR")
    assert words.available() == ["de", "en", "fr"]


def test_a_page_carries_the_scripts_words_of_its_language_only():
    german = json.loads(words.script_words("de"))
    assert german["Nothing found."] == "Nichts gefunden."
    assert set(german) <= set(words.script_messages())
    assert "Referred to by:" not in german  # a template's word, not a script's
    assert words.script_words("en") == "{}"  # English pages carry none: the scripts' own words are English


def test_a_language_the_tool_has_no_words_in_is_refused_where_it_is_set(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE_SITE_CONTENT, content)
    (tmp_path / "mkdocs.yml").write_text("site_name: Demo\ntheme:\n  language: tlh\n")
    code, out, err = run_cli(capsys, content, "build", "--no-pdf")
    assert code == 1, out + err
    assert f"{tmp_path / 'mkdocs.yml'}:3:3: 'theme.language' is 'tlh', a language the tool has no words in" in err
    assert "write one of de, en, fr" in err and "templates/locale/<lang>.po" in err
    assert "Traceback" not in err
    assert not (tmp_path / "site").exists()


def test_a_language_the_theme_has_no_words_in_is_refused_too(tmp_path):
    from rulesmith.problems import ContentError
    from rulesmith.project import Project
    from rulesmith.site.mkdocs_config import project_settings

    (tmp_path / "mkdocs.yml").write_text("theme:\n  language: de-AT\n")  # the tool reads de.po; Material has no de-AT
    with pytest.raises(ContentError) as error:
        project_settings(Project(tmp_path))
    assert [p.message for p in error.value.problems] == \
        ["'theme.language' is 'de-AT', a language Material for MkDocs (the site's theme) has no words in"]
    (tmp_path / "mkdocs.yml").write_text("theme:\n  language: fr\n")
    assert project_settings(Project(tmp_path))["theme"]["language"] == "fr"


@pytest.fixture(scope="module")
def german_site(tmp_path_factory) -> Path:
    """The fixture game's site built with theme.language: de."""
    root = tmp_path_factory.mktemp("german")
    shutil.copytree(FIXTURE_SITE_CONTENT, root / "content")
    (root / "mkdocs.yml").write_text("theme:\n  language: de\n")
    build_site(root / "content", root / "site", root / "work")
    return root / "site"


def _reader_text(page: Path) -> str:
    import reader_text

    html = re.sub(r'<meta name="rs-words" content="[^"]*">', "", page.read_text(encoding="utf-8"))
    return reader_text.html_text(html)


@pytest.mark.site
def test_a_site_in_german_reads_german_where_the_tool_writes(german_site):
    pages = {p.relative_to(german_site).as_posix(): p for p in german_site.rglob("*.html")
             if p.name != "format.html"}
    texts = {path: _reader_text(page) for path, page in pages.items()}
    for path, page in pages.items():
        assert '<html lang="de"' in page.read_text(encoding="utf-8"), path
    everything = "\n".join(texts.values())
    for german in ("Zug des Bots", "Verwiesen von:", "Lücken in der Vorlage", "Überblick",
                   "Zurück", "Neu beginnen", "Änderungen", "Die Spielregel gibt 4 von 5 an (Cards).",
                   "Zum dunklen Design wechseln", "Dauerhafter Link", "Verwiesen von: Scoring (Regeln)",
                   "Ablaufdiagramm: Bot: a turn. Dieselben Schritte stehen unten als Text."):
        assert german in everything, german
    # No word of the tool's is left in English where it has a German one (words of one short word
    # may be the content's own: "Rules", "Start"; the longer ones are the tool's).
    german = words.of("de")
    english = [m for m in words.of("de")._catalog if german.gettext(m) != m and " " in m
               and not PLACEHOLDER.search(m) and len(m) > 8]
    left = {(path, m) for path, text in texts.items() for m in english if m in text}
    # Said by the fixture's content itself: an erratum's source is described as "Publisher FAQ v1".
    assert sorted(left - {("demo/changelog.html", "Publisher FAQ")}) == [], left
    # The scripts' words are on every page, in German, as JSON the scripts read.
    meta = re.search(r'<meta name="rs-words" content="([^"]*)">', pages["index.html"].read_text(encoding="utf-8"))
    assert meta is not None
    import html

    assert json.loads(html.unescape(meta.group(1)))["Nothing found."] == "Nichts gefunden."
    # The site's offline worker has its words filled in (it has no page to read them from), and a
    # saved game says what it holds in German.
    worker = (german_site / "sw.js").read_text(encoding="utf-8")
    assert 'var LANG = "de";' in worker and '"Not saved": "Nicht gespeichert"' in worker
    assert json.loads((german_site / "demo" / "version.json").read_text(encoding="utf-8"))["label"] == \
        "Daten vom 2026-01-15 · Errata bis e1"
    manifest = json.loads((german_site / "demo" / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "Demo Game – Regelreferenz"


def test_the_scripts_words_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed; scripts/setup installs it (the Debian package nodejs)")
    run = subprocess.run([node, "--test", "--test-reporter=tap", str(ROOT / "tests" / "js" / "words.test.js")],
                         capture_output=True, text=True, timeout=120, check=False)
    counts = {name: int(n) for name, n in re.findall(r"^# (tests|pass|fail) (\d+)$", run.stdout, re.MULTILINE)}
    assert run.returncode == 0, run.stdout + run.stderr
    assert counts.get("tests", 0) >= 5 and counts.get("pass") == counts["tests"], run.stdout


def test_a_flowchart_says_its_own_words_in_the_site_language():
    """A calling step's box ("Run “…”, then go on") and the chart's text alternative."""
    from rulesmith.flowchart.chart import inline_svg, to_dot
    from rulesmith.pipeline import check_content

    checked = check_content(ROOT / "tests" / "fixtures" / "bot-chance")[0]
    calling = next(p for p in checked.game.procedures if any(n.call for n in p.nodes))
    german = words.of("de").gettext
    assert "ausführen, dann weiter" in to_dot(calling, checked.index, say=german).replace("<br/>", " ")
    assert "then go on" in to_dot(calling, checked.index).replace("<br/>", " ")  # English, as before
    assert re.search(r"<b>\d+\. Ende</b>", to_dot(calling, checked.index, say=german))  # an end's box
    assert re.search(r"<b>\d+\. End</b>", to_dot(calling, checked.index))
    svg = b'<svg width="1" height="1"><g id="graph0" class="graph"><title>x</title></g></svg>'
    assert 'aria-label="Ablaufdiagramm: Turn. Dieselben Schritte stehen unten als Text."' in inline_svg(svg, "Turn", say=german)

"""The holes of issue 22, each closed by a structural change, tried as a hostile contributor would.

1. An erratum's URL that goes on past a valid start: refused by the one URL rule, in the content
   file and on `errata add --url`.
2. A worked example's result or input that is markup: refused by the example's typed values.
3. A reference definition hidden in an admonition, a collapsed block or a definition list: the
   check converts with the site's own Markdown configuration and judges the links of the HTML.
Plus: non-text values of every kind refused where they could carry markup, bounded time on a
pathological file, files outside the sources folder, invisible characters, the site's
permissions and swap, and a NUL byte in a served path.
"""

from __future__ import annotations

import os
import stat
import textwrap
from typing import TYPE_CHECKING

import pytest
from conftest import rulesmith_here, run_rulesmith
from gamekit import CONTENT_YAML, GAME_YAML, write_game

from rulesmith.content import model
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError, Problem, printable
from rulesmith.site.mkdocs_config import settings
from rulesmith.text import html as text_safety
from rulesmith.text import markdown_config

if TYPE_CHECKING:
    from pathlib import Path

IMG = "<img src=x onerror=alert(document.domain)>"


def problems_of(content: Path) -> list[Problem]:
    with pytest.raises(ContentError) as error:
        check_content(content)
    return error.value.problems


def at(problems: list[Problem], line: int) -> list[str]:
    return [p.message for p in problems if p.line == line]


ERRATA_FILE = """\
errata:
  - id: e1
    date: 2020-01-01
    source: {{kind: publisher-faq, description: FAQ, url: '{url}'}}
    target: alliance:interpol
    field: fields.cost
    old: 2
    new: 3
    note: Corrected.
"""


@pytest.mark.parametrize("url", [
    f"https://example.com/faq) {IMG} (",
    "https://example.com/a b",
    'https://example.com/"onmouseover="x',
    "https://exa mple.com/",
    "https://localhost/",
    "http://example.com/",
    "javascript:alert(1)//https://example.com",
    "https://user@example.com/",
    "https://example.com/((x)",
])
def test_an_erratum_url_is_parsed_not_prefix_matched(url, tmp_path):
    content = write_game(tmp_path, **{"errata.yaml": ERRATA_FILE.format(url=url.replace("'", "''"))})
    problems = problems_of(content)
    assert at(problems, 4), [str(p) for p in problems]
    assert all(p.hint for p in problems if p.line == 4)


@pytest.mark.parametrize("url", ["https://example.com/faq", "https://en.wikipedia.org/wiki/Risk_(game)",
                                 "https://example.com/a?b=1&c=2#x"])
def test_a_plain_https_url_is_accepted(url):
    assert model.https_url_problem(url) is None


def test_errata_add_refuses_a_url_that_breaks_out(tmp_path):
    content = write_game(tmp_path)
    before = (content / "mini" / "content.yaml").read_bytes()
    run = rulesmith_here("errata", "add", "mini", "alliance:interpol", "fields.cost", "4", "--source", "publisher-faq",
                         "--description", "FAQ", "--note", "Corrected.", "--url", f"https://example.com/faq) {IMG} (",
                         cwd=content)
    assert run.returncode == 1, run.stderr
    assert "url" in run.stderr.lower() and "Traceback" not in run.stderr
    assert (content / "mini" / "content.yaml").read_bytes() == before
    assert not (content / "mini" / "errata.yaml").exists()


@pytest.mark.parametrize("field, value", [("result", IMG), ("result", [IMG]), ("inputs", {"x": IMG}),
                                          ("inputs", {"bad name": 1}), ("result", {"a": 1})])
def test_an_example_value_cannot_be_markup(field, value, tmp_path):
    import yaml

    example = {"id": "ex", "title": "Ex", "text": "An example.", "inputs": {"x": 1}, "expression": "x", "result": 1}
    example[field] = value
    content = write_game(tmp_path, CONTENT_YAML, **{"examples2.yaml": yaml.safe_dump({"examples": [example]})})
    problems = problems_of(content)
    assert any("examples2.yaml" in p.file for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize("body", [
    "??? note\n    See [x][1].\n\n    [1]: javascript:alert(1)",
    "!!! note\n    See [x][1].\n\n    [1]: javascript:alert(1)",
    "Term\n:   See [x][1].\n\n    [1]: javascript:alert(1)",
    "- item\n\n    [x][1]\n\n    [1]: javascript:alert(1)",
    "> [x][1]\n>\n> [1]: javascript:alert(1)",
    "See ![i](data:text/html,x).",
    "See <javascript:alert(1)>.",
])
def test_hidden_link_definitions_are_judged_as_the_site_reads_them(body, tmp_path):
    section = "sections:\n  - id: hidden\n    title: Hidden\n    module: base\n    body: |\n" + textwrap.indent(body, "      ") + "\n"
    content = write_game(tmp_path, **{"rules.yaml": section})
    problems = problems_of(content)
    assert any("rules.yaml" in p.file and ("link target" in p.message or "HTML" in p.message or "image" in p.message)
               for p in problems), \
        [str(p) for p in problems]


def test_the_check_reads_markdown_with_the_sites_extensions(tmp_path):
    write_game(tmp_path)
    from rulesmith.project import find_project

    config = settings(find_project(tmp_path / "content"))
    assert config["markdown_extensions"][:len(markdown_config.EXTENSIONS)] == markdown_config.EXTENSIONS
    names = [e if isinstance(e, str) else next(iter(e)) for e in markdown_config.EXTENSIONS]
    assert set(names) <= set(markdown_config.converter().treeprocessors._data) | {"admonition", "attr_list", "def_list",
        "md_in_html", "pymdownx.details", "tables"}


@pytest.mark.site
def test_a_project_cannot_change_the_markdown_configuration(tmp_path):
    content = write_game(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions: [extra]\n")
    run = run_rulesmith("build", "--no-pdf", cwd=content)
    assert run.returncode == 1 and "markdown_extensions" in run.stderr and "Traceback" not in run.stderr


def test_a_pathological_file_is_checked_in_bounded_time(tmp_path):
    """Half a megabyte of paragraphs just under the length bound, made of the constructs that
    make Python-Markdown slowest (open brackets, link and image starts, escapes). Without the
    literal brackets each such paragraph took over a second (1.9 MB of them: over ten minutes),
    so these 120 would take about two and a half minutes: the 60 s CPU limit of run_rulesmith
    fails the test long before that. (The length bound keeps a paragraph from being longer.)"""
    block = "\n".join(["[aaaa bbbb [[x _a ![i](b *c (d \\[\\*"] * 95)
    assert len(block) < text_safety.MAX_PARAGRAPH
    body = textwrap.indent("\n\n".join([block] * 120), "      ")
    content = write_game(tmp_path, **{"patho.yaml": f"sections:\n  - id: patho\n    title: Patho\n    module: base\n    body: |\n{body}\n"})
    assert 450_000 < (content / "mini" / "patho.yaml").stat().st_size < 500_000
    run = run_rulesmith("check", cwd=content, timeout=300)
    assert run.returncode == 1 and "patho.yaml:" in run.stderr and "Traceback" not in run.stderr


def test_a_too_long_paragraph_is_a_located_problem(tmp_path):
    body = textwrap.indent("word " * 1000, "      ")
    content = write_game(tmp_path, **{"long.yaml": f"sections:\n  - id: long\n    title: Long\n    module: base\n    body: |\n{body}\n"})
    problems = problems_of(content)
    assert any("long.yaml" in p.file and "paragraph" in p.message and p.hint for p in problems)


def test_unclosed_brackets_are_text_on_both_paths():
    text = "Done ] [ and [x](https://a.org"
    assert markdown_config.literal_brackets(text) == "Done ] \\[ and [x]\\(https://a.org"
    assert "href" not in markdown_config.to_html(markdown_config.literal_brackets(text))
    assert text_safety.judge(text) == []


@pytest.mark.parametrize("file, message", [("../outside.txt", "leave the sources folder"),
                                           ("/etc/passwd", "not absolute"), ("a\\..\\b.txt", "not absolute")])
def test_a_source_file_stays_inside_the_sources_folder(file, message, tmp_path):
    game = GAME_YAML.replace("file: mini.txt", f"file: '{file}'")
    content = write_game(tmp_path, game)
    problems = problems_of(content)
    line = next(n for n, text in enumerate(game.splitlines(), 1) if "sources:" in text)
    assert any(p.line == line and message in p.message for p in problems), [str(p) for p in problems]


def test_a_source_text_that_is_not_utf8_is_located(tmp_path, monkeypatch):
    content = write_game(tmp_path)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "mini.txt").write_bytes(b"Rules\n\xff\xfe broken\n")
    monkeypatch.setenv("RULESMITH_SOURCES", str(sources))
    problems = problems_of(content)
    assert any("not UTF-8" in p.message and p.file.endswith("game.yaml") for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u2066", "\ufeff"])
def test_invisible_characters_are_refused_in_names(char, tmp_path):
    content = write_game(tmp_path, CONTENT_YAML.replace("name: Interpol", f"name: Inter{char}pol"))
    problems = problems_of(content)
    assert any(f"U+{ord(char):04X}" in p.message for p in problems), [str(p) for p in problems]


def test_control_characters_are_refused_in_markdown_and_never_printed(tmp_path):
    content = write_game(tmp_path, **{"rules.yaml": 'sections:\n  - {id: red, title: Red, module: base, body: "\\e[31mWin"}\n'})
    run = rulesmith_here("check", cwd=content)
    assert run.returncode == 1 and "control character" in run.stderr
    assert "\x1b" not in run.stderr
    assert printable(str(Problem("f.yaml", 1, 2, "name 'a\x1b[2Jb\u202e'", "hint"))) == \
        "f.yaml:1:2: name 'a\\u001b[2Jb\\u202e' (hint)"


def test_arguments_echoed_in_a_refusal_are_never_printed_raw(tmp_path):
    content = write_game(tmp_path)
    for args in (("check", "\x1b[2Jstray"), ("errata", "add", "g\x1b[2J", "card:x", "cost", "1", "--source", "reader-report",
                                              "--description", "d", "--note", "n")):
        run = rulesmith_here(*args, cwd=content)
        assert run.returncode in (1, 2) and "\x1b" not in run.stderr and "\\u001b[2J" in run.stderr, run.stderr


def test_the_site_is_world_readable_and_never_missing(tmp_path):
    from rulesmith.commands.build import STAGING, _swap
    from rulesmith.files import make_readable

    site, staging = tmp_path / "site", tmp_path / f"{STAGING}999999999-x"
    site.mkdir()
    (site / "old.html").write_text("old")
    staging.mkdir(mode=0o700)
    (staging / "index.html").write_text("new")
    os.chmod(staging / "index.html", 0o600)
    make_readable(staging)
    _swap(staging, site)
    assert (site / "index.html").read_text() == "new" and not staging.exists()
    assert stat.S_IMODE(site.stat().st_mode) & 0o755 == 0o755
    assert stat.S_IMODE((site / "index.html").stat().st_mode) & 0o644 == 0o644


def test_a_killed_builds_staging_folder_is_removed(tmp_path):
    from rulesmith.commands.build import STAGING, _remove_abandoned

    dead = tmp_path / f"{STAGING}999999999-abc"  # no such process
    alive = tmp_path / f"{STAGING}{os.getpid()}-abc"
    dead.mkdir()
    alive.mkdir()
    _remove_abandoned(tmp_path)
    assert not dead.exists() and alive.exists()

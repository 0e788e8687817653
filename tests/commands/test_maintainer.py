"""Keeping the real content current, as a maintainer does it: an erratum to Nigeria's conflict
threshold (to 2 and to 4) and to the extra-dice table, each in one command, with the worked
examples showing the rulebook's number and the current one; a ruling and a superseding ruling,
seen on the item's page, in the changelogs, in search, in the diff and on the aids.

Every test works on a copy of content/statecraft in a temporary folder.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from reader_text import search_entries, search_holds

from rulesmith import cli
from rulesmith.aids import document
from rulesmith.aids.kinds import geometry, kind
from rulesmith.commands.build import build
from rulesmith.pipeline import check_content
from rulesmith.text.placed import unplaced

ROOT = Path(__file__).resolve().parents[2]
FAQ = ["--source", "publisher-faq", "--description", "Publisher FAQ v2", "--url", "https://example.org/faq"]
SITE = "https://example.org/rules/"


@pytest.fixture
def content(tmp_path) -> Path:
    copy = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "statecraft", copy / "statecraft")
    return copy


def run(capsys, content: Path, *args: str) -> tuple[int, str, str]:
    code = cli.main(["--content", str(content), *args])
    out, err = capsys.readouterr()
    return code, out, err


def erratum(capsys, content, target, field, value, date="2026-11-01"):
    return run(capsys, content, "errata", "add", "statecraft", target, field, value, *FAQ,
               "--note", "The FAQ corrects it.", "--date", date)


def examples_page(content: Path, tmp: Path) -> str:
    build(content, tmp / "site", pdfs=False, quiet=True, work=tmp / "work", cache=tmp / "cache", site_url=SITE)
    return unplaced((tmp / "work" / "docs" / "statecraft" / "examples.md").read_text())


def example(page: str, example_id: str) -> str:
    return page.split(f"{{#{example_id}}}")[1].split("\n## ")[0]


def aid(content: Path, aid_kind: str, tmp: Path) -> str:
    [checked] = check_content(content)
    return document.render_html(checked, kind(aid_kind), geometry().papers[0], tmp / "charts",
                                {"name": "", "url": SITE})


@pytest.mark.site
@pytest.mark.parametrize("value, extra, china", [("2", "3", "6"), ("4", "1", "4")])
def test_nigerias_conflict_threshold_corrected_in_one_command(capsys, content, tmp_path, value, extra, china):
    code, out, err = erratum(capsys, content, "country:nigeria", "fields.ct", value)
    assert code == 0, err  # one command, applied: 4 reads the "4+" row, 2 changes four examples
    assert f"example:nigeria-extra-dice: the rulebook prints 2; with erratum e1 it is now {extra}" in out
    assert f"example:nigeria-conflict-china-dice: the rulebook prints 5; with erratum e1 it is now {china}" in out
    page = examples_page(content, tmp_path)
    assert (f"The rulebook prints **2**. With erratum [e1](changelog.md#erratum-e1) (Nigeria, Conflict threshold "
            f"(D3): {value}), this is now **{extra}**") in example(page, "nigeria-extra-dice")
    assert (f"The rulebook prints **5**. With erratum [e1](changelog.md#erratum-e1) (Nigeria, Conflict threshold "
            f"(D3): {value}), this is now **{china}**") in example(page, "nigeria-conflict-china-dice")
    # prose that shows the value says both numbers, on the site and on paper
    assert f'CT {value} (the rulebook prints 3; <a href="changelog.html#erratum-e1">erratum e1</a>)' in \
        example(page, "nigeria-extra-dice")
    card = unplaced((tmp_path / "work" / "docs" / "statecraft" / "kinds" / "country.md").read_text())
    assert f'CT {value} (the rulebook prints 3; <a href="../changelog.html#erratum-e1">erratum e1</a>)' in card
    assert f"CT {value} (the rulebook prints 3; erratum e1)" in aid(content, "card-reference", tmp_path)
    # an example the erratum does not touch still says it works out as printed
    assert "Works out to **2**, as printed" in example(page, "nigeria-conflict-china-roll")


@pytest.mark.site
def test_the_extra_dice_table_corrected_in_one_command(capsys, content, tmp_path):
    code, out, err = erratum(capsys, content, "table:conflict-dice", "rows.3.extra", "1")
    assert code == 0, err
    assert "example:nigeria-conflict-us-dice: the rulebook prints 4; with erratum e1 it is now 3" in out
    page = examples_page(content, tmp_path)
    assert ("The rulebook prints **4**. With erratum [e1](changelog.md#erratum-e1) (Extra conflict dice per conflict "
            "threshold, Extra dice for Conflict threshold 3: 1), this is now **3**") in example(page, "nigeria-conflict-us-dice")


@pytest.mark.unit
def test_an_example_no_erratum_explains_fails_the_check_on_the_real_content(content):
    path = content / "statecraft" / "rules" / "12-conflict.yaml"
    path.write_text(path.read_text().replace('- ["3", 2]', '- ["3", 1]'))  # a transcription slip, no erratum
    with pytest.raises(Exception) as caught:
        check_content(content)
    assert "example 'nigeria-extra-dice' no longer recomputes: the tables give 1, the rulebook prints 2" in str(caught.value)


@pytest.mark.unit
def test_a_lookup_reads_the_range_row_and_the_ranges_are_checked(content):
    path = content / "statecraft" / "rules" / "12-conflict.yaml"
    text = path.read_text()
    path.write_text(text.replace('- ["4+", 1]', '- ["3+", 1]'))
    with pytest.raises(Exception) as caught:
        check_content(content)
    assert "table 'conflict-dice': range '3+' overlaps range '3'" in str(caught.value)
    path.write_text(text.replace('- ["4+", 1]', '- ["5+", 1]'))
    with pytest.raises(Exception) as caught:
        check_content(content)
    assert "table 'conflict-dice': no row holds 4 (between '3' and '5+')" in str(caught.value)


@pytest.mark.pdf
def test_a_ruling_and_a_superseding_ruling_everywhere_readers_look(capsys, content, tmp_path):
    def git(*args):
        subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args], cwd=content,
                       check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "as transcribed")
    card_before = aid(content, "card-reference", tmp_path)
    summary_before = aid(content, "rules-summary", tmp_path)
    code, out, err = run(capsys, content, "ruling", "add", "statecraft", "country:nigeria",
                         "--question", "Do the demonstrators get the extra dice of [[country:nigeria]]?",
                         "--answer", "Yes, as every side of the conflict does.", *FAQ, "--date", "2026-10-01")
    assert code == 0, err
    code, out, err = run(capsys, content, "ruling", "add", "statecraft", "nigeria",
                         "--question", "Do the demonstrators get the extra dice, after the FAQ v3?",
                         "--answer", "No: only the powers do.", "--source", "designer-answer",
                         "--description", "The designer on the forum", "--url", "https://example.org/forum/42",
                         "--date", "2026-11-02", "--supersedes", "r1")
    assert code == 0, err
    assert "ruling r1 is superseded by r2" in out
    build(content, tmp_path / "site", pdfs=False, quiet=True, work=tmp_path / "work", cache=tmp_path / "cache",
          site_url=SITE)
    docs = tmp_path / "work" / "docs"
    nigeria = unplaced((docs / "statecraft" / "kinds" / "country.md").read_text()).split("{#nigeria}")[1].split("\n## ")[0]
    assert '!!! question "Ruling r2 (2026-11-02)"' in nigeria and "No: only the powers do." in nigeria
    assert '??? note "Ruling r1 (2026-10-01), superseded"' in nigeria
    assert "[The designer on the forum](https://example.org/forum/42)" in nigeria
    assert '??? abstract "History (2)"' in nigeria
    changelog = unplaced((docs / "statecraft" / "changelog.md").read_text())
    assert changelog.index("## 2026-11-02 · ruling r2") < changelog.index("## 2026-10-01 · ruling r1")
    assert "[ruling r2](statecraft/changelog.md#ruling-r2)" in unplaced((docs / "changelog.md").read_text())
    assert any(search_holds(d, "No: only the powers do.") and d["location"].startswith("statecraft/kinds/country.html")
               for d in search_entries(tmp_path / "site"))
    code, out, _ = run(capsys, content, "diff", "HEAD")
    assert "rulings added:\n    r1 (2026-10-01, superseded by r2) on country:nigeria" in out
    assert "r2 (2026-11-02, current) on country:nigeria" in out
    # the card reference marks Nigeria and prints the current ruling, dated; page 1 says how current it is
    card = aid(content, "card-reference", tmp_path)
    assert card != card_before
    assert "<b>Ruling r2 (2026-11-02):</b> Do the demonstrators get the extra dice, after the FAQ v3?" in card
    assert "Ruling r1 (" not in card
    assert "errata and rulings up to 2026-11-30" in card or "errata and rulings up to 2026-11-02" in card
    assert '<span class="url">https://example.org/rules/statecraft/changelog.html</span>' in card
    assert 'class="segno"' in card
    # the rules summary does not print Nigeria's card: a ruling on it leaves it byte for byte
    assert aid(content, "rules-summary", tmp_path) == summary_before

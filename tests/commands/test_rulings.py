"""Rulings: `rulesmith ruling add`, the checks on ruling records, and where readers meet them
(item pages, history, changelogs, search, diff, aids).

Every test works on a copy of tests/fixtures/errata (games alpha and beta), or of the real
content/ where said; nothing here writes to the repository.
"""

from __future__ import annotations

import datetime
import subprocess
from typing import TYPE_CHECKING

import pytest
from conftest import run_cli
from reader_text import search_entries, search_holds

from rulesmith import cli
from rulesmith.commands.build import build
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError
from rulesmith.text.placed import unplaced

if TYPE_CHECKING:
    from pathlib import Path

FAQ = ["--source", "publisher-faq", "--description", "Publisher FAQ v2, question 4", "--url", "https://example.org/faq#4"]


rulesmith = run_cli  # the command in this process (tests/conftest.py)


@pytest.fixture
def content(errata_content: Path) -> Path:
    return errata_content


def ruling(capsys, content: Path, game: str, *items: str, question="May Interpol look at two hands?",
           answer="No: one hand per [[card:interpol]].", extra=()) -> tuple[int, str, str]:
    return rulesmith(capsys, content, "ruling", "add", game, *items, "--question", question, "--answer", answer,
                     *FAQ, *extra)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- ruling add

@pytest.mark.unit
def test_add_creates_rulings_yaml_and_the_record_checks(capsys, content):
    code, out, err = ruling(capsys, content, "alpha", "interpol", "rule:basics", extra=("--date", "2026-03-01"))
    assert code == 0, err
    assert out.splitlines() == [
        f"{content}/alpha/rulings.yaml:3: created the file and recorded ruling r1 (2026-03-01) about card:interpol, rule:basics",
        "check: alpha ok"]
    text = (content / "alpha" / "rulings.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=")
    [checked] = [c for c in check_content(content) if c.game.id == "alpha"]
    [r1] = checked.game.rulings
    assert (r1.id, r1.date, r1.about, r1.status) == ("r1", datetime.date(2026, 3, 1), ["card:interpol", "rule:basics"], "current")
    assert (r1.source.kind, r1.source.description, r1.source.url) == ("publisher-faq", "Publisher FAQ v2, question 4",
                                                                      "https://example.org/faq#4")
    assert r1.answer == "No: one hand per [[card:interpol]]."


@pytest.mark.unit
def test_a_ruling_without_an_address_names_where_it_was_given(capsys, content):
    where = ["--source", "designer-answer", "--description", "The designer's answer", "--where",
             "e-mail from the designer, 2026-11-30"]
    code, _, err = rulesmith(capsys, content, "ruling", "add", "alpha", "interpol", "--question", "Twice?",
                               "--answer", "No.", *where, "--date", "2026-03-01")
    assert code == 0, err
    [checked] = [c for c in check_content(content) if c.game.id == "alpha"]
    [r1] = checked.game.rulings
    assert (r1.source.url, r1.source.where) == (None, "e-mail from the designer, 2026-11-30")
    assert 'where: "e-mail from the designer, 2026-11-30"' in (content / "alpha" / "rulings.yaml").read_text()
    # neither an address nor a place: refused before anything is written
    with pytest.raises(SystemExit) as refused_here:  # argparse's refusal, as the command line prints it
        rulesmith(capsys, content, "ruling", "add", "alpha", "interpol", "--question", "Q?", "--answer", "A.",
                  *where[:4])
    assert refused_here.value.code != 0
    assert "one of the arguments --url --where is required" in capsys.readouterr().err
    # in the data, a source with both (or neither) is refused at its line
    path = content / "alpha" / "rulings.yaml"
    path.write_text(path.read_text().replace("where:", 'url: "https://example.org/faq", where:'))
    with pytest.raises(ContentError) as refused:
        check_content(content)
    assert "give either `url: https://…`" in str(refused.value)


@pytest.mark.unit
def test_add_supersedes_an_earlier_ruling_in_place(capsys, content):
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    path = content / "alpha" / "rulings.yaml"
    path.write_text(path.read_text().replace("rulings:\n", "rulings:\n  # the publisher's answers\n"))
    before = path.read_text().splitlines()
    code, out, err = ruling(capsys, content, "alpha", "card:interpol", answer="Yes, since the FAQ v3.",
                            extra=("--date", "2026-04-01", "--supersedes", "r1"))
    assert code == 0, err
    assert "ruling r1 is superseded by r2" in out
    after = path.read_text().splitlines()
    r1_end = before.index('    answer: "No: one hand per [[card:interpol]]."')
    assert after[:r1_end + 1] == before[:r1_end + 1]  # every line before, comments included, as it was
    assert after[r1_end + 1] == "    superseded_by: r2"  # one line added to r1
    assert after[r1_end + 2:len(before) + 1] == before[r1_end + 1:]
    assert after[len(before) + 1] == "  - id: r2"
    rulings = {r.id: r for c in check_content(content) for r in c.game.rulings}
    assert (rulings["r1"].status, rulings["r1"].superseded_by, rulings["r2"].status) == ("superseded", "r2", "current")


@pytest.mark.unit
@pytest.mark.parametrize("args, message, hint", [
    (("alpha", "interpl"), "error: no item with id 'interpl' in game 'alpha'", "hint: did you mean interpol?"),
    (("gamma", "interpol"), "error: no game 'gamma'", "hint: "),
    (("alpha", "interpol", "--url", "http://example.org/faq"),
     "error: --url 'http://example.org/faq' is refused: only https:// links are allowed", "hint: give the https:// address"),
    (("alpha", "interpol", "--url", "https:///faq"), "is refused: 'https:///faq' is not a host name", "hint: "),
    (("alpha", "interpol", "--date", "2026-02-30"), "error: --date '2026-02-30' is not a real day", "hint: "),
    (("alpha", "interpol", "--date", "March 1"), "error: --date 'March 1' is not a date written YYYY-MM-DD", "hint: "),
    (("alpha", "interpol", "--date", "2999-01-01"), "error: --date 2999-01-01 is in the future", "hint: "),
    (("alpha", "interpol", "--supersedes", "r9"), "error: no ruling 'r9' in game 'alpha' to supersede", "hint: "),
    (("alpha", "interpol", "--id", "R 1"), "error: --id 'R 1' is not lower-case kebab-case",
     "hint: ruling ids are lower-case kebab-case, e.g. r3 or faq-2-move"),
    (("alpha", "interpol", "--id", "r" * 329), "is 329 characters long; a ruling id has at most 64", "hint: "),
    (("a" * 329, "interpol"), "error: no game '" + "a" * 329 + "' in ", "hint: games: alpha, beta"),
])
def test_add_refuses_with_an_error_and_a_hint_and_changes_nothing(capsys, content, args, message, hint):
    before = snapshot(content)
    game, item, *extra = args
    code, out, err = ruling(capsys, content, game, item, extra=extra)
    assert code == 1 and out == ""  # exit 1, never argparse's 2 or a traceback
    assert message in err and hint in err
    assert "Traceback" not in err
    assert snapshot(content) == before


@pytest.mark.unit
def test_add_changes_no_file_when_the_ruling_does_not_check(capsys, content):
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    before = snapshot(content)
    code, _, err = ruling(capsys, content, "alpha", "interpol", answer="See [[card:interpool]].",
                          extra=("--supersedes", "r1"))
    assert code == 1
    assert "rulings.yaml:" in err and "unknown reference card:interpool" in err
    assert "error: ruling not recorded" in err and "\nhint: " in err
    assert snapshot(content) == before  # r1 is not marked superseded either


@pytest.mark.unit
def test_a_full_disk_at_any_point_leaves_every_content_file_as_it_was(capsys, content, monkeypatch):
    """The disk fills up after 0, 1, … bytes of what the command writes (the new ruling and r1
    marked superseded): each time it says so with a hint and changes nothing, byte for byte."""
    from conftest import disk_full_after

    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    before = snapshot(content)
    with monkeypatch.context() as patched:
        written = disk_full_after(patched, room=10 ** 9)
        assert ruling(capsys, content, "alpha", "interpol", extra=("--supersedes", "r1"))[0] == 0
    needed = written[0]
    assert snapshot(content) != before and needed > 0
    for room in sorted({0, 1, needed - 1} | set(range(0, needed, max(1, needed // 8)))):
        for rel, data in before.items():
            (content / rel).write_bytes(data)
        with monkeypatch.context() as patched:
            disk_full_after(patched, room)
            code, out, err = ruling(capsys, content, "alpha", "interpol", extra=("--supersedes", "r1"))
        assert code == 1 and out == "", (room, out, err)
        assert "No space left on device; no file was changed\nhint: the disk is full" in err, err
        assert snapshot(content) == before, f"the disk full after {room} of {needed} bytes changed the content"


@pytest.mark.unit
def test_add_refuses_to_supersede_a_superseded_ruling(capsys, content):
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-02", "--supersedes", "r1"))[0] == 0
    code, _, err = ruling(capsys, content, "alpha", "interpol", extra=("--supersedes", "r1"))
    assert code == 1 and "error: ruling 'r1' is already superseded by 'r2'" in err
    assert "hint: supersede the latest ruling of the chain, --supersedes r2" in err


# ---------------------------------------------------------------- the check

RECORDS = """# yaml-language-server: $schema=../../../../schema/content.schema.json
rulings:
  - id: r1
    date: 2026-03-01
    source: {kind: publisher-faq, description: "FAQ", url: "https://example.org/faq"}
    about: [card:interpol]
    question: "Q?"
    answer: "A."
    superseded_by: r2
  - id: r2
    date: 2026-03-02
    source: {kind: designer-answer, description: "Designer", url: "https://example.org/d"}
    about: [card:interpol]
    question: "Q again?"
    answer: "A again."
"""


def problems_with(content: Path, text: str) -> list[str]:
    (content / "alpha" / "rulings.yaml").write_text(text)
    try:
        check_content(content)
    except ContentError as error:
        return [str(p) for p in error.problems]
    return []


@pytest.mark.unit
def test_check_accepts_good_rulings(content):
    assert problems_with(content, RECORDS) == []


@pytest.mark.unit
@pytest.mark.parametrize("old, new, where, message", [
    ("about: [card:interpol]\n    question: \"Q?\"", "about: [card:interpool]\n    question: \"Q?\"", "6:13",
     "ruling 'r1' is about unknown card:interpool (did you mean card:interpol?)"),
    ("date: 2026-03-02", "date: 2999-03-02", "11:11", "ruling date 2999-03-02 is in the future"),
    ('url: "https://example.org/faq"', 'url: "http://example.org/faq"', "5:60", "only https:// links are allowed"),
    ("superseded_by: r2", "superseded_by: r3", "9:20", "ruling 'r1' is superseded by unknown ruling 'r3'"),
    ("date: 2026-03-02", "date: 2026-02-01", "9:20", "is superseded by 'r2', which is older (2026-02-01)"),
    ('answer: "A again."', 'answer: "A again."\n    superseded_by: r1', "9:20",
     "rulings supersede each other in a circle: r1 → r2 → r1"),
    ('answer: "A."\n    superseded_by: r2', 'answer: "A."\n    overruled_by: e7', "9:19",
     "ruling 'r1' is overruled by unknown erratum 'e7'"),
    ('answer: "A."', 'answer: "See [[card:nope]]."', "8:18", "unknown reference card:nope"),
    ('answer: "A."', 'answer: "<script>x</script>"', "8:14", "raw HTML is not allowed in content text"),
    ("date: 2026-03-01", "date: 2026-02-30", "4:11", "invalid value '2026-02-30': day is out of range for month"),
])
def test_check_refuses_a_bad_ruling_at_its_line_and_column(content, old, new, where, message):
    assert old in RECORDS
    found = problems_with(content, RECORDS.replace(old, new, 1))
    assert any(f"rulings.yaml:{where}:" in p and message in p for p in found), found


# ---------------------------------------------------------------- where readers meet them

def build_site(content: Path, tmp: Path, pdfs: bool = False) -> Path:
    build(content, tmp / "site", pdfs=pdfs, quiet=True, work=tmp / "work", cache=tmp / "cache",
          site_url="https://example.org/rules/")
    return tmp / "work" / "docs"


@pytest.mark.site
def test_rulings_on_the_item_page_its_history_the_changelogs_and_search(capsys, content, tmp_path):
    assert rulesmith(capsys, content, "errata", "add", "alpha", "interpol", "cost", "4", *FAQ[:4],
                     "--note", "Cost 4.", "--date", "2026-02-01")[0] == 0
    assert ruling(capsys, content, "alpha", "interpol", question="May Interpol look twice?",
                  extra=("--date", "2026-03-01"))[0] == 0
    assert ruling(capsys, content, "alpha", "interpol", question="May Interpol look twice, really?",
                  answer="Yes, once per round.", extra=("--date", "2026-04-01", "--supersedes", "r1"))[0] == 0
    docs = build_site(content, tmp_path)
    card = unplaced((docs / "alpha" / "kinds" / "card.md").read_text())
    interpol = card.split("## Interpol {#interpol}")[1].split("\n## ")[0]
    assert ('!!! question "Ruling r2 (2026-04-01)"\n    <p><strong>Question.</strong> May Interpol look twice, really?</p>'
            in interpol)
    assert "<p><strong>Answer.</strong> Yes, once per round.</p>" in interpol
    assert "[Publisher FAQ v2, question 4](https://example.org/faq#4)" in interpol
    assert '??? note "Ruling r1 (2026-03-01), superseded"' in interpol  # folded
    assert "This ruling is superseded by [ruling r2](../changelog.md#ruling-r2)." in interpol
    history = [line for line in interpol.split('??? abstract "History (3)"')[1].split("\n\n")[0].splitlines() if line]
    assert [line.split(" · ")[0].strip() for line in history] == [
        "- **2026-02-01**", "- **2026-03-01**", "- **2026-04-01**"]  # oldest first, errata and rulings
    assert "[Erratum e1](../changelog.md#erratum-e1): Cost: <del>3</del> → **4**" in history[0]
    # the changelogs: newest first, rulings with errata
    changelog = unplaced((docs / "alpha" / "changelog.md").read_text())
    order = [changelog.index(h) for h in ("## 2026-04-01 · ruling r2", "## 2026-03-01 · ruling r1", "## 2026-02-01 · e1")]
    assert order == sorted(order)
    site_changelog = unplaced((docs / "changelog.md").read_text())
    assert site_changelog.index("[ruling r2](alpha/changelog.md#ruling-r2)") < site_changelog.index("[e1](alpha/changelog.md#erratum-e1)")
    # search: the question and the answer are in the index, on the card's page
    entries = [d for d in search_entries(tmp_path / "site") if search_holds(d, "Yes, once per round.")]
    assert any(d["location"].startswith("alpha/kinds/card.html") for d in entries)
    assert any(d["location"].startswith("alpha/changelog.html#ruling-r2") for d in entries)
    # the rules section a ruling concerns shows it too
    assert ruling(capsys, content, "alpha", "rule:basics", question="Is a spy an action?", answer="Yes.",
                  extra=("--date", "2026-04-02"))[0] == 0
    # a ruling without an address is shown with where it was given
    assert rulesmith(capsys, content, "ruling", "add", "alpha", "rule:basics", "--question", "At the table?",
                     "--answer", "Yes.", "--source", "designer-answer", "--description", "The designer",
                     "--where", "e-mail, 2026-04-03", "--date", "2026-04-03")[0] == 0
    docs = build_site(content, tmp_path)
    basics = unplaced((docs / "alpha" / "rules" / "basics.md").read_text())
    assert "Is a spy an action?" in basics
    assert "Designer's answer: The designer (e-mail, 2026-04-03)" in basics


@pytest.mark.unit
def test_diff_reports_rulings_added_changed_and_superseded(capsys, content, tmp_path):
    def git(*args):
        subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args], cwd=content,
                       check=True, capture_output=True)

    git("init", "-q")
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    git("add", "-A")
    git("commit", "-qm", "r1")
    path = content / "alpha" / "rulings.yaml"
    path.write_text(path.read_text().replace("No: one hand per", "No: only one hand per"))
    assert ruling(capsys, content, "alpha", "interpol", answer="Yes.", extra=("--date", "2026-04-01", "--supersedes", "r1"))[0] == 0
    code, out, _ = rulesmith(capsys, content, "diff", "HEAD")
    assert code == 0
    assert "  rulings added:\n    r2 (2026-04-01, current) on card:interpol:" in out
    assert "  rulings superseded:\n    r1 (2026-03-01, superseded by r2) on card:interpol:" in out
    assert "  rulings changed:\n    r1 (2026-03-01) on card:interpol: answer changed" in out
    code, out, _ = rulesmith(capsys, content, "diff", "HEAD", "--format", "markdown")
    assert "### Rulings" in out and "- r1 (2026-03-01) is now superseded by r2" in out


@pytest.mark.pdf
def test_aids_mark_and_list_rulings_and_say_how_current_they_are(capsys, content, tmp_path):
    from test_errata import aid_html

    from rulesmith.aids.kinds import kind

    cache = tmp_path / "cache"
    solo_before = aid_html(content, "beta", kind("solo-aid"), cache)
    assert "errata and rulings up to 2025-01-15" in solo_before  # beta's erratum e1
    card_before = aid_html(content, "alpha", kind("card-reference"), cache)
    assert ruling(capsys, content, "alpha", "interpol", extra=("--date", "2026-03-01"))[0] == 0
    card = aid_html(content, "alpha", kind("card-reference"), cache)
    assert card != card_before
    assert "errata and rulings up to 2026-03-01" in card
    interpol = card.split('id="x-card--interpol"')[1].split('<div class="entity"')[0]
    assert '<span class="ruling-mark" title="ruling">R</span>' in interpol
    assert "<b>Ruling r1 (2026-03-01):</b> May Interpol look at two hands?" in interpol
    # a ruling about alpha's card leaves beta's aids as they were
    assert aid_html(content, "beta", kind("solo-aid"), cache) == solo_before
    # a superseded ruling is not printed
    assert ruling(capsys, content, "alpha", "interpol", question="Two hands, again?", answer="Yes.",
                  extra=("--date", "2026-03-02", "--supersedes", "r1"))[0] == 0
    card = aid_html(content, "alpha", kind("card-reference"), cache)
    assert "Ruling r2 (2026-03-02)" in card and "Ruling r1 (" not in card
    # the procedure on the solo aid
    assert ruling(capsys, content, "beta", "procedure:bot-move", question="Does the bot move twice?",
                  answer="No.", extra=("--date", "2026-03-03"))[0] == 0
    solo = aid_html(content, "beta", kind("solo-aid"), cache)
    assert "<b>Ruling r1 (2026-03-03):</b> Does the bot move twice?" in solo
    assert "errata and rulings up to 2026-03-03" in solo


@pytest.mark.pdf
def test_page_one_carries_the_changelog_address_and_its_qr_code(content, tmp_path):
    import segno

    from rulesmith.aids import document
    from rulesmith.aids.kinds import geometry, kind

    [checked] = [c for c in check_content(content) if c.game.id == "alpha"]
    site = {"name": "Rules", "url": "https://example.org/rules/"}
    html = document.render_html(checked, kind("rules-summary"), geometry().papers[0], tmp_path / "charts", site)
    address = "https://example.org/rules/alpha/changelog.html"
    assert f'<span class="url">{address}</span>' in html
    expected = segno.make(address, error="m", micro=False).svg_inline(scale=0.5, border=2, unit="mm")
    assert expected.split(">", 1)[1] in html  # the QR code of exactly that address, as vector paths
    no_site = document.render_html(checked, kind("rules-summary"), geometry().papers[0], tmp_path / "charts")
    assert 'class="qr"' not in no_site and "changelog.html" not in no_site
    http = document.render_html(checked, kind("rules-summary"), geometry().papers[0], tmp_path / "charts",
                                {"name": "", "url": "http://example.org/"})
    assert 'class="qr"' not in http  # only an https address with a host gets a code


@pytest.mark.unit
@pytest.mark.parametrize("args, message", [
    (["errata", "add", "alpha", "interpol", "cost", "4", "--source", "faq", "--description", "x", "--note", "x"],
     "error: argument --source: invalid choice: 'faq'"),
    (["errata", "add", "alpha", "interpol", "cost"], "error: the following arguments are required"),
    (["ruling", "add", "alpha", "interpol", "--question", "Q?"], "error: the following arguments are required: --answer"),
    (["ruling", "add", "alpha", "interpol", "--question", "Q?", "--answer", "A.", "--source", "oracle",
      "--description", "x", "--url", "https://example.org/"], "error: argument --source: invalid choice: 'oracle'"),
])
def test_a_bad_argument_is_refused_with_a_hint_and_exit_1(capsys, content, args, message):
    before = snapshot(content)
    with pytest.raises(SystemExit) as done:
        cli.main(["--content", str(content), *args])
    err = capsys.readouterr().err
    assert done.value.code == 1
    assert message in err and f"\nhint: `rulesmith {args[0]} add --help` says what each argument takes" in err
    assert snapshot(content) == before

"""`rulesmith diff <revision>`: the structural difference of the content, on a temporary git repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rulesmith import cli
from rulesmith.commands.diff import diff_revision, text_delta

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "errata"



@pytest.fixture(autouse=True)
def _git_is_there():
    """`rulesmith diff` reads the content from git: without git these tests fail, never skip."""
    assert shutil.which("git"), "git is not installed (rulesmith diff needs it)"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=Rulesmith tests", "-c", "user.email=tests@example.org",
                           "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                          capture_output=True, text=True).stdout


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository whose first commit holds the fixture content, and whose second commit
    changes it in every way the diff reports."""
    repo = tmp_path / "repo"
    content = repo / "content"
    shutil.copytree(FIXTURE, content, ignore=shutil.ignore_patterns("README.md"))
    git(repo, "init", "-q")
    commit(repo, "first")
    alpha = content / "alpha"
    code = cli.main(["--content", str(content), "errata", "add", "alpha", "interpol", "cost", "4",
                     "--source", "publisher-faq", "--description", "FAQ v2", "--note", "Cost 4.",
                     "--date", "2026-03-01"])
    assert code == 0
    edit(alpha / "entities.yaml", "Spend one [[token:agent]] to look at a hand.", "Spend one [[token:agent]] to look at two hands.")
    edit(alpha / "entities.yaml", "name: 'Embassy'", "name: 'Grand Embassy'")  # renamed
    edit(alpha / "entities.yaml", "  # Tokens\n", "  - id: bank\n    name: Bank\n    fields: {cost: 1}\n\n  # Tokens\n")
    edit(alpha / "tables.yaml", '      - ["4+", 1]   # every higher threshold\n', '      - ["4", 1]\n      - ["5+", 1]\n')
    edit(alpha / "rules" / "01-basics.yaml", "The turn ends.", "The bot's turn ends.")
    edit(alpha / "rules" / "01-basics.yaml", "  - id: agent\n    term: Agent\n    definition: \"A [[token:agent]] placed on a card.\"\n", "")
    edit(content / "beta" / "game.yaml", 'data_version: "2.1.0"', 'data_version: "2.2.0"')
    commit(repo, "second")
    return repo


def test_diff_reports_every_kind_of_change(repo):
    diffs, notes = diff_revision(repo / "content", "HEAD~1")
    assert notes == []
    by_game = {d.id: d for d in diffs}
    assert set(by_game) == {"alpha", "beta"}
    alpha = by_game["alpha"]
    assert [(i.key, i.name) for i in alpha.of("added")] == [("card:bank", "Bank")]
    assert [(i.key, i.name) for i in alpha.of("removed")] == [("term:agent", "Agent")]
    assert [(i.key, i.old_name, i.name) for i in alpha.of("renamed")] == [("card:embassy", "Embassy", "Grand Embassy")]
    changed = {i.key: {c.path: (c.old, c.new) for c in i.changes} for i in alpha.of("changed")}
    assert changed["card:interpol"] == {
        "fields.cost": (3, 4),
        "text": ("Spend one [[token:agent]] to look at a hand.\nThen discard it.\n",
                 "Spend one [[token:agent]] to look at two hands.\nThen discard it.\n")}
    assert changed["table:dice"] == {"rows.4": (None, ["4", 1]), "rows.5+": (None, ["5+", 1]), "rows.4+": (["4+", 1], None)}
    assert changed["procedure:bot-turn"] == {"nodes.done.text": ("The turn ends.", "The bot's turn ends.")}
    assert set(changed) == {"card:interpol", "table:dice", "procedure:bot-turn"}
    assert [(e.id, e.target, e.old, e.new) for e in alpha.errata_added] == [("e1", "card:interpol", 3, 4)]
    beta = by_game["beta"]
    assert [(i.key, [(c.path, c.old, c.new) for c in i.changes]) for i in beta.items] == \
        [("game:beta", [("data_version", "2.1.0", "2.2.0")])]


def test_diff_command_prints_text_grouped_by_game(repo, capsys):
    assert cli.main(["--content", str(repo / "content"), "diff", "HEAD~1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Content changes since HEAD~1:\n\nalpha (Alpha)\n  added:\n    card:bank (Card) \"Bank\"\n")
    for line in [
        '    term:agent (Glossary term) "Agent"',
        '    card:embassy (Card) "Embassy" → "Grand Embassy"',
        '    card:interpol (Card) "Interpol"',
        "      fields.cost: 3 → 4",
        "      text: Spend one [[token:agent]] to look at [-a hand.-] {+two hands.+} Then discard it.",
        '      rows.4: — → ["4", 1]',
        '      rows.4+: ["4+", 1] → —',
        "      nodes.done.text: \"The turn ends.\" → \"The bot's turn ends.\"",
        "    e1 (2026-03-01) card:interpol fields.cost: 3 → 4",
        "beta (Beta)",
        '      data_version: "2.1.0" → "2.2.0"',
    ]:
        assert line + "\n" in out, line
    assert out.index("alpha (Alpha)") < out.index("beta (Beta)")


def test_diff_command_prints_markdown_for_a_release_note(repo, capsys):
    assert cli.main(["--content", str(repo / "content"), "diff", "HEAD~1", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Content changes since <code>HEAD~1</code>\n\n## Alpha\n\n### Added\n\n"
                          "- Card **Bank** (<code>card:bank</code>)\n")
    for line in [
        "### Removed", "- Glossary term **Agent** (<code>term:agent</code>)",
        "### Renamed", "- Card <code>card:embassy</code>: Embassy → **Grand Embassy**",
        "### Changed", "- Card **Interpol** (<code>card:interpol</code>)",
        "    - Cost: 3 → **4**",
        "    - text: Spend one &#91;&#91;token:agent&#93;&#93; to look at ~~a hand.~~ **two hands.** Then discard it.",
        "    - step 3: &#34;The turn ends.&#34; → **&#34;The bot's turn ends.&#34;**",
        "### Errata", "- e1 (2026-03-01), <code>card:interpol</code> fields.cost: 3 → **4**. Cost 4.",
        "## Beta",
    ]:
        assert line + "\n" in out, line


def test_no_changes_since_the_current_commit(repo, capsys):
    assert cli.main(["--content", str(repo / "content"), "diff", "HEAD"]) == 0
    assert capsys.readouterr().out == "No content changes since HEAD.\n"


def test_diff_compares_with_the_working_tree(repo):
    edit(repo / "content" / "beta" / "units.yaml", "fields: {speed: 1}", "fields: {speed: 2}")
    (diff,), _ = diff_revision(repo / "content", "HEAD")
    assert [(i.key, [(c.path, c.old, c.new) for c in i.changes]) for i in diff.items] == \
        [("unit:tank", [("fields.speed", 1, 2)])]


def test_games_added_and_removed(repo):
    shutil.copytree(repo / "content" / "beta", repo / "content" / "gamma")
    edit(repo / "content" / "gamma" / "game.yaml", "id: beta", "id: gamma")
    shutil.rmtree(repo / "content" / "alpha")
    diffs, _ = diff_revision(repo / "content", "HEAD")
    status = {d.id: d.status for d in diffs}
    assert status == {"gamma": "added", "alpha": "removed"}
    gamma = next(d for d in diffs if d.id == "gamma")
    assert {"unit:scout", "unit:tank", "procedure:bot-move"} <= {i.key for i in gamma.items}


def test_an_old_revision_with_problems_is_still_compared(repo):
    edit(repo / "content" / "beta" / "units.yaml", "[[unit:scout]] moves", "[[unit:scuot]] moves")
    commit(repo, "broken reference")
    edit(repo / "content" / "beta" / "units.yaml", "[[unit:scuot]] moves", "[[unit:scout]] moves")
    diffs, notes = diff_revision(repo / "content", "HEAD")
    assert notes and "the content in HEAD has 1 problem(s)" in notes[0]
    [diff] = diffs
    assert [(c.path, c.old, c.new) for i in diff.items for c in i.changes] == [
        ("text", "The [[unit:scuot]] moves before the [[unit:tank]].", "The [[unit:scout]] moves before the [[unit:tank]].")]


def test_revision_without_a_content_folder_shows_everything_added(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README").write_text("empty\n")
    commit(repo, "empty")
    shutil.copytree(FIXTURE, repo / "content", ignore=shutil.ignore_patterns("README.md"))
    diffs, _ = diff_revision(repo / "content", "HEAD")
    assert {d.id: d.status for d in diffs} == {"alpha": "added", "beta": "added"}


def test_unknown_revision_is_an_error(repo, capsys):
    assert cli.main(["--content", str(repo / "content"), "diff", "no-such-tag"]) == 1
    assert "unknown git revision 'no-such-tag'" in capsys.readouterr().err


def test_text_delta_shows_the_changed_words_with_context():
    old = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    new = old.replace("eight", "EIGHT")
    assert text_delta(old, new, context=2) == [("…", ""), (" ", "six seven"), ("-", "eight"), ("+", "EIGHT"),
                                               (" ", "nine ten"), ("…", "")]


HOSTILE_ERRATUM = """\
  - id: e2
    date: 2026-04-01
    source: {kind: publisher-faq, description: FAQ v3}
    target: "card:interpol` <img src=x onerror=alert(1)> `x"
    field: "fields.cost <b>"
    old: 4
    new: "[x](javascript:alert(1)) **5** \\e]8;;https://example.com\\a"
    note: "<script>alert(1)</script> \\e[2J [link](https://example.com)"
"""


def test_every_value_in_a_release_note_is_text(repo, capsys):
    """An erratum recorded with markup in every value (the diff reads content that may not check):
    the release note, read as Markdown with the site's configuration, holds nothing but the
    note's own marks, and shows each value as written; the terminal gets no control character."""
    import xml.etree.ElementTree as ElementTree

    from rulesmith.text.markdown_config import converter

    with (repo / "content" / "alpha" / "errata.yaml").open("a") as errata:
        errata.write(HOSTILE_ERRATUM)
    assert cli.main(["--content", str(repo / "content"), "diff", "HEAD", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\u001b" in out
    html = converter().reset().convert(out)
    tree = ElementTree.fromstring(f"<div>{html}</div>")
    assert {e.tag for e in tree.iter()} == {"div", "h1", "h2", "h3", "ul", "li", "code", "strong"}
    assert all(not e.attrib for e in tree.iter())
    line = next(li for li in tree.iter("li") if "e2" in "".join(li.itertext()))
    assert "".join(line.itertext()) == (
        "e2 (2026-04-01), card:interpol` <img src=x onerror=alert(1)> `x fields.cost <b>: 4 → "
        "\"[x](javascript:alert(1)) **5** \\u001b]8;;https://example.com\\u0007\". <script>alert(1)</script> \\u001b[2J "
        "[link](https://example.com)")
    assert cli.main(["--content", str(repo / "content"), "diff", "HEAD"]) == 0
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\x07" not in text and "\\u001b]8;;" in text

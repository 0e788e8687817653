"""The tests a change reaches, for `scripts/test --quick`: one path per line on stdout.

The changed files are those git sees as changed since HEAD (edited, staged or new); with none, the
last commit's. Tests mirror the package (tests/<folder>/ for rulesmith/<folder>/), so a changed file
reaches:
- rulesmith/<folder>/<module>.py: tests/<folder>/, and every test file that names the module
  (`rulesmith.<folder>.<module>`, or `from rulesmith.<folder> import <module>`);
- rulesmith/<module>.py (a shared module at the top): every test file that names it;
- templates/<part>/…: the tests of the outputs that part makes (TEMPLATE_TESTS);
- content/…: the tests of the shipped content;
- tests/<…>/test_*.py: itself; a helper of the tests (conftest.py, fixtures): its folder's tests.
Further pytest arguments narrow it (`scripts/test --quick -m "not browser"`). The full suite
(`scripts/test` without --quick) is what CI runs: a change can reach further than this map knows
(a template read by a module of another folder, say).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
TEMPLATE_TESTS = {"site": ["tests/site"], "theme": ["tests/site"], "webapp": ["tests/site"], "pdf": ["tests/aids"],
                  "flowchart": ["tests/flowchart"], "new": ["tests/commands/test_new.py"],
                  "fonts": ["tests/aids", "tests/site/test_fonts.py"], "webfonts": ["tests/site/test_fonts.py"]}
CONTENT_TESTS = ["tests/content", "tests/checks"]


def changed_files() -> list[str]:
    def git(*args: str) -> list[str]:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return [line for line in out.splitlines() if line]

    files = git("diff", "--name-only", "HEAD") + git("ls-files", "--others", "--exclude-standard")
    return sorted(set(files)) or git("diff", "--name-only", "HEAD~1", "HEAD")


def naming(module: str) -> list[str]:
    """Test files that import `module` (dotted) by name."""
    package, _, name = module.rpartition(".")
    pattern = re.compile(rf"\b{re.escape(module)}\b|from {re.escape(package)} import [^\n]*\b{re.escape(name)}\b")
    return [str(p.relative_to(ROOT)) for p in sorted(TESTS.rglob("test_*.py")) if pattern.search(p.read_text(encoding="utf-8"))]


def reached(path: str) -> list[str]:
    parts = Path(path).parts
    if parts[0] == "rulesmith" and path.endswith(".py"):
        module = ".".join(Path(path).with_suffix("").parts).removesuffix(".__init__")
        mirrored = [f"tests/{parts[1]}"] if len(parts) > 2 and (TESTS / parts[1]).is_dir() else []
        return mirrored + naming(module)
    if parts[0] == "templates" and len(parts) > 1:
        return TEMPLATE_TESTS.get(parts[1], [])
    if parts[0] == "content":
        return CONTENT_TESTS
    if parts[0] == "tests":
        if Path(path).name.startswith("test_") and path.endswith(".py"):
            return [path]
        return [str(Path(*parts[:2]))] if len(parts) > 2 and (TESTS / parts[1]).is_dir() else []
    return []


def main() -> int:
    selected: list[str] = []
    for path in changed_files():
        for test in reached(path):
            if (ROOT / test).exists() and test not in selected:
                selected.append(test)
    # a folder already selected covers its files
    folders = [s for s in selected if (ROOT / s).is_dir()]
    for test in selected:
        if not any(test != f and test.startswith(f + "/") for f in folders):
            sys.stdout.write(test + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

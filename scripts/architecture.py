"""The package's architecture as the tree has it: its import graph and the README's table of its
folders and modules, made from each module's own first docstring line.

    python scripts/architecture.py          # print the table
    python scripts/architecture.py --write  # write it into README.md between its markers

tests/architecture/test_architecture.py uses the same functions: no import cycle, and the README's table is
the tree's.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulesmith"
BEGIN, END = "<!-- architecture: made by scripts/architecture.py -->", "<!-- end of architecture -->"


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its __init__)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules one module imports, anywhere in it (inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "rulesmith":
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "rulesmith"]
        for name in names:
            while name not in known and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in known and name != "rulesmith":
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) - {name} for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def summary(path: Path) -> str:
    """A module's first docstring line (its one job)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split("\n\n")[0].split())


def table() -> str:
    """The README's table: each folder (its package's docstring), then each of its modules."""
    rows = ["| where | its one job |", "| --- | --- |"]
    known = modules()
    folders = sorted({name.rsplit(".", 1)[0] for name in known if name.count(".") >= 2})
    for name in sorted(n for n in known if n.count(".") == 1 and n not in folders):
        rows.append(f"| `{name.split('.', 1)[1]}.py` | {summary(known[name])} |")
    for folder in folders:
        rows.append(f"| **`{folder.split('.', 1)[1]}/`** | {summary(known[folder])} |")
        for name in sorted(n for n in known if n.rsplit(".", 1)[0] == folder):
            rows.append(f"| `{folder.split('.', 1)[1]}/{name.rsplit('.', 1)[1]}.py` | {summary(known[name])} |")
    return "\n".join(rows)


def readme_section(readme: str) -> str:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return readme[start:end].strip()


def main() -> None:
    text = table()
    if "--write" in sys.argv:
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
        (ROOT / "README.md").write_text(readme[:start] + "\n" + text + "\n" + readme[end:], encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()

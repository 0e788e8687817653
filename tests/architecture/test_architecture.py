"""The package's architecture as its tree has it (scripts/architecture.py): a folder per concern,
a few shared modules at the top, no import cycle (imports inside functions counted), no private
name taken from another module, and the README's table of folders and modules is the tree's."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("architecture", ROOT / "scripts" / "architecture.py")
architecture = importlib.util.module_from_spec(spec)
spec.loader.exec_module(architecture)


def test_the_import_graph_has_no_cycle():
    assert architecture.cycles(architecture.graph()) == []


def test_a_cycle_is_found_where_there_is_one():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert architecture.cycles(edges) == [["a", "b", "c"]]


def test_at_most_a_dozen_modules_sit_at_the_top():
    top = [p.name for p in (ROOT / "rulesmith").glob("*.py")]
    assert len(top) <= 12, sorted(top)


def test_no_module_takes_another_modules_private_names():
    """`from rulesmith.x import _name` (or `module._name`) reaches past a module's interface."""
    found = []
    modules = architecture.modules()
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rulesmith"):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__") and node.module != name:
                        found.append(f"{name}: from {node.module} import {alias.name}")
                    if f"{node.module}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.append(f"{name}: {node.value.id}.{node.attr}")
    assert found == []


def test_the_readme_table_of_folders_and_modules_is_the_trees():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert architecture.readme_section(readme) == architecture.table(), \
        "the package changed: run `python scripts/architecture.py --write`"

"""The commands of `rulesmith`, one module each, and the one registry of them (COMMANDS).

A command's module adds its options and its `run` to the parser it is given (`configure`); the
command line (cli.py) imports a command's module only when that command runs, so `rulesmith
check` does not import MkDocs or WeasyPrint. A new command is a module here and one entry below.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, overload


@dataclass(frozen=True)
class Command:
    name: str  # as typed: `rulesmith <name>`
    module: str  # rulesmith.commands.<module>: configure(parser) and run(args)
    help: str
    # Whether it works on a project: found from the current folder (True), not at all (False), or
    # the project above, else the current folder (`new` in an empty folder).
    project: bool | Literal["or-here"] = True


COMMANDS = [
    Command("check", "check", "validate all content; print every problem as file:line:column"),
    Command("build", "build", "check, then build the site (and PDFs) into site/"),
    Command("serve", "serve", "preview the site; rebuilds and reloads on YAML or template changes"),
    Command("new", "new", "write a small game to start from: content/<game-id>/ (checks and builds)",
            project="or-here"),
    Command("format", "format", "print the content format reference, or one topic of it", project=False),
    Command("schema", "schema", "write the JSON Schema of the content format"),
    Command("errata", "errata", "record errata: `rulesmith errata add …`"),
    Command("ruling", "rulings", "record rulings and FAQ answers: `rulesmith ruling add …`"),
    Command("diff", "diff", "structural difference of the content since a git revision"),
    Command("translate", "translate", "translation catalogs: `rulesmith translate update <game> <lang>`, "
            "`rulesmith translate status [<game>]`"),
    Command("review", "review", "print every condensed block of the aids beside its full text, with the "
            "condition words it drops"),
]


@overload
def output_path(given: str | None, default: Path) -> Path: ...
@overload
def output_path(given: str | None, default: None) -> Path | None: ...
def output_path(given: str | None, default: Path | None) -> Path | None:
    """An output path: as given (relative to the current folder, as a shell user expects), or the
    project's default (relative to the project, wherever the command runs)."""
    return Path(given) if given else default

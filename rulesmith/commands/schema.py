"""`rulesmith schema`: write the JSON Schema of the content format for editors (format/schema.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesmith.commands import output_path
from rulesmith.problems import RESULTS

if TYPE_CHECKING:
    import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", help="where to write it (default: schema/content.schema.json in the project)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from rulesmith.content.game import load_games
    from rulesmith.format.schema import write_schema
    from rulesmith.problems import Problems

    # A game whose files do not all load still gets a schema of what did load: the editor is
    # where the rest gets fixed.
    games = load_games(args.project.content, Problems()) if args.project.content.is_dir() else []
    path = write_schema(output_path(args.output, args.project.shared_schema), games)
    RESULTS.info("%s\n", f"wrote {path} and a schema per game: " + (", ".join(f"{g.id}.schema.json" for g in games) or "none"))
    return 0

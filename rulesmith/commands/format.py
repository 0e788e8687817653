"""`rulesmith format [topic]`: the content format reference, or one topic of it (format/reference.py)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from rulesmith.problems import RESULTS

if TYPE_CHECKING:
    import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", nargs="?", help="one topic: files, references, status, game, kinds, tables … "
                        "(default: all of it)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from rulesmith.format.reference import render

    try:
        RESULTS.info("%s", render(args.topic))
        sys.stdout.flush()
    except BrokenPipeError:  # `rulesmith format | head`: the reader stopped early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
    return 0

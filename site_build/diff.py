"""`rulesmith diff <revision>`: what changed in the content, entity by entity (issue: errata)."""

from __future__ import annotations


def configure(parser) -> None:
    parser.set_defaults(run=lambda args: (print("rulesmith diff: not implemented yet"), 2)[1])

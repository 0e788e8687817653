"""`rulesmith errata add`: change one canonical value and record the erratum (issue: errata)."""

from __future__ import annotations


def configure(parser) -> None:
    parser.set_defaults(run=lambda args: (print("rulesmith errata: not implemented yet"), 2)[1])

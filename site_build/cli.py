"""The `rulesmith` command: check, build, serve, schema, errata, diff."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .problems import BuildError, ContentError


def _print_problems(error: ContentError) -> int:
    for problem in error.problems:
        print(problem, file=sys.stderr)
    count = len(error.problems)
    print(f"{count} problem{'s' if count != 1 else ''} found; nothing was written.", file=sys.stderr)
    return 1


def cmd_check(args) -> int:
    from .pipeline import check_content

    started = time.perf_counter()
    try:
        checked = check_content(Path(args.content))
    except ContentError as error:
        return _print_problems(error)
    summary = ", ".join(f"{c.game.id} ({len(c.index.targets)} items)" for c in checked)
    print(f"ok: {len(checked)} game(s) checked in {time.perf_counter() - started:.2f} s: {summary}")
    return 0


def cmd_build(args) -> int:
    from .build import build

    try:
        build(Path(args.content), Path(args.site), pdfs=not args.no_pdf, quiet=args.quiet,
              work=Path(args.work) if args.work else None)
    except ContentError as error:
        return _print_problems(error)
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        print("the previous site was left as it was.", file=sys.stderr)
        return 1
    return 0


def cmd_serve(args) -> int:
    from .serve import serve

    return serve(Path(args.content), args.dev_addr)


def cmd_schema(args) -> int:
    from .schema import write_schema

    path = write_schema(Path(args.output))
    print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rulesmith", description=__doc__)
    parser.add_argument("--content", default="content", help="content folder (default: content)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="validate all content; print every problem as file:line:column")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("build", help="check, then build the site (and PDFs) into site/")
    p.add_argument("--site", default="site", help="output folder (default: site)")
    p.add_argument("--no-pdf", action="store_true", help="skip the PDF player aids")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--work", help="folder for the generated pages (default: .build); two builds at once need two")
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("serve", help="preview the site; rebuilds and reloads on YAML or template changes")
    p.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default 127.0.0.1:8000)")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("schema", help="write the JSON Schema of the content format")
    p.add_argument("--output", default="schema/content.schema.json", help="where to write it")
    p.set_defaults(run=cmd_schema)

    from . import diff, errata  # each adds its own subcommand and options

    errata.configure(sub.add_parser("errata", help="record errata: `rulesmith errata add …`"))
    diff.configure(sub.add_parser("diff", help="structural difference of the content since a git revision"))

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

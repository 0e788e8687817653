"""`rulesmith serve`: MkDocs' live-reload server, with our pages re-rendered on every change.

MkDocs watches content/ and templates/ (and its docs folder); on each rebuild it runs the hook
below, which checks the content and rewrites only the pages that changed. Content problems are
printed and the last good pages stay up.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .build import ROOT, flowcharts, render_docs
from .problems import ContentError

_last_nav: list = []


def on_config(config):
    """MkDocs hook: render the pages from content before each (re)build."""
    global _last_nav
    content = Path(os.environ.get("RULESMITH_CONTENT", ROOT / "content"))
    try:
        from .pipeline import check_content

        checked = check_content(content)
        charts = flowcharts(checked, ROOT / ".cache")
        # The preview skips the PDFs: `rulesmith build` makes them.
        _last_nav = render_docs(checked, charts, [], Path(config.docs_dir))
    except ContentError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s); still showing the last good pages.", file=sys.stderr)
    config.nav = _last_nav
    return config


def serve(content: Path, dev_addr: str) -> int:
    from mkdocs.commands.serve import serve as mkdocs_serve

    os.environ["RULESMITH_CONTENT"] = str(content.resolve())
    docs = ROOT / ".build" / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    mkdocs_serve(str(ROOT / "mkdocs.yml"), livereload=True, watch=[str(content.resolve()), str(ROOT / "templates")],
                 dev_addr=dev_addr, docs_dir=str(docs), hooks=[str(Path(__file__).with_name("mkdocs_hook.py"))])
    return 0

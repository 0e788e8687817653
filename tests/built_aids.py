"""Player aids rendered once per test session (the fixture_aids and real_aids fixtures of
conftest.py): checked content, its flowcharts, its jobs and their PDFs."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pdf_text
import pypdf

from rulesmith.aids import kinds as aidkinds
from rulesmith.aids import pdf
from rulesmith.commands.build import flowcharts

if TYPE_CHECKING:
    from pathlib import Path


class Built:
    """Checked content, its jobs and their rendered PDFs."""

    def __init__(self, checked, cache: Path, language: str = "en"):
        """`checked` in another language (commands/build.in_language): its aids in it."""
        self.checked, self.cache = checked, cache
        self.charts = flowcharts(checked, cache / "flowcharts", language)
        self.jobs = pdf.jobs_for(checked, cache / "flowcharts")
        self.results = pdf.render_all(self.jobs, cache / "pdf")
        self.games = {c.game.id: c for c in checked}

    def reader(self, path: str) -> pypdf.PdfReader:
        return pypdf.PdfReader(io.BytesIO(self.results[path].pdf))

    def texts(self, path: str) -> tuple[str, ...]:
        """Each page's text (read once per test process: tests/pdf_text.py)."""
        return pdf_text.page_texts(self.results[path].pdf)

    def game(self, job: pdf.Job):
        return self.games[job.game]

    @staticmethod
    def kind(job: pdf.Job) -> aidkinds.AidKind:
        return next(k for k in aidkinds.kinds() if k.title == job.title)

    @staticmethod
    def paper(job: pdf.Job) -> aidkinds.Paper:
        return next(p for p in aidkinds.geometry().papers if p.name == job.paper)

"""The player-aid kinds and the one print geometry, read from templates/pdf/aids.yaml.

Every aid kind says what it contains, whether a game's content/<game>/aids.yaml must plan it,
and its page budget; the geometry gives paper, margins and type sizes to both the print CSS and
the Python that measures (chart placement), so the two cannot drift apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rulesmith.content.load import read_settings
from rulesmith.problems import BuildError, Problems
from rulesmith.project import DOWNLOADS, templates

if TYPE_CHECKING:
    from rulesmith.content.game import Game

AIDS_FILE = templates() / "pdf" / "aids.yaml"
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Paper:
    key: str  # in file names: rules-summary-<key>.pdf
    name: str  # shown to readers
    width: float  # mm, portrait
    height: float
    margin: tuple[float, float, float, float]  # top right bottom left, mm

    @property
    def content_width(self) -> float:
        return self.width - self.margin[1] - self.margin[3]

    @property
    def content_height(self) -> float:
        return self.height - self.margin[0] - self.margin[2]


@dataclass(frozen=True)
class Chart:
    font_pt: float
    edge_pt: float
    min_font_pt: float
    wrap: int
    wrap_wide: int

    @property
    def min_scale(self) -> float:
        """The smallest scale at which node and branch text still print at min_font_pt."""
        return self.min_font_pt / min(self.font_pt, self.edge_pt)


@dataclass(frozen=True)
class Geometry:
    papers: tuple[Paper, ...]
    title_pt: float
    body_pt: float
    small_pt: float
    min_text_pt: float
    line_height: float
    column_gap_mm: float
    column_band_mm: float
    chart: Chart


@dataclass(frozen=True)
class AidKind:
    key: str  # in file names
    title: str
    template: str
    contains: str
    plan: str  # required (made only for a game that plans it) | optional | none: content/<game>/aids.yaml
    needs: str | None  # "procedures": only for a game that has some
    budget: dict | None  # {pages: n, per_procedure: m, per_held_chars: c}: at most n + m × procedures pages,
    # and a page per c characters of the rules sections the plan prints after them (the solo rules)
    parts: tuple[str, ...] = ()  # the parts of a plan it prints (covers, sequence, setup, body)

    def applies_to(self, game: Game) -> bool:
        if self.plan == "required" and game.aid_plan(self.key) is None:
            return False
        return self.needs != "procedures" or bool(game.procedures)

    def page_budget(self, game: Game, translated: bool = False) -> int | None:
        """At most this many pages for the game's aid of this kind (None: no budget); `translated`:
        in another language than the game's, the budget times aids.yaml's translated_budget."""
        if self.budget is None:
            return None
        held = 0
        if self.budget.get("per_held_chars"):  # the rules the aid holds, printed after its procedures
            plan = game.aid_plan(self.key)
            sections = {f"rule:{s.id}": s for s, _page in game.all_sections()}
            for entry in (plan.body if plan else []):
                stack = [sections[entry.show]] if entry.show in sections else []
                while stack:
                    section = stack.pop()
                    held += len(section.body)
                    stack += section.sections if entry.subsections else []
            held = -(-held // self.budget["per_held_chars"])
        pages = self.budget.get("pages", 0) + self.budget.get("per_procedure", 0) * len(game.procedures) + held
        return math.ceil(pages * translated_budget()) if translated else pages


@lru_cache(maxsize=1)
def _data() -> dict:
    problems = Problems()
    source = read_settings(AIDS_FILE, problems, "aids.yaml")  # as strictly as content: it is YAML the tool reads
    if source is None:
        raise BuildError("cannot read the aid kinds:\n" + "\n".join(str(p) for p in problems.sorted()))
    return source.data


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    data = _data()["geometry"]
    m = data["margin"]
    margin = (m["top"], m["right"], m["bottom"], m["left"])
    papers = tuple(Paper(p["key"], p["name"], p["width"], p["height"], margin) for p in data["papers"])
    return Geometry(papers, data["title_pt"], data["body_pt"], data["small_pt"], data["min_text_pt"], data["line_height"],
                    data["column_gap_mm"], data["column_band_mm"], Chart(**data["chart"]))


@lru_cache(maxsize=1)
def kinds() -> tuple[AidKind, ...]:
    return tuple(AidKind(k["key"], k["title"], k["template"], k["contains"], k.get("plan", "none"),
                         k.get("needs"), k.get("budget"), tuple(k.get("parts", ()))) for k in _data()["kinds"])


def translated_budget() -> float:
    """How many times its kind's pages an aid in another language may take (aids.yaml)."""
    return _data()["translated_budget"]


def kind(key: str) -> AidKind | None:
    return next((k for k in kinds() if k.key == key), None)


def aid_kinds(game: Game) -> list[AidKind]:
    """The aids this game gets, in the downloads' order."""
    return [k for k in kinds() if k.applies_to(game)]


def aid_path(game_id: str, kind: AidKind, paper: Paper, language: str | None = None) -> str:
    """Where an aid is in its site: downloads/<game>/<aid>-<paper>.pdf; in another language, in
    that language's site (site/<lang>/), its file named by the language too (…-a4-de.pdf), so a
    saved copy says which it is."""
    return f"{DOWNLOADS}/{game_id}/{kind.key}-{paper.key}{f'-{language}' if language else ''}.pdf"

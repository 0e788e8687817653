"""A branch's answer ("Yes", "No", …) is never set on another edge of its chart, where a reader
could take it for that edge's (rulesmith/flowchart/chart.py: render_svg, labels_on_other_edges).
Graphviz places each answer at the middle of its own edge without looking at the others; the
D.E.I. Automa Action Phase chart's first layout sets its step 12 "Yes" on the edge from 15 to 16.
The site's charts are measured as a reader sees them in tests/site/test_walker.py (Whole chart)."""

from __future__ import annotations

import pytest
from conftest import ROOT

from rulesmith.flowchart import chart as flowchart
from rulesmith.pipeline import check_content


@pytest.fixture(scope="module")
def action_phase():
    dei = next(c for c in check_content(ROOT / "content") if c.game.id == "dei")
    return dei, next(p for p in dei.game.procedures if p.id == "automa-action-phase")


def test_a_layout_with_an_answer_on_another_edge_is_laid_out_again_with_every_answer_clear(action_phase, tmp_path):
    dei, procedure = action_phase
    dot = flowchart.to_dot(procedure, dei.index)
    _, first = flowchart._lay_out(dot, tmp_path)
    assert flowchart.labels_on_other_edges(first) == ["'Yes' of below->next-action lies on place->enough"]
    svg = flowchart.render_svg(dot, tmp_path)
    chosen = [drawing for attributes in flowchart.CLEAR_LABEL_LAYOUTS
              for laid_out, drawing in [flowchart._lay_out(flowchart.with_graph_attributes(dot, attributes), tmp_path)]
              if laid_out == svg]
    assert chosen and flowchart.labels_on_other_edges(chosen[0]) == []


def test_a_printed_chart_is_not_made_larger_to_clear_its_answers(action_phase, tmp_path):
    """The aids size a chart to its page: a clear layout larger than the first is not taken there."""
    dei, procedure = action_phase
    for text in (True, False):
        dot = flowchart.to_dot(procedure, dei.index, text=text, compact=not text)
        first, _ = flowchart._lay_out(dot, tmp_path)
        printed = flowchart.size_pt(flowchart.render_svg(dot, tmp_path, grow=False))
        assert all(a <= b for a, b in zip(printed, flowchart.size_pt(first), strict=True)), (text, printed)


def test_an_answer_beside_its_own_edge_only_is_clear():
    """Two edges, far apart, each with its answer: nothing to report; moved onto the other edge: reported."""
    def drawing(label_x):
        edge = lambda gvid, tail, head, x, text: {  # noqa: E731
            "_gvid": gvid, "tail": tail, "head": head,
            "_draw_": [{"op": "b", "points": [[x, 0], [x, 30], [x, 60], [x, 90]]}],
            "_ldraw_": [{"op": "F", "size": 10.0, "name": "Inter"},
                        {"op": "T", "pt": [label_x if gvid == 0 else x + 8, 45], "align": "c", "width": 14, "text": text}]}
        return {"objects": [{"_gvid": n, "name": name} for n, name in enumerate(["a", "b", "c", "d"])],
                "edges": [edge(0, 0, 1, 0, "Yes"), edge(1, 2, 3, 100, "No")]}
    assert flowchart.labels_on_other_edges(drawing(8)) == []
    assert flowchart.labels_on_other_edges(drawing(100)) == ["'Yes' of a->b lies on c->d"]


def test_charts_laid_out_at_once_are_each_the_chart_laid_out_alone(tmp_path):
    """procedure_svgs runs Graphviz for several charts at once: each is the chart procedure_svg
    makes of it alone, in the order asked, and is then found in the cache."""
    dei = next(c for c in check_content(ROOT / "content") if c.game.id == "dei")
    charts = [(p, dei.index) for p in dei.game.procedures]
    together = flowchart.procedure_svgs(charts, tmp_path / "together")
    alone = [flowchart.procedure_svg(p, index, tmp_path / "alone") for p, index in charts]
    assert len(together) == len(charts) > 1 and together == alone
    assert flowchart.procedure_svgs(charts, tmp_path / "together") == together

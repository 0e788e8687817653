"""Range keys ("2", "3-5", "4+", "≤ 2"): parsing, containment, overlaps and gaps (rulesmith/values/ranges.py)."""

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rulesmith.values import ranges


@pytest.mark.parametrize("key, low, high", [
    ("2", 2, 2), (2, 2, 2), ("-2", -2, -2), ("3-5", 3, 5), ("3–5", 3, 5), ("3 - 5", 3, 5),
    ("3 to 5", 3, 5), ("4+", 4, math.inf), ("4 +", 4, math.inf), ("≥ 4", 4, math.inf), (">=4", 4, math.inf),
    ("≤ 2", -math.inf, 2), ("<= 2", -math.inf, 2), ("2-", -math.inf, 2), ("1.5-2.5", 1.5, 2.5),
])
def test_parse_reads_every_written_form(key, low, high):
    parsed = ranges.parse(key)
    assert (parsed.low, parsed.high) == (low, high)
    assert str(parsed) == str(key)  # kept as written


@pytest.mark.parametrize("key, message", [
    ("a", "'a' is not a range key"), ("", "'' is not a range key"), ("5-3", "runs backwards"),
    (True, "True is not a range key"), (None, "None is not a range key"), ("4++", "is not a range key"),
    ([1], "is not a range key"),
])
def test_parse_refuses_what_is_not_a_range_with_a_hint(key, message):
    with pytest.raises(ranges.RangeError) as caught:
        ranges.parse(key)
    assert message in caught.value.args[0]
    assert caught.value.args[1]


def test_lookup_finds_the_row_whose_range_holds_the_number():
    keys = ["2", "3", "4+"]
    assert [ranges.find(keys, n) for n in (1, 2, 3, 4, 9, 100)] == [None, 0, 1, 2, 2, 2]
    assert ranges.find(["2", "3-5"], 4) == 1
    assert ranges.find(["≤ 2", "3-5", "6+"], -7) == 0
    assert ranges.find(["2", "3"], True) is None  # a boolean is not a number
    assert ranges.find(["solo", "2"], 2) == 1  # a key that is no range is passed over


def test_problems_names_every_overlap_at_its_row():
    assert ranges.problems(["2", "3-5", "4+"]) == [
        (2, "range '4+' overlaps range '3-5'",
         "a number may fall in one row only: make the ranges meet without sharing a number")]
    assert ranges.problems(["≤ 2", "2"])[0][:2] == (1, "range '2' overlaps range '≤ 2'")
    assert ranges.problems(["2", "3", "4+"]) == []


def test_problems_names_gaps_only_where_the_table_asks():
    assert ranges.problems(["2", "5+"]) == []
    assert ranges.gaps(["2", "5+"]) == [(1, "no row holds 3-4 (between '2' and '5+')")]
    assert ranges.gaps(["4+", "1", "2"]) == [(0, "no row holds 3 (between '2' and '4+')")]
    assert ranges.gaps(["≤ 2", "3-5", "6+"]) == []


def test_problems_reports_a_key_that_is_no_range():
    assert ranges.problems(["2", "x"])[0][:2] == (1, "'x' is not a range key")


bounds = st.integers(min_value=-50, max_value=50)


@st.composite
def written(draw):
    """A range key as a rulebook prints it, and the numbers it stands for."""
    low = draw(bounds)
    high = draw(st.integers(min_value=low, max_value=60))
    form = draw(st.sampled_from(["single", "span", "plus", "le", "ge"]))
    if form == "single":
        return str(low), low, low
    if form == "span":
        return f"{low}{draw(st.sampled_from(['-', '–', ' - ', ' to ']))}{high}", low, high
    if form == "plus":
        return f"{low}+", low, math.inf
    if form == "ge":
        return f"≥ {low}", low, math.inf
    return f"≤ {high}", -math.inf, high


@given(written(), st.integers(min_value=-100, max_value=100))
def test_containment_agrees_with_the_written_bounds(key, number):
    text, low, high = key
    assert ranges.contains(text, number) == (low <= number <= high)


@given(st.lists(st.tuples(bounds, st.integers(min_value=0, max_value=5)), min_size=1, max_size=6))
def test_problems_finds_an_overlap_exactly_when_two_ranges_share_a_whole_number(spans):
    keys = [f"{low}-{low + width}" for low, width in spans]
    sets = [set(range(low, low + width + 1)) for low, width in spans]
    shared = any(sets[i] & sets[j] for i in range(len(sets)) for j in range(i))
    assert any("overlaps" in p[1] for p in ranges.problems(keys)) == shared


@given(st.lists(st.tuples(bounds, st.integers(min_value=0, max_value=5)), max_size=12))
@example([(1, 2), (3, 1), (2, 8)])  # 1-3, 3-4, 2-10: the second overlaps the first, though a wider span comes between
def test_overlaps_names_each_span_that_shares_a_number_with_an_earlier_one(spans):
    """The sweep (n log n) finds exactly the spans that comparing every pair finds, and names for
    each an earlier span it really overlaps."""
    intervals = [(low, low + width) for low, width in spans]
    meets = [[j for j in range(i) if intervals[i][0] <= intervals[j][1] and intervals[j][0] <= intervals[i][1]]
             for i in range(len(intervals))]
    found = ranges.overlaps(intervals)
    assert [position for position, _ in found] == [i for i, earlier in enumerate(meets) if earlier]
    assert all(earlier in meets[position] for position, earlier in found)


@given(st.lists(st.tuples(bounds, st.integers(min_value=0, max_value=5)), min_size=1, max_size=6))
@example([(0, 2), (1, 0), (3, 0)])  # a range nested in a wider one: "0-2", "1-1", "3-3" leave no hole
def test_contiguous_ranges_leave_no_whole_number_out(spans):
    keys = [f"{low}-{low + width}" for low, width in spans]
    covered = set().union(*(range(low, low + width + 1) for low, width in spans))
    holes = set(range(min(covered), max(covered) + 1)) - covered
    assert bool(ranges.gaps(keys)) == bool(holes)
    for number in covered:  # and a lookup finds a row for every number some range holds
        assert ranges.find(keys, number) is not None

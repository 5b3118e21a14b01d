"""Totals kept as results come and go (Tally) rank exactly as totals summed from scratch."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import StandingsError
from api.rules.games import CHAMPIONSHIP, REGULAR
from api.rules.presets import PRESETS
from api.rules.standings import Result, Tally, standings_for, tally_score

ENTRANTS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
TALLIED = ["progressive", "teams", "wec-singles"]

results = st.builds(
    Result,
    entrant=st.sampled_from(ENTRANTS + ["Gone"]),  # "Gone": has results, is not ranked
    round=st.integers(1, 4),
    points=st.integers(0, 16),
    against=st.integers(0, 16),
    won=st.sampled_from([None, True, False]),
    ghost_table=st.booleans(),
    stage=st.sampled_from([REGULAR, REGULAR, REGULAR, CHAMPIONSHIP]),
)


@pytest.mark.parametrize("preset_key", TALLIED)
@settings(max_examples=150, deadline=None)
@given(added=st.lists(results, max_size=40), data=st.data())
def test_a_tally_ranks_as_summing_every_result_does(preset_key, added, data):
    preset = PRESETS[preset_key]
    removed = data.draw(st.lists(st.sampled_from(added), unique_by=id) if added
                        else st.just([]))
    from_round = data.draw(st.sampled_from([2, 3]))
    manual = data.draw(st.sampled_from([{}, {"Cat": 0, "Ann": 1}]))
    tally, later = Tally(tally_score(preset)), Tally(tally_score(preset), from_round)
    for r in added:
        tally.add(r)
        later.add(r)
    for r in removed:
        tally.remove(r)
        later.remove(r)
    kept = [r for r in added if not any(r is gone for gone in removed)]
    summed = standings_for(preset, kept, ENTRANTS, manual)
    tallied = standings_for(preset, [], ENTRANTS, manual, totals=tally.rows_for(ENTRANTS))
    assert tallied == summed
    # The standings before `from_round`: the full tally less the later rounds' (places only:
    # those rows carry no rounds).
    before = standings_for(preset, [r for r in kept if r.round < from_round], ENTRANTS, manual)
    without = standings_for(preset, [], ENTRANTS, manual,
                            totals=tally.rows_without(later, ENTRANTS))
    assert [(s.entrant, s.place, s.total) for s in without] == \
        [(s.entrant, s.place, s.total) for s in before]


def test_removing_everything_leaves_no_rows_behind():
    tally = Tally(tally_score(PRESETS["progressive"]))
    result = Result("Ann", 1, 5, 3, True)
    tally.add(result)
    tally.remove(result)
    assert tally.rows_for(["Ann"])["Ann"]["rounds"] == {}
    assert tally.rows["Ann"]["total"] == 0 and tally.rows["Ann"]["played"] == 0


def test_league_week_points_are_not_tallied():
    assert tally_score(PRESETS["league"]) is None
    with pytest.raises(StandingsError):
        standings_for(PRESETS["league"], [], ["A"], totals={})

"""A league of several divisions (a round robin within each, on the same nights) and its
nights: a date a week, moved on by a cancelled night."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import SeatingError
from api.rules.schedules import division_schedule, league_nights


@settings(max_examples=100, deadline=None)
@given(sizes=st.lists(st.integers(2, 9), min_size=1, max_size=4))
def test_every_pair_in_a_division_meets_once_and_byes_are_shared(sizes):
    divisions, start = [], 0
    for size in sizes:
        divisions.append(list(range(start, start + size)))
        start += size
    weeks = division_schedule(divisions)
    for group in divisions:
        cycle = len(group) - 1 + len(group) % 2
        met = [frozenset(p) for week in weeks[:cycle] for p in week
               if p[1] is not None and p[0] in group]
        assert len(met) == len(set(met)) == len(group) * (len(group) - 1) // 2
        byes = [p[0] for week in weeks[:cycle] for p in week if p[1] is None and p[0] in group]
        assert sorted(byes) == (sorted(group) if len(group) % 2 else [])
        # No match across divisions, and no team twice in a night.
        for week in weeks:
            teams = [t for p in week for t in p if t is not None]
            assert len(teams) == len(set(teams))
            for home, away in week:
                if away is not None:
                    assert (home in group) == (away in group)


def test_a_division_schedule_refuses_what_cannot_be_played():
    with pytest.raises(SeatingError, match="one division only"):
        division_schedule([[1, 2], [2, 3]])
    with pytest.raises(SeatingError, match="at least 2 teams"):
        division_schedule([[1, 2], [3]])


def test_a_cancelled_night_moves_the_rest_of_the_season_a_week_on():
    nights = league_nights(date(2027, 1, 5), 4)
    assert nights == [date(2027, 1, 5), date(2027, 1, 12), date(2027, 1, 19), date(2027, 1, 26)]
    shifted = league_nights(date(2027, 1, 5), 4, [(2, 7)])
    assert shifted == [date(2027, 1, 5), date(2027, 1, 19), date(2027, 1, 26), date(2027, 2, 2)]
    twice = league_nights(date(2027, 1, 5), 4, [(2, 7), (4, 7)])
    assert twice[-1] == date(2027, 2, 9)
    with pytest.raises(SeatingError, match="no week 5"):
        league_nights(date(2027, 1, 5), 4, [(5, 7)])


def test_each_division_is_ranked_on_its_own_with_its_own_prize_place():
    """RULES.md §6: places and prizes per division, no overall place."""
    from api.rules.league import division_standings
    from api.rules.presets import get_preset
    from api.rules.standings import Result

    preset = get_preset("league")
    # Upper: 1 beat 2 3-0; Lower: 3 beat 4 2-1. The Lower winner has fewer points than the
    # Upper winner, yet is first in its division, with its prize.
    results = []
    for winner, loser, won in ((1, 2, 3), (3, 4, 2)):
        for game in range(3):
            results += [Result(winner, 1, 10, 4, game < won, opponent=loser),
                        Result(loser, 1, 4, 10, game >= won, opponent=winner)]
    rows = division_standings(preset, results, [1, 2, 3, 4],
                              {1: "Upper", 2: "Upper", 3: "Lower", 4: "Lower"})
    assert [(s.entrant, s.place, s.prize) for s in rows] == [
        (3, 1, True), (4, 2, False), (1, 1, True), (2, 2, False)]

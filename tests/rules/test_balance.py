"""Balanced first-round seating (api/rules/balance.py): everyone seated once, fixed seats and
ghosts kept, never a wider spread than the draw, narrower on average, and repeatable."""

from __future__ import annotations

import itertools
import random
from statistics import mean

from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules import seating
from api.rules.balance import START_RATING, balance_tables, differences, spread


def _draw(count: int, seed: int) -> list[list]:
    return [list(t.seats) for t in seating.seat_individuals(list(range(1, count + 1)),
                                                            random.Random(seed))]


fields = st.integers(min_value=6, max_value=48)
ratings_of = st.dictionaries(st.integers(min_value=1, max_value=48),
                             st.floats(min_value=-10, max_value=60), max_size=48)


@settings(max_examples=40, deadline=None)
@given(fields, ratings_of, st.integers(0, 10**6), st.integers(0, 10**6),
       st.sets(st.integers(min_value=1, max_value=48), max_size=4))
def test_every_player_is_seated_once_and_fixed_seats_and_ghosts_stay(count, ratings, draw,
                                                                       seed, fixed):
    drawn = _draw(count, draw)
    result = balance_tables(drawn, ratings, seed=seed, fixed=fixed)
    seated = [p for seats in result.tables for p in seats if p is not None]
    assert sorted(seated) == list(range(1, count + 1))
    for before, after in zip(drawn, result.tables, strict=True):
        for p, q in zip(before, after, strict=True):
            if p is None or p in fixed:
                assert q == p
    # The spread it reports is the one its tables have, and never wider than the draw's.
    assert result.spread == spread(result.tables, ratings)
    assert result.drawn_spread == spread(drawn, ratings)
    assert result.spread <= result.drawn_spread


@settings(max_examples=20, deadline=None)
@given(fields, ratings_of, st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_same_seed_seats_the_same_tables(count, ratings, draw, seed):
    drawn = _draw(count, draw)
    assert balance_tables(drawn, ratings, seed=seed).tables == \
        balance_tables(drawn, ratings, seed=seed).tables


def test_the_spread_is_far_below_a_random_draws_on_average():
    rng = random.Random(7)
    balanced, drawn_spreads = [], []
    for trial in range(20):
        ratings = {p: rng.gauss(25, 6) for p in range(1, 33)}
        drawn = _draw(32, trial)
        result = balance_tables(drawn, ratings, seed=trial)
        balanced.append(result.spread)
        drawn_spreads.append(result.drawn_spread)
    assert mean(balanced) < mean(drawn_spreads) / 3


def test_people_without_a_rating_count_as_the_start_rating():
    # Four unrated players against... nothing: every table's sides are level.
    drawn = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = balance_tables(drawn, {1: START_RATING + 10, 5: START_RATING + 10}, seed=1)
    # The two strong players end up at different tables or on opposite sides: level tables.
    assert result.spread == 0
    assert differences(result.tables, {}) == [0, 0]


def test_a_ghost_table_is_left_out_of_the_spread():
    drawn = [[1, 2, 3, None], [4, 5, 6, 7]]
    ratings = {1: 100, 4: 30, 5: 20, 6: 30, 7: 20}
    assert differences(drawn, ratings) == [None, 20]
    result = balance_tables(drawn, ratings, seed=3)
    assert result.tables[0][3] is None and result.spread == 0


def _most_level(ratings: dict) -> float:
    """By brute force: the smallest spread any seating of these eight players has."""
    people = sorted(ratings)
    best = float("inf")
    for others in itertools.combinations(people[1:], 3):
        first = (people[0], *others)
        second = tuple(p for p in people if p not in first)
        best = min(best, max(_most_level_table(first, ratings),
                             _most_level_table(second, ratings)))
    return best


def _most_level_table(four: tuple, ratings: dict) -> float:
    a, b, c, d = (ratings[p] for p in four)
    return min(abs(a + b - c - d), abs(a + c - b - d), abs(a + d - b - c))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=50), min_size=8, max_size=8),
       st.integers(0, 10**6))
def test_a_night_of_eight_gets_the_most_level_seating_there_is(values, draw):
    ratings = dict(zip(range(1, 9), values, strict=True))
    result = balance_tables(_draw(8, draw), ratings, seed=draw)
    assert abs(result.spread - _most_level(ratings)) < 1e-9

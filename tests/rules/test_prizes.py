"""The prize pool, the payout split and the door-prize draw (RULES.md §4), without Flask."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules.prizes import (
    DEFAULT_SPLIT,
    MoneyError,
    check_split,
    draw,
    payouts,
    prize_pool,
    split_for,
)


def test_a_loner_seekers_night_of_27_with_a_shared_second_place():
    pool = prize_pool(10, 27, maintenance_amount=20)
    assert (pool.collected, pool.maintenance, pool.pool) == (270, 20, 250)
    places = [("ann", 1), ("bob", 2), ("cy", 2), ("di", 4)] + [(f"p{i}", 5 + i) for i in range(23)]
    paid = payouts(pool, places)
    assert paid.percentages == (50, 30, 20)
    assert paid.by_place == (125, 75, 50)
    # Bob and Cy share 2nd: they cover 2nd and 3rd, 125 between them, 62 each; 1 left over.
    assert paid.by_entrant == {"ann": 125, "bob": 62, "cy": 62}
    assert paid.remainder == 1


def test_the_split_follows_the_field_size():
    assert split_for(8) == (100,)
    assert split_for(12) == (60, 40)
    assert split_for(20) == (60, 40)
    assert split_for(23) == (60, 40)
    assert split_for(24) == (50, 30, 20)
    assert split_for(200) == (50, 30, 20)


def test_a_maintenance_per_cent_rounds_to_the_nearest_unit():
    assert prize_pool(10, 13, maintenance_percent=10).maintenance == 13
    assert prize_pool(5, 3, maintenance_percent=10).maintenance == 2  # 1.5 rounds up
    assert prize_pool(5, 3, maintenance_amount=100).pool == 0  # never below nothing


def test_a_disqualified_entrant_takes_nothing_and_the_places_below_close_up():
    pool = prize_pool(10, 12)
    paid = payouts(pool, [("ann", None), ("bob", 1), ("cy", 2), ("di", 3)], field_size=12)
    assert paid.by_entrant == {"bob": 72, "cy": 48}


@pytest.mark.parametrize("split, message", [
    ([(2, (100,))], "start at a field of 1"),
    ([(1, (60, 30))], "adds up to 90%"),
    ([(1, (40, 60))], "lower place"),
    ([(1, (100,)), (1, (50, 50))], "must rise"),
    ([(1, ())], "between 1 and"),
    ([], "at least one row"),
])
def test_a_bad_split_is_refused_with_the_reason(split, message):
    with pytest.raises(MoneyError, match=message):
        check_split(split)


def test_the_default_split_is_valid():
    assert check_split(DEFAULT_SPLIT) == DEFAULT_SPLIT


@given(fee=st.integers(0, 50), paid=st.integers(0, 200), kept=st.integers(0, 300),
       percent=st.integers(0, 100), data=st.data())
def test_money_is_never_made_or_lost(fee, paid, kept, percent, data):
    pool = prize_pool(fee, paid, maintenance_amount=kept, maintenance_percent=percent)
    assert pool.maintenance + pool.pool == pool.collected and pool.pool >= 0
    size = data.draw(st.integers(1, 60))
    totals = data.draw(st.lists(st.integers(0, 40), min_size=size, max_size=size))
    struck = data.draw(st.sets(st.integers(0, size - 1)))
    order = sorted(range(size), key=lambda e: -totals[e])
    places, place, seen, last = [], 0, 0, None
    for entrant in order:
        if entrant in struck:
            places.append((entrant, None))
            continue
        seen += 1
        if totals[entrant] != last:
            place, last = seen, totals[entrant]
        places.append((entrant, place))
    paid_out = payouts(pool, places)
    assert paid_out.paid_out + paid_out.remainder == pool.pool
    assert 0 <= paid_out.remainder <= pool.pool
    assert not struck & paid_out.by_entrant.keys()
    for a, pa in places:  # a better place never takes less; a shared place takes the same
        for b, pb in places:
            if pa is not None and pb is not None and pa <= pb:
                assert paid_out.by_entrant.get(a, 0) >= paid_out.by_entrant.get(b, 0)


@given(st.sets(st.integers(1, 500), min_size=1, max_size=80), st.integers(0, 2**32),
       st.data())
def test_a_draw_repeats_from_its_seed_whatever_the_order(candidates, seed, data):
    count = data.draw(st.integers(1, len(candidates)))
    first = draw(list(candidates), count, seed)
    again = draw(sorted(candidates, reverse=True), count, seed)
    assert first == again
    assert len(set(first)) == count and set(first) <= candidates


def test_a_draw_asks_for_no_more_than_there_are():
    with pytest.raises(MoneyError, match="Only 2 can be drawn"):
        draw([1, 2], 3, seed=7)

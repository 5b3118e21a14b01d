"""Seats at a table: partners, opponents, the deal passing clockwise, who signs a game off."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.rules.games import dealer_for_hand
from api.rules.seats import (
    SEATS,
    SIDE_OF_SEAT,
    dealing_seat,
    next_dealer,
    opponents_of,
    partner_of,
    signing_sides,
)


def test_partners_sit_across_and_opponents_beside():
    assert [partner_of(s) for s in SEATS] == [3, 4, 1, 2]
    assert opponents_of(1) == opponents_of(3) == (2, 4)
    assert opponents_of(2) == opponents_of(4) == (1, 3)


@given(st.sampled_from(SEATS))
def test_a_partner_is_on_the_same_side_and_opponents_on_the_other(seat):
    assert SIDE_OF_SEAT[partner_of(seat)] == SIDE_OF_SEAT[seat]
    assert all(SIDE_OF_SEAT[o] != SIDE_OF_SEAT[seat] for o in opponents_of(seat))


@given(st.sampled_from(SEATS), st.integers(0, 30))
def test_with_no_dealer_recorded_the_deal_passes_on_from_the_first_dealer(first, played):
    assert next_dealer(first, [None] * played) == dealer_for_hand(first, played + 1)


@given(st.one_of(st.none(), st.sampled_from(SEATS)),
       st.lists(st.one_of(st.none(), st.sampled_from(SEATS)), min_size=1, max_size=20))
def test_the_latest_recorded_dealer_decides_the_next_deal(first, dealers):
    recorded = [i for i, d in enumerate(dealers) if d]
    if not recorded:
        return
    last = recorded[-1]
    hands_since = len(dealers) - last
    assert next_dealer(first, dealers) == (dealers[last] - 1 + hands_since) % 4 + 1


def test_nobody_knows_the_dealer_until_someone_says():
    assert next_dealer(None, []) is None
    assert next_dealer(None, [None, None]) is None


def test_a_ghosts_partner_deals_its_cards():
    assert dealing_seat(4, ghost_seats=[4]) == 2
    assert dealing_seat(3, ghost_seats=[4]) == 3


def test_the_side_that_lost_signs_and_a_level_game_only_where_a_level_result_stands():
    assert signing_sides("A", level_allowed=False) == ("B",)
    assert signing_sides("B", level_allowed=True) == ("A",)
    assert signing_sides(None, level_allowed=True) == ("A", "B")
    assert signing_sides(None, level_allowed=False) == ()

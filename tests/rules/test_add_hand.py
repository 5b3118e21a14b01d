"""One more hand from the totals alone gives what replaying every hand gives: the hand path
stores and reads only the game's running totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules.errors import GameOver
from api.rules.games import GameFormat, GameState, add_hand, play_game
from api.rules.hands import HandScore

entries = st.builds(
    lambda side, value, counts, bump_seat: HandScore(
        value if side == "A" and counts else 0, value if side == "B" and counts else 0,
        "made" if counts else "penalty", "", counts=counts,
        bumps={bump_seat: 1} if bump_seat else {}),
    st.sampled_from("AB"), st.sampled_from([1, 2, 3, 4, 5]), st.booleans(),
    st.one_of(st.none(), st.sampled_from([1, 2, 3, 4])))
formats = st.one_of(st.builds(GameFormat, target_points=st.integers(1, 15)),
                    st.builds(GameFormat, hands_per_game=st.integers(1, 12)))


@given(formats, st.lists(entries, max_size=20))
def test_adding_hands_one_at_a_time_equals_replaying_them_all(fmt, played):
    state = GameState(fmt)
    for index, score in enumerate(played):
        try:
            expected = play_game(fmt, played[:index + 1])
        except GameOver:
            with pytest.raises(GameOver):
                add_hand(state, score)
            return
        state = add_hand(state, score)
        assert state == expected


def test_a_hand_after_the_last_is_refused_with_the_reason():
    fmt = GameFormat(hands_per_game=1)
    over = add_hand(GameState(fmt), HandScore(1, 0, "made", ""))
    assert over.end == "hands" and over.winner == "A"
    with pytest.raises(GameOver, match="all 1 hands are played"):
        add_hand(over, HandScore(0, 2, "euchred", ""))
    after = add_hand(over, HandScore(0, 0, "penalty", "", counts=False, bumps={2: 1}))
    assert after.bumps == {2: 1} and after.end == "hands", "cards thrown in after the end"

"""A paper sheet's rows checked whole (rules.paper_sheet): the same state as the hands played
one by one, every mistake on its row, every row after the game's end refused."""

from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.games import GameFormat, add_hand, game_format, play_game
from api.rules.hands import Hand, Renege, score_hand
from api.rules.paper_sheet import check_rows
from api.rules.presets import PRESETS

PROGRESSIVE = PRESETS["progressive"]
LEAGUE = PRESETS["league"]

hands = st.builds(
    lambda maker, tricks, alone, renege: Hand(
        maker=maker, tricks=tricks, alone=alone,
        loner_seat=(1 if maker == "A" else 2) if alone else None,
        renege=Renege(renege[0], renege[1]) if renege else None),
    st.sampled_from("AB"), st.integers(0, 5), st.booleans(),
    st.one_of(st.none(), st.tuples(st.sampled_from("AB"), st.booleans())))
formats = st.sampled_from([game_format(PROGRESSIVE), game_format(LEAGUE),
                           GameFormat(hands_per_game=12)])


@settings(max_examples=300, deadline=None)
@given(formats, st.lists(hands, min_size=1, max_size=25))
def test_a_sheet_is_the_game_played_hand_by_hand_up_to_its_end(fmt, rows):
    preset = PROGRESSIVE if fmt.hands_per_game else LEAGUE
    check = check_rows(fmt, [], rows, preset)
    scores = [score_hand(h, preset) for h in rows]
    # Play them one by one: the rows after the game is over are exactly the ones refused.
    state = play_game(fmt, [])
    refused = set()
    for number, score in enumerate(scores):
        if state.over:
            refused.add(number)
        else:
            state = add_hand(state, score)
    assert set(check.errors) == refused
    if not refused:
        assert check.ok and check.state == play_game(fmt, scores)
    else:
        assert check.state is None
        assert all("cannot be one of its hands" in check.errors[n] for n in refused)


@settings(max_examples=200, deadline=None)
@given(st.lists(hands, min_size=8, max_size=8), st.integers(0, 7))
def test_a_wrong_row_is_named_and_the_rest_are_checked_without_it(rows, bad):
    rows = list(rows)
    rows[bad] = Hand(maker="A", tricks=6)
    check = check_rows(game_format(PROGRESSIVE), [], rows, PROGRESSIVE)
    assert list(check.errors) == [bad] and "6 tricks" in check.errors[bad]
    assert check.scores[bad] is None and check.state is None


def test_a_game_already_over_refuses_every_row_saying_why():
    fmt = game_format(PROGRESSIVE)
    earlier = [score_hand(Hand(maker="A", tricks=3), PROGRESSIVE)] * 8
    check = check_rows(fmt, earlier, [Hand(maker="B", tricks=3)] * 2, PROGRESSIVE)
    assert set(check.errors) == {0, 1}
    assert "all 8 hands are played" in check.errors[0]


def test_time_called_ends_the_game_after_the_sheets_rows_not_before():
    fmt = game_format(PROGRESSIVE)
    rows = [Hand(maker="A", tricks=3)] * 5
    check = check_rows(fmt, [], rows, PROGRESSIVE, time_called=True)
    assert check.ok and check.state.end == "time" and check.state.points_a == 5


@settings(max_examples=200, deadline=None)
@given(formats, st.lists(hands, min_size=1, max_size=25), st.booleans())
def test_a_whole_sheet_is_short_exactly_when_its_rows_leave_the_game_unfinished(fmt, rows, timed):
    preset = PROGRESSIVE if fmt.hands_per_game else LEAGUE
    loose = check_rows(fmt, [], rows, preset, time_called=timed)
    whole = check_rows(fmt, [], rows, preset, time_called=timed, whole=True)
    if loose.errors:  # a wrong row is said on its row, short or not
        assert whole.errors == loose.errors and whole.short is None
        return
    unfinished = not timed and not play_game(fmt, loose.scores).over
    assert (whole.short is not None) == unfinished
    assert whole.ok == (not unfinished)
    if not unfinished:
        assert whole.state == loose.state


def test_a_short_sheet_says_how_many_hands_are_missing():
    fmt = game_format(PROGRESSIVE)
    check = check_rows(fmt, [], [Hand(maker="A", tricks=3)] * 7, PROGRESSIVE, whole=True,
                       label="The game at table 3")
    assert not check.ok and check.state is None
    assert check.short.startswith("The sheet has 7 hands, but the game at table 3 has 8: 1 is "
                                  "missing. Nothing was stored.")

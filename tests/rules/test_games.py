"""One game: when it ends, who won it, settling a level game, and the WEC game sheet."""

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import GameNotOver, GameOver, ImplausibleSheet, RuleError
from api.rules.games import (
    CARD_DRAW,
    CHAMPIONSHIP,
    CUT_PLAYOFF,
    PLAYOFF,
    PLAYOFF_HAND,
    REGULAR,
    SUDDEN_DEATH,
    GameFormat,
    check_hand_allowed,
    dealer_for_hand,
    forfeited_game,
    game_format,
    play_game,
    settle_tie,
    sheet_game,
    sheet_is_possible,
)
from api.rules.hands import PENALTY, A, B, Hand, Renege, score_hand
from api.rules.presets import PRESETS, build_preset

LEAGUE = PRESETS["league"]
PROGRESSIVE = PRESETS["progressive"]
TEAMS = PRESETS["teams"]
WEC = PRESETS["wec-singles"]

TO_TEN = game_format(LEAGUE)
EIGHT_HANDS = game_format(PROGRESSIVE)
TWELVE_HANDS = game_format(TEAMS)
WEC_GAME = game_format(WEC)


def made(side, preset=LEAGUE):
    return score_hand(Hand(maker=side, tricks=3), preset)


def march(side, preset=LEAGUE):
    return score_hand(Hand(maker=side, tricks=5), preset)


def loner_march(side, preset=LEAGUE):
    return score_hand(Hand(maker=side, tricks=5, alone=True), preset)


def euchred(side, preset=LEAGUE):
    return score_hand(Hand(maker=side, tricks=1), preset)


# --- game formats by stage -----------------------------------------------------------------


def test_a_league_game_and_a_league_playoff_game_are_played_to_ten():
    assert game_format(LEAGUE, REGULAR) == GameFormat(target_points=10)
    assert game_format(LEAGUE, PLAYOFF) == GameFormat(target_points=10)
    assert TO_TEN.describe() == "first to 10"


def test_the_teams_championship_cut_playoff_and_sudden_death_have_their_own_lengths():
    assert game_format(TEAMS, CHAMPIONSHIP) == GameFormat(hands_per_game=12)
    assert game_format(TEAMS, CUT_PLAYOFF) == GameFormat(hands_per_game=4)
    assert game_format(TEAMS, SUDDEN_DEATH) == GameFormat(hands_per_game=1)
    assert game_format(TEAMS, CUT_PLAYOFF).describe() == "4 hands"


def test_a_championship_without_its_own_length_is_as_long_as_a_regular_game():
    assert game_format(WEC, CHAMPIONSHIP) == GameFormat(hands_per_game=12)


def test_an_unknown_stage_is_refused():
    with pytest.raises(RuleError, match="Unknown stage 'quarter-final'"):
        game_format(TEAMS, "quarter-final")


# --- games to a target ---------------------------------------------------------------------


def test_a_league_game_ends_at_the_hand_that_brings_a_side_to_ten():
    hands = [march(A)] * 4 + [made(B)] + [march(A)]
    state = play_game(TO_TEN, hands)
    assert (state.points_a, state.points_b) == (10, 1)
    assert state.over and state.finished
    assert state.end == "target"
    assert state.winner == A
    assert not state.level
    assert state.hands_played == 6
    assert state.hands_to_go is None


def test_a_league_game_needs_no_exact_ten_and_no_win_by_two():
    hands = [made(A)] * 9 + [march(B)] * 4 + [loner_march(A)]
    state = play_game(TO_TEN, hands)
    assert (state.points_a, state.points_b) == (13, 8)
    assert state.winner == A


def test_a_league_game_short_of_ten_is_still_being_played():
    state = play_game(TO_TEN, [march(A)] * 4 + [euchred(A)])
    assert (state.points_a, state.points_b) == (8, 2)
    assert not state.over and not state.finished
    assert state.winner is None
    assert state.why_over("Game 1 at table 2") == "Game 1 at table 2 is still being played."


def test_a_hand_after_a_league_game_is_won_is_refused_naming_the_game():
    hands = [march(A)] * 5 + [made(B)]
    with pytest.raises(GameOver) as refused:
        play_game(TO_TEN, hands, label="Game 3 at table 4")
    assert str(refused.value) == ("Game 3 at table 4 is over: side A reached 10. "
                                  "Hand 6 cannot be added.")
    assert refused.value.kind == "conflict"


def test_a_new_hand_in_a_finished_game_is_refused_with_the_reason():
    state = play_game(TO_TEN, [march(B)] * 4 + [made(B)] * 2)
    with pytest.raises(GameOver, match="^Game 3 at table 4 is over: side B reached 10\\.$"):
        check_hand_allowed(state, label="Game 3 at table 4")


def test_a_new_hand_in_a_game_still_being_played_is_allowed():
    check_hand_allowed(play_game(TO_TEN, [march(B)]))


def test_cards_thrown_in_on_the_last_hand_can_still_be_entered_once_the_game_is_over():
    state = play_game(TO_TEN, [march(B)] * 4 + [made(B)] * 2)
    check_hand_allowed(state, counts=False)


def test_a_league_with_a_false_claim_penalty_can_end_with_both_sides_past_the_target_level():
    # A custom league: a wrong renege claim pays the accused 2. At 9-8, A makes it (+1)
    # after wrongly claiming B reneged (B +2): 10-10, both past the target, no winner yet.
    league = build_preset("league", {"false_claim_points": 2})
    fmt = game_format(league)
    hands = ([made(A, league)] * 9 + [march(B, league)] * 4
             + [score_hand(Hand(maker=A, tricks=3, renege=Renege(by=B, upheld=False)), league)])
    state = play_game(fmt, hands)
    assert (state.points_a, state.points_b) == (10, 10)
    assert state.over and state.level and state.winner is None
    assert state.why_over("Game 1") == "Game 1 is over: both sides reached 10."
    with pytest.raises(GameOver, match="both sides reached 10. Hand 15 cannot be added"):
        play_game(fmt, hands + [made(A, league)], label="Game 1")
    assert play_game(fmt, hands, tie_winner=B).winner == B


# --- games of a set number of hands --------------------------------------------------------


def test_a_fixed_hand_game_ends_at_its_count_whatever_the_score():
    hands = [march(A, TEAMS)] * 7 + [made(B, TEAMS)] * 5
    state = play_game(TWELVE_HANDS, hands)
    assert (state.points_a, state.points_b) == (14, 5)
    assert state.end == "hands"
    assert state.winner == A
    assert state.hands_to_go == 0


def test_a_fixed_hand_game_counts_the_hands_to_go():
    state = play_game(EIGHT_HANDS, [made(A, PROGRESSIVE)] * 3)
    assert state.hands_to_go == 5
    assert not state.over


def test_a_thirteenth_hand_in_a_twelve_hand_game_is_refused():
    hands = [made(A, TEAMS)] * 13
    with pytest.raises(GameOver, match="^Round 2 at table 1 is over: all 12 hands are played. "
                                       "Hand 13 cannot be added.$"):
        play_game(TWELVE_HANDS, hands, label="Round 2 at table 1")


def test_a_fixed_hand_game_does_not_end_early_at_a_big_lead():
    state = play_game(EIGHT_HANDS, [loner_march(A, PROGRESSIVE)] * 7)
    assert state.points_a == 28
    assert not state.over


def test_time_called_ends_a_game_with_fewer_hands_and_it_counts_as_played():
    hands = [made(A, PROGRESSIVE)] * 3 + [march(B, PROGRESSIVE)] * 2
    state = play_game(EIGHT_HANDS, hands, time_called=True)
    assert state.end == "time"
    assert state.finished
    assert state.winner == B
    assert state.hands_played == 5
    assert state.hands_to_go == 0
    assert state.why_over("Round 3 at table 5") == "Round 3 at table 5 is over: time was called."


def test_time_called_on_a_game_already_complete_keeps_it_complete():
    state = play_game(EIGHT_HANDS, [made(A, PROGRESSIVE)] * 8, time_called=True)
    assert state.end == "hands"


def test_time_called_before_any_hand_leaves_a_level_game_to_settle():
    state = play_game(EIGHT_HANDS, [], time_called=True)
    assert state.over and state.level and not state.finished


def test_a_hand_after_time_was_called_is_refused():
    hands = [made(A, PROGRESSIVE)] * 6
    state = play_game(EIGHT_HANDS, hands, time_called=True)
    with pytest.raises(GameOver, match="time was called"):
        check_hand_allowed(state)


def test_a_thrown_in_cards_entry_after_the_last_hand_adds_its_bumps_without_reopening_the_game():
    # Thrown-in cards are not hands of the game: they never end one, nor are they refused
    # once it has ended, since they can come from the last hand itself.
    hands = [made(A, WEC)] * 12
    penalty = score_hand(Hand(kind=PENALTY, surrendered=(2,)), WEC)
    state = play_game(WEC_GAME, hands + [penalty])
    assert state.hands_played == 12
    assert state.end == "hands"
    assert state.bumps == {2: 1}


def test_thrown_in_cards_do_not_count_as_one_of_the_games_hands():
    penalty = score_hand(Hand(kind=PENALTY, surrendered=(1, 3)), WEC)
    state = play_game(WEC_GAME, [penalty, made(A, WEC), penalty])
    assert state.hands_played == 1
    assert state.bumps == {1: 2, 3: 2}


def test_a_games_bumps_add_up_per_seat():
    hands = [euchred(A, WEC), euchred(B, WEC),
             score_hand(Hand(maker=A, tricks=0, alone=True, loner_seat=3), WEC)]
    state = play_game(WEC_GAME, hands)
    assert state.bumps == {1: 1, 3: 3, 2: 1, 4: 1}
    assert (state.points_a, state.points_b) == (2, 4)


# --- level games and their settlement --------------------------------------------------------


def level_twelve():
    """Twelve hands ending 8-8."""
    return ([made(A, TEAMS)] * 6 + [march(B, TEAMS)] * 3 + [euchred(B, TEAMS)]
            + [made(B, TEAMS)] * 2)


def test_a_level_fixed_hand_game_is_over_but_needs_a_tie_settlement():
    state = play_game(TWELVE_HANDS, level_twelve())
    assert state.points_a == state.points_b == 8
    assert state.hands_played == 12
    assert state.over and state.level
    assert state.winner is None
    assert not state.finished


def test_a_settled_level_game_has_a_winner_but_keeps_its_points_level():
    state = play_game(TWELVE_HANDS, level_twelve(), tie_winner=B)
    assert state.winner == B
    assert state.finished
    assert state.level
    assert state.points_a == state.points_b == 8


def test_a_tie_settlement_for_a_side_that_does_not_exist_is_refused():
    with pytest.raises(RuleError, match="must be A or B"):
        play_game(TWELVE_HANDS, level_twelve(), tie_winner="C")


def test_a_recorded_tie_winner_does_not_override_a_game_won_on_points():
    hands = level_twelve()[:-1] + [made(A, TEAMS)]
    state = play_game(TWELVE_HANDS, hands, tie_winner=B)
    assert (state.points_a, state.points_b) == (9, 7)
    assert state.winner == A
    assert not state.level


@pytest.mark.parametrize("method", [PLAYOFF_HAND, CARD_DRAW])
def test_a_level_game_is_settled_by_a_playoff_hand_or_a_card_draw(method):
    state = play_game(TWELVE_HANDS, level_twelve())
    assert settle_tie(state, method, A) == A


def test_a_tie_settled_some_other_way_is_refused():
    with pytest.raises(RuleError, match="'playoff-hand' or 'card-draw'"):
        settle_tie(play_game(TWELVE_HANDS, level_twelve()), "coin-toss", A)


def test_a_tie_settlement_must_name_side_a_or_b():
    with pytest.raises(RuleError, match="which side won the tie settlement"):
        settle_tie(play_game(TWELVE_HANDS, level_twelve()), CARD_DRAW, "both")


def test_a_tie_is_not_settled_while_the_game_is_being_played():
    state = play_game(TWELVE_HANDS, level_twelve()[:10])
    with pytest.raises(GameNotOver, match="^Table 3 is still being played; a tie is settled"):
        settle_tie(state, CARD_DRAW, A, label="Table 3")


def test_a_game_won_on_points_has_no_tie_to_settle():
    state = play_game(EIGHT_HANDS, [made(A, PROGRESSIVE)] * 7 + [march(B, PROGRESSIVE)])
    with pytest.raises(GameNotOver, match="is not level \\(7-2\\); side A won it outright"):
        settle_tie(state, PLAYOFF_HAND, B)


def test_a_forfeited_game_has_no_tie_to_settle():
    state = forfeited_game(TWELVE_HANDS, A)
    with pytest.raises(GameNotOver, match="Game 2 was forfeited to side B; there is no tie"):
        settle_tie(state, CARD_DRAW, A, label="Game 2")


# --- forfeits ------------------------------------------------------------------------------


def test_a_forfeited_game_is_lost_by_the_forfeiting_side_with_no_hands():
    state = forfeited_game(TO_TEN, B)
    assert state.winner == A
    assert state.end == "forfeit"
    assert (state.points_a, state.points_b, state.hands_played) == (0, 0, 0)
    assert state.finished and not state.level
    assert state.why_over("Game 1") == "Game 1 is over: it was forfeited to side A."


def test_a_forfeit_by_a_side_that_does_not_exist_is_refused():
    with pytest.raises(RuleError, match="forfeiting side must be A or B"):
        forfeited_game(TO_TEN, "C")


# --- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("first_dealer", "hand_number", "dealer"), [
    (1, 1, 1), (1, 2, 2), (1, 4, 4), (1, 5, 1), (3, 1, 3), (3, 2, 4), (3, 3, 1), (4, 2, 1),
    (2, 12, 1),
])
def test_the_deal_passes_clockwise_from_the_first_dealer(first_dealer, hand_number, dealer):
    assert dealer_for_hand(first_dealer, hand_number) == dealer


def test_with_no_first_dealer_recorded_no_dealer_is_known():
    assert dealer_for_hand(None, 7) is None


# --- the game sheet --------------------------------------------------------------------------


def test_a_plausible_game_sheet_is_accepted_with_its_bumps():
    state = sheet_game(WEC_GAME, 14, 9, {1: 2, 3: 1, 2: 0})
    assert (state.points_a, state.points_b) == (14, 9)
    assert state.hands_played == 12
    assert state.end == "sheet"
    assert state.winner == A
    assert state.bumps == {1: 2, 3: 1, 2: 0}
    assert state.why_over("Game 4") == "Game 4 is over: it was entered from the game sheet."


@pytest.mark.parametrize(("points_a", "points_b", "hands", "words"), [
    (0, 0, 12, "0-0 cannot come out of 12 hands"),
    (60, 0, 12, "60-0 cannot come out of 12 hands"),
    (49, 0, 12, "49-0 cannot"),  # twelve loner marches make 48 at most
    (3, 0, 1, "3-0 cannot come out of 1 hands"),  # one hand gives 1, 2 or 4
    (1, 1, 1, "1-1 cannot"),  # one hand pays only one side
])
def test_an_impossible_game_sheet_is_refused(points_a, points_b, hands, words):
    with pytest.raises(ImplausibleSheet, match=words):
        sheet_game(WEC_GAME, points_a, points_b, {}, hands_played=hands, time_called=True)


def test_the_highest_possible_sheet_is_accepted():
    assert sheet_game(WEC_GAME, 48, 0, {}).winner == A


def test_a_sheet_with_negative_points_is_refused():
    with pytest.raises(ImplausibleSheet, match="Side B cannot have negative points"):
        sheet_game(WEC_GAME, 14, -2, {})


def test_a_sheet_for_a_game_played_to_a_target_is_refused():
    with pytest.raises(ImplausibleSheet, match="set number of hands"):
        sheet_game(TO_TEN, 10, 4, {})


@pytest.mark.parametrize("hands", [13, -1])
def test_a_sheet_with_more_hands_than_the_game_has_is_refused(hands):
    with pytest.raises(ImplausibleSheet, match=f"Game 5 has 12 hands; {hands} were entered"):
        sheet_game(WEC_GAME, 14, 9, {}, hands_played=hands, label="Game 5")


def test_a_time_called_sheet_with_fewer_hands_is_accepted_as_time_called():
    state = sheet_game(WEC_GAME, 8, 7, {}, hands_played=9, time_called=True)
    assert state.end == "time"
    assert state.hands_played == 9
    assert state.winner == A


def test_a_sheet_with_fewer_hands_is_refused_while_time_was_not_called():
    with pytest.raises(ImplausibleSheet, match="Game 5 has 12 hands and time was not called, "
                                               "so a sheet of 5 hands cannot end it"):
        sheet_game(WEC_GAME, 3, 3, {}, hands_played=5, label="Game 5")


def test_an_impossible_sheet_after_time_was_called_asks_how_many_hands_were_played():
    with pytest.raises(ImplausibleSheet, match="say how many hands were played"):
        sheet_game(WEC_GAME, 5, 2, {}, time_called=True)
    with pytest.raises(ImplausibleSheet, match="Check the sheet.$"):
        sheet_game(WEC_GAME, 5, 2, {})


def test_a_level_sheet_takes_the_recorded_tie_winner():
    state = sheet_game(WEC_GAME, 12, 12, {}, tie_winner=B)
    assert state.level
    assert state.winner == B


def test_bumps_for_a_seat_that_does_not_exist_are_refused():
    with pytest.raises(ImplausibleSheet, match="Bumps are per seat, 1 to 4"):
        sheet_game(WEC_GAME, 14, 9, {5: 1})


def test_negative_bumps_are_refused():
    with pytest.raises(ImplausibleSheet, match="Seat 2 cannot owe \\$-1"):
        sheet_game(WEC_GAME, 14, 9, {2: -1})


def test_a_seat_owes_at_most_a_dollar_a_hand_plus_a_dollar_a_point_the_other_side_scored():
    # Seat 1 is on side A; side B scored 9 in 12 hands: at most 12 + 9 = $21.
    assert sheet_game(WEC_GAME, 14, 9, {1: 21}).bumps == {1: 21}
    with pytest.raises(ImplausibleSheet, match="Seat 1 cannot owe \\$22 in bumps when the other "
                                               "side scored 9 points in 12 hands"):
        sheet_game(WEC_GAME, 14, 9, {1: 22})
    # Seat 4 is on side B; side A scored 14: at most 12 + 14 = $26.
    assert sheet_game(WEC_GAME, 14, 9, {4: 26}).bumps == {4: 26}
    with pytest.raises(ImplausibleSheet, match="Seat 4 cannot owe \\$27"):
        sheet_game(WEC_GAME, 14, 9, {4: 27})


@pytest.mark.parametrize(("points_a", "points_b", "hands", "possible"), [
    (14, 9, 12, True),
    (12, 12, 12, True),
    (0, 0, 0, True),
    (1, 0, 0, False),
    (4, 0, 1, True),
    (3, 0, 1, False),
    (5, 0, 2, True),  # a loner march and a made hand
    (7, 0, 2, False),
    (8, 1, 2, False),
    (0, 12, 12, True),
    (24, 0, 6, True),
])
def test_sheet_is_possible_for_small_examples(points_a, points_b, hands, possible):
    assert sheet_is_possible(points_a, points_b, hands) is possible


# --- properties ---------------------------------------------------------------------------------

PLAIN_HANDS = st.builds(Hand, maker=st.sampled_from([A, B]), tricks=st.integers(0, 5),
                        alone=st.booleans())


@settings(max_examples=100, deadline=None)
@given(hands=st.lists(PLAIN_HANDS, min_size=1, max_size=25))
def test_a_league_game_never_continues_past_ten(hands):
    scores = [score_hand(h, LEAGUE) for h in hands]
    totals = {A: 0, B: 0}
    reached = None  # index of the hand that brought a side to 10
    for index, score in enumerate(scores):
        totals[A] += score.points_a
        totals[B] += score.points_b
        if max(totals.values()) >= 10:
            reached = index
            break
    if reached is not None and reached < len(scores) - 1:
        with pytest.raises(GameOver, match=f"Hand {reached + 2} cannot be added"):
            play_game(TO_TEN, scores)
        return
    state = play_game(TO_TEN, scores)
    assert (state.points_a, state.points_b) == (totals[A], totals[B])
    assert state.hands_played == len(scores)
    if reached is None:
        assert not state.over
    else:
        assert state.end == "target"
        assert state.winner == (A if totals[A] > totals[B] else B)
        # Only the winner scored on the last hand, so the loser is still short of 10.
        assert state.points(B if state.winner == A else A) < 10


@settings(max_examples=100, deadline=None)
@given(hands=st.lists(PLAIN_HANDS, max_size=12))
def test_a_games_totals_are_the_sum_of_its_hands_points(hands):
    scores = [score_hand(h, TEAMS) for h in hands]
    state = play_game(TWELVE_HANDS, scores)
    assert state.points_a == sum(s.points_a for s in scores)
    assert state.points_b == sum(s.points_b for s in scores)
    assert state.over == (len(hands) == 12)
    if state.over:
        assert state.level == (state.points_a == state.points_b)


@cache
def brute_force_sheets(hands):
    """Every final score `hands` hands can give, trying every side and value for each hand."""
    sheets = set()
    for sequence in itertools.product([(A, 1), (A, 2), (A, 4), (B, 1), (B, 2), (B, 4)],
                                      repeat=hands):
        sheets.add((sum(v for s, v in sequence if s == A), sum(v for s, v in sequence if s == B)))
    return frozenset(sheets)


@settings(max_examples=150, deadline=None)
@given(hands=st.integers(0, 5), points_a=st.integers(0, 21), points_b=st.integers(0, 21))
def test_sheet_is_possible_agrees_with_trying_every_sequence_of_hands(hands, points_a, points_b):
    expected = (points_a, points_b) in brute_force_sheets(hands)
    assert sheet_is_possible(points_a, points_b, hands) is expected


def test_sheet_is_possible_agrees_with_trying_every_sequence_of_up_to_four_hands_exhaustively():
    for hands in range(5):
        possible = brute_force_sheets(hands)
        for points_a in range(18):
            for points_b in range(18):
                assert sheet_is_possible(points_a, points_b, hands) == (
                    (points_a, points_b) in possible), (points_a, points_b, hands)

"""League weeks and playoff matches, forfeits for lateness, and what repeat forfeits lead to."""

import pytest

from api.rules.errors import RuleError
from api.rules.games import forfeited_game, game_format
from api.rules.hands import A, B
from api.rules.league import (
    FLAGGED,
    LATE,
    LOSS_OF_GAMES,
    NO_SHOW,
    OK,
    ONE_PLAYER,
    REMOVED,
    ahead_words,
    forfeited_games,
    offence_status,
    offence_weeks,
    week_offence_words,
)
from api.rules.matches import deciding_game, match_state, week_points
from api.rules.presets import PRESETS, build_preset

LEAGUE = PRESETS["league"]


# --- a league week: 3 games, all always played ------------------------------------------------


def test_a_league_week_is_not_over_after_two_games_even_at_two_nil():
    state = match_state(3, [A, A])
    assert not state.over
    assert state.winner is None
    assert state.games_needed == 3
    assert (state.games_won(A), state.games_won(B)) == (2, 0)


def test_a_league_week_is_over_when_all_three_games_are_played():
    state = match_state(3, [A, B, A])
    assert state.over
    assert state.winner == A
    assert (state.games_won_a, state.games_won_b) == (2, 1)


def test_a_league_week_with_a_game_still_being_played_is_not_over():
    state = match_state(3, [B, B, None])
    assert not state.over
    assert state.winner is None


def test_a_sweep_is_over_only_after_the_third_game():
    assert match_state(3, [B, B, B]).winner == B
    assert match_state(3, [B, B, B]).games_needed == 3


@pytest.mark.parametrize(("games_won", "points"), [(3, 7), (2, 5), (1, 2), (0, 0)])
def test_league_week_points_are_seven_five_two_and_nothing(games_won, points):
    assert week_points(LEAGUE, games_won) == points


def test_both_teams_week_points_follow_from_the_match():
    state = match_state(3, [A, B, B])
    assert week_points(LEAGUE, state.games_won(A)) == 2
    assert week_points(LEAGUE, state.games_won(B)) == 5


def test_the_match_bonus_goes_to_a_side_with_more_than_half_the_games_played():
    # Used for a week in progress: one game won of one played already earns the bonus.
    assert week_points(LEAGUE, 1, games_played=1) == 3
    assert week_points(LEAGUE, 1, games_played=2) == 2


def test_a_split_week_in_a_two_game_league_has_no_match_winner_and_no_bonus():
    two_games = build_preset("league", {"games_per_match": 2})
    state = match_state(2, [A, B])
    assert state.over
    assert state.winner is None
    assert week_points(two_games, 1) == 2


def test_a_custom_league_scores_its_own_week_points():
    custom = build_preset("league", {"points_per_game_won": 3, "match_win_bonus": 2})
    assert [week_points(custom, won) for won in (3, 2, 1, 0)] == [11, 8, 3, 0]


# --- a playoff match: best 2 of 3 -------------------------------------------------------------


def test_a_playoff_match_is_over_at_two_nil_and_the_third_game_is_not_played():
    state = match_state(3, [B, B], best_of=True)
    assert state.over
    assert state.winner == B
    assert state.games_needed == 2


def test_a_playoff_match_at_one_all_needs_a_third_game():
    state = match_state(3, [A, B], best_of=True)
    assert not state.over
    assert state.winner is None
    assert state.games_needed == 3


def test_a_playoff_match_won_two_one_is_over_after_three_games():
    state = match_state(3, [A, B, A], best_of=True)
    assert state.over
    assert state.winner == A
    assert (state.games_won_a, state.games_won_b, state.games_needed) == (2, 1, 3)


def test_a_playoff_match_not_yet_started_needs_up_to_three_games():
    state = match_state(3, [], best_of=True)
    assert not state.over
    assert state.games_needed == 3


def test_a_playoff_game_still_being_played_does_not_count_as_won():
    state = match_state(3, [A, None], best_of=True)
    assert not state.over
    assert state.games_won(A) == 1


def test_a_best_of_five_playoff_needs_three_wins():
    assert not match_state(5, [A, A, B, B], best_of=True).over
    assert match_state(5, [A, A, B, A], best_of=True).winner == A


# --- forfeits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("minutes", "games"), [
    (10, [1]),
    (15, [1]),
    (19, [1]),
    (20, [1, 2]),
    (29, [1, 2]),
    (30, [1, 2, 3]),
    (75, [1, 2, 3]),
])
def test_lateness_forfeits_game_one_at_ten_minutes_games_one_and_two_at_twenty_and_all_at_thirty(
        minutes, games):
    assert forfeited_games(LEAGUE, LATE, minutes) == games


@pytest.mark.parametrize("reason", [NO_SHOW, ONE_PLAYER])
def test_a_no_show_or_a_team_of_one_forfeits_all_three_games(reason):
    assert forfeited_games(LEAGUE, reason) == [1, 2, 3]


@pytest.mark.parametrize("minutes", [0, 5, 9])
def test_under_ten_minutes_late_costs_nothing_and_is_refused_as_a_forfeit(minutes):
    with pytest.raises(RuleError, match=f"only from 10 minutes late; {minutes} minutes costs "
                                        "nothing"):
        forfeited_games(LEAGUE, LATE, minutes)


@pytest.mark.parametrize("minutes", [None, -5])
def test_a_late_forfeit_needs_the_minutes_late(minutes):
    with pytest.raises(RuleError, match="how many minutes late"):
        forfeited_games(LEAGUE, LATE, minutes)


def test_a_forfeit_for_another_reason_is_refused():
    with pytest.raises(RuleError, match="'late' \\(with minutes\\), 'no-show' or 'one-player'"):
        forfeited_games(LEAGUE, "stuck-in-traffic", 40)


def test_a_custom_forfeit_step_scales_the_lateness():
    custom = build_preset("league", {"forfeit_minutes": 15})
    with pytest.raises(RuleError, match="only from 15 minutes late"):
        forfeited_games(custom, LATE, 14)
    assert forfeited_games(custom, LATE, 15) == [1]
    assert forfeited_games(custom, LATE, 30) == [1, 2]
    assert forfeited_games(custom, LATE, 45) == [1, 2, 3]


def test_a_team_thirty_minutes_late_loses_the_week_three_nil():
    fmt = game_format(LEAGUE)
    games = [forfeited_game(fmt, B) for _ in forfeited_games(LEAGUE, LATE, 30)]
    state = match_state(3, [g.winner for g in games])
    assert state.over and state.winner == A
    assert week_points(LEAGUE, state.games_won(A)) == 7
    assert week_points(LEAGUE, state.games_won(B)) == 0


def test_a_team_ten_minutes_late_forfeits_game_one_and_plays_on():
    fmt = game_format(LEAGUE)
    winners = [forfeited_game(fmt, A).winner]
    assert forfeited_games(LEAGUE, LATE, 12) == [1]
    state = match_state(3, winners + [A, A])
    assert state.winner == A  # the late team can still take the week 2-1
    assert week_points(LEAGUE, state.games_won(A)) == 5


# --- offences ---------------------------------------------------------------------------------


def test_a_team_without_forfeits_is_in_good_standing():
    status = offence_status(LEAGUE, 0)
    assert (status.offences, status.status) == (0, OK)
    assert status.message == "No forfeits."


def test_a_first_offence_costs_only_the_games():
    status = offence_status(LEAGUE, 1)
    assert status.status == LOSS_OF_GAMES
    assert status.message == "Offence 1: loss of the games."


def test_a_second_offence_flags_the_team_for_removal_from_the_playoffs():
    status = offence_status(LEAGUE, 2)
    assert status.status == FLAGGED == "may-be-removed-from-playoffs"
    assert "may be removed from the playoffs (the organizer decides)" in status.message


@pytest.mark.parametrize("offences", [3, 4])
def test_a_third_offence_removes_the_team_from_the_league(offences):
    status = offence_status(LEAGUE, offences)
    assert status.status == REMOVED
    assert status.offences == offences
    assert "later matches are forfeit wins for its opponents" in status.message


def test_a_week_forfeited_ahead_is_an_offence_only_once_it_has_started():
    """Announced in week 2 for weeks 5, 8 and 11: none is an offence yet."""
    weeks = offence_weeks([11, 5, 8], started={1, 2}, play_order=range(1, 14))
    assert (weeks.order, weeks.counted, weeks.ahead) == ((5, 8, 11), 0, (5, 8, 11))
    assert [weeks.offence_of(w) for w in (5, 8, 11)] == [1, 2, 3]
    assert offence_status(LEAGUE, weeks.counted).status == OK
    after_week_8 = offence_weeks([5, 8, 11], started=set(range(1, 9)), play_order=range(1, 14))
    assert (after_week_8.counted, after_week_8.ahead) == (2, (11,))
    assert offence_status(LEAGUE, after_week_8.counted).status == FLAGGED


def test_weeks_count_in_the_order_they_are_played_a_started_week_first():
    # Week 2 made up after week 4; week 6 (a playoff round, not in the order) comes last.
    weeks = offence_weeks([2, 3, 6], started={6}, play_order=[1, 3, 4, 2])
    assert (weeks.order, weeks.counted) == ((6, 3, 2), 1)
    assert offence_weeks([4, 4], started=set(), play_order=[1, 2, 3, 4]).order == (4,)


def test_a_week_forfeited_ahead_says_the_offence_it_becomes():
    weeks = offence_weeks([5, 8, 11], started={5}, play_order=range(1, 12))
    assert week_offence_words(LEAGUE, weeks, 5, "Week 5") == "Offence 1: loss of the games."
    assert week_offence_words(LEAGUE, weeks, 11, "Week 11") == (
        "Week 11 (forfeited ahead) becomes offence 3 when it starts: removed from the league; "
        "its later matches are forfeit wins for its opponents.")
    words = ahead_words(LEAGUE, weeks, {8: "Week 8"})
    assert words.startswith("Week 8 (forfeited ahead) becomes offence 2 when it starts: loss "
                            "of the games, and the team may be removed from the playoffs")
    assert " Week 11 (forfeited ahead) becomes offence 3" in words
    assert ahead_words(LEAGUE, offence_weeks([5], {5}, [5]), {}) == ""


def test_a_negative_offence_count_is_read_as_none():
    assert offence_status(LEAGUE, -1).status == OK


def test_a_custom_league_can_remove_a_team_at_its_second_offence():
    custom = build_preset("league", {"offences_to_flag": 2, "offences_to_remove": 2})
    assert offence_status(custom, 1).status == LOSS_OF_GAMES
    assert offence_status(custom, 2).status == REMOVED


@pytest.mark.parametrize(("winners", "decided_by"), [
    ([A, A], 2),
    ([A, B, A], 3),
    ([B, None, B], 3),
    ([A, B], None),
    ([A, A, B], 2),  # a third game after 2-0 was not needed
    ([], None),
])
def test_a_best_of_three_is_decided_by_the_game_that_gives_a_side_two_wins(winners, decided_by):
    assert deciding_game(3, winners) == decided_by

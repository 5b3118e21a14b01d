"""Fixed schedules: WEC singles tables for every game, league round robins, playoff brackets."""

import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import SeatingError
from api.rules.schedules import (
    SEARCH_STEPS,
    ScheduleReport,
    bracket_outline,
    bracket_rounds,
    bracket_seeds,
    league_schedule,
    next_bracket_round,
    playoff_bracket,
    schedule_report,
    smallest_wec_field,
    wec_singles_schedule,
)
from api.rules.seating import GHOST, Table

# --- WEC singles -----------------------------------------------------------------------------


def assert_every_player_sits_once_a_game(schedule, players, rounds):
    assert len(schedule) == rounds
    for game in schedule:
        assert [table.number for table in game] == list(range(1, len(players) // 4 + 1))
        seated = Counter(player for table in game for player in table.seats)
        assert seated == Counter(players)


# Below 28 players the search for fewer repeated opponents runs all its steps; tests about
# partners only cut it short to stay quick (partnerships are fixed before the search).
QUICK = 2_000


@pytest.mark.parametrize("players", [12, 16, 20, 28, 52, 100, 400])
def test_wec_singles_seats_everyone_each_game_and_nobody_partners_anyone_twice(players):
    field = [f"p{i}" for i in range(players)]
    schedule = wec_singles_schedule(field, 8, random.Random(players), steps=QUICK)
    assert_every_player_sits_once_a_game(schedule, field, 8)
    assert schedule_report(schedule).repeated_partners == 0


@pytest.mark.parametrize("players", [28, 32, 52, 100, 400])
def test_wec_singles_from_28_players_never_repeats_a_pair_of_opponents(players):
    schedule = wec_singles_schedule(range(players), 8, random.Random(players))
    assert schedule_report(schedule) == ScheduleReport(repeated_partners=0, repeated_opponents=0)


# Below 28 players some opponents must meet again: each player faces 16 over 8 games. The
# floor is what no schedule can beat (n * max(0, 16 - (n - 1)) / 2); the bound is what the
# search reaches with these seeds, so a change that makes it worse is noticed.
@pytest.mark.parametrize(("players", "floor", "bound"), [
    (12, 30, 30), (16, 8, 13), (20, 0, 3), (24, 0, 0),
])
def test_wec_singles_below_28_players_keeps_repeated_opponents_near_the_floor(
        players, floor, bound):
    schedule = wec_singles_schedule(range(players), 8, random.Random(1))
    report = schedule_report(schedule)
    assert report.repeated_partners == 0
    assert floor <= report.repeated_opponents <= bound


def test_wec_singles_schedules_400_players_for_8_games_in_well_under_two_seconds():
    started = time.perf_counter()
    wec_singles_schedule(range(400), 8, random.Random(400))
    assert time.perf_counter() - started < 2.0


def test_a_wec_singles_schedule_repeats_for_the_same_seed_and_differs_for_another():
    first = wec_singles_schedule(range(32), 8, random.Random(9))
    assert wec_singles_schedule(range(32), 8, random.Random(9)) == first
    assert wec_singles_schedule(range(32), 8, random.Random(10)) != first


def test_a_wec_singles_schedule_uses_only_the_random_source_it_is_given():
    state = random.getstate()
    wec_singles_schedule(range(32), 8, random.Random(3))
    assert random.getstate() == state


@settings(max_examples=25, deadline=None)
@given(tables=st.integers(min_value=3, max_value=100), seed=st.integers(0, 2**32 - 1))
def test_no_wec_singles_schedule_repeats_a_partner_from_12_to_400_players(tables, seed):
    players = list(range(4 * tables))
    steps = QUICK if len(players) < 28 else SEARCH_STEPS
    schedule = wec_singles_schedule(players, 8, random.Random(seed), steps=steps)
    assert_every_player_sits_once_a_game(schedule, players, 8)
    report = schedule_report(schedule)
    assert report.repeated_partners == 0
    if len(players) >= 28:
        assert report.repeated_opponents == 0


@pytest.mark.parametrize(("players", "seed", "steps"), [(12, 25, 10), (16, 19, 30), (24, 5, 60)])
def test_a_search_cut_short_returns_nothing_worse_than_its_greedy_start(players, seed, steps):
    # These searches end on a worse schedule than one they passed, and go back to it.
    greedy = schedule_report(wec_singles_schedule(range(players), 8, random.Random(seed),
                                                  steps=0))
    schedule = wec_singles_schedule(range(players), 8, random.Random(seed), steps=steps)
    assert_every_player_sits_once_a_game(schedule, list(range(players)), 8)
    report = schedule_report(schedule)
    assert report.repeated_partners == 0
    assert report.repeated_opponents < greedy.repeated_opponents


def test_a_short_event_can_use_a_small_field():
    schedule = wec_singles_schedule("abcd", 3, random.Random(0))
    assert_every_player_sits_once_a_game(schedule, list("abcd"), 3)
    assert schedule_report(schedule).repeated_partners == 0


@pytest.mark.parametrize(("players", "rounds", "words"), [
    (14, 8, "14 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 2 "
            "players or withdraw 2."),
    (8, 8, "8 players can play only 7 games without someone partnering the same player twice, "
           "and this schedule has 8: add 4 players (12 is the smallest field for 8 games) or "
           "play 7 games."),
    (4, 4, "4 players can play only 3 games without someone partnering the same player twice, "
           "and this schedule has 4: add 4 players (8 is the smallest field for 4 games) or "
           "play 3 games."),
    (12, 0, "A schedule needs at least one game, not 0."),
])
def test_wec_singles_refuses_a_field_it_cannot_schedule_saying_what_to_do(players, rounds, words):
    with pytest.raises(SeatingError) as refused:
        wec_singles_schedule(range(players), rounds, random.Random(0))
    assert str(refused.value) == words


@pytest.mark.parametrize("field", [[1, 2, 3, 1], [1, 2, 3, None]])
def test_wec_singles_refuses_a_player_twice_or_without_an_id(field):
    with pytest.raises(SeatingError, match="checked in twice or has no id"):
        wec_singles_schedule(field, 1, random.Random(0))


@pytest.mark.parametrize(("rounds", "players"), [(1, 4), (3, 4), (4, 8), (8, 12), (11, 12),
                                                  (12, 16)])
def test_the_smallest_wec_field_gives_everyone_a_new_partner_each_game(rounds, players):
    assert smallest_wec_field(rounds) == players


def test_the_report_counts_each_meeting_after_the_first_and_never_the_ghost():
    game = [Table(1, (1, 2, 3, 4)), Table(2, (5, 6, 7, GHOST))]
    again = [Table(1, (1, 4, 3, 2)), Table(2, (7, GHOST, 5, 6))]
    # The second game repeats all 3 partnerships of players and all 6 pairs of opponents;
    # partnering or facing the ghost again is not counted.
    assert schedule_report([game]) == ScheduleReport(0, 0)
    assert schedule_report([game, again]) == ScheduleReport(3, 6)
    assert schedule_report([game, again, again]) == ScheduleReport(6, 12)


# --- league ----------------------------------------------------------------------------------

def meetings(schedule):
    return Counter(frozenset(match) for week in schedule for match in week if None not in match)


def test_six_teams_meet_each_other_once_in_five_weeks():
    schedule = league_schedule(["a", "b", "c", "d", "e", "f"])
    assert len(schedule) == 5
    assert all(len(week) == 3 for week in schedule)
    assert all(len({team for match in week for team in match}) == 6 for week in schedule)
    pairs = meetings(schedule)
    assert len(pairs) == 15 and set(pairs.values()) == {1}
    assert schedule[0] == [("a", "f"), ("b", "e"), ("c", "d")]


def test_seven_teams_meet_each_other_once_in_seven_weeks_with_one_bye_a_week():
    teams = ["a", "b", "c", "d", "e", "f", "g"]
    schedule = league_schedule(teams)
    assert len(schedule) == 7
    byes = [match[0] for week in schedule for match in week if match[1] is None]
    assert sorted(byes) == teams  # one bye a week, and each team sits out once
    assert all(week[-1][1] is None and len(week) == 4 for week in schedule)
    pairs = meetings(schedule)
    assert len(pairs) == 21 and set(pairs.values()) == {1}
    assert schedule[0] == [("a", "f"), ("b", "e"), ("c", "d"), ("g", None)]


@pytest.mark.parametrize("count", range(2, 13))
def test_every_team_is_at_home_about_as_often_as_away(count):
    schedule = league_schedule(list(range(count)))
    home = Counter(h for week in schedule for h, a in week if a is not None)
    away = Counter(a for week in schedule for h, a in week if a is not None)
    allowed = 0 if count % 2 else 1  # an odd number of games each cannot split evenly
    assert all(abs(home[team] - away[team]) <= allowed for team in range(count))
    assert set(meetings(schedule).values()) == {1}


def test_a_longer_season_repeats_the_round_robin_with_home_and_away_swapped():
    once = league_schedule(["a", "b", "c", "d", "e"])
    season = league_schedule(["a", "b", "c", "d", "e"], weeks=12)
    assert len(season) == 12
    assert season[:5] == once
    assert season[5:10] == [[(away, home) if away is not None else (home, None)
                             for home, away in week] for week in once]
    assert season[10:] == once[:2]


def test_a_short_season_plays_the_first_weeks_of_the_round_robin():
    assert league_schedule(range(8), weeks=3) == league_schedule(range(8))[:3]


def test_two_teams_play_each_other_every_week_taking_turns_at_home():
    assert league_schedule(["a", "b"], weeks=3) == [[("a", "b")], [("b", "a")], [("a", "b")]]


@pytest.mark.parametrize(("teams", "weeks", "words"), [
    (["a"], None, "at least 2 teams; 1 registered"),
    (["a", "b", "a"], None, "registered once"),
    (["a", None], None, "registered once"),
    (["a", "b"], 0, "at least one week, not 0"),
    (["a", "b"], True, "at least one week"),
])
def test_a_league_schedule_refuses_what_it_cannot_schedule(teams, weeks, words):
    with pytest.raises(SeatingError, match=words):
        league_schedule(teams, weeks)


# --- playoffs --------------------------------------------------------------------------------

SEEDS = [f"s{i}" for i in range(1, 13)]

BRACKETS = {
    2: [("s1", "s2")],
    5: [("s1", None), ("s4", "s5"), ("s2", None), ("s3", None)],
    6: [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")],
    8: [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")],
    12: [("s1", None), ("s8", "s9"), ("s4", None), ("s5", "s12"), ("s2", None), ("s7", "s10"),
         ("s3", None), ("s6", "s11")],
}


@pytest.mark.parametrize("count", sorted(BRACKETS))
def test_the_first_playoff_round_pairs_top_against_bottom_with_byes_to_the_top_seeds(count):
    assert playoff_bracket(SEEDS[:count]) == BRACKETS[count]


def play_out(first_round, winner):
    """Play a bracket to the end, `winner` choosing each match's winner."""
    rounds = [first_round]
    while len(rounds[-1]) > 1:
        played = {match: winner(match) for match in rounds[-1] if match[1] is not None}
        rounds.append(next_bracket_round(rounds[-1], played))
    return rounds


def higher_seed(match):
    return min(match, key=lambda team: int(team[1:]))


@pytest.mark.parametrize("count", [5, 6, 8, 12])
def test_seeds_one_and_two_meet_only_in_the_final_when_favourites_win(count):
    rounds = play_out(playoff_bracket(SEEDS[:count]), higher_seed)
    assert len(rounds) == bracket_rounds(count)
    assert rounds[-1] == [("s1", "s2")]


def test_the_eight_team_bracket_round_by_round():
    rounds = play_out(playoff_bracket(SEEDS[:8]), higher_seed)
    assert rounds[1] == [("s1", "s4"), ("s2", "s3")]


def test_a_bye_goes_through_and_an_upset_winner_moves_on():
    first = playoff_bracket(SEEDS[:6])
    second = next_bracket_round(first, {("s4", "s5"): "s5", ("s3", "s6"): "s6"})
    assert second == [("s1", "s5"), ("s2", "s6")]
    assert next_bracket_round(second, {("s1", "s5"): "s5", ("s2", "s6"): "s2"}) == [("s5", "s2")]


def test_the_next_round_waits_for_every_match():
    with pytest.raises(SeatingError, match="'s4' v 's5' has no winner yet"):
        next_bracket_round(playoff_bracket(SEEDS[:6]), {("s3", "s6"): "s3"})


def test_a_winner_who_did_not_play_the_match_is_refused():
    with pytest.raises(SeatingError, match="'s9' did not play in the match 's1' v 's8'"):
        next_bracket_round(playoff_bracket(SEEDS[:8]), {("s1", "s8"): "s9"})


def test_there_is_no_round_after_the_final():
    with pytest.raises(SeatingError, match="the bracket is complete"):
        next_bracket_round([("s1", "s2")], {("s1", "s2"): "s1"})


def test_a_round_that_is_not_from_a_bracket_is_refused():
    with pytest.raises(SeatingError, match="power-of-two number of matches, not 3"):
        next_bracket_round([("a", "b"), ("c", "d"), ("e", "f")], {})


@pytest.mark.parametrize(("teams", "rounds"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4),
                                               (12, 4), (16, 4), (17, 5)])
def test_a_bracket_has_as_many_rounds_as_halvings_to_one_champion(teams, rounds):
    assert bracket_rounds(teams) == rounds


@pytest.mark.parametrize("seeds", [[], ["s1"]])
def test_a_playoff_needs_two_teams(seeds):
    with pytest.raises(SeatingError, match="A playoff needs at least 2 teams"):
        playoff_bracket(seeds)


@pytest.mark.parametrize("seeds", [["a", "b", "a"], ["a", None]])
def test_a_playoff_team_is_seeded_once_with_an_id(seeds):
    with pytest.raises(SeatingError, match="seeded once"):
        playoff_bracket(seeds)


@pytest.mark.parametrize("count", sorted(BRACKETS))
def test_seed_numbers_read_back_from_the_first_round_are_the_seeding(count):
    seeds = bracket_seeds(playoff_bracket(SEEDS[:count]))
    assert seeds == {team: int(team[1:]) for team in SEEDS[:count]}


def test_the_outline_shows_byes_through_and_empty_places_to_the_final():
    first = playoff_bracket(SEEDS[:6])
    assert bracket_outline([first], {}) == [[("s1", None), ("s2", None)], [(None, None)]]
    assert bracket_outline([first], {("s4", "s5"): "s5"}) == [[("s1", "s5"), ("s2", None)],
                                                               [(None, None)]]


@pytest.mark.parametrize("count", [2, 5, 8, 12])
def test_an_outline_has_as_many_rounds_as_the_bracket_still_needs(count):
    first = playoff_bracket(SEEDS[:count])
    assert len(bracket_outline([first], {})) == bracket_rounds(count) - 1
    assert bracket_outline([], {}) == []
    rounds = play_out(first, higher_seed)
    assert bracket_outline(rounds, {}) == []

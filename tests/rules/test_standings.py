"""Leaderboards for every format: totals, shared places, tie-breaks, the cut, awards, bumps."""

import pytest

from api.rules.errors import StandingsError
from api.rules.games import CHAMPIONSHIP, CUT_PLAYOFF, PLAYOFF, REGULAR
from api.rules.presets import PRESETS, build_preset
from api.rules.standings import (
    ROUND_ROBIN,
    TWO_TEAM,
    Bump,
    Cut,
    PlayoffGame,
    Result,
    Standing,
    assign_places,
    awards,
    bump_cup,
    championship_cut,
    league_standings,
    playoff_seeds,
    progressive_standings,
    resolve_cut,
    round_score,
    standings_for,
    teams_standings,
    wec_standings,
)

LEAGUE = PRESETS["league"]
PROGRESSIVE = PRESETS["progressive"]
TEAMS = PRESETS["teams"]
WEC = PRESETS["wec-singles"]


def by_entrant(standings):
    return {s.entrant: s for s in standings}


def places(standings):
    return [(s.entrant, s.place) for s in standings]


# --- the progressive: ghost minimum, shared places, prizes ------------------------------------


def side(round_, table, players, points, against, won, ghost_table=False):
    """Results for the real players of one side of one table."""
    first, *rest = players
    partner = rest[0] if rest else None
    results = [Result(first, round_, points, against, won, partner=partner, table=table,
                      ghost_table=ghost_table)]
    if partner is not None:
        results.append(Result(partner, round_, points, against, won, partner=first,
                              table=table, ghost_table=ghost_table))
    return results


PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]  # 7 players: one ghost table
PROGRESSIVE_RESULTS = [
    # Round 1. Table 1: Ann & Cat 9, Bob & Dan 5. Table 2: Eve & the ghost 4, Fay & Gus 10.
    *side(1, 1, ["Ann", "Cat"], 9, 5, True),
    *side(1, 1, ["Bob", "Dan"], 5, 9, False),
    *side(1, 2, ["Eve"], 4, 10, False, ghost_table=True),
    *side(1, 2, ["Fay", "Gus"], 10, 4, True, ghost_table=True),
    # Round 2. Table 1: Ann & Fay 6, Eve & Gus 8. Table 2: Bob & the ghost 3, Cat & Dan 6.
    *side(2, 1, ["Ann", "Fay"], 6, 8, False),
    *side(2, 1, ["Eve", "Gus"], 8, 6, True),
    *side(2, 2, ["Bob"], 3, 6, False, ghost_table=True),
    *side(2, 2, ["Cat", "Dan"], 6, 3, True, ghost_table=True),
]


def test_a_player_at_a_ghost_table_scores_at_least_seven_once_the_game_is_finished():
    assert round_score(PROGRESSIVE, Result("Eve", 1, 4, 10, False, ghost_table=True)) == 7
    assert round_score(PROGRESSIVE, Result("Fay", 1, 10, 4, True, ghost_table=True)) == 10


def test_the_ghost_minimum_is_not_applied_while_the_game_is_being_played():
    assert round_score(PROGRESSIVE, Result("Bob", 2, 3, 6, None, ghost_table=True)) == 3


def test_the_ghost_minimum_is_not_applied_at_a_full_table():
    assert round_score(PROGRESSIVE, Result("Bob", 1, 5, 9, False)) == 5


def test_a_custom_progressive_without_a_ghost_minimum_scores_the_points_as_played():
    no_minimum = build_preset("progressive", {"ghost_minimum": None})
    assert round_score(no_minimum, Result("Eve", 1, 4, 10, False, ghost_table=True)) == 4


def test_progressive_totals_add_round_scores_with_the_ghost_minimum_for_everyone_at_that_table():
    board = by_entrant(progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS))
    # Ann 9 + 6; Bob 5 + max(3, 7); Cat 9 + max(6, 7); Dan 5 + max(6, 7); Eve max(4, 7) + 8;
    # Fay 10 + 6; Gus 10 + 8.
    assert {p: s.total for p, s in board.items()} == {
        "Ann": 15, "Bob": 12, "Cat": 16, "Dan": 12, "Eve": 15, "Fay": 16, "Gus": 18}
    assert board["Cat"].rounds == {1: 9, 2: 7}
    assert board["Eve"].rounds == {1: 7, 2: 8}
    assert (board["Gus"].games_won, board["Gus"].games_played) == (2, 2)


def test_equal_progressive_totals_share_a_place_until_the_organizer_orders_them():
    board = progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS)
    assert [(s.entrant, s.place, s.shared) for s in board] == [
        ("Gus", 1, False),
        ("Cat", 2, True), ("Fay", 2, True),
        ("Ann", 4, True), ("Eve", 4, True),
        ("Bob", 6, True), ("Dan", 6, True),
    ]


def test_the_organizers_recorded_order_splits_only_the_players_it_names():
    board = progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS,
                                  manual={"Fay": 1, "Cat": 2, "Eve": 1})
    assert [(s.entrant, s.place, s.shared) for s in board] == [
        ("Gus", 1, False),
        ("Fay", 2, False), ("Cat", 3, False),
        ("Eve", 4, False), ("Ann", 5, False),
        ("Bob", 6, True), ("Dan", 6, True),
    ]


def test_a_recorded_order_never_lifts_a_player_above_a_higher_total():
    board = progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS, manual={"Bob": 1})
    assert board[0].entrant == "Gus"
    assert by_entrant(board)["Bob"].place == 6


def test_a_game_still_being_played_counts_its_points_so_far_without_the_minimum():
    live = PROGRESSIVE_RESULTS[:-3] + [
        *side(2, 2, ["Bob"], 3, 6, None, ghost_table=True),
        *side(2, 2, ["Cat", "Dan"], 6, 3, None, ghost_table=True),
    ]
    board = by_entrant(progressive_standings(PROGRESSIVE, live, PLAYERS))
    assert (board["Bob"].total, board["Cat"].total, board["Dan"].total) == (8, 15, 11)
    assert board["Bob"].games_played == 1


def test_a_seven_player_progressive_gives_a_prize_to_first_place_only():
    board = progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS)
    assert [s.entrant for s in board if s.prize] == ["Gus"]


@pytest.mark.parametrize(("players", "prizes"), [(12, 2), (20, 2), (24, 3), (32, 3)])
def test_progressive_prize_places_follow_the_field_size(players, prizes):
    field = [f"P{n}" for n in range(players)]
    results = [Result(p, 1, 30 - n, 0, True) for n, p in enumerate(field)]
    board = progressive_standings(PROGRESSIVE, results, field)
    assert [s.entrant for s in board if s.prize] == field[:prizes]


def test_players_sharing_the_last_prize_place_both_show_a_prize():
    field = [f"P{n}" for n in range(12)]
    totals = [40, 35, 35] + list(range(20, 11, -1))
    board = progressive_standings(
        PROGRESSIVE, [Result(p, 1, t, 0, True) for p, t in zip(field, totals, strict=True)],
        field)
    assert [(s.entrant, s.place) for s in board if s.prize] == [("P0", 1), ("P1", 2), ("P2", 2)]


def test_results_of_players_not_in_the_field_are_left_out():
    board = progressive_standings(PROGRESSIVE, [Result("Zed", 1, 12, 0, True)], ["Ann"])
    assert places(board) == [("Ann", 1)]
    assert board[0].total == 0


def test_assign_places_gives_one_two_two_four():
    rows = [{"entrant": e, "total": t} for e, t in [("w", 9), ("x", 7), ("y", 7), ("z", 3)]]
    placed = assign_places(rows, lambda r: (-r["total"],))
    assert [(row["entrant"], place, shared) for row, place, shared in placed] == [
        ("w", 1, False), ("x", 2, True), ("y", 2, True), ("z", 4, False)]


# --- the teams tournament ----------------------------------------------------------------------

TEAM_NAMES = ["Aces", "Bowers", "Clubs", "Diamonds"]


def match(round_, team_a, team_b, points_a, points_b, stage=REGULAR):
    """Both teams' results of one 12-hand match."""
    return [
        Result(team_a, round_, points_a, points_b, points_a > points_b, opponent=team_b,
               stage=stage),
        Result(team_b, round_, points_b, points_a, points_b > points_a, opponent=team_a,
               stage=stage),
    ]


TEAMS_RESULTS = [
    *match(1, "Aces", "Bowers", 14, 9), *match(1, "Clubs", "Diamonds", 11, 12),
    *match(2, "Aces", "Clubs", 10, 13), *match(2, "Diamonds", "Bowers", 15, 6),
    *match(3, "Clubs", "Diamonds", 12, 8), *match(3, "Aces", "Bowers", 12, 11),
]
# Aces 14 + 10 + 12 = 36; Bowers 9 + 6 + 11 = 26; Clubs 11 + 13 + 12 = 36;
# Diamonds 12 + 15 + 8 = 35.


def test_teams_standings_total_the_points_of_the_three_rounds():
    board = teams_standings(TEAMS, TEAMS_RESULTS, TEAM_NAMES)
    assert [(s.entrant, s.total, s.place, s.shared) for s in board] == [
        ("Aces", 36, 1, True), ("Clubs", 36, 1, True),
        ("Diamonds", 35, 3, False), ("Bowers", 26, 4, False)]
    assert by_entrant(board)["Clubs"].games_won == 2


def test_two_teams_level_for_first_with_a_clear_third_need_no_playoff():
    cut = championship_cut(teams_standings(TEAMS, TEAMS_RESULTS, TEAM_NAMES))
    assert cut == Cut(("Aces", "Clubs"))
    assert cut.playoff is None


def test_the_champion_is_first_and_the_runner_up_second_whatever_their_totals():
    championship = match(4, "Aces", "Clubs", 8, 15, stage=CHAMPIONSHIP)
    board = teams_standings(TEAMS, TEAMS_RESULTS + championship, TEAM_NAMES,
                            finalists=("Aces", "Clubs"), champion="Clubs")
    assert [(s.entrant, s.place, s.total) for s in board] == [
        ("Clubs", 1, 36), ("Aces", 2, 36), ("Diamonds", 3, 35), ("Bowers", 4, 26)]
    assert [s.entrant for s in board if s.prize] == ["Clubs", "Aces"]


def test_a_finalist_below_a_non_finalist_on_points_is_still_second():
    # Diamonds (35) reached the final through a cut playoff over Aces (36 but lost it).
    board = teams_standings(TEAMS, TEAMS_RESULTS, TEAM_NAMES,
                            finalists=("Clubs", "Diamonds"), champion="Clubs")
    assert places(board) == [("Clubs", 1), ("Diamonds", 2), ("Aces", 3), ("Bowers", 4)]


def test_championship_and_cut_playoff_points_do_not_change_the_totals():
    extra = (match(4, "Aces", "Diamonds", 3, 1, stage=CUT_PLAYOFF)
             + match(5, "Aces", "Clubs", 8, 15, stage=CHAMPIONSHIP))
    board = by_entrant(teams_standings(TEAMS, TEAMS_RESULTS + extra, TEAM_NAMES))
    assert (board["Aces"].total, board["Clubs"].total, board["Diamonds"].total) == (36, 36, 35)
    assert board["Aces"].games_played == 3


def test_a_champion_who_is_not_a_finalist_is_refused():
    with pytest.raises(StandingsError, match="champion must be one of the two finalists"):
        teams_standings(TEAMS, TEAMS_RESULTS, TEAM_NAMES, finalists=("Aces", "Clubs"),
                        champion="Bowers")
    with pytest.raises(StandingsError, match="two finalists"):
        teams_standings(TEAMS, TEAMS_RESULTS, TEAM_NAMES, finalists=("Clubs",),
                        champion="Clubs")


def totals(*pairs):
    return [Standing(team, 0, total) for team, total in pairs]


def test_a_clean_cut_sends_the_top_two_to_the_championship():
    cut = championship_cut(totals(("A", 40), ("B", 36), ("C", 30), ("D", 28)))
    assert cut == Cut(("A", "B"), (), 0, None)


def test_two_teams_level_across_the_cut_play_a_two_team_playoff_for_the_last_spot():
    cut = championship_cut(totals(("A", 40), ("B", 33), ("C", 33), ("D", 28)))
    assert cut == Cut(("A",), ("B", "C"), 1, TWO_TEAM)


def test_three_teams_level_across_the_cut_play_a_round_robin():
    cut = championship_cut(totals(("A", 40), ("B", 33), ("C", 33), ("D", 33), ("E", 20)))
    assert cut == Cut(("A",), ("B", "C", "D"), 1, ROUND_ROBIN)


def test_three_teams_level_for_first_play_a_round_robin_for_both_spots():
    cut = championship_cut(totals(("D", 28), ("A", 33), ("B", 33), ("C", 33)))
    assert cut == Cut((), ("A", "B", "C"), 2, ROUND_ROBIN)


def test_a_field_no_bigger_than_the_cut_goes_through_whole():
    assert championship_cut(totals(("A", 20), ("B", 20))) == Cut(("A", "B"))


def test_a_cut_of_one_spot_with_two_level_at_the_top_needs_a_playoff():
    cut = championship_cut(totals(("A", 33), ("B", 33), ("C", 28)), spots=1)
    assert cut == Cut((), ("A", "B"), 1, TWO_TEAM)


def test_a_cut_with_no_spots_is_refused():
    with pytest.raises(StandingsError, match="At least one spot"):
        championship_cut(totals(("A", 33)), spots=0)


def test_a_withdrawn_team_level_at_the_top_is_not_a_contender_at_the_cut():
    board = totals(("A", 40), ("B", 40), ("C", 40), ("D", 30))
    assert championship_cut(board).contenders == ("A", "B", "C")
    assert championship_cut(board, ineligible=["A"]) == Cut(("B", "C"))


def test_a_withdrawn_team_above_the_cut_gives_its_spot_to_the_next_team():
    board = totals(("A", 44), ("B", 40), ("C", 36), ("D", 36), ("E", 30))
    assert championship_cut(board, ineligible={"A"}) == Cut(("B",), ("C", "D"), 1, "two-team")
    assert championship_cut(board, ineligible={"A", "C"}) == Cut(("B", "D"))


def test_a_cut_with_every_team_but_one_withdrawn_sends_that_team_alone():
    assert championship_cut(totals(("A", 40), ("B", 30)), ineligible=["B"]) == Cut(("A",))


TWO_LEVEL = Cut(("A",), ("B", "C"), 1, TWO_TEAM)
THREE_LEVEL = Cut(("A",), ("B", "C", "D"), 1, ROUND_ROBIN)


def test_the_winner_of_a_two_team_cut_playoff_goes_through():
    resolved = resolve_cut(TWO_LEVEL, [PlayoffGame("C", "B", 5, 2, "C")])
    assert resolved == Cut(("A", "C"))
    assert not resolved.contenders


def test_a_level_four_hand_playoff_is_decided_by_its_sudden_death_winner():
    resolved = resolve_cut(TWO_LEVEL, [PlayoffGame("B", "C", 3, 3, "B")])
    assert resolved.qualified == ("A", "B")


def test_a_two_team_playoff_not_yet_won_leaves_the_cut_open():
    assert resolve_cut(TWO_LEVEL, []) == TWO_LEVEL
    assert resolve_cut(TWO_LEVEL, [PlayoffGame("B", "C", 3, 3, None)]) == TWO_LEVEL


def test_playoff_games_between_other_teams_are_ignored():
    assert resolve_cut(TWO_LEVEL, [PlayoffGame("A", "B", 5, 2, "A")]) == TWO_LEVEL


def test_a_two_team_playoff_is_decided_by_the_latest_game_between_the_two():
    games = [PlayoffGame("B", "C", 5, 2, "B"), PlayoffGame("C", "B", 2, 1, "C")]
    assert resolve_cut(TWO_LEVEL, games).qualified == ("A", "C")


def test_a_decided_cut_is_left_as_it_is():
    assert resolve_cut(Cut(("A", "B")), [PlayoffGame("C", "D", 4, 0, "C")]) == Cut(("A", "B"))


def test_the_round_robin_winner_takes_the_last_spot():
    # B wins twice, D once, C never.
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 2, "B"),
             PlayoffGame("D", "C", 5, 1, "D")]
    assert resolve_cut(THREE_LEVEL, games) == Cut(("A", "B"))


def test_an_unfinished_round_robin_leaves_the_cut_open():
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 2, "B")]
    assert resolve_cut(THREE_LEVEL, games) == THREE_LEVEL


def test_round_robin_wins_level_are_split_by_playoff_points():
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 5, "D"),
             PlayoffGame("C", "D", 5, 2, "C")]
    # Wins: B 1, C 1, D 1. Points: B 4 + 3 = 7, C 1 + 5 = 6, D 5 + 2 = 7 -> B and D level.
    resolved = resolve_cut(THREE_LEVEL, games)
    assert resolved == Cut(("A",), ("B", "D"), 1, TWO_TEAM)
    games[2] = PlayoffGame("C", "D", 5, 1, "C")
    # Points now: B 7, C 6, D 5 + 1 = 6 -> B clear on points.
    assert resolve_cut(THREE_LEVEL, games) == Cut(("A", "B"))


def test_a_round_robin_that_leaves_two_level_sends_them_to_another_two_team_playoff():
    # B beats C 5-2, D beats B 4-3, C beats D 6-1: one win each; points B 8, C 8, D 5.
    games = [PlayoffGame("B", "C", 5, 2, "B"), PlayoffGame("D", "B", 4, 3, "D"),
             PlayoffGame("C", "D", 6, 1, "C")]
    rematch = resolve_cut(THREE_LEVEL, games)
    assert rematch == Cut(("A",), ("B", "C"), 1, TWO_TEAM)
    # The two-team playoff reads only its own games (B beat C in the round robin).
    assert resolve_cut(rematch, [PlayoffGame("C", "B", 3, 1, "C")]) == Cut(("A", "C"))


def test_a_round_robin_that_leaves_all_three_level_is_played_again():
    games = [PlayoffGame("B", "C", 3, 2, "B"), PlayoffGame("C", "D", 3, 2, "C"),
             PlayoffGame("D", "B", 3, 2, "D")]
    assert resolve_cut(THREE_LEVEL, games) == Cut(("A",), ("B", "C", "D"), 1, ROUND_ROBIN)


def test_a_round_robin_can_send_one_team_through_and_leave_two_level_for_the_other_spot():
    four_level = Cut((), ("A", "B", "C", "D"), 2, ROUND_ROBIN)
    games = [PlayoffGame("A", "B", 5, 2, "A"), PlayoffGame("A", "C", 5, 2, "A"),
             PlayoffGame("A", "D", 5, 2, "A"), PlayoffGame("B", "C", 4, 3, "B"),
             PlayoffGame("C", "D", 4, 2, "C"), PlayoffGame("D", "B", 4, 3, "D")]
    # Wins: A 3, B 1, C 1, D 1. Points: A 15, B 2 + 4 + 3 = 9, C 2 + 3 + 4 = 9,
    # D 2 + 2 + 4 = 8. A is through; B and C are level for the second spot.
    assert resolve_cut(four_level, games) == Cut(("A",), ("B", "C"), 1, TWO_TEAM)


def test_a_level_round_robin_game_without_a_winner_counts_as_played_with_no_win():
    # B and C draw 3-3; B beats D 5-1; D beats C 4-2. Wins: B 1, D 1, C 0.
    # Points: B 3 + 5 = 8, D 1 + 4 = 5: B goes through.
    games = [PlayoffGame("B", "C", 3, 3, None), PlayoffGame("B", "D", 5, 1, "B"),
             PlayoffGame("D", "C", 4, 2, "D")]
    assert resolve_cut(THREE_LEVEL, games) == Cut(("A", "B"))


def test_a_round_robin_for_both_spots_sends_the_top_two_through():
    cut = Cut((), ("A", "B", "C"), 2, ROUND_ROBIN)
    games = [PlayoffGame("A", "B", 4, 2, "A"), PlayoffGame("A", "C", 3, 1, "A"),
             PlayoffGame("B", "C", 5, 0, "B")]
    assert resolve_cut(cut, games) == Cut(("A", "B"))


# --- the league -----------------------------------------------------------------------------


def week(round_, team_a, team_b, winners, stage=REGULAR):
    """Both teams' results of a league match; `winners` is one letter a game, e.g. "AAB".
    Each game is played to 10; the loser has 6."""
    results = []
    for letter in winners:
        a_won = letter == "A"
        results += [
            Result(team_a, round_, 10 if a_won else 6, 6 if a_won else 10, a_won,
                   opponent=team_b, stage=stage),
            Result(team_b, round_, 6 if a_won else 10, 10 if a_won else 6, not a_won,
                   opponent=team_a, stage=stage),
        ]
    return results


REGISTERED = ["South", "North", "East", "West"]
SEASON = [
    *week(1, "North", "South", "ABA"), *week(1, "East", "West", "AAA"),
    *week(2, "North", "East", "ABB"), *week(2, "South", "West", "AAB"),
]
# Week points: North 5 + 2 = 7, South 2 + 5 = 7, East 7 + 5 = 12, West 0 + 2 = 2.
# Games won: North 2 + 1 = 3 of 6, South 1 + 2 = 3 of 6, East 3 + 2 = 5 of 6, West 0 + 1 = 1.
# Strength of schedule, the mean GWP of the opponents of each game played:
# North: South (3/6) x3, East (5/6) x3 -> 2/3; South: North (3/6) x3, West (1/6) x3 -> 1/3.


def test_league_standings_add_the_week_points():
    board = by_entrant(league_standings(LEAGUE, SEASON, REGISTERED))
    assert {t: s.total for t, s in board.items()} == {
        "North": 7, "South": 7, "East": 12, "West": 2}
    assert board["North"].rounds == {1: 5, 2: 2}
    assert board["East"].rounds == {1: 7, 2: 5}


def test_league_standings_report_game_win_percentage_and_strength_of_schedule():
    board = by_entrant(league_standings(LEAGUE, SEASON, REGISTERED))
    assert board["East"].stats["game_win_pct"] == 0.8333
    assert board["West"].stats["game_win_pct"] == 0.1667
    assert board["North"].stats["strength_of_schedule"] == 0.6667
    assert board["South"].stats["strength_of_schedule"] == 0.3333
    assert (board["East"].games_won, board["East"].games_played) == (5, 6)
    # North: won 10 + 10 + 6 | 10 + 6 + 6 and conceded 6 + 6 + 10 | 6 + 10 + 10.
    assert board["North"].stats["points_for"] == 48
    assert board["North"].stats["points_against"] == 48


def test_level_week_points_and_game_win_percentage_are_split_by_strength_of_schedule():
    # North and South both have 7 points and 3 of 6 games; North's opponents were stronger,
    # so North is ahead although South registered first.
    board = league_standings(LEAGUE, SEASON, REGISTERED)
    assert places(board) == [("East", 1), ("North", 2), ("South", 3), ("West", 4)]
    assert [s.entrant for s in board if s.prize] == ["East"]


def test_level_week_points_are_split_by_game_win_percentage_first():
    # Five teams, a bye each week. Jokers played one week (3-0: 7 points, 3 of 3 games);
    # Hearts played two (2-1 and 1-2: 7 points, 3 of 6). Hearts registered first.
    teams = ["Hearts", "Spades", "Clubs", "Diamonds", "Jokers"]
    results = [
        *week(1, "Hearts", "Spades", "AAB"), *week(1, "Clubs", "Diamonds", "AAA"),
        *week(2, "Hearts", "Clubs", "ABB"), *week(2, "Jokers", "Diamonds", "AAA"),
    ]
    board = league_standings(LEAGUE, results, teams)
    # Clubs 7 + 5 = 12; Jokers 7; Hearts 5 + 2 = 7; Spades 2; Diamonds 0.
    assert [(s.entrant, s.total) for s in board] == [
        ("Clubs", 12), ("Jokers", 7), ("Hearts", 7), ("Spades", 2), ("Diamonds", 0)]
    assert by_entrant(board)["Jokers"].stats["game_win_pct"] == 1.0
    assert by_entrant(board)["Hearts"].stats["game_win_pct"] == 0.5


def test_teams_level_on_everything_are_ordered_by_registration():
    # North beats South 2-1 and East beats West 2-1: North and East both have 5 points,
    # 2 of 3 games and opponents at 1 of 3.
    results = [*week(1, "North", "South", "AAB"), *week(1, "East", "West", "ABA")]
    board = league_standings(LEAGUE, results, ["North", "South", "East", "West"])
    assert places(board) == [("North", 1), ("East", 2), ("South", 3), ("West", 4)]
    assert not any(s.shared for s in board)


def test_the_organizers_manual_order_breaks_a_complete_tie_before_registration():
    results = [*week(1, "North", "South", "AAB"), *week(1, "East", "West", "ABA")]
    board = league_standings(LEAGUE, results, ["North", "South", "East", "West"],
                             manual={"East": 1})
    assert places(board) == [("East", 1), ("North", 2), ("South", 3), ("West", 4)]


def test_league_places_are_never_shared_because_registration_order_breaks_every_tie():
    board = league_standings(LEAGUE, [], ["North", "South", "East", "West"])
    assert places(board) == [("North", 1), ("South", 2), ("East", 3), ("West", 4)]
    assert all(s.total == 0 and s.stats["game_win_pct"] == 0.0 for s in board)


def test_playoff_games_do_not_count_in_the_season_standings():
    playoffs = [*week(3, "North", "East", "AA", stage=PLAYOFF)]
    assert (league_standings(LEAGUE, SEASON + playoffs, REGISTERED)
            == league_standings(LEAGUE, SEASON, REGISTERED))


def test_a_forfeited_game_counts_as_a_game_lost_and_won():
    results = [
        Result("North", 1, 0, 0, False, opponent="South", forfeited=True),
        Result("South", 1, 0, 0, True, opponent="North", forfeited=True),
        *week(1, "North", "South", "AA"),
    ]
    board = by_entrant(league_standings(LEAGUE, results, ["North", "South"]))
    # North won 2 of 3 (5 points); South won the forfeit (2 points).
    assert (board["North"].total, board["South"].total) == (5, 2)
    assert board["South"].games_played == 3


def test_a_team_left_out_of_the_standings_does_not_count_in_its_opponents_schedule():
    board = by_entrant(league_standings(LEAGUE, SEASON, ["North", "East"]))
    assert set(board) == {"North", "East"}
    # North's opponents: South (not listed) and East (5/6): only East counts.
    assert board["North"].stats["strength_of_schedule"] == 0.8333


def test_playoff_seeds_follow_the_standings_and_leave_out_ineligible_teams():
    board = league_standings(LEAGUE, SEASON, REGISTERED)
    assert playoff_seeds(board) == ["East", "North", "South", "West"]
    assert playoff_seeds(board, ineligible={"North"}) == ["East", "South", "West"]


# --- the World Euchre Championship --------------------------------------------------------------

WEC_PLAYERS = ["Ada", "Ben", "Cy", "Di", "Ed"]
WEC_RESULTS = [
    Result("Ada", 1, 12, 9, True), Result("Ada", 2, 10, 13, False),
    Result("Ben", 1, 11, 6, True), Result("Ben", 2, 11, 10, True),
    Result("Cy", 1, 9, 12, False), Result("Cy", 2, 13, 10, True),
    Result("Di", 1, 8, 14, False), Result("Di", 2, 6, 11, False),
    Result("Ed", 1, 14, 8, True), Result("Ed", 2, 8, 11, False),
]
# Ada 22 (1 game won), Ben 22 (2), Cy 22 (1), Di 14 (0), Ed 22 (1).


def test_wec_ranks_by_points_then_games_won_and_shares_what_is_still_level():
    board = wec_standings(WEC, WEC_RESULTS, WEC_PLAYERS)
    assert [(s.entrant, s.place, s.shared) for s in board] == [
        ("Ben", 1, False), ("Ada", 2, True), ("Cy", 2, True), ("Ed", 2, True), ("Di", 5, False)]


def test_wec_players_still_level_are_ordered_by_the_organizers_recorded_tiebreak():
    board = wec_standings(WEC, WEC_RESULTS, WEC_PLAYERS, manual={"Cy": 1, "Ada": 2, "Ed": 3})
    assert places(board) == [("Ben", 1), ("Cy", 2), ("Ada", 3), ("Ed", 4), ("Di", 5)]
    assert [s.entrant for s in board if s.prize] == ["Ben", "Cy", "Ada"]


def test_awards_go_to_the_lowest_total_and_the_most_points_in_one_game():
    board = wec_standings(WEC, WEC_RESULTS, WEC_PLAYERS)
    found = awards(board, WEC_RESULTS)
    assert (found.low_score, found.low_total) == (("Di",), 14)
    assert (found.high_game, found.high_game_points) == ((("Ed", 1),), 14)


def test_tied_awards_are_shared():
    results = WEC_RESULTS + [Result("Di", 3, 14, 2, True), Result("Ben", 3, 0, 14, False)]
    # Di 14 + 14 = 28; Ben 22 + 0 = 22, level lowest with Ada, Cy and Ed.
    board = wec_standings(WEC, results, WEC_PLAYERS)
    found = awards(board, results)
    assert set(found.low_score) == {"Ada", "Ben", "Cy", "Ed"}
    assert found.low_total == 22
    assert found.high_game == (("Ed", 1), ("Di", 3))


def test_high_games_of_one_round_are_listed_in_the_standings_order_not_by_id():
    # Entrants 9 and 10 level on a round's high game: 9 placed first is listed first (the
    # text of the ids would put 10 first, and an import moves the ids).
    results = [Result(9, 1, 10, 4, True), Result(10, 1, 10, 6, True),
               Result(11, 1, 4, 10, False), Result(12, 1, 6, 10, False)]
    board = wec_standings(WEC, results, [9, 10, 11, 12])
    assert [s.entrant for s in board][:2] == [9, 10]
    assert awards(board, results).high_game == ((9, 1), (10, 1))


def test_a_game_still_being_played_or_a_playoff_game_is_not_a_high_game():
    results = WEC_RESULTS + [Result("Cy", 3, 30, 0, None),
                             Result("Ada", 3, 20, 0, True, stage=CUT_PLAYOFF)]
    board = wec_standings(WEC, results, WEC_PLAYERS)
    assert awards(board, results).high_game == (("Ed", 1),)


def test_no_games_means_no_awards_yet():
    found = awards([], [])
    assert found == type(found)((), None, (), None)


def test_the_bump_cup_adds_up_per_player_per_table_and_for_the_event():
    cup = bump_cup([
        Bump("Ada", 1, 2, 1), Bump("Ben", 1, 2, 1),  # Ada and Ben euchred at table 2
        Bump("Ada", 2, 1, 2),  # Ada's loner euchred at table 1 in game 2
        Bump("Cy", 2, 1, 1),  # Cy threw in cards
    ])
    assert cup.by_player == {"Ada": 3, "Ben": 1, "Cy": 1}
    assert cup.by_table == {(1, 2): 2, (2, 1): 3}
    assert cup.total == 5


def test_an_empty_bump_cup_holds_nothing():
    cup = bump_cup([])
    assert (cup.by_player, cup.by_table, cup.total) == ({}, {}, 0)


# --- any format ---------------------------------------------------------------------------------


def test_standings_for_picks_the_formats_own_leaderboard():
    assert (standings_for(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS)
            == progressive_standings(PROGRESSIVE, PROGRESSIVE_RESULTS, PLAYERS))
    assert (standings_for(LEAGUE, SEASON, REGISTERED)
            == league_standings(LEAGUE, SEASON, REGISTERED))
    assert (standings_for(PRESETS["wec-doubles"], WEC_RESULTS, WEC_PLAYERS)
            == wec_standings(WEC, WEC_RESULTS, WEC_PLAYERS))
    assert (standings_for(TEAMS, TEAMS_RESULTS, TEAM_NAMES, finalists=("Aces", "Clubs"),
                          champion="Aces")[0].entrant == "Aces")

"""Seating and movement: round-1 draws, progressive movement with ghosts, team rotations."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import SeatingError
from api.rules.hands import SIDE_OF_SEAT
from api.rules.seating import (
    GHOST,
    Pairing,
    Table,
    check_multiple_of_four,
    check_progressive_field,
    ghost_seats,
    progressive_next,
    seat_individuals,
    seat_teams,
    table_count,
    teams_next,
    wec_doubles_round,
)


def tables(*rows):
    """Tables numbered from 1, each row the occupants of seats 1 to 4."""
    return [Table(number, tuple(row)) for number, row in enumerate(rows, start=1)]


def partnerships(round_tables):
    return {frozenset(table.side(side)) for table in round_tables for side in "AB"}


def seated(round_tables):
    return Counter(player for table in round_tables for player in table.players)


# --- the size of a field ---------------------------------------------------------------------

@pytest.mark.parametrize(("players", "ghosts", "table_total"), [
    (0, 0, 0), (6, 2, 2), (7, 1, 2), (8, 0, 2), (9, 3, 3), (10, 2, 3), (11, 1, 3), (12, 0, 3),
    (13, 3, 4), (14, 2, 4), (15, 1, 4), (16, 0, 4), (121, 3, 31),
])
def test_a_field_needs_one_ghost_for_each_missing_player_of_its_last_tables(
        players, ghosts, table_total):
    assert ghost_seats(players) == ghosts
    assert table_count(players) == table_total


@pytest.mark.parametrize("count", [-1, 2.5, True, "8"])
def test_a_player_count_must_be_a_whole_number(count):
    with pytest.raises(SeatingError, match="whole number"):
        ghost_seats(count)


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 13, 14, 120])
def test_every_field_of_six_or_more_can_play_progressive(players):
    check_progressive_field(players)


@pytest.mark.parametrize(("players", "words"), [
    (0, "No players are checked in: add 6 players"),
    (1, "With 1 player there is only one table, and progressive movement needs at least two: "
        "add 5 players"),
    (4, "With 4 players there is only one table, and progressive movement needs at least two: "
        "add 2 players"),
    (5, "5 players would need 3 ghost seats at 2 tables, and a table holds at most one ghost: "
        "add 1 player"),
])
def test_a_progressive_field_too_small_to_move_says_how_many_to_add(players, words):
    with pytest.raises(SeatingError) as refused:
        check_progressive_field(players)
    assert str(refused.value) == words + " (6 is the smallest progressive field)."
    assert refused.value.details["add"] == 6 - players


@pytest.mark.parametrize(("players", "words"), [
    (14, "14 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 2 "
         "players or withdraw 2."),
    (13, "13 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 3 "
         "players or withdraw 1."),
    (15, "15 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 1 "
         "player or withdraw 3."),
    (2, "2 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 2 "
        "players."),
    (0, "0 players: WEC singles needs a multiple of 4 players, with no ghost seats: add 4 "
        "players."),
])
def test_wec_singles_refuses_a_field_that_is_not_whole_tables_saying_what_to_do(players, words):
    with pytest.raises(SeatingError) as refused:
        check_multiple_of_four(players)
    assert str(refused.value) == words


@pytest.mark.parametrize("players", [4, 12, 400])
def test_wec_singles_accepts_a_multiple_of_four(players):
    check_multiple_of_four(players)


# --- tables and pairings ---------------------------------------------------------------------

def test_a_table_knows_sides_partners_and_seats():
    table = Table(3, ("ann", "bob", "cy", "dee"))
    assert table.side("A") == ("ann", "cy")
    assert table.side("B") == ("bob", "dee")
    assert table.partner_of("bob") == "dee"
    assert table.partner_of("cy") == "ann"
    assert table.seat_of("dee") == 4
    assert table.side_of("cy") == "A"
    assert not table.has_ghost
    assert table.ghost_seat is None


def test_a_ghost_table_seats_three_players_and_the_ghost():
    table = Table(4, ("ann", "bob", "cy", GHOST))
    assert table.has_ghost
    assert table.ghost_seat == 4
    assert table.players == ("ann", "bob", "cy")
    assert table.partner_of("bob") is GHOST


def test_asking_for_a_player_who_is_not_at_the_table_is_refused():
    with pytest.raises(SeatingError, match="Player 'zed' is not at table 2"):
        Table(2, (1, 2, 3, 4)).seat_of("zed")


@pytest.mark.parametrize(("seats", "words"), [
    ((1, 2, 3), "has 3 seats"),
    ((1, GHOST, 3, GHOST), "at most one ghost"),
    ((1, 2, 1, 4), "same player twice"),
])
def test_a_table_that_cannot_exist_is_refused(seats, words):
    with pytest.raises(SeatingError, match=words):
        Table(1, seats)


def test_a_pairing_puts_team_a_on_side_a():
    pairing = Pairing(2, "red", "blue")
    assert pairing.team("A") == "red"
    assert pairing.team("B") == "blue"
    assert pairing.side_of("blue") == "B"
    assert pairing.side_of("red") == "A"
    with pytest.raises(SeatingError, match="Team 'green' is not at table 2"):
        pairing.side_of("green")


# --- round 1 ---------------------------------------------------------------------------------

def test_fourteen_players_sit_at_four_tables_with_ghosts_in_seat_four_of_the_last_two():
    round_one = seat_individuals(range(1, 15), random.Random(7))
    assert [table.number for table in round_one] == [1, 2, 3, 4]
    assert [table.ghost_seat for table in round_one] == [None, None, 4, 4]
    assert seated(round_one) == Counter(range(1, 15))


def test_the_round_one_draw_repeats_for_the_same_seed_and_differs_for_another():
    first = seat_individuals(range(40), random.Random(1))
    assert seat_individuals(range(40), random.Random(1)) == first
    assert seat_individuals(range(40), random.Random(2)) != first


def test_the_draw_uses_only_the_random_source_it_is_given():
    state = random.getstate()
    seat_individuals(range(30), random.Random(3))
    seat_teams(range(30), random.Random(3))
    assert random.getstate() == state


def test_round_one_refuses_a_field_too_small_for_progressive():
    with pytest.raises(SeatingError, match="add 1 player"):
        seat_individuals(range(5), random.Random(0))


@pytest.mark.parametrize(("players", "words"), [
    ([1, 2, 3, 4, 5, 1], "Player 1 is checked in twice"),
    ([1, 2, 3, 4, 5, None], "None stands for the ghost seat"),
])
def test_round_one_refuses_a_player_twice_or_without_an_id(players, words):
    with pytest.raises(SeatingError, match=words):
        seat_individuals(players, random.Random(0))


def test_teams_are_drawn_two_to_a_table():
    pairings = seat_teams(["t1", "t2", "t3", "t4", "t5", "t6"], random.Random(5))
    assert [pairing.number for pairing in pairings] == [1, 2, 3]
    assert sorted(team for p in pairings for team in (p.a, p.b)) == [f"t{i}" for i in range(1, 7)]


@pytest.mark.parametrize(("teams", "words"), [
    (7, "7 teams: add one team or withdraw one, so that every table has two."),
    (1, "1 team: a team event needs at least 2 teams: add 1."),
    (0, "0 teams: a team event needs at least 2 teams: add 2."),
])
def test_a_team_field_that_cannot_fill_its_tables_is_refused(teams, words):
    with pytest.raises(SeatingError) as refused:
        seat_teams(range(teams), random.Random(0))
    assert str(refused.value) == words


def test_a_team_entered_twice_is_refused():
    with pytest.raises(SeatingError, match="Team 'red' is checked in twice"):
        seat_teams(["red", "blue", "red", "green"], random.Random(0))


# --- progressive movement: worked examples ---------------------------------------------------

# Each case: round tables, winners, earlier partners, the next round's tables.
MOVEMENT_CASES = {
    "losers move to the next table and winners stay, becoming opponents": (
        tables((1, 2, 3, 4), (5, 6, 7, 8)), {1: "A", 2: "B"}, set(),
        tables((1, 3, 5, 7), (8, 6, 4, 2)),
    ),
    "an arrival avoids partnering someone twice": (
        tables((1, 2, 3, 4), (5, 6, 7, 8)), {1: "A", 2: "B"}, {frozenset({1, 5})},
        tables((1, 3, 7, 5), (8, 6, 4, 2)),
    ),
    "when both ways repeat a partnership, the lower seat partners the stayer who kept their seat": (
        tables((1, 2, 3, 4), (5, 6, 7, 8)), {1: "A", 2: "B"},
        {frozenset({1, 5}), frozenset({1, 7})},
        tables((1, 3, 5, 7), (8, 6, 4, 2)),
    ),
    "losers of the last table wrap round to the first": (
        tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)), {1: "B", 2: "B", 3: "B"}, set(),
        tables((4, 2, 11, 9), (8, 6, 3, 1), (12, 10, 7, 5)),
    ),
    "the ghost's side won: its partner faces it and two players arrive": (
        tables((1, 2, 3, 4), (5, 6, 7, GHOST)), {1: "A", 2: "B"}, set(),
        tables((1, 3, 5, 7), (6, 2, 4, GHOST)),
    ),
    "the ghost's side lost: nobody comes or goes, and the losers before it skip it": (
        tables((1, 2, 3, 4), (5, 6, 7, GHOST), (8, 9, 10, 11)), {1: "A", 2: "A", 3: "A"}, set(),
        tables((1, 3, 9, 11), (6, 5, 7, GHOST), (8, 10, 2, 4)),
    ),
    "the ghost's side lost: the winner who never partnered the ghost takes it": (
        tables((1, 2, 3, 4), (5, 6, 7, GHOST), (8, 9, 10, 11)), {1: "A", 2: "A", 3: "A"},
        {frozenset({5, GHOST})},
        tables((1, 3, 9, 11), (5, 7, 6, GHOST), (8, 10, 2, 4)),
    ),
    "two ghost tables side by side, one ghost side winning and one losing": (
        tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, GHOST), (12, 13, 14, GHOST)),
        {1: "A", 2: "B", 3: "B", 4: "A"}, set(),
        tables((1, 3, 9, 11), (8, 6, 4, 2), (10, 5, 7, GHOST), (13, 12, 14, GHOST)),
    ),
    "two ghost tables whose ghost sides both won take arrivals in turn": (
        tables((1, 2, 3, 4), (5, 6, 7, GHOST), (8, 9, 10, GHOST)), {1: "A", 2: "B", 3: "B"},
        set(),
        tables((1, 3, 8, 10), (6, 2, 4, GHOST), (9, 5, 7, GHOST)),
    ),
    "with only one table taking arrivals its losers stay, split up": (
        tables((1, 2, 3, GHOST), (4, 5, 6, GHOST)), {1: "B", 2: "A"}, set(),
        tables((2, 1, 3, GHOST), (5, 4, 6, GHOST)),
    ),
    "a recorded partnership with the ghost is not given twice": (
        tables((1, 2, 3, GHOST), (4, 5, 6, GHOST)), {1: "B", 2: "A"}, {frozenset({1, GHOST})},
        tables((2, 3, 1, GHOST), (5, 4, 6, GHOST)),
    ),
    "when every ghost side lost nobody moves, and each ghost's partner faces it": (
        tables((1, 2, 3, GHOST), (4, 5, 6, GHOST)), {1: "A", 2: "A"}, set(),
        tables((2, 1, 3, GHOST), (5, 4, 6, GHOST)),
    ),
    "a ghost in another seat keeps that seat": (
        tables((GHOST, 2, 3, 4), (5, 6, 7, 8)), {1: "A", 2: "A"}, set(),
        tables((GHOST, 3, 6, 8), (5, 7, 2, 4)),
    ),
}


@pytest.mark.parametrize(("before", "winners", "partners", "after"),
                         list(MOVEMENT_CASES.values()), ids=list(MOVEMENT_CASES))
def test_progressive_movement(before, winners, partners, after):
    assert progressive_next(before, winners, partners) == after


@pytest.mark.parametrize(("winners", "words"), [
    ({1: "A"}, "Table 2 has no winner for its last game: finish it"),
    ({1: "A", 2: "draw"}, "Table 2's winner must be side A or B, not 'draw'"),
    ({1: "A", 2: "B", 3: "A"}, "A winner was given for table 3, which is not in this round"),
])
def test_movement_waits_for_a_winner_at_every_table_and_only_those(winners, words):
    with pytest.raises(SeatingError, match=words):
        progressive_next(tables((1, 2, 3, 4), (5, 6, 7, 8)), winners, set())


def test_movement_refuses_a_player_seated_at_two_tables():
    with pytest.raises(SeatingError, match="Player 3 is seated at two tables"):
        progressive_next(tables((1, 2, 3, 4), (5, 6, 3, 8)), {1: "A", 2: "A"}, set())


def test_movement_refuses_two_tables_with_one_number():
    round_tables = [Table(1, (1, 2, 3, 4)), Table(1, (5, 6, 7, 8))]
    with pytest.raises(SeatingError, match="share a table number"):
        progressive_next(round_tables, {1: "A"}, set())


def test_tables_come_back_in_table_number_order_whatever_order_they_were_given():
    before = tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, GHOST))
    winners = {1: "A", 2: "B", 3: "A"}
    shuffled = [before[2], before[0], before[1]]
    assert progressive_next(shuffled, winners, set()) == progressive_next(before, winners, set())


# --- progressive movement: the rule book as a checker ----------------------------------------

def accepting_tables(before, winners):
    """Tables that take arrivals: every table of four, and ghost tables whose ghost side won."""
    return [table.number for table in sorted(before, key=lambda t: t.number)
            if table.ghost_seat is None or SIDE_OF_SEAT[table.ghost_seat] == winners[table.number]]


def the_three_splits(four):
    """The three ways to split four occupants into two partnerships."""
    first, *rest = four
    return [{frozenset((first, rest[i])), frozenset(rest[:i] + rest[i + 1:])} for i in range(3)]


def assert_moved_by_the_rules(before, winners, partners, after):
    """Check one round of movement against RULES.md, section 3, "progressive"."""
    old = {table.number: table for table in before}
    new = {table.number: table for table in after}
    assert sorted(new) == sorted(old)
    assert seated(after) == seated(before)
    assert all(count == 1 for count in seated(after).values())

    accepting = accepting_tables(before, winners)
    known = set(partners) | partnerships(before)
    last_round = partnerships(before)
    for number, table in old.items():
        won = winners[number]
        stayers = [p for p in table.side(won) if p is not GHOST]
        losers = [p for p in table.side("B" if won == "A" else "A") if p is not GHOST]
        now = new[number]
        assert set(stayers) <= set(now.players)
        if number in accepting:
            destination = accepting[(accepting.index(number) + 1) % len(accepting)]
            assert set(losers) <= set(new[destination].players)
        else:
            assert set(now.players) == set(table.players)
        if table.has_ghost:
            # The ghost never moves, and its last partner now faces it.
            assert now.ghost_seat == table.ghost_seat
            last_partner = table.seats[(table.ghost_seat + 1) % 4]  # the seat opposite
            assert now.side_of(last_partner) != SIDE_OF_SEAT[now.ghost_seat]
        elif number in accepting:
            # The winners stay and become opponents, one of them keeping their seat.
            assert now.side_of(stayers[0]) != now.side_of(stayers[1])
            assert any(now.seat_of(p) == table.seat_of(p) for p in stayers)

    for table in after:
        chosen = partnerships([table])
        splits = the_three_splits(table.seats)
        assert sum(1 for split in splits if split <= last_round) == 1, \
            "the four at a table were two partnerships last round"
        alternative = next(split for split in splits if split != chosen
                           and not split <= last_round)
        assert len(chosen & known) <= len(alternative & known), \
            f"table {table.number} repeats a partnership that the other way avoids"


def play_progressive(round_one, winners_by_round):
    """Play rounds with the given winners, checking each move; returns every round's tables."""
    rounds = [round_one]
    partners = partnerships(round_one)
    for winners in winners_by_round:
        after = progressive_next(rounds[-1], winners, partners)
        assert_moved_by_the_rules(rounds[-1], winners, partners, after)
        partners |= partnerships(after)
        rounds.append(after)
    return rounds


def test_the_fourteen_player_example_over_five_rounds():
    round_one = tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, GHOST), (12, 13, 14, GHOST))
    winners = [
        {1: "A", 2: "B", 3: "B", 4: "A"},
        {1: "B", 2: "B", 3: "A", 4: "B"},
        {1: "A", 2: "A", 3: "B", 4: "B"},
        {1: "B", 2: "A", 3: "A", 4: "A"},
    ]
    rounds = play_progressive(round_one, winners)
    assert rounds[1] == tables((1, 3, 9, 11), (8, 6, 4, 2), (10, 5, 7, GHOST),
                               (13, 12, 14, GHOST))
    assert rounds[4] == tables((4, 14, 13, 9), (2, 3, 11, 12), (7, 1, 6, GHOST),
                               (8, 5, 10, GHOST))
    # Nobody partners the same player twice in five rounds; only the ghost comes round again.
    real_pairs = Counter(pair for tables_ in rounds for pair in partnerships(tables_)
                         if GHOST not in pair)
    assert max(real_pairs.values()) == 1
    # The ghosts never left table 3 and table 4, seat 4.
    assert all([table.ghost_seat for table in round_tables] == [None, None, 4, 4]
               for round_tables in rounds)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=6, max_value=120), seed=st.integers(0, 2**32 - 1))
def test_progressive_movement_keeps_every_rule_over_five_rounds(players, seed):
    rng = random.Random(seed)
    round_one = seat_individuals(range(1, players + 1), rng)
    winners = [{table.number: rng.choice("AB") for table in round_one} for _ in range(4)]
    rounds = play_progressive(round_one, winners)
    ghost_places = [(table.number, table.ghost_seat) for table in round_one if table.has_ghost]
    for round_tables in rounds:
        assert seated(round_tables) == Counter(range(1, players + 1))
        assert [(t.number, t.ghost_seat) for t in round_tables if t.has_ghost] == ghost_places


# --- teams rotation ----------------------------------------------------------------------------

def pairings(*rows):
    return [Pairing(number, a, b) for number, (a, b) in enumerate(rows, start=1)]


TEAMS_CASES = {
    "losers move on and take the side the winners left": (
        pairings(("r", "s"), ("t", "u"), ("v", "w")), {1: "A", 2: "A", 3: "A"},
        pairings(("r", "w"), ("t", "s"), ("v", "u")),
    ),
    "winners keep their seats on either side": (
        pairings(("r", "s"), ("t", "u"), ("v", "w")), {1: "B", 2: "A", 3: "B"},
        pairings(("v", "s"), ("t", "r"), ("u", "w")),
    ),
    "two tables swap their losers": (
        pairings(("r", "s"), ("t", "u")), {1: "A", 2: "B"},
        pairings(("r", "t"), ("s", "u")),
    ),
}


@pytest.mark.parametrize(("before", "winners", "after"), list(TEAMS_CASES.values()),
                         ids=list(TEAMS_CASES))
def test_teams_rotation(before, winners, after):
    assert teams_next(before, winners) == after


def test_teams_rotation_waits_for_every_table():
    with pytest.raises(SeatingError, match="Table 2 has no winner"):
        teams_next(pairings(("r", "s"), ("t", "u")), {1: "A"})


def test_teams_rotation_brings_a_losing_team_round_every_table():
    # The same team losing every round visits each table in turn, wrapping from last to first.
    before = pairings(("r", "s"), ("t", "u"), ("v", "w"))
    visited = []
    for _ in range(3):
        table = next(p for p in before if "s" in (p.a, p.b))
        visited.append(table.number)
        winners = {p.number: "B" if p.a == "s" else "A" for p in before}  # "s" always loses
        before = teams_next(before, winners)
    assert visited == [1, 2, 3]
    assert next(p.number for p in before if "s" in (p.a, p.b)) == 1


# --- WEC doubles -------------------------------------------------------------------------------

def test_wec_doubles_game_one_is_the_draw_itself():
    draw = pairings(("h1", "v1"), ("h2", "v2"))
    assert wec_doubles_round(draw, {}, 1) == draw


def test_wec_doubles_home_teams_stay_and_visitors_move_one_table_a_game():
    draw = pairings(("h1", "v1"), ("v2", "h2"), ("h3", "v3"), ("v4", "h4"))
    first_winners = {1: "A", 2: "B", 3: "A", 4: "B"}
    expected_tables = {  # game -> the table each visitor plays at
        2: {"v1": 2, "v2": 3, "v3": 4, "v4": 1},
        3: {"v1": 3, "v2": 4, "v3": 1, "v4": 2},
        4: {"v1": 4, "v2": 1, "v3": 2, "v4": 3},
        5: {"v1": 1, "v2": 2, "v3": 3, "v4": 4},
        8: {"v1": 4, "v2": 1, "v3": 2, "v4": 3},
    }
    for game in range(2, 9):
        pairings_ = wec_doubles_round(draw, first_winners, game)
        for before, now in zip(draw, pairings_, strict=True):
            home_side = first_winners[before.number]
            assert now.team(home_side) == before.team(home_side)
        if game in expected_tables:
            where = {p.team("B" if first_winners[p.number] == "A" else "A"): p.number
                     for p in pairings_}
            assert where == expected_tables[game]


def test_wec_doubles_visitors_meet_every_home_team_once_in_eight_games_at_eight_tables():
    draw = pairings(*[(f"h{t}", f"v{t}") for t in range(1, 9)])
    first_winners = {t: "A" for t in range(1, 9)}
    meetings = Counter((p.a, p.b) for game in range(2, 10)
                       for p in wec_doubles_round(draw, first_winners, game))
    assert len(meetings) == 64 and set(meetings.values()) == {1}


@pytest.mark.parametrize("game", [0, -1, 1.5, True])
def test_wec_doubles_games_are_numbered_from_one(game):
    with pytest.raises(SeatingError, match="Games are numbered from 1"):
        wec_doubles_round(pairings(("a", "b"), ("c", "d")), {1: "A", 2: "A"}, game)


def test_wec_doubles_needs_every_game_one_winner_from_game_two():
    with pytest.raises(SeatingError, match="Table 1 has no winner"):
        wec_doubles_round(pairings(("a", "b"), ("c", "d")), {2: "A"}, 2)


def test_pairings_with_one_number_are_refused():
    with pytest.raises(SeatingError, match="share a table number"):
        teams_next([Pairing(1, "a", "b"), Pairing(1, "c", "d")], {1: "A"})


def test_the_three_splits_helper_lists_every_way_to_pair_four():
    assert len({frozenset(map(frozenset, s)) for s in the_three_splits((1, 2, 3, 4))}) == 3
    assert all(len(pair) == 2 for split in the_three_splits((1, 2, 3, GHOST)) for pair in split)

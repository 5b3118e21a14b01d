"""Accommodations (RULES.md §4): an entrant who stays never changes table, in every movement."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.accommodation import check_tables, free_targets, place_players, place_teams
from api.rules.errors import SeatingError
from api.rules.schedules import schedule_report, wec_singles_schedule
from api.rules.seating import (
    GHOST,
    Pairing,
    StayError,
    Table,
    progressive_move,
    seat_individuals,
    seat_teams,
    teams_move,
    wec_doubles_move,
)


def tables(*rows):
    return [Table(number, tuple(row)) for number, row in enumerate(rows, start=1)]


# --- progressive: the examples of RULES.md ---------------------------------------------------

def test_where_the_stayers_side_loses_the_stayer_stays_and_the_higher_seated_winner_moves():
    # Ann (seat 2) stays; side A (Bob, Dan) won table 1; nobody has partnered before.
    before = tables(("Bob", "Ann", "Dan", "Cat"), ("Eve", "Fay", "Gus", "Hal"))
    moved = progressive_move(before, {1: "A", 2: "A"}, set(), stays={"Ann"})
    one, two = moved.tables
    assert "Ann" in one.players and "Bob" in one.players, "Ann and the lower-seat winner stay"
    assert {"Dan", "Cat"} <= set(two.players), "Dan (seat 3) moves with the other loser"
    assert one.seat_of("Ann") == 2 and one.seat_of("Bob") == 1, "already opponents: both sit"
    [change] = moved.changes
    assert change.table == 1 and change.stayed == ("Ann",) and change.moved == ("Dan",)
    assert change.to == 2


def test_the_winner_who_moves_is_the_one_whose_move_avoids_a_repeat_partner():
    before = tables(("Bob", "Ann", "Dan", "Cat"), ("Eve", "Fay", "Gus", "Hal"))
    # Table 2's losers, Fay and Hal, arrive at table 1 to partner Ann and the winner who
    # stays there. Both have partnered Bob already, so Bob moves on instead of Dan.
    partners = {frozenset(("Bob", "Fay")), frozenset(("Bob", "Hal"))}
    moved = progressive_move(before, {1: "A", 2: "A"}, partners, stays={"Ann"})
    [change] = moved.changes
    assert change.moved == ("Bob",)
    one = moved.tables[0]
    assert {"Ann", "Dan", "Fay", "Hal"} == set(one.players)


def test_two_stayers_on_opposite_sides_both_stay_and_the_other_two_move():
    before = tables(("Ann", "Bob", "Cat", "Dan"), ("Eve", "Fay", "Gus", "Hal"))
    moved = progressive_move(before, {1: "B", 2: "A"}, set(), stays={"Ann", "Bob"})
    one, two = moved.tables
    assert one.seat_of("Ann") == 1 and one.seat_of("Bob") == 2
    assert {"Cat", "Dan"} <= set(two.players)
    assert one.partner_of("Ann") in {"Fay", "Hal"} and one.partner_of("Bob") in {"Fay", "Hal"}


def test_a_stayer_at_a_ghost_table_stays_with_the_ghost_and_the_ghosts_partner_moves():
    before = tables(("Ann", "Bob", "Cat", "Dan"), ("Eve", "Fay", "Gus", GHOST),
                    ("Ian", "Jo", "Kay", GHOST))
    # Table 2: the ghost's side (B: Fay and the ghost) won; Eve (side A, lost) stays.
    moved = progressive_move(before, {1: "A", 2: "B", 3: "B"}, set(), stays={"Eve"})
    two = moved.tables[1]
    assert "Eve" in two.players and two.ghost_seat == 4
    assert "Fay" not in two.players and "Gus" not in two.players


def test_three_who_never_move_at_one_table_are_refused():
    before = tables(("Ann", "Bob", "Cat", "Dan"), ("Eve", "Fay", "Gus", GHOST))
    with pytest.raises(StayError, match="Table 2 holds 2 players who stay and the ghost"):
        progressive_move(before, {1: "A", 2: "A"}, set(), stays={"Eve", "Fay"})


def test_a_stay_at_a_table_the_round_does_not_have_is_refused_by_name():
    with pytest.raises(StayError, match="Ann stays at table 4, but this round has only 3"):
        check_tables({7: 4}, 3, {7: "Ann"})


def test_a_player_away_from_their_table_changes_places_with_one_who_does_not_stay():
    seated, changes = place_players([["a", "b", "c", "d"], ["e", "f", "g", "h"]],
                                    {"a": 2, "e": 2})
    assert "a" in seated[1] and "e" in seated[1]
    assert seated[1].index("a") % 2 != seated[1].index("e") % 2, "on the other side from e"
    [change] = changes
    assert change.table == 2 and change.stayed == ("a",) and change.to == 1


def test_stayers_where_first_seated_get_tables_of_their_own_without_ghosts_first():
    targets = free_targets({"a": 0, "b": 0, "c": 2}, 4, random.Random(1), ghost_tables={4})
    assert targets["c"] == 2
    assert {targets["a"], targets["b"]} == {1, 3}


# --- progressive: properties -----------------------------------------------------------------

@st.composite
def progressive_nights(draw):
    players = draw(st.integers(min_value=6, max_value=60))
    seed = draw(st.integers(0, 2**32 - 1))
    count = -(-players // 4)
    ghosts = (4 - players % 4) % 4
    room = {t: (1 if t > count - ghosts else 2) for t in range(1, count + 1)}
    stays, ids = {}, list(range(players))
    for player in draw(st.lists(st.sampled_from(ids), max_size=8, unique=True)):
        table = draw(st.integers(0, count))
        if table == 0 or room[table]:
            stays[player] = table
            if table:
                room[table] -= 1
    return players, seed, stays


@settings(max_examples=60, deadline=None)
@given(night=progressive_nights())
def test_a_progressive_stayer_is_at_their_table_in_every_round_whatever_the_results(night):
    players, seed, stays = night
    rng = random.Random(seed)
    first = seat_individuals(range(players), rng)
    ghosts = {t.number for t in first if t.has_ghost}
    room = {t: 1 for t in ghosts}
    # Stays where first seated (0) take tables with room, as the service does.
    targets = free_targets(stays, len(first), rng, ghosts)
    load = Counter(targets.values())
    if any(load[t] > room.get(t, 2) for t in load):
        return  # more loose stayers than the tables have room for: refused elsewhere
    seats, _ = place_players([list(t.seats) for t in first], targets)
    current = [Table(i, tuple(s)) for i, s in enumerate(seats, start=1)]
    partners: set = set()
    for _round in range(5):
        for player, table in targets.items():
            assert current[table - 1].seat_of(player), (player, table)
        assert sorted(p for t in current for p in t.players) == list(range(players))
        assert {t.number for t in current if t.has_ghost} == ghosts
        for table in current:
            partners.update(frozenset(table.side(side)) for side in "AB")
        winners = {t.number: rng.choice("AB") for t in current}
        moved = progressive_move(current, winners, partners, stays=set(targets))
        current = moved.tables


# --- teams and WEC doubles -------------------------------------------------------------------

def test_a_team_that_stays_and_loses_keeps_its_table_and_the_winning_team_moves():
    before = [Pairing(1, "N", "S"), Pairing(2, "E", "W"), Pairing(3, "H", "C")]
    moved = teams_move(before, {1: "A", 2: "A", 3: "A"}, stays={"W"})
    assert moved.tables == [Pairing(1, "N", "C"), Pairing(2, "S", "W"), Pairing(3, "H", "E")]
    [change] = moved.changes
    assert change.stayed == ("W",) and change.moved == ("E",) and change.to == 3


def test_two_teams_that_stay_at_one_table_leave_the_rotation():
    before = [Pairing(1, "N", "S"), Pairing(2, "E", "W"), Pairing(3, "H", "C")]
    moved = teams_move(before, {1: "A", 2: "A", 3: "A"}, stays={"E", "W"})
    assert moved.tables == [Pairing(1, "N", "C"), Pairing(2, "E", "W"), Pairing(3, "H", "S")]


@st.composite
def team_fields(draw):
    teams = 2 * draw(st.integers(min_value=1, max_value=12))
    count = teams // 2
    targets = draw(st.lists(st.integers(1, count), max_size=min(count, 4), unique=True))
    stayers = draw(st.permutations(range(teams)))[:len(targets)]
    return teams, dict(zip(stayers, targets, strict=True)), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=80, deadline=None)
@given(field=team_fields())
def test_a_team_that_stays_is_at_its_table_every_round_of_teams_and_wec_doubles(field):
    teams, stays, seed = field
    rng = random.Random(seed)
    drawn = [(p.a, p.b) for p in seat_teams(range(teams), rng)]
    pairs, _ = place_teams(drawn, stays)
    first = [Pairing(i, a, b) for i, (a, b) in enumerate(pairs, start=1)]
    first_winners = {p.number: rng.choice("AB") for p in first}
    current = first
    for game in range(1, 9):
        doubles = wec_doubles_move(first, first_winners, game, stays=set(stays)).tables
        for round_ in (current, doubles):
            where = {team: p.number for p in round_ for team in (p.a, p.b)}
            assert sorted(where) == list(range(teams))
            for team, table in stays.items():
                assert where[team] == table
        winners = {p.number: rng.choice("AB") for p in current}
        current = teams_move(current, winners, stays=set(stays)).tables


# --- WEC singles -----------------------------------------------------------------------------

@st.composite
def singles_fields(draw):
    tables_ = draw(st.integers(min_value=3, max_value=10))
    players = 4 * tables_
    chosen = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=3, unique=True))
    stays = {p: draw(st.integers(0, tables_)) for p in chosen}
    explicit = [t for t in stays.values() if t]
    if len(set(explicit)) != len(explicit):
        stays = {p: 0 for p in stays}  # one table each
    return players, stays, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=12, deadline=None)
@given(field=singles_fields())
def test_a_wec_singles_stayer_has_one_table_for_all_games_and_nobody_partners_twice(field):
    players, stays, seed = field
    schedule = wec_singles_schedule(range(players), 8, random.Random(seed), stays=stays)
    assert schedule_report(schedule).repeated_partners == 0
    for player, wanted in stays.items():
        homes = {next(t.number for t in game if player in t.players) for game in schedule}
        assert len(homes) == 1, (player, homes)
        if wanted:
            assert homes == {wanted}
    for game in schedule:
        assert [t.number for t in game] == list(range(1, players // 4 + 1))
        assert sorted(p for t in game for p in t.players) == list(range(players))


def test_wec_singles_without_stays_is_the_same_schedule_as_before():
    plain = wec_singles_schedule(range(16), 8, random.Random(3))
    assert wec_singles_schedule(range(16), 8, random.Random(3), stays={}) == plain


def test_wec_singles_refuses_a_stay_at_a_table_it_does_not_have():
    with pytest.raises(SeatingError, match="stays at table 5, but this round has only 4"):
        wec_singles_schedule(range(16), 8, random.Random(3), stays={2: 5})

"""Field changes between rounds: withdrawals leave ghosts, late arrivals fill them, and no
table is ever left with two ghosts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import SeatingError
from api.rules.field import fill_pairings, fill_seats

G = None


def _players(tables):
    return [p for t in tables for p in t if p is not G]


def test_a_withdrawn_player_leaves_a_ghost_in_their_seat():
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert fill_seats(tables, {6}, []) == [[1, 2, 3, 4], [5, G, 7, 8], [9, 10, 11, 12]]


def test_a_late_arrival_takes_a_ghost_seat():
    tables = [[1, 2, 3, 4], [5, 6, 7, G]]
    assert fill_seats(tables, set(), [9]) == [[1, 2, 3, 4], [5, 6, 7, 9]]


def test_a_late_arrival_with_no_ghost_seat_opens_a_table_filled_from_the_last_full_ones():
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    seated = fill_seats(tables, set(), [17])
    assert len(seated) == 5
    assert sorted(_players(seated)) == list(range(1, 18))
    assert all(t.count(G) <= 1 for t in seated)
    assert seated[0] == [1, 2, 3, 4], "the first tables are left alone"


def test_two_players_leaving_one_table_never_leave_two_ghosts_together():
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    seated = fill_seats(tables, {9, 10}, [])
    assert all(t.count(G) <= 1 for t in seated)
    assert sorted(_players(seated)) == [1, 2, 3, 4, 5, 6, 7, 8, 11, 12]


def test_a_table_emptied_by_withdrawals_is_taken_down():
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, G]]
    seated = fill_seats(tables, {9, 10}, [])
    assert len(seated) == 3
    assert sorted(_players(seated)) == [1, 2, 3, 4, 5, 6, 7, 8, 11]
    seated = fill_seats(tables, {9, 10, 11, 8}, [])
    assert len(seated) == 2 and sorted(_players(seated)) == [1, 2, 3, 4, 5, 6, 7]


def test_fewer_than_six_players_cannot_be_seated():
    with pytest.raises(SeatingError, match="too few"):
        fill_seats([[1, 2, 3, 4], [5, 6, 7, G]], {1, 2}, [])


@settings(max_examples=150, deadline=None)
@given(st.integers(6, 60), st.data())
def test_any_field_change_seats_everyone_once_with_at_most_one_ghost_a_table(n, data):
    tables_needed = -(-n // 4)
    ghosts = 4 * tables_needed - n
    seats = list(range(1, n + 1)) + [G] * ghosts
    tables = [seats[i:i + 4] for i in range(0, len(seats), 4)]
    withdrawn = set(data.draw(st.lists(st.integers(1, n), max_size=n // 3, unique=True)))
    arrivals = list(range(1000, 1000 + data.draw(st.integers(0, 9))))
    remaining = n - len(withdrawn) + len(arrivals)
    if remaining < 6:
        with pytest.raises(SeatingError):
            fill_seats(tables, withdrawn, arrivals)
        return
    seated = fill_seats(tables, withdrawn, arrivals)
    assert sorted(_players(seated)) == sorted(set(range(1, n + 1)) - withdrawn | set(arrivals))
    assert len(seated) == -(-remaining // 4)
    assert all(t.count(G) <= 1 for t in seated)


def test_a_late_team_takes_the_place_of_a_team_that_withdrew():
    assert fill_pairings([(1, 2), (3, 4)], {3}, [9]) == [(1, 2), (9, 4)]


def test_teams_left_without_opponents_are_paired_up_and_late_teams_play_each_other():
    assert fill_pairings([(1, 2), (3, 4), (5, 6)], {2, 3}, [7, 8]) == \
        [(1, 7), (8, 4), (5, 6)]
    assert fill_pairings([(1, 2), (3, 4)], {2, 3}, []) == [(1, 4)]
    assert fill_pairings([(1, 2)], set(), [3, 4]) == [(1, 2), (3, 4)]


def test_an_odd_number_of_teams_cannot_be_seated():
    with pytest.raises(SeatingError, match="3 teams"):
        fill_pairings([(1, 2), (3, 4)], {4}, [])

"""Entrants struck from the places (a team removed from a league; later, a disqualification)
keep their results for their opponents, but take no place, no prize and no award."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.rules.presets import get_preset
from api.rules.standings import Result, Standing, awards, standings_for, strike


def _standing(entrant, place, shared=False):
    return Standing(entrant, place, total=100 - place, shared=shared, prize=place <= 2)


def test_the_places_below_a_struck_entrant_close_up():
    board = [_standing("a", 1), _standing("b", 2, True), _standing("c", 2, True),
             _standing("d", 4)]
    after = strike(board, {"b"}, prizes=2)
    assert [(s.entrant, s.place, s.shared, s.prize) for s in after] == [
        ("a", 1, False, True), ("c", 2, False, True), ("d", 3, False, False),
        ("b", None, False, False)]


@given(st.lists(st.integers(0, 30), min_size=1, max_size=12), st.data())
def test_striking_keeps_the_order_and_ties_of_everyone_else(totals, data):
    preset = get_preset("progressive")
    players = list(range(len(totals)))
    results = [Result(entrant=p, round=1, points=t, won=True) for p, t in zip(players, totals,
                                                                              strict=True)]
    struck = set(data.draw(st.lists(st.sampled_from(players), unique=True)))
    before = standings_for(preset, results, players)
    after = standings_for(preset, results, players, struck=struck)
    placed = [s for s in after if s.place is not None]
    assert {s.entrant for s in placed} == set(players) - struck
    assert [s.entrant for s in after if s.place is None] == \
        [s.entrant for s in before if s.entrant in struck]
    order = [s.entrant for s in sorted(before, key=lambda s: s.place) if s.entrant not in struck]
    assert [s.entrant for s in sorted(placed, key=lambda s: s.place)] == order
    for s in placed:  # one more ahead means a place further down, equal totals share
        ahead = sum(1 for o in placed if o.total > s.total)
        assert s.place == ahead + 1
        assert s.shared == (sum(1 for o in placed if o.total == s.total) > 1)


def test_a_struck_entrant_takes_no_award():
    preset = get_preset("wec-singles")
    results = [Result(entrant="low", round=1, points=1, won=False),
               Result(entrant="high", round=1, points=12, won=True),
               Result(entrant="mid", round=1, points=6, won=False)]
    board = standings_for(preset, results, ["low", "high", "mid"], struck={"low", "high"})
    found = awards(board, results)
    assert found.low_score == ("mid",) and found.high_game == (("mid", 1),)

"""A series' scoring rule and a player's statistics from the hands (api/rules/series.py,
api/rules/stats.py): pure functions, checked by examples and by properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules import series as rs
from api.rules import stats as rstats


def _event(name, places):
    """places: {person: place}; totals fall with the place."""
    return rs.EventResult(name, tuple(rs.Finish(p, place, 100 - (place or 99))
                                      for p, place in places.items()))


def test_shared_places_share_the_points_they_cover():
    rule = rs.check_rule("places", [10, 8, 6, 5], None, None)
    points = rs.place_points(rule, _event("jan", {"a": 1, "b": 2, "c": 2, "d": 4}).finishes)
    assert points == {"a": 10.0, "b": 7.0, "c": 7.0, "d": 5.0}
    # Three sharing 2nd cover 2nd-4th: (8+6+5)/3 = 6.33.., kept to one decimal.
    points = rs.place_points(rule, _event("jan", {"a": 1, "b": 2, "c": 2, "d": 2}).finishes)
    assert points["b"] == 6.3
    # Past the table: nothing; struck (no place): nothing.
    points = rs.place_points(rule, _event("x", {"a": 5, "b": None}).finishes)
    assert points == {"a": 0.0, "b": 0.0}


def test_best_of_and_minimum_events():
    rule = rs.check_rule("places", [10, 8, 6], 2, 2)
    table = rs.standings(rule, [_event("jan", {"a": 1, "b": 2}), _event("feb", {"a": 3, "b": 1}),
                                _event("mar", {"a": 1, "c": 2})])
    by = {row.person: row for row in table}
    assert by["a"].total == 20.0 and [r.counted for r in by["a"].results] == [True, False, True]
    assert by["b"].total == 18.0 and by["b"].place == 2
    assert by["c"].ranked is False and by["c"].place is None and table[-1].person == "c"


def test_level_totals_share_the_place():
    rule = rs.check_rule("total", None, None, None)
    table = rs.standings(rule, [rs.EventResult("e", (rs.Finish("a", 1, 30), rs.Finish("b", 1, 30),
                                                     rs.Finish("c", 3, 20)))])
    assert [(r.person, r.place) for r in table] == [("a", 1), ("b", 1), ("c", 3)]


@pytest.mark.parametrize("method, points, best, least, words", [
    ("medals", None, None, None, "scoring method"),
    ("places", [], None, None, "needs a points table"),
    ("places", [3, 5], None, None, "must not give a lower place"),
    ("places", [True], None, None, "give a number"),
    ("total", [1], None, None, "only used when scoring"),
    ("total", None, 0, None, "best_of"),
    ("total", None, None, 1001, "min_events"),
])
def test_a_rule_that_cannot_be_used_says_why(method, points, best, least, words):
    with pytest.raises(rs.SeriesRuleError, match=words):
        rs.check_rule(method, points, best, least)


finishes = st.lists(st.integers(1, 12), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(places=finishes, table=st.lists(st.integers(0, 50), min_size=1, max_size=15))
def test_shared_places_never_create_or_lose_points(places, table):
    table = sorted(table, reverse=True)
    # Places as a standings table gives them: sorted, a shared place skips the next ones.
    ordered = sorted(places)
    given_places, place = [], 0
    for index, value in enumerate(ordered):
        if index == 0 or value != ordered[index - 1]:
            place = index + 1
        given_places.append(place)
    rule = rs.check_rule("places", table, None, None)
    result = rs.place_points(rule, [rs.Finish(i, p, 0) for i, p in enumerate(given_places)])
    covered = sum(table[i] if i < len(table) else 0 for i in range(len(given_places)))
    # Each shared share is rounded to one decimal: at most 0.05 off per person.
    assert abs(sum(result.values()) - covered) <= 0.05 * len(given_places) + 1e-9


@settings(max_examples=100, deadline=None)
@given(events=st.lists(st.lists(st.integers(0, 40), min_size=1, max_size=6), min_size=1,
                       max_size=6), best=st.integers(1, 6))
def test_best_of_counts_the_best_results(events, best):
    rule = rs.check_rule("total", None, best, None)
    results = [rs.EventResult(n, tuple(rs.Finish(p, 1, total) for p, total in enumerate(totals)))
               for n, totals in enumerate(events)]
    for row in rs.standings(rule, results):
        mine = sorted((r.points for r in row.results), reverse=True)
        assert row.total == pytest.approx(sum(mine[:best]))
        assert sum(r.counted for r in row.results) == min(best, len(mine))


def _hand(side="A", seat=1, maker="A", tricks=3, alone=False, loner_seat=None, renege=None,
          points=1, event="e", partner=None):
    return rstats.PlayedHand(side, seat, maker, alone, loner_seat, tricks,
                             renege[0] if renege else None, renege[1] if renege else None,
                             points, partner, event)


def test_a_players_figures_follow_their_side_and_seat():
    played = [_hand(tricks=3), _hand(tricks=5, points=2), _hand(maker="B", tricks=1, points=2),
              _hand(tricks=4, alone=True, loner_seat=1, points=1),
              _hand(tricks=5, alone=True, loner_seat=3, points=4),  # the partner's loner
              _hand(tricks=5, alone=True, loner_seat=None, points=4),  # seat not recorded
              _hand(tricks=2, points=0), _hand(maker="A", tricks=None, renege=("A", True))]
    s = rstats.player_stats(played)["overall"]
    assert s["hands"] == 8 and s["called"] == 6 and s["made"] == 5 and s["euchred"] == 1
    assert s["marches"] == 3 and s["euchres"] == 1 and s["reneges"] == 1
    # A lone march is a loner made too (RULES.md §5: one meaning of "made").
    assert s["loners"] == 2 and s["loners_made"] == 2 and s["loners_marched"] == 1
    assert s["loners_unattributed"] == 1
    assert s["make_pct"] == pytest.approx(83.3) and s["points"] == 15


def test_the_best_partner_needs_enough_hands_together():
    played = [_hand(partner="x", points=2)] * 16 + [_hand(partner="y", points=4)] * 15
    best = rstats.player_stats(played)["best_partner"]
    assert best == {"partner": "x", "hands": 16, "points_per_hand": 2.0}


hands = st.builds(_hand, side=st.sampled_from("AB"), seat=st.sampled_from([1, 2, 3, 4]),
                  maker=st.sampled_from("AB"), tricks=st.integers(0, 5), alone=st.booleans(),
                  points=st.integers(0, 4), event=st.sampled_from(["j", "f", "m"]))


@settings(max_examples=200, deadline=None)
@given(played=st.lists(hands, max_size=60))
def test_the_figures_add_up(played):
    figures = rstats.player_stats(played)
    s = figures["overall"]
    assert s["made"] + s["euchred"] == s["called"] <= s["hands"]
    assert s["marches"] <= s["made"]
    assert s["loners_made"] + s["loners_euchred"] == s["loners"]
    assert s["loners_marched"] <= s["loners_made"]
    assert s["make_pct"] is None or 0 <= s["make_pct"] <= 100
    for key in ("hands", "called", "made", "points", "loners", "euchres"):
        assert sum(e[key] for e in figures["events"].values()) == s[key]


def test_hand_awards_pick_the_best_and_share_a_tie():
    tallies = {"a": {"loners_made": 2, "loners_marched": 1, "marches": 2, "called": 6,
                     "make_pct": 83.3},
               "b": {"loners_made": 2, "loners_marched": 0, "marches": 1, "called": 4,
                     "make_pct": 100.0}}
    assert rstats.hand_award("most-loners", tallies) == (2, ["a", "b"])
    assert rstats.hand_award("most-marches", tallies) == (2, ["a"])
    assert rstats.hand_award("best-make-pct", tallies) == (83.3, ["a"])  # b: only 4 calls
    assert rstats.hand_award("most-marches", {}) == (None, [])
    with pytest.raises(ValueError, match="No award"):
        rstats.hand_award("longest-game", tallies)


def test_most_loners_made_counts_what_the_profile_calls_loners_made():
    """One meaning of "made": the award's figure is the profile's loners_made, marches
    included, for every mix of hands."""
    played = [_hand(tricks=5, alone=True, loner_seat=1, points=4),
              _hand(tricks=3, alone=True, loner_seat=1, points=1),
              _hand(tricks=1, alone=True, loner_seat=1, points=0)]
    mine = rstats.player_stats(played)["overall"]
    assert mine["loners_made"] == 2 and mine["loners_marched"] == 1
    assert rstats.hand_award("most-loners", {"me": mine}) == (2, ["me"])


@settings(max_examples=100, deadline=None)
@given(played=st.lists(hands, max_size=40))
def test_the_award_and_the_profile_agree_on_loners_made(played):
    mine = rstats.player_stats(played)["overall"]
    value, winners = rstats.hand_award("most-loners", {"me": mine})
    assert (value or 0) == mine["loners_made"]

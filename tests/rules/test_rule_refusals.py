"""The rules' refusals an organizer can reach through a form (money, a series' points, the
league's calendar, a custom format), each saying what is wrong."""

from __future__ import annotations

from datetime import date

import pytest

from api.rules import league_calendar as calendar
from api.rules import prizes, series
from api.rules.presets import InvalidPreset, build_preset


def test_money_that_cannot_be_paid_out_is_refused_saying_why():
    with pytest.raises(prizes.MoneyError, match="whole numbers, 0 or more"):
        prizes.check_split([(1, (50.5, 49.5))])
    with pytest.raises(prizes.MoneyError, match="cannot be negative"):
        prizes.prize_pool(fee=-5, paid=10)
    with pytest.raises(prizes.MoneyError, match="Draw at least one winner"):
        prizes.draw(["Ann", "Bo"], 0, seed=1)


def test_a_series_points_table_has_a_limit_and_total_scoring_counts_each_total():
    with pytest.raises(series.SeriesRuleError, match="at most 500 places"):
        series.check_rule("places", [1] * 501, None, None)
    finishes = [series.Finish("Ann", 1, 42), series.Finish("Bo", None, 17)]
    assert series.place_points(series.Rule(), finishes) == {"Ann": 42.0, "Bo": 17.0}


def test_a_change_to_a_week_the_season_does_not_have_is_refused():
    with pytest.raises(calendar.CalendarError, match="no week 9 in a season of 3 weeks"):
        calendar.season_nights(date(2027, 1, 5), 3, [{"kind": "shift", "week": 9, "days": 7}])
    # A playoff round without a night of its own yet is no refusal.
    calendar.check_playoff_nights([date(2027, 1, 5)], [None, date(2027, 1, 19)])


def test_a_custom_format_that_contradicts_itself_is_refused():
    with pytest.raises(InvalidPreset, match="wrong renege claim"):
        build_preset("progressive", {"game_sheet": True, "false_claim_points": 2})
    with pytest.raises(InvalidPreset, match="lone march"):
        build_preset("progressive", {"points_loner_made": 4, "points_loner_march": 3})


"""The check-in window's time arithmetic (RULES.md §4), without Flask: typed local times as
UTC moments, the window's state at a moment, and the times in words."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules import check_in as rules

DETROIT = ZoneInfo("America/Detroit")
NIGHT = date(2026, 12, 7)


def test_loner_seekers_6_30_to_6_50_in_detroit():
    opens, closes = rules.window(datetime(2026, 12, 7, 18, 30), datetime(2026, 12, 7, 18, 50),
                                 DETROIT, datetime(2026, 12, 7, 20, 0, tzinfo=UTC))
    assert opens == datetime(2026, 12, 7, 23, 30, tzinfo=UTC)
    assert closes == datetime(2026, 12, 7, 23, 50, tzinfo=UTC)
    at = lambda h, m: datetime(2026, 12, 7, h, m, tzinfo=UTC)  # noqa: E731
    assert rules.state(opens, closes, at(23, 29)) == rules.NOT_YET
    assert rules.state(opens, closes, at(23, 30)) == rules.OPEN
    assert rules.state(opens, closes, at(23, 49)) == rules.OPEN
    # "No check-in allowed after 6:50": 6:50 itself is closed.
    assert rules.state(opens, closes, at(23, 50)) == rules.CLOSED
    assert rules.message(opens, closes, DETROIT, at(23, 55)) == "Check-in closed at 6:50 pm."
    assert rules.message(opens, closes, DETROIT, at(23, 0)) == "Check-in opens at 6:30 pm."
    assert rules.message(opens, closes, DETROIT, at(23, 40)) == \
        "Check-in is open until 6:50 pm."
    assert rules.message(None, None, DETROIT, at(23, 40)).startswith("No check-in window")


@pytest.mark.parametrize("hour, minute, words", [
    (0, 5, "12:05 am"), (9, 0, "9:00 am"), (12, 0, "12:00 pm"), (18, 50, "6:50 pm"),
    (23, 59, "11:59 pm")])
def test_times_are_said_the_way_the_room_says_them(hour, minute, words):
    assert rules.clock_words(datetime(2026, 12, 7, hour, minute)) == words


def test_times_of_day_are_tonight_and_a_close_before_the_open_is_tomorrow():
    now = datetime(2026, 12, 7, 23, 0, tzinfo=UTC)  # 6 pm in Detroit
    opens, closes = rules.window(time(23, 30), time(0, 15), DETROIT, now)
    assert opens.astimezone(DETROIT).date() == NIGHT
    assert closes.astimezone(DETROIT) == datetime(2026, 12, 8, 0, 15, tzinfo=DETROIT)
    assert rules.when(closes, DETROIT, now) == "12:15 am on Tuesday 8 December"


def test_a_close_before_the_open_on_dates_is_refused():
    with pytest.raises(rules.WindowError, match="must close after it opens"):
        rules.window(datetime(2026, 12, 7, 18, 50), datetime(2026, 12, 7, 18, 30), DETROIT,
                     datetime(2026, 12, 7, tzinfo=UTC))


def test_a_time_the_clocks_skip_is_refused_and_a_time_given_twice_is_the_first():
    with pytest.raises(rules.WindowError, match="does not exist in America/Detroit"):
        rules.to_utc(datetime(2026, 3, 8, 2, 30), DETROIT, NIGHT)
    # 1:30 am on 1 November 2026 happens twice; the first (daylight time, UTC-4) is meant.
    assert rules.to_utc(datetime(2026, 11, 1, 1, 30), DETROIT, NIGHT) == \
        datetime(2026, 11, 1, 5, 30, tzinfo=UTC)


def test_an_offset_given_is_kept():
    typed = datetime(2026, 12, 7, 18, 30, tzinfo=ZoneInfo("Europe/London"))
    assert rules.to_utc(typed, DETROIT, NIGHT) == datetime(2026, 12, 7, 18, 30, tzinfo=UTC)


ZONES = st.sampled_from(["UTC", "America/Detroit", "Europe/London", "Australia/Adelaide",
                         "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"])
LOCAL = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 12, 31))


@given(ZONES, LOCAL)
def test_a_local_time_comes_back_as_typed_or_is_refused(zone_name, typed):
    zone = ZoneInfo(zone_name)
    try:
        moment = rules.to_utc(typed, zone, NIGHT)
    except rules.WindowError:
        return  # a time the clocks skip there
    assert moment.tzinfo is not None
    assert moment.astimezone(zone).replace(tzinfo=None) == typed
    assert rules.local_text(moment.astimezone(zone)) == typed.strftime("%Y-%m-%dT%H:%M")


@given(ZONES, LOCAL, st.integers(1, 24 * 60), st.integers(-48 * 60, 48 * 60))
def test_the_window_is_open_exactly_from_its_open_until_its_close(zone_name, start, minutes,
                                                                   offset):
    zone = ZoneInfo(zone_name)
    try:
        opens, closes = rules.window(start, start + timedelta(minutes=minutes), zone,
                                     datetime(2026, 1, 1, tzinfo=UTC))
    except rules.WindowError:
        return
    now = opens + timedelta(minutes=offset)
    expected = rules.NOT_YET if now < opens else rules.CLOSED if now >= closes else rules.OPEN
    assert rules.state(opens, closes, now) == expected
    said = rules.message(opens, closes, zone, now)
    assert said.startswith({rules.NOT_YET: "Check-in opens at", rules.OPEN: "Check-in is open",
                            rules.CLOSED: "Check-in closed at"}[expected])


@given(ZONES, st.times(), st.times(), st.datetimes(min_value=datetime(2021, 1, 1),
                                                   max_value=datetime(2034, 12, 31),
                                                   timezones=st.just(UTC)))
def test_two_times_of_day_always_make_a_window_of_less_than_a_day(zone_name, a, b, now):
    zone = ZoneInfo(zone_name)
    try:
        opens, closes = rules.window(a, b, zone, now)
    except rules.WindowError:
        return  # a time the clocks skip
    assert timedelta(0) < closes - opens <= timedelta(hours=25)
    assert opens.astimezone(zone).date() == now.astimezone(zone).date()

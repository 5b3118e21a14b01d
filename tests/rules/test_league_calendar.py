"""The league calendar: shifts, make-up weeks, moved matches, lateness and the roster lock."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules import league_calendar as cal
from api.rules.schedules import league_nights

FIRST = date(2027, 1, 5)


def test_a_shift_moves_the_week_and_every_later_one():
    nights = cal.season_nights(FIRST, 4, [{"week": 2, "days": 7}])
    assert nights == [date(2027, 1, 5), date(2027, 1, 19), date(2027, 1, 26), date(2027, 2, 2)]


def test_a_make_up_moves_that_week_alone_and_plays_it_in_its_night_order():
    nights = cal.season_nights(FIRST, 4, [{"kind": cal.MAKE_UP, "week": 2,
                                            "to": "2027-02-02"}])
    assert nights == [date(2027, 1, 5), date(2027, 2, 2), date(2027, 1, 19), date(2027, 1, 26)]
    assert cal.play_order(nights) == [1, 3, 4, 2]


def test_a_later_shift_carries_a_make_up_placed_after_it():
    changes = [{"kind": cal.MAKE_UP, "week": 2, "to": "2027-02-02"},
               {"kind": cal.SHIFT, "week": 3, "days": 7}]
    nights = cal.season_nights(FIRST, 4, changes)
    assert nights == [date(2027, 1, 5), date(2027, 2, 9), date(2027, 1, 26), date(2027, 2, 2)]
    assert len(set(nights)) == 4


def test_the_default_make_up_night_is_a_week_after_the_last():
    nights = cal.season_nights(FIRST, 5)
    assert cal.make_up_night(nights, 2, None) == date(2027, 2, 9)


def test_a_make_up_is_refused_on_a_taken_night_or_before_the_cancelled_one():
    nights = cal.season_nights(FIRST, 5)
    with pytest.raises(cal.CalendarError, match="Week 4 is already played on 2027-01-26"):
        cal.make_up_night(nights, 2, date(2027, 1, 26))
    with pytest.raises(cal.CalendarError, match="after the cancelled night"):
        cal.make_up_night(nights, 3, date(2027, 1, 19))
    with pytest.raises(cal.CalendarError, match="no week 9"):
        cal.make_up_night(nights, 9, None)


def test_a_moved_match_may_not_fall_on_a_night_either_team_plays():
    nights = cal.season_nights(FIRST, 4)
    # Home plays weeks 1-4, away weeks 1, 2 and 4 (a bye in week 3).
    with pytest.raises(cal.CalendarError, match="week 3"):
        cal.match_night(nights, [1, 2, 3, 4], [1, 2, 4], 2, date(2027, 1, 19))
    assert cal.match_night(nights, [1, 2, 4], [1, 2, 4], 2, date(2027, 1, 19)) == \
        date(2027, 1, 19)
    assert cal.match_night(nights, [1, 2], [1, 2], 2, date(2027, 1, 14)) == date(2027, 1, 14)
    with pytest.raises(cal.CalendarError, match="already on"):
        cal.match_night(nights, [1, 2], [1, 2], 2, date(2027, 1, 12))


def test_minutes_late_are_counted_from_the_start_in_the_venues_time_zone():
    zone = ZoneInfo("America/Toronto")
    now = datetime(2027, 1, 6, 0, 21, 30, tzinfo=UTC)  # 19:21:30 in Toronto
    assert cal.minutes_late(FIRST, time(19, 0), zone, now) == 21
    assert cal.minutes_late(FIRST, time(19, 30), zone, now) < 0


def test_the_roster_locks_after_its_week():
    assert not cal.roster_locked(2, 0, 0)
    assert not cal.roster_locked(2, 2, 1), "week 2 is being played"
    assert cal.roster_locked(2, 2, 2), "week 2 is over"
    assert cal.roster_locked(2, 3, 1), "week 3 has started"
    with pytest.raises(Exception, match="week 1 at the earliest"):
        cal.roster_locked(0, 0, 0)


shifts = st.lists(st.tuples(st.integers(1, 8), st.sampled_from([7, 14])), max_size=4)


@given(weeks=st.integers(1, 8), moves=shifts)
def test_shifts_alone_agree_with_the_league_nights_of_before(weeks, moves):
    moves = [(w, d) for w, d in moves if w <= weeks]
    changes = [{"week": w, "days": d} for w, d in moves]
    assert cal.season_nights(FIRST, weeks, changes) == league_nights(FIRST, weeks, moves)


@given(weeks=st.integers(2, 10), data=st.data())
def test_any_sequence_of_changes_keeps_every_night_distinct_and_in_play_order(weeks, data):
    changes = []
    for _ in range(data.draw(st.integers(0, 5))):
        nights = cal.season_nights(FIRST, weeks, changes)
        week = data.draw(st.integers(1, weeks))
        if data.draw(st.booleans()):
            changes.append({"kind": cal.SHIFT, "week": week, "days": 7})
        else:
            offset = data.draw(st.integers(1, 30))
            to = None if data.draw(st.booleans()) else nights[week - 1] + timedelta(offset)
            try:
                night = cal.make_up_night(nights, week, to)
            except cal.CalendarError:
                continue
            assert night > nights[week - 1]
            changes.append({"kind": cal.MAKE_UP, "week": week, "to": night.isoformat()})
        after = cal.season_nights(FIRST, weeks, changes)
        assert len(set(after)) == weeks, "two weeks on one night"
        order = cal.play_order(after)
        assert sorted(order) == list(range(1, weeks + 1))
        assert [after[w - 1] for w in order] == sorted(after)
        # Nothing is ever played earlier than scheduled.
        assert all(a >= b for a, b in zip(after, nights, strict=True))


@given(lock=st.integers(1, 10), started=st.integers(0, 15), data=st.data())
def test_a_locked_roster_stays_locked_as_the_season_goes_on(lock, started, data):
    closed = data.draw(st.integers(max(0, started - 1), started))
    locked = cal.roster_locked(lock, started, closed)
    if started == 0:
        assert not locked
    if locked:
        assert cal.roster_locked(lock, started + 1, closed)
        assert cal.roster_locked(lock, started + 1, closed + 1)
    assert locked == (closed >= lock or started > lock)


def test_the_playoffs_follow_the_seasons_last_night_a_week_a_round():
    nights = [date(2027, 1, 5), date(2027, 3, 2), None, date(2027, 2, 9)]
    assert cal.playoff_night(nights, 1) == date(2027, 3, 9)
    assert cal.playoff_night(nights, 3) == date(2027, 3, 23)
    assert cal.playoff_night([None, None], 1) is None


# --- playoff nights (RULES.md §6: "1-3 weeks", on other days too) ----------------------------

SEASON = [FIRST + timedelta(days=7 * n) for n in range(3)]  # the last on 2027-01-19


def test_playoff_rounds_are_a_week_apart_by_default():
    assert cal.playoff_nights(SEASON, 4) == [date(2027, 1, 26), date(2027, 2, 2),
                                             date(2027, 2, 9), date(2027, 2, 16)]
    assert cal.playoff_nights([None, None], 2) == [None, None]


def test_rounds_share_a_night_and_a_chosen_night_moves_the_later_defaults():
    chosen = {1: date(2027, 1, 26), 2: date(2027, 1, 26), 3: date(2027, 1, 30)}
    nights = cal.playoff_nights(SEASON, 4, chosen)
    assert nights == [date(2027, 1, 26), date(2027, 1, 26), date(2027, 1, 30),
                      date(2027, 2, 6)]
    cal.check_playoff_nights(SEASON, nights)
    # Without dates for the season, a chosen night still counts.
    assert cal.playoff_nights([None], 2, {1: date(2027, 3, 1)}) == [date(2027, 3, 1),
                                                                     date(2027, 3, 8)]


@pytest.mark.parametrize("nights, words", [
    ([date(2027, 1, 19)], "before the season is over"),
    ([date(2027, 1, 12)], "before the season is over"),
    ([date(2027, 2, 2), date(2027, 1, 27)], "before round 1"),
])
def test_playoff_nights_before_the_season_ends_or_out_of_order_are_refused(nights, words):
    with pytest.raises(cal.CalendarError, match=words):
        cal.check_playoff_nights(SEASON, nights)


def test_a_match_change_moves_no_week_whatever_its_round_number():
    moved = {"kind": cal.MATCH, "week": 5, "match_id": 9, "to": "2027-01-28"}
    assert cal.season_nights(FIRST, 3, [moved]) == SEASON


@given(gaps=st.lists(st.integers(0, 14), min_size=1, max_size=6))
def test_chosen_nights_in_order_after_the_season_always_pass(gaps):
    night, chosen = SEASON[-1], {}
    for number, gap in enumerate(gaps, start=1):
        night = night + timedelta(days=gap + (1 if number == 1 else 0))
        chosen[number] = night
    nights = cal.playoff_nights(SEASON, len(gaps) + 1, chosen)
    cal.check_playoff_nights(SEASON, nights)
    assert nights == sorted(nights)

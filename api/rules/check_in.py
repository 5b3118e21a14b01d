"""The check-in window (RULES.md §4: Loner Seekers check in 6:30-6:50 pm, "no check-in
allowed after 6:50"): the times the organizer types, in the venue's time zone, as UTC moments;
whether the window is open at a moment; and the times said the way the room says them.

Plain datetimes in and out: the caller passes the moment it calls "now".
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from .errors import RuleError

NOT_SET = "not-set"  # no window: only the organizer checks people in
NOT_YET = "not-yet"
OPEN = "open"
CLOSED = "closed"


class WindowError(RuleError):
    """Window times that cannot be used (a time the clocks skip, a close before the open)."""

    code = "bad-window"


def clock_words(moment: datetime) -> str:
    """A local time as people say it: '6:50 pm', '12:05 am'."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'am' if moment.hour < 12 else 'pm'}"


def day_words(moment: datetime) -> str:
    """A local date in words: 'Monday 7 December'."""
    return f"{moment:%A} {moment.day} {moment:%B}"


def local_text(moment: datetime) -> str:
    """A local time as the organizer typed it: '2026-12-07T18:50'."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def to_utc(typed: datetime | time, zone: ZoneInfo, today: date) -> datetime:
    """A time the organizer typed, as a UTC moment. A date and time without an offset is the
    venue's local time; a time of day alone is on `today` (the venue's date). A local time
    the clocks skip (spring forward) is refused rather than moved."""
    if isinstance(typed, time):
        typed = datetime.combine(today, typed.replace(tzinfo=None))
    if typed.tzinfo is not None:
        return typed.astimezone(UTC)
    moment = typed.replace(tzinfo=zone).astimezone(UTC)
    if moment.astimezone(zone).replace(tzinfo=None) != typed:
        raise WindowError(f"{clock_words(typed)} on {day_words(typed)} does not exist in "
                          f"{zone.key}: the clocks go forward then. Pick another time.")
    return moment


def window(opens: datetime | time | None, closes: datetime | time | None, zone: ZoneInfo,
           now: datetime) -> tuple[datetime | None, datetime | None]:
    """The window the organizer typed, as UTC moments (either end may be left open). Two times
    of day alone are tonight's; a close at or before the open is the next day's (11:30 pm to
    12:15 am)."""
    today = now.astimezone(zone).date()
    start = to_utc(opens, zone, today) if opens is not None else None
    end = to_utc(closes, zone, today) if closes is not None else None
    if start and end and end <= start:
        if isinstance(opens, time) and isinstance(closes, time):
            end = to_utc(closes, zone, today + timedelta(days=1))
        else:
            local = start.astimezone(zone)
            raise WindowError(f"Check-in must close after it opens (it opens at "
                              f"{clock_words(local)} on {day_words(local)}).")
    return start, end


def state(opens: datetime | None, closes: datetime | None, now: datetime) -> str:
    """NOT_SET, NOT_YET, OPEN or CLOSED at `now`. The close time itself is closed: "no
    check-in after 6:50" lets 6:49:59 in."""
    if opens is None and closes is None:
        return NOT_SET
    if opens is not None and now < opens:
        return NOT_YET
    if closes is not None and now >= closes:
        return CLOSED
    return OPEN


def when(moment: datetime, zone: ZoneInfo, now: datetime) -> str:
    """'6:50 pm', with the day when it is not the venue's today: '6:50 pm on Monday 7
    December'."""
    local = moment.astimezone(zone)
    words = clock_words(local)
    if local.date() != now.astimezone(zone).date():
        words += f" on {day_words(local)}"
    return words


def message(opens: datetime | None, closes: datetime | None, zone: ZoneInfo,
            now: datetime) -> str:
    """The window's state in a sentence for the door and the console."""
    now_state = state(opens, closes, now)
    if now_state == NOT_SET:
        return "No check-in window is set: the organizer checks people in at the desk."
    if now_state == NOT_YET:
        return f"Check-in opens at {when(opens, zone, now)}."
    if now_state == CLOSED:
        return f"Check-in closed at {when(closes, zone, now)}."
    if closes is None:
        return "Check-in is open."
    return f"Check-in is open until {when(closes, zone, now)}."

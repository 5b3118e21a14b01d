"""A league's nights: each week's date after postponements and make-ups, and a match's own
night when it was moved (the changes are kept in the event's schedule)."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from ..models import Event, Match
from ..rules import games as rgames
from ..rules import league_calendar as calendar


def night_dates(event: Event) -> list[date | None]:
    """Each week's league night (None without a first night), after the postponements and
    make-ups (rules/league_calendar.py)."""
    schedule = event.schedule or {}
    season = schedule.get("season", [])
    if not schedule.get("first_night"):
        return [None] * len(season)
    return calendar.season_nights(date.fromisoformat(schedule["first_night"]), len(season),
                                  schedule.get("moves", []))


def match_nights(event: Event) -> dict[int, date]:
    """The matches moved to a night of their own: match id -> night."""
    moves = [m for m in (event.schedule or {}).get("moves", [])
             if m.get("kind") == calendar.MATCH]
    return {m["match_id"]: date.fromisoformat(m["to"]) for m in moves}


def night_of(event: Event, match: Match) -> date | None:
    """The night a match is played: its own, if it was moved, or its week's."""
    moved = match_nights(event).get(match.id)
    if moved is not None:
        return moved
    nights = night_dates(event)
    number = match.round.number
    return nights[number - 1] if match.round.stage == rgames.REGULAR and \
        number <= len(nights) else None


def start_of(event: Event, match: Match) -> datetime | None:
    """When a match's night starts, in the venue's time zone (None without dates or a start
    time)."""
    night = night_of(event, match)
    start = (event.schedule or {}).get("start")
    if night is None or not start:
        return None
    return datetime.combine(night, time.fromisoformat(start),
                            tzinfo=ZoneInfo(event.time_zone or "UTC"))

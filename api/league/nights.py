"""A league's nights: each week's date after postponements and make-ups, a match's own
night when it was moved, and each playoff round's night (the changes are kept in the event's
schedule)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from ..core.errors import ServiceError
from ..core.models import Event, Match, Round
from ..rules import games as rgames
from ..rules import league_calendar as calendar


def team_week(event: Event, team_id: int, week: int,
              refusal: type[ServiceError]) -> tuple[Round, Match | None]:
    """A week of the season and the team's match in it (None on its bye); a week the season
    does not have is refused as `refusal` (a 422 where the week came in a body, a 404 where
    it names what the address points at)."""
    round_ = next((r for r in event.rounds if r.stage == rgames.REGULAR and r.number == week),
                  None)
    if round_ is None:
        raise refusal(f"There is no week {week} in the season.", code="no-such-week")
    return round_, next((m for m in round_.matches if team_id in (m.team_a_id, m.team_b_id)),
                        None)


def night_dates(event: Event) -> list[date | None]:
    """Each week's league night (None without a first night), after the postponements and
    make-ups (rules/league_calendar.py)."""
    schedule = event.schedule or {}
    season = schedule.get("season", [])
    if not schedule.get("first_night"):
        return [None] * len(season)
    return calendar.season_nights(date.fromisoformat(schedule["first_night"]), len(season),
                                  schedule.get("moves", []))


def _match_moves(event: Event) -> list[dict]:
    return [m for m in (event.schedule or {}).get("moves", [])
            if m.get("kind") == calendar.MATCH]


def match_nights(event: Event) -> dict[int, date]:
    """The matches moved to a night of their own (regular season and playoffs): match id ->
    night."""
    return {m["match_id"]: date.fromisoformat(m["to"]) for m in _match_moves(event)}


def season_nights(event: Event) -> list[date | None]:
    """Every night of the regular season: the weeks' and the regular matches moved to a night
    of their own (the playoffs come after all of them)."""
    return [*night_dates(event), *(date.fromisoformat(m["to"]) for m in _match_moves(event)
                                   if not m.get("playoff"))]


def chosen_playoff_nights(event: Event) -> dict[int, date]:
    """The playoff rounds the organizer gave a night: playoff round (1 for the first) ->
    night."""
    chosen = (event.schedule or {}).get("playoff_nights") or {}
    return {int(k): date.fromisoformat(v) for k, v in chosen.items() if v}


def playoff_round_nights(event: Event, rounds: int) -> list[date | None]:
    """The night of each of the first `rounds` playoff rounds."""
    return calendar.playoff_nights(season_nights(event), rounds, chosen_playoff_nights(event))


def playoff_index(event: Event) -> dict[int, int]:
    """Each playoff round's place among the playoff rounds: round number -> 1, 2, ..."""
    numbers = sorted(r.number for r in event.rounds if r.stage == rgames.PLAYOFF)
    return {number: index for index, number in enumerate(numbers, start=1)}


def night_lookup(event: Event) -> Callable[[int, int, str], date | None]:
    """The night of any match of the league, as a function of (match id, round number,
    stage): a moved match's own night, a week's night, or its playoff round's night."""
    weeks, moved = night_dates(event), match_nights(event)
    index = playoff_index(event)
    playoff = playoff_round_nights(event, len(index)) if index else []

    def night(match_id: int, number: int, stage: str) -> date | None:
        if match_id in moved:
            return moved[match_id]
        if stage == rgames.REGULAR:
            return weeks[number - 1] if number <= len(weeks) else None
        if stage == rgames.PLAYOFF and number in index:
            return playoff[index[number] - 1]
        return None
    return night


def night_of(event: Event, match: Match) -> date | None:
    """The night a match is played: its own, if it was moved, its week's, or its playoff
    round's."""
    return night_lookup(event)(match.id, match.round.number, match.round.stage)


def start_of(event: Event, match: Match) -> datetime | None:
    """When a match's night starts, in the venue's time zone (None without dates or a start
    time)."""
    night = night_of(event, match)
    start = (event.schedule or {}).get("start")
    if night is None or not start:
        return None
    return datetime.combine(night, time.fromisoformat(start),
                            tzinfo=ZoneInfo(event.time_zone or "UTC"))

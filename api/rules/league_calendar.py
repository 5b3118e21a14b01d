"""The league calendar (RULES.md §6): each week's night after cancellations and make-ups, a
match moved to another night, how late a team is at a night's start, and when a roster is
final. Plain dates in, plain dates out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta, tzinfo

from .errors import RuleError

SHIFT = "shift"  # a night cancelled: it and every later night move a week on
MAKE_UP = "make-up"  # a night cancelled: that week alone is played on a night chosen
MATCH = "match"  # one match played on another night; the weeks stay where they are
KINDS = (SHIFT, MAKE_UP, MATCH)

# The rule source: "rosters are final by the second week".
ROSTER_LOCK_WEEK = 2


class CalendarError(RuleError):
    """A change the calendar cannot take (a week that does not exist, a night taken)."""

    code = "calendar"


def season_nights(first: date, weeks: int, changes: Sequence[dict] = ()) -> list[date]:
    """The night of every week, after the changes in the order they were made.

    A shift moves the cancelled week and every week on or after its night `days` later (a
    make-up already placed at the end moves with them). A make-up puts one week on its own
    night (`to`), the others staying where they are. A match change moves no week."""
    nights = [first + timedelta(days=7 * n) for n in range(weeks)]
    for change in changes:
        kind = change.get("kind", SHIFT)
        if kind == MATCH:
            continue  # one match's own night (a playoff match's too): no week moves
        week = change["week"]
        if not 1 <= week <= weeks:
            raise CalendarError(f"There is no week {week} in a season of {weeks} weeks.")
        if kind == SHIFT:
            cancelled = nights[week - 1]
            days = timedelta(days=change["days"])
            nights = [night + days if night >= cancelled else night for night in nights]
        elif kind == MAKE_UP:
            nights[week - 1] = date.fromisoformat(change["to"])
    return nights


def playoff_night(nights: Sequence[date | None], playoff_round: int) -> date | None:
    """The night of a playoff round (1 for the first): a week after the season's last night
    for the first, a week more for each after it (None when the season has no dates)."""
    known = [night for night in nights if night is not None]
    if not known or playoff_round < 1:
        return None
    return max(known) + timedelta(days=7 * playoff_round)


def playoff_nights(nights: Sequence[date | None], rounds: int,
                   chosen: dict[int, date] | None = None) -> list[date | None]:
    """The night of each of `rounds` playoff rounds (RULES.md §6: the playoffs take "1-3
    weeks", on the league night or another): a round the organizer gave a night is played
    then; any other a week after the round before it (the first, a week after the season's
    last night). So several rounds can share a night, and a night given to one round moves
    the default nights of the rounds after it. None when the season has no dates and no
    night was chosen."""
    chosen = chosen or {}
    out: list[date | None] = []
    for number in range(1, rounds + 1):
        if number in chosen:
            out.append(chosen[number])
        elif number == 1:
            out.append(playoff_night(nights, 1))
        else:
            out.append(out[-1] + timedelta(days=7) if out[-1] is not None else None)
    return out


def check_playoff_nights(nights: Sequence[date | None], playoff: Sequence[date | None]) -> None:
    """Playoff nights come after the season's last night, and each round on or after the
    night of the round before it (several rounds may share a night: the winners play on)."""
    known = [night for night in nights if night is not None]
    last = max(known) if known else None
    previous = None
    for number, night in enumerate(playoff, start=1):
        if night is None:
            continue
        if last is not None and night <= last:
            raise CalendarError(f"Playoff round {number} on {night.isoformat()} would come "
                                f"before the season is over (its last night is "
                                f"{last.isoformat()}): choose a later night.")
        if previous is not None and night < previous:
            raise CalendarError(f"Playoff round {number} on {night.isoformat()} would come "
                                f"before round {number - 1} ({previous.isoformat()}): a round "
                                "is played on the night of the round before it or later.")
        previous = night


def play_order(nights: Sequence[date | None]) -> list[int]:
    """The week numbers in the order they are played: by night, then by number (a season
    without dates plays in number order)."""
    return sorted(range(1, len(nights) + 1),
                  key=lambda week: (nights[week - 1] or date.min, week))


def make_up_night(nights: Sequence[date], week: int, to: date | None) -> date:
    """Where a cancelled week is made up: on `to`, or by default a week after the season's
    last night ("made up at the end of the season"). It must come after the cancelled night
    and not fall on another week's night (each team plays once a night)."""
    if not 1 <= week <= len(nights):
        raise CalendarError(f"There is no week {week}: the season has {len(nights)}.")
    cancelled = nights[week - 1]
    night = to if to is not None else max(nights) + timedelta(days=7)
    if night <= cancelled:
        raise CalendarError(f"A make-up comes after the cancelled night: week {week} was on "
                            f"{cancelled.isoformat()}, so choose a later date than "
                            f"{night.isoformat()}.")
    taken = [n for n, other in enumerate(nights, start=1) if other == night and n != week]
    if taken:
        raise CalendarError(f"Week {taken[0]} is already played on {night.isoformat()}: "
                            "choose another night for the make-up.")
    return night


def match_night(nights: Sequence[date], home_weeks: Sequence[int], away_weeks: Sequence[int],
                week: int, to: date, moved: dict[int, date] | None = None) -> date:
    """Check a new night for one match of `week`: it is not the match's night already, and
    neither team plays another match that night (their other weeks, or matches moved there
    before; `moved` holds those: week -> night, for this pair's other matches)."""
    current = (moved or {}).get(week, nights[week - 1])
    if to == current:
        raise CalendarError(f"The match is already on {to.isoformat()}.")
    for team_weeks in (home_weeks, away_weeks):
        for other in team_weeks:
            if other != week and (moved or {}).get(other, nights[other - 1]) == to:
                raise CalendarError(f"One of the teams already plays week {other} on "
                                    f"{to.isoformat()}: choose another night.")
    return to


def minutes_late(night: date, start: time, zone: tzinfo, now: datetime) -> int:
    """Whole minutes from the night's start (in the venue's time zone) to `now`; negative
    before the start."""
    begins = datetime.combine(night, start, tzinfo=zone)
    seconds = (now - begins).total_seconds()
    return int(seconds // 60)


def roster_locked(lock_after_week: int, weeks_started: int, weeks_closed: int) -> bool:
    """A roster is final once `lock_after_week` weeks have been played (closed), or once a
    week after those has started. Counted in weeks played, so a make-up week counts when it
    is played, not by its number."""
    if lock_after_week < 1:
        raise RuleError("A roster locks after week 1 at the earliest.")
    return weeks_closed >= lock_after_week or weeks_started > lock_after_week


def roster_lock_words(lock_after_week: int, locked: bool) -> str:
    if locked:
        return (f"The roster is final: it locked after week {lock_after_week}. Only the "
                "organizer can change it now.")
    return f"The captain can change the roster until week {lock_after_week} is over."

"""Changes to a league season's calendar (RULES.md §6): a week made up on a later night, a
match moved, a night cancelled (made up, or every later week shifted) and the playoff
nights."""

from __future__ import annotations

from datetime import date, timedelta

from ..core.common import audit, get_match, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Event, Match, utcnow
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from .forfeits import require_league
from .nights import (
    chosen_playoff_nights,
    match_nights,
    night_dates,
    night_lookup,
    playoff_index,
    playoff_round_nights,
    season_nights,
)


def _dated_season(event: Event) -> tuple[dict, list]:
    """The schedule of a league whose nights can move: refused without a season or dates."""
    schedule = dict(event.schedule or {})
    season = schedule.get("season", [])
    if not season:
        raise Conflict("Schedule the season first.", code="no-season")
    if not schedule.get("first_night"):
        raise Conflict("This season has no dates to move: it was scheduled without a first "
                       "night.", code="no-dates")
    return schedule, season


def _not_started(event: Event, week: int) -> None:
    started = next((r for r in event.rounds if r.stage == rgames.REGULAR
                    and r.number == week and r.status != "scheduled"), None)
    if started is not None:
        raise Conflict(f"Week {week} has already started: only nights not played yet can "
                       "move.", code="week-started")


def _change(kind: str, week: int, before: date, after: date, reason: str, **more) -> dict:
    return {"kind": kind, "week": week, "days": (after - before).days,
            "from": before.isoformat(), "to": after.isoformat(), "reason": reason.strip(),
            "at": utcnow().isoformat(timespec="seconds"), **more}


def make_up(event_id: int, principal: Principal, week: int, reason: str,
            night: date | None) -> Event:
    """A league night cancelled, the rest of the season left where it is: the cancelled week
    is made up on a night the organizer chooses (by default a week after the last night)."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    schedule, season = _dated_season(event)
    if not 1 <= week <= len(season):
        raise Invalid(f"There is no week {week}: the season has {len(season)}.",
                      code="no-such-week")
    _not_started(event, week)
    nights = night_dates(event)
    try:
        to = calendar.make_up_night(nights, week, night)
    except calendar.CalendarError as exc:
        raise Conflict(str(exc), code="night-taken") from None
    change = _change(calendar.MAKE_UP, week, nights[week - 1], to, reason)
    schedule["moves"] = [*schedule.get("moves", []), change]
    event.schedule = schedule
    _playoffs_still_after(event)
    audit(event.id, principal, "make-up-week", "event", event.id,
          before={"week": week, "date": change["from"]},
          after={"week": week, "date": change["to"], "reason": change["reason"]})
    db.session.commit()
    return event


def move_match(event_id: int, principal: Principal, match_id: int, night: date,
               reason: str) -> Event:
    """One match played on another night (the rest of its week stays). Only a match with no
    game started moves."""
    match = get_match(match_id)
    event = lock_event(match.event_id)
    require_league(preset_of(event))
    if match.event_id != event_id:
        raise not_found(f"Match {match_id} in this event")
    if match.round.stage == rgames.PLAYOFF:
        return _move_playoff_match(event, principal, match, night, reason)
    schedule, season = _dated_season(event)
    if match.round.stage != rgames.REGULAR:
        raise Conflict("Only a season or playoff match can move to another night.",
                       code="not-regular")
    if any(g.hands or g.end is not None for g in match.games):
        raise Conflict(f"The match at table {match.table} of week {match.round.number} has "
                       "started: a match being played does not move.", code="match-started")
    nights = night_dates(event)
    moved = match_nights(event)
    teams = (match.team_a_id, match.team_b_id)
    weeks_of = {t: [n for n, pairs in enumerate(season, start=1)
                    if any(t in pair for pair in pairs if pair[1] is not None)] for t in teams}
    # Other matches of these teams moved before: their nights count instead of their weeks'.
    theirs = {m.round.number: moved[m.id] for m in _matches(event, moved)
              if m.id != match.id and m.round.stage == rgames.REGULAR
              and {m.team_a_id, m.team_b_id} & set(teams)}
    week = match.round.number
    try:
        calendar.match_night(nights, weeks_of[teams[0]], weeks_of[teams[1]], week, night,
                             {**theirs, **({week: moved[match.id]} if match.id in moved
                                           else {})})
    except calendar.CalendarError as exc:
        raise Conflict(str(exc), code="night-taken") from None
    before = moved.get(match.id, nights[week - 1])
    names = f"{match.team_a.name} v {match.team_b.name}"
    change = _change(calendar.MATCH, week, before, night, reason, match_id=match.id,
                     match=names)
    schedule["moves"] = [*schedule.get("moves", []), change]
    event.schedule = schedule
    _playoffs_still_after(event)
    audit(event.id, principal, "move-match", "match", match.id,
          before={"week": week, "date": change["from"]},
          after={"week": week, "date": change["to"], "match": names,
                 "reason": change["reason"]}, round_number=week, table=match.table)
    db.session.commit()
    return event


def _move_playoff_match(event: Event, principal: Principal, match: Match, night: date,
                        reason: str) -> Event:
    """A playoff match on a night of its own (RULES.md §6): after the season's last night,
    and not before the night of the playoff round before its own."""
    if any(g.hands or g.end is not None for g in match.games):
        raise Conflict(f"The playoff match at table {match.table} has started: a match being "
                       "played does not move.", code="match-started")
    index = playoff_index(event)[match.round.number]
    # The rounds after it too: a winner cannot play on before this match is decided.
    playoff = playoff_round_nights(event, max(index, len(playoff_index(event)),
                                              max(chosen_playoff_nights(event), default=0)))
    current = night_lookup(event)(match.id, match.round.number, match.round.stage)
    if night == current:
        raise Conflict(f"The match is already on {night.isoformat()}.", code="night-taken")
    try:
        calendar.check_playoff_nights(season_nights(event),
                                      [*playoff[:index - 1], night, *playoff[index:]])
    except calendar.CalendarError as exc:
        raise Conflict(str(exc), code="night-taken") from None
    names = f"{match.team_a.name} v {match.team_b.name}"
    change = _change(calendar.MATCH, match.round.number, current or night, night, reason,
                     match_id=match.id, match=names, playoff=True, label=match.round.label)
    schedule = dict(event.schedule or {})
    schedule["moves"] = [*schedule.get("moves", []), change]
    event.schedule = schedule
    audit(event.id, principal, "move-match", "match", match.id,
          before={"round": match.round.label, "date": current.isoformat() if current else None},
          after={"round": match.round.label, "date": night.isoformat(), "match": names,
                 "reason": change["reason"]}, round_number=match.round.number,
          table=match.table)
    db.session.commit()
    return event


def _matches(event: Event, ids) -> list[Match]:
    return [db.session.get(Match, match_id) for match_id in ids]


def change_words(change: dict) -> str:
    """One change of the season, in a sentence for the season view."""
    kind = change.get("kind", calendar.SHIFT)
    why = f" ({change['reason']})" if change.get("reason") else ""
    if kind == calendar.MAKE_UP:
        return (f"Week {change['week']} cancelled{why}: made up on {change['to']}; the "
                "other weeks stay on their nights.")
    if kind == calendar.MATCH and change.get("playoff"):
        return (f"{change.get('label') or 'Playoffs'}: {change.get('match', 'a match')} moved "
                f"from {change['from']} to {change['to']}{why}.")
    if kind == calendar.MATCH:
        return (f"Week {change['week']}: {change.get('match', 'a match')} moved from "
                f"{change['from']} to {change['to']}{why}.")
    days = "a week" if change["days"] == 7 else f"{change['days']} days"
    reason = f": {change['reason']}" if change.get("reason") else ""
    return f"Week {change['week']} and the weeks after it moved {days} on{reason}."


CANCEL_MODES = (calendar.MAKE_UP, calendar.SHIFT)


def cancel_night(event_id: int, principal: Principal, week: int, reason: str,
                 mode: str = calendar.MAKE_UP, night: date | None = None) -> Event:
    """A league night cancelled (weather, the venue). RULES.md §6: by default every other week
    keeps its night and the cancelled week is made up at the end (a week after the last
    night, or on the night given); the organizer may instead shift that week and every later
    one a week on (`mode` "shift", which takes no night)."""
    if mode == calendar.SHIFT:
        if night is not None:
            raise Invalid("A shift moves every later week one league night on: it takes no "
                          "date. To choose the night, make the week up instead.",
                          code="shift-no-date")
        return _shift(event_id, principal, week, reason)
    return make_up(event_id, principal, week, reason, night)


def _shift(event_id: int, principal: Principal, week: int, reason: str) -> Event:
    """The cancelled week and every later one move a week on. Only a week not started yet
    moves."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    schedule, season = _dated_season(event)
    if not 1 <= week <= len(season):
        raise Invalid(f"There is no week {week}: the season has {len(season)}.",
                      code="no-such-week")
    _not_started(event, week)
    before = [d.isoformat() for d in night_dates(event)]
    schedule["moves"] = [*schedule.get("moves", []),
                         {"kind": calendar.SHIFT, "week": week, "days": 7,
                          "from": before[week - 1],
                          "to": (date.fromisoformat(before[week - 1])
                                 + timedelta(days=7)).isoformat(),
                          "reason": reason.strip(),
                          "at": utcnow().isoformat(timespec="seconds")}]
    event.schedule = schedule
    _playoffs_still_after(event)
    after = [d.isoformat() for d in night_dates(event)]
    audit(event.id, principal, "postpone-week", "event", event.id,
          before={"week": week, "date": before[week - 1]},
          after={"week": week, "date": after[week - 1], "reason": reason.strip(),
                 "last_night": after[-1]})
    db.session.commit()
    return event


def _playoffs_still_after(event: Event) -> None:
    """A change of the season's nights leaves the playoff nights the organizer chose after
    the season's last night (else it is refused, with the round named)."""
    chosen = chosen_playoff_nights(event)
    if not chosen:
        return
    try:
        calendar.check_playoff_nights(season_nights(event),
                                      playoff_round_nights(event, max(chosen)))
    except calendar.CalendarError as exc:
        raise Conflict(f"{exc} Move the playoff nights first.", code="night-taken") from None


def set_playoff_nights(event_id: int, principal: Principal, nights: list[dict],
                       reason: str) -> Event:
    """The organizer's nights for playoff rounds (RULES.md §6: the playoffs take "1-3 weeks"
    and may be played on other days): several rounds may share a night, any round may have
    its date; a round given no night (null) is played a week after the round before it."""
    event = lock_event(event_id)
    preset = preset_of(event)
    require_league(preset)
    if not preset.playoff_games_per_match:
        raise Conflict("This league has no playoffs.", code="no-playoffs")
    schedule = dict(event.schedule or {})
    if not schedule.get("season"):
        raise Conflict("Schedule the season first.", code="no-season")
    rounds = [n["round"] for n in nights]
    if len(set(rounds)) != len(rounds):
        raise Invalid("A playoff round is listed twice.", code="duplicate-round")
    chosen = {str(k): v.isoformat() for k, v in chosen_playoff_nights(event).items()}
    before = dict(chosen)
    for entry in nights:
        if entry["date"] is None:
            chosen.pop(str(entry["round"]), None)
        else:
            chosen[str(entry["round"])] = entry["date"].isoformat()
    started = {index for number, index in playoff_index(event).items()
               if any(r.number == number and r.status != "scheduled" for r in event.rounds)}
    changed = {int(k) for k in set(chosen) ^ set(before)} | \
        {int(k) for k in chosen if k in before and chosen[k] != before[k]}
    if changed & started:
        first = min(changed & started)
        raise Conflict(f"Playoff round {first} has started: its night does not move now.",
                       code="round-started")
    schedule["playoff_nights"] = chosen
    event.schedule = schedule
    try:
        calendar.check_playoff_nights(season_nights(event), playoff_round_nights(
            event, max([*rounds, *(int(k) for k in chosen)], default=0)))
    except calendar.CalendarError as exc:
        raise Conflict(str(exc), code="night-taken") from None
    audit(event.id, principal, "playoff-nights", "event", event.id,
          before={"playoff_nights": before},
          after={"playoff_nights": chosen, "reason": reason.strip()})
    db.session.commit()
    return event

"""The league season: its schedule of weeks, the season view, and substitutes in a seat."""

from __future__ import annotations

from datetime import date, time, timedelta

from sqlalchemy import delete, select

from ..core.common import audit, get_match, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Event, Forfeit, Match, Round, utcnow
from ..night.entrants import field_teams
from ..rounds.planning import Plan, check_rosters, store_plan, team_tables
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from ..rules import schedules
from ..rules.errors import SeatingError
from ..rules.seats import SIDE_OF_SEAT
from .forfeits import forfeit_choices, forfeit_rows, offences_view, require_league
from .nights import (
    chosen_playoff_nights,
    match_nights,
    night_dates,
    night_lookup,
    playoff_index,
    playoff_round_nights,
    season_nights,
)


def create_season(event_id: int, principal: Principal, weeks: int | None,
                  first_night: date | None = None, start_time: time | None = None,
                  division_final: bool = False) -> Event:
    """Schedule the whole season: a round robin of the teams (within each division, when the
    teams are in divisions), a week per round, each match 3 games to 10; a bye when a
    division's count is odd. With a first night, every week has its date, a week apart."""
    event = lock_event(event_id)
    preset = preset_of(event)
    require_league(preset)
    if any(r.stage == rgames.REGULAR for r in event.rounds):
        raise Conflict("The season is already scheduled.", code="season-exists")
    _schedule_weeks(event, preset, weeks, first_night.isoformat() if first_night else None,
                    start_time.strftime("%H:%M") if start_time else None, division_final)
    audit(event.id, principal, "schedule-season", "event", event.id,
          after={"weeks": len(event.schedule["season"]), "teams": len(field_teams(event)),
                 "divisions": event.schedule["divisions"],
                 "first_night": event.schedule["first_night"],
                 "start": event.schedule["start"]})
    db.session.commit()
    return event


def _schedule_weeks(event: Event, preset, weeks: int | None, first_night: str | None,
                    start: str | None, division_final: bool) -> None:
    """The season's weeks stored as rounds, and the schedule they follow (the teams as they
    are now, within their divisions)."""
    teams = field_teams(event)
    if len(teams) < 2:
        raise Conflict("A league needs at least 2 teams before the season is scheduled.",
                       code="too-few-teams")
    check_rosters(teams)
    asked = weeks
    weeks = weeks or preset.rounds
    named = {t.division for t in teams}
    if None in named and len(named) > 1:
        loose = ", ".join(t.name for t in teams if t.division is None)
        raise Conflict(f"Some teams are in a division and some are not ({loose}): put every "
                       "team in a division, or none.", code="division-missing")
    divisions = sorted(named - {None})
    try:
        if divisions:
            season = schedules.division_schedule(
                [[t.id for t in teams if t.division == d] for d in divisions], weeks)
        else:
            season = schedules.league_schedule([t.id for t in teams], weeks)
    except SeatingError as exc:
        raise Conflict(str(exc), code="division-too-small") from None
    by_id = {t.id: t for t in teams}
    for number, pairs in enumerate(season, start=1):
        tables = team_tables([(home, away) for home, away in pairs if away is not None], by_id)
        store_plan(event, preset, Plan(number, rgames.REGULAR, f"Week {number}", tables,
                                       games_per_match=preset.games_per_match,
                                       status="scheduled"))
    event.schedule = {**(event.schedule or {}),
                      "season": [[list(pair) for pair in week] for week in season],
                      "divisions": divisions, "first_night": first_night, "start": start,
                      "moves": [], "division_final": bool(division_final and divisions),
                      "weeks_asked": asked}


def reschedule_season(event: Event) -> None:
    """A team moved between divisions before the first week: the season is scheduled again
    from the divisions as they are now, on the same nights. Refused when something was
    recorded on the schedule already (a cancelled night, a moved match, a forfeit called in
    ahead), which names weeks and matches the new schedule would not have."""
    schedule = event.schedule or {}
    if schedule.get("moves") or db.session.execute(
            select(Forfeit.id).where(Forfeit.event_id == event.id)).first() is not None:
        raise Conflict("A team cannot change division now: the season's schedule already has "
                       "changes recorded (a cancelled night, a moved match or a forfeit called "
                       "in ahead) that the new schedule would not keep.",
                       code="season-changed")
    db.session.execute(delete(Round).where(Round.event_id == event.id,
                                           Round.stage == rgames.REGULAR))
    db.session.expire(event, ["rounds"])
    _schedule_weeks(event, preset_of(event), schedule.get("weeks_asked"),
                    schedule.get("first_night"), schedule.get("start"),
                    bool(schedule.get("division_final")))


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


def season_view(event: Event) -> dict:
    names = {t.id: t.name for t in event.teams}
    division_of = {t.id: t.division for t in event.teams}
    schedule = event.schedule or {}
    nights = night_dates(event)
    moved = match_nights(event)
    changes = schedule.get("moves", [])
    made_up = {c["week"]: c for c in changes if c.get("kind") == calendar.MAKE_UP}
    why_moved = {c["match_id"]: c["reason"] for c in changes if c.get("kind") == calendar.MATCH}
    forfeits = forfeit_rows(event)
    weeks = []
    rounds = {r.number: r for r in event.rounds}
    for number, pairs in enumerate(schedule.get("season", []), start=1):
        round_ = rounds.get(number)
        matches = {(m.team_a_id, m.team_b_id): m for m in (round_.matches if round_ else [])}
        rows = []
        for home, away in pairs:
            if away is None:
                rows.append({"home": {"id": home, "name": names.get(home)}, "away": None,
                             "bye": True, "division": division_of.get(home)})
                continue
            match = matches.get((home, away))
            mine = forfeits.get(match.id, []) if match else []
            rows.append({
                "home": {"id": home, "name": names.get(home)},
                "away": {"id": away, "name": names.get(away)}, "bye": False,
                "match_id": match.id if match else None,
                "table": match.table if match else None,
                "status": match.status if match else None,
                "games_won": ({"home": sum(1 for g in match.games if g.winner == "A"),
                               "away": sum(1 for g in match.games if g.winner == "B")}
                              if match else None),
                "forfeits": [f["team_id"] for f in mine],
                "forfeit_details": mine,
                "division": division_of.get(home),
                "date": moved.get(match.id, nights[number - 1]) if match else nights[number - 1],
                "moved": why_moved.get(match.id) if match and match.id in moved else None,
            })
        weeks.append({"week": number, "round_id": round_.id if round_ else None,
                      "status": round_.status if round_ else None,
                      "date": nights[number - 1], "start": schedule.get("start"),
                      "make_up": number in made_up,
                      "cancelled_date": made_up[number]["from"] if number in made_up else None,
                      "matches": rows})
    return {"weeks": weeks, "divisions": schedule.get("divisions", []),
            "play_order": calendar.play_order(nights),
            "changes": [{"kind": c.get("kind", calendar.SHIFT), "match_id": c.get("match_id"),
                         "from": c.get("from"), "to": c.get("to"), "text": change_words(c),
                         **{k: c[k] for k in ("week", "days", "reason", "at")}}
                        for c in changes],
            "offences": offences_view(event),
            "forfeit_choices": forfeit_choices(preset_of(event))}


def set_seat(match_id: int, principal: Principal, seat: int, player_id: int) -> Match:
    """Put a substitute (or the roster player back) in a seat. Regular season only: playoff
    matches are for roster players."""
    match = get_match(match_id)
    event = lock_event(match.event_id)
    preset = preset_of(event)
    require_league(preset)
    player = next((p for p in event.players if p.id == player_id), None)
    team_id = match.team_a_id if SIDE_OF_SEAT[seat] == "A" else match.team_b_id
    if player is None or player.team_id != team_id:
        raise Invalid(f"Player {player_id} is not on the roster or substitutes of the "
                      f"team in seat {seat}.", code="not-on-team")
    if match.round.stage != rgames.REGULAR and player.role != "player":
        raise Conflict(f"{player.name} is a substitute: only roster players may play "
                       "playoff matches.", code="roster-only")
    taken = [s for s in match.seats if s.player_id == player_id and s.seat != seat]
    if taken:
        raise Conflict(f"{player.name} already sits in seat {taken[0].seat}.",
                       code="already-seated")
    target = next(s for s in match.seats if s.seat == seat)
    before = {"seat": seat, "player_id": target.player_id}
    target.player_id = player_id
    audit(event.id, principal, "substitute", "match", match.id, before=before,
          after={"seat": seat, "player_id": player_id, "name": player.name},
          round_number=match.round.number, table=match.table)
    db.session.commit()
    return match

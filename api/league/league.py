"""The league season: its schedule of weeks, the season view, and substitutes in a seat."""

from __future__ import annotations

from datetime import date, time

from sqlalchemy import delete, select

from ..core.common import audit, get_match, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.keys import Principal
from ..core.models import Event, Forfeit, Match, Round
from ..night.entrants import field_teams
from ..rounds.planning import Plan, check_rosters, store_plan, team_tables
from ..rounds.round_view import match_status
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from ..rules import schedules
from ..rules.errors import SeatingError
from ..rules.seats import SIDE_OF_SEAT
from .changes import change_words
from .forfeits import forfeit_choices, forfeit_rows, offences_view, require_league
from .nights import match_nights, night_dates


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
                "status": match_status(match) if match else None,
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

"""Team registration for a league (RULES.md §6): a registration link (a token on a printable
QR) with its closing time and divisions, captains registering their teams through it, and a
team's own key."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import select

from ..core.common import audit, check_link_token, event_by_code, get_team, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.keys import TEAM, Principal, issue_key
from ..core.models import ApiKey, Event, Team, utcnow
from ..night.door import zone_of
from ..night.entrants import TEAM_SUBSTITUTES, register_team
from ..people.people import link_players
from ..rules import league_calendar as calendar
from . import link_teams
from .forfeits import require_league
from .rosters import entered_name, lock_week, roster_locked


def _captain(event: Event) -> Principal:
    # Not a key yet: the audit log records the registration as made through the link.
    return Principal(None, event.id, "captain")


def _local(event: Event, moment: datetime | None) -> str | None:
    return moment.astimezone(zone_of(event)).strftime("%Y-%m-%d %H:%M") if moment else None


def _open_now(event: Event) -> tuple[bool, str]:
    """Whether captains can register now, and why not in words."""
    if event.registration_token is None:
        return False, "Team registration is not open: ask the organizer for the link."
    if event.schedule and event.schedule.get("season"):
        return False, ("The season is already scheduled, so no team can join it now: ask the "
                       "organizer.")
    closes = event.registration_closes_at
    if closes is not None and utcnow() >= closes:
        return False, (f"Team registration closed at {_local(event, closes)} "
                       f"({event.time_zone}): ask the organizer.")
    until = f" until {_local(event, closes)}" if closes else ""
    return True, f"Team registration is open{until}."


def registration_view(event: Event) -> dict:
    """The organizer's view: the link's token, the deadline, the lock week."""
    is_open, message = _open_now(event)
    return {"token": event.registration_token, "code": event.code,
            "closes_at": event.registration_closes_at,
            "closes": _local(event, event.registration_closes_at),
            "time_zone": event.time_zone, "open": is_open, "message": message,
            "lock_after_week": lock_week(event), "roster_locked": roster_locked(event),
            "roster_message": calendar.roster_lock_words(lock_week(event),
                                                         roster_locked(event)),
            "divisions": list(event.registration_divisions or [])}


def set_registration(event_id: int, principal: Principal, changes: dict) -> Event:
    """Open the registration link (a new token the first time, or when `rotate`), set its
    deadline (local time of the venue without an offset; None: no deadline) and the week
    after which rosters are final."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    before = {"closes": _local(event, event.registration_closes_at),
              "lock_after_week": lock_week(event)}
    if "closes" in changes:
        closes = changes["closes"]
        if closes is not None:
            if closes.tzinfo is None:
                closes = closes.replace(tzinfo=zone_of(event))
            closes = closes.astimezone(UTC)  # SQLite keeps no offset: stored in UTC
        event.registration_closes_at = closes
    if "lock_after_week" in changes:
        event.roster_lock_week = changes["lock_after_week"]
    if "divisions" in changes:
        before["divisions"] = list(event.registration_divisions or [])
        event.registration_divisions = _division_names(changes["divisions"] or [])
    made = event.registration_token is None or changes.get("rotate", False)
    if made:
        event.registration_token = secrets.token_urlsafe(16)
        link_teams.new_link(event.id)
    # The token stays out of the log, as the door code does.
    audit(event.id, principal, "team-registration", "event", event.id, before=before,
          after={"closes": _local(event, event.registration_closes_at),
                 "lock_after_week": lock_week(event), "new_link": made,
                 **({"divisions": event.registration_divisions or []}
                    if "divisions" in changes else {})})
    db.session.commit()
    return event


def _division_names(names: list[str]) -> list[str] | None:
    """The divisions captains choose from, each once (None: captains choose none)."""
    out: list[str] = []
    for raw in names:
        name = entered_name(raw, "A division's name")
        if name.casefold() in {n.casefold() for n in out}:
            raise Invalid(f"The division '{name}' is listed twice.", code="duplicate-name")
        out.append(name)
    return out or None


def _chosen_division(event: Event, division: str | None) -> str | None:
    """The division a captain picked: one the organizer offers, and required when the
    organizer offers any (a league in divisions puts every team in one)."""
    offered = list(event.registration_divisions or [])
    if not offered:
        if division is not None:
            raise Invalid("This league does not let captains choose a division: leave it "
                          "out, the organizer places the team.", code="no-divisions")
        return None
    if division is None:
        raise Invalid(f"Choose your team's division: {', '.join(offered)}.",
                      code="division-missing", errors={"division": ["Choose one."]})
    match = next((d for d in offered if d.casefold() == division.strip().casefold()), None)
    if match is None:
        raise Invalid(f"There is no division '{division}' in this league: choose one of "
                      f"{', '.join(offered)}.", code="no-such-division",
                      errors={"division": [f"Choose one of {', '.join(offered)}."]})
    return match


def _event_by_code(code: str) -> Event:
    return event_by_code(code, "Scan the registration QR again.")


def _check_token(event: Event, token: str) -> None:
    check_link_token(event.registration_token, token, "This registration link is old or "
                     "incomplete: ask the organizer for the current one.",
                     "wrong-registration-link")


def public_view(code: str, token: str) -> dict:
    """What the registration page shows before the captain fills it in."""
    event = _event_by_code(code)
    _check_token(event, token)
    is_open, message = _open_now(event)
    return {"event_id": event.id, "event_name": event.name, "code": event.code,
            "open": is_open, "message": message,
            "closes": _local(event, event.registration_closes_at),
            "time_zone": event.time_zone, "lock_after_week": lock_week(event),
            "substitutes": TEAM_SUBSTITUTES,
            "divisions": list(event.registration_divisions or [])}


def register(code: str, token: str, name: str, players: list[str], substitutes: list[str],
             client: str, division: str | None = None) -> tuple[Team, str]:
    """A captain registers a team (its name, two players, substitutes, and its division when
    the organizer lets captains choose one) through the link, until the deadline; the answer
    carries the team key once."""
    event = _event_by_code(code)
    _check_token(event, token)
    event = lock_event(event.id)
    require_league(preset_of(event))
    is_open, message = _open_now(event)
    if not is_open:
        raise Conflict(message, code="registration-closed")
    division = _chosen_division(event, division)
    principal = _captain(event)
    link_teams.count_registration(event, client)
    team = register_team(event, principal, name, players, substitutes, client)
    team.division = division
    link_players(event, list(team.members))
    key, secret = issue_key(event.id, TEAM, label=f"Captain of {team.name}", team_id=team.id)
    audit(event.id, principal, "captain-registration", "team", team.id,
          after={"name": team.name, "players": players, "substitutes": substitutes,
                 "division": division, "key_id": key.id})
    db.session.commit()
    return team, secret


def issue_team_key(event_id: int, principal: Principal, team_id: int) -> tuple[Team, str]:
    """A new team key for a team's captain (a team the organizer registered, or a captain who
    lost the link): the team's earlier keys stop working."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    now = utcnow()
    revoked = 0
    for key in db.session.execute(select(ApiKey).where(
            ApiKey.team_id == team.id, ApiKey.revoked_at.is_(None))).scalars():
        key.revoked_at = now
        revoked += 1
    key, secret = issue_key(event.id, TEAM, label=f"Captain of {team.name}", team_id=team.id)
    audit(event.id, principal, "team-key", "team", team.id,
          after={"name": team.name, "key_id": key.id, "revoked": revoked})
    db.session.commit()
    return team, secret

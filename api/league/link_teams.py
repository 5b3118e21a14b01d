"""Guarding a league's team registration link (league/captains.py) from squatters: teams
registered through it from one client address are limited, and the organizer removes the
teams a squatter registered in one step.

The link's token is on a printed QR, so anyone who saw the poster can register. One address
registers at most CAPTAIN_REGISTRATION_LIMIT teams through one link in a window (a new link
starts afresh); past it the answer is a 429 with Retry-After. Captains at a sign-up night on
the venue's wifi share one address, so the limit is a handful of teams, not one.
"""

from __future__ import annotations

from datetime import datetime

from flask import current_app
from sqlalchemy import delete, select

from ..core import limits
from ..core.common import audit, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict
from ..core.keys import Principal
from ..core.models import ApiKey, AuditEntry, Event, Player, Team
from ..night.door import zone_of
from .forfeits import require_league

REGISTERED = "captain-registration"  # the audit action of a team registered through the link


def _bucket(event_id: int, client: str = "") -> str:
    return f"captain:{event_id}:{client}"


def count_registration(event: Event, client: str) -> None:
    """Count one team registered through the link from this address (inside the caller's
    transaction: a registration refused later rolls its count back)."""
    config = current_app.config
    limit = config["CAPTAIN_REGISTRATION_LIMIT"]
    limits.take(_bucket(event.id, client), limit,
                config["CAPTAIN_REGISTRATION_WINDOW_SECONDS"],
                f"{limit} teams were registered through this link from this network lately: "
                "ask the organizer to add your team.")


def new_link(event_id: int) -> None:
    """A new link starts every address's count afresh."""
    limits.clear(prefix=_bucket(event_id))


def remove_link_teams(event_id: int, principal: Principal,
                      since: datetime | None = None) -> dict:
    """Remove, in one step, the teams captains registered through the link (those made at
    `since` or later, when given; without an offset it is the venue's time): their players,
    their team keys and the teams themselves, as if never registered. Only before the season
    is scheduled, so none of them has played or been seated; teams the organizer added stay.
    Returns how many were removed and their names."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    if event.schedule and event.schedule.get("season"):
        raise Conflict("The season is scheduled, so its teams are in the schedule: withdraw a "
                       "team instead (Players screen).", code="season-scheduled")
    registered = {int(i) for i in db.session.execute(select(AuditEntry.entity_id).where(
        AuditEntry.event_id == event.id, AuditEntry.action == REGISTERED,
        AuditEntry.entity == "team")).scalars()}
    teams = list(db.session.execute(select(Team).where(
        Team.event_id == event.id, Team.id.in_(registered)).order_by(Team.id)).scalars())
    if since is not None:
        moment = since if since.tzinfo else since.replace(tzinfo=zone_of(event))
        teams = [t for t in teams if t.created_at >= moment]
    ids = [t.id for t in teams]
    names = [t.name for t in teams]
    if ids:
        db.session.execute(delete(ApiKey).where(ApiKey.team_id.in_(ids)))
        db.session.execute(delete(Player).where(Player.team_id.in_(ids)))
        db.session.execute(delete(Team).where(Team.id.in_(ids)))
        audit(event.id, principal, "remove-link-teams", "event", event.id,
              after={"removed": len(ids), "names": names[:50],
                     "since": since.isoformat() if since else None})
    db.session.commit()
    db.session.expire_all()
    return {"removed": len(ids), "names": names}

"""Who may read a league's calendars: anyone (the default, like the season's page), or, once
the organizer makes them private, only whoever has a team's secret link. A team's link is
made by its captain (team key) or the organizer; a new one revokes the old at once, and
revoking leaves the team with none."""

from __future__ import annotations

import secrets

from sqlalchemy import select, update

from ..core.common import audit, get_team, lock_event, preset_of
from ..core.db import db
from ..core.errors import Forbidden, NotFound
from ..core.keys import Principal
from ..core.models import Event, Team, TeamCalendar, utcnow
from ..league.forfeits import require_league

TOKEN_BYTES = 16  # 22 characters in the link; 128 bits nobody guesses


def require_public(event: Event) -> None:
    """A public feed of a league whose calendars are private is refused (403): each team's
    own secret link reads it."""
    if event.calendar_private:
        raise Forbidden(f"{event.name} keeps its calendars private: subscribe with your "
                        "team's calendar link (its captain has it on the team page).",
                        code="calendar-private")


def set_private(event_id: int, principal: Principal, private: bool) -> Event:
    """Make a league's calendars private (only teams' secret links read them) or public."""
    event = lock_event(event_id, bump=False, when_finished=True)
    require_league(preset_of(event))
    before = event.calendar_private
    event.calendar_private = private
    audit(event.id, principal, "calendar-privacy", "event", event.id,
          before={"private": before}, after={"private": private})
    db.session.commit()
    return event


def current_token(team: Team) -> str | None:
    return db.session.execute(
        select(TeamCalendar.token).where(TeamCalendar.team_id == team.id,
                                         TeamCalendar.revoked_at.is_(None))
        .order_by(TeamCalendar.created_at.desc())).scalars().first()


def _revoke(team: Team) -> int:
    return db.session.execute(
        update(TeamCalendar).where(TeamCalendar.team_id == team.id,
                                   TeamCalendar.revoked_at.is_(None))
        .values(revoked_at=utcnow())).rowcount


def new_team_link(event_id: int, principal: Principal, team_id: int) -> tuple[Team, str]:
    """A new secret link for a team's calendar; the team's earlier link stops working."""
    event = lock_event(event_id, bump=False, when_finished=True)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    revoked = _revoke(team)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    db.session.add(TeamCalendar(token=token, team_id=team.id))
    audit(event.id, principal, "calendar-link", "team", team.id,
          after={"team": team.name, "revoked": revoked})
    db.session.commit()
    return team, token


def revoke_team_link(event_id: int, principal: Principal, team_id: int) -> Team:
    """The team's secret link stops working; no new one is made."""
    event = lock_event(event_id, bump=False, when_finished=True)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    revoked = _revoke(team)
    audit(event.id, principal, "calendar-link-revoked", "team", team.id,
          after={"team": team.name, "revoked": revoked})
    db.session.commit()
    return team


def team_by_token(token: str) -> Team:
    """The team whose current secret link this is; an unknown or revoked one is a 404 (which
    says no more than that)."""
    found = db.session.get(TeamCalendar, token) if len(token) <= 32 else None
    team = db.session.get(Team, found.team_id) if found and found.revoked_at is None else None
    if team is None:  # (a team removed where the database keeps no foreign keys: gone too)
        raise NotFound("This calendar link is unknown or was replaced: ask the team's "
                       "captain for the current one.", code="calendar-link-unknown")
    return team

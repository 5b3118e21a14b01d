"""Where a player's name leads: their public profile in the event's club."""

from __future__ import annotations

from sqlalchemy import select

from ..core.db import db
from ..core.models import Club, Event, Person, Player


def profile_paths(event: Event) -> dict[int, str]:
    """Each player's profile in the event's club (/c/<slug>/people/<id>), for the players whose
    person is public: the leaderboard links their names there (one query; none outside a
    club). A change of privacy bumps the revisions of the person's events (people.py), so a
    board built before it is not served after it."""
    if event.club_id is None:
        return {}
    slug = db.session.execute(select(Club.slug).where(Club.id == event.club_id)).scalar()
    if not slug:
        return {}
    rows = db.session.execute(
        select(Player.id, Player.person_id).join(Person, Person.id == Player.person_id)
        .where(Player.event_id == event.id, Person.private.is_(False))).all()
    return {player: f"/c/{slug}/people/{person}" for player, person in rows}

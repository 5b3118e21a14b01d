"""Clubs: the organization above its events. A club has keys (each can do everything an
organizer key can in every event of the club), its events, a registry of people (people.py),
series (series.py) and an audit log of changes to its records."""

from __future__ import annotations

import re

from flask import current_app
from sqlalchemy import select

from ..auth import Principal, issue_club_key
from ..db import db
from ..models import Club, ClubAudit, ClubKey, Event, utcnow
from . import limits
from .errors import Conflict, Invalid, NotFound, not_found
from .events import create_event
from .people import club_audit

SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])")


def get_club(club_id: int) -> Club:
    club = db.session.get(Club, club_id)
    if club is None:
        raise not_found(f"Club {club_id}")
    return club


def club_by_slug(slug: str) -> Club:
    club = db.session.execute(select(Club).where(Club.slug == slug.strip().lower())) \
        .scalar_one_or_none()
    if club is None:
        raise NotFound(f"No club has the address '{slug}'. Check the link.", code="not-found")
    return club


def _check_slug(slug: str | None, but: int | None = None) -> str | None:
    if slug is None or not slug.strip():
        return None
    slug = slug.strip().lower()
    if not SLUG.fullmatch(slug):
        raise Invalid(f"The club's address '{slug}' may use a to z, 0 to 9 and '-' (not first "
                      "or last), 3 to 40 characters: e.g. 'loner-seekers'.", code="bad-slug")
    taken = db.session.execute(select(Club.id).where(Club.slug == slug)).scalar_one_or_none()
    if taken is not None and taken != but:
        raise Conflict(f"Another club already has the address '{slug}'; choose another.",
                       code="slug-taken")
    return slug


def create_club(name: str, slug: str | None, client: str = "") -> tuple[Club, str]:
    """A new club and its first club key (shown once). Limited per client address like
    events, which a club also lets one make."""
    config = current_app.config
    limits.take(f"create:{client}", config["EVENT_CREATE_LIMIT"],
                config["EVENT_CREATE_WINDOW_SECONDS"],
                "Too many events and clubs were made from this network lately.")
    club = Club(name=name.strip(), slug=_check_slug(slug))
    db.session.add(club)
    db.session.flush()
    key, secret = issue_club_key(club.id, label="club")
    club_audit(club.id, None, "create-club", "club", club.id,
               after={"name": club.name, "slug": club.slug})
    db.session.commit()
    return club, secret


def update_club(club_id: int, principal: Principal, changes: dict) -> Club:
    club = get_club(club_id)
    before = {"name": club.name, "slug": club.slug}
    if "name" in changes:
        club.name = changes["name"].strip()
    if "slug" in changes:
        club.slug = _check_slug(changes["slug"], but=club.id)
    club_audit(club.id, principal, "update-club", "club", club.id, before=before,
               after={"name": club.name, "slug": club.slug})
    db.session.commit()
    return club


def issue_key(club_id: int, principal: Principal, label: str) -> tuple[ClubKey, str]:
    get_club(club_id)
    key, secret = issue_club_key(club_id, label=label.strip() or "club")
    club_audit(club_id, principal, "issue-key", "key", key.id, after={"label": key.label})
    db.session.commit()
    return key, secret


def list_keys(club_id: int) -> list[ClubKey]:
    return list(db.session.execute(select(ClubKey).where(ClubKey.club_id == club_id)
                                   .order_by(ClubKey.id)).scalars())


def revoke_key(club_id: int, principal: Principal, key_id: int) -> ClubKey:
    key = db.session.get(ClubKey, key_id)
    if key is None or key.club_id != club_id:
        raise NotFound(f"Key {key_id} is not one of this club's keys.", code="not-found")
    if key.id == principal.key_id:
        raise Conflict("You cannot revoke the key you are using; issue another club key "
                       "first.", code="own-key")
    if key.revoked_at is None:
        key.revoked_at = utcnow()
        club_audit(club_id, principal, "revoke-key", "key", key.id, after={"label": key.label})
    db.session.commit()
    return key


def create_club_event(club_id: int, principal: Principal, name: str, preset_key: str,
                      overrides: dict | None, time_zone: str, client: str) -> tuple[Event, str]:
    """An event of the club (its players become the club's people as they register)."""
    get_club(club_id)
    event, secret = create_event(name, preset_key, overrides, time_zone, client,
                                 club_id=club_id)
    club_audit(club_id, principal, "create-event", "event", event.id,
               after={"name": event.name, "preset": event.preset_key})
    db.session.commit()
    return event, secret


def club_events(club_id: int) -> list[Event]:
    """The club's events, newest first."""
    return list(db.session.execute(select(Event).where(Event.club_id == club_id)
                                   .order_by(Event.created_at.desc(), Event.id.desc()))
                .scalars())


def club_audit_entries(club_id: int, limit: int = 200) -> list[dict]:
    rows = db.session.execute(
        select(ClubAudit, ClubKey.label, ClubKey.hint)
        .outerjoin(ClubKey, ClubKey.id == ClubAudit.key_id)
        .where(ClubAudit.club_id == club_id).order_by(ClubAudit.id.desc()).limit(limit)).all()
    return [{"id": e.id, "at": e.at, "action": e.action, "entity": e.entity,
             "entity_id": e.entity_id, "before": e.before, "after": e.after,
             "key": None if hint is None else {"id": e.key_id, "label": label or "",
                                               "hint": hint}}
            for e, label, hint in rows]

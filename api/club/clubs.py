"""Clubs: the organization above its events. A club has keys (each can do everything an
organizer key can in every event of the club), its events, a registry of people (people.py),
series (series.py) and an audit log of changes to its records."""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import delete, exists, or_, select

from ..core import limits
from ..core.common import lock_event
from ..core.db import db
from ..core.errors import Conflict, Invalid, NotFound, not_found
from ..core.keys import Principal, issue_club_key
from ..core.models import Club, ClubAudit, ClubKey, Event, Forfeit, Game, Hand, utcnow
from ..night.events import create_event
from ..people.people import club_audit

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


def indexable(*, slug: str | None = None, club_id: int | None = None) -> bool:
    """Whether search engines may index the club's pages of people (RULES.md section 9: not
    unless the club opts in). An unknown club is not."""
    where = Club.slug == slug.strip().lower() if slug is not None else Club.id == club_id
    return bool(db.session.scalar(select(Club.indexable).where(where)))


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
    settings = ("people_private_by_default", "indexable")
    before = {"name": club.name, "slug": club.slug, **{s: getattr(club, s) for s in settings}}
    if "name" in changes:
        club.name = changes["name"].strip()
    if "slug" in changes:
        club.slug = _check_slug(changes["slug"], but=club.id)
    for setting in settings:
        if setting in changes:
            setattr(club, setting, bool(changes[setting]))
    if "indexable" in changes:
        club.revision += 1  # people's pages change their robots answer
    club_audit(club.id, principal, "update-club", "club", club.id, before=before,
               after={"name": club.name, "slug": club.slug,
                      **{s: getattr(club, s) for s in settings}})
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


def club_events(club_id: int, archived: bool = False) -> list[Event]:
    """The club's events, newest night first; those set aside (archived) only if asked."""
    query = select(Event).where(Event.club_id == club_id)
    if not archived:
        query = query.where(Event.archived_at.is_(None))
    return list(db.session.execute(query.order_by(
        Event.night_date.desc(), Event.created_at.desc(), Event.id.desc())).scalars())


def _club_night(club_id: int, event_id: int) -> Event:
    """One of the club's events, its row held for the change (the revision bumped, so series,
    profiles and boards built before it are not served after it)."""
    found = db.session.execute(select(Event.club_id).where(Event.id == event_id)).scalar()
    if found is None or found != club_id:
        raise NotFound(f"Event {event_id} is not one of this club's events.", code="not-found")
    return lock_event(event_id, when_finished=True)


def night_view(event: Event) -> dict:
    return {"name": event.name, "date": event.night_date,
            "archived": event.archived_at is not None}


def change_night(club_id: int, principal: Principal, event_id: int, changes: dict) -> Event:
    """Set a night's date (the day it was played: a past month entered late sits in its
    month) or set it aside (archived) and back. Audited."""
    event = _club_night(club_id, event_id)
    before = night_view(event)
    if "date" in changes:
        event.night_date = _check_night_date(changes["date"], event.time_zone)
    if "archived" in changes:
        if changes["archived"] and event.archived_at is None:
            event.archived_at = utcnow()
        elif not changes["archived"]:
            event.archived_at = None
    club_audit(club_id, principal, "update-night", "event", event.id, before=before,
               after=night_view(event))
    db.session.commit()
    return event


def _check_night_date(day: date, zone: str) -> date:
    today = utcnow().astimezone(ZoneInfo(zone)).date()
    if not date(2000, 1, 1) <= day <= today + timedelta(days=366):
        raise Invalid(f"A night's date is the day it was played: {day.isoformat()} is not one "
                      "(from 2000 to a year from now).", code="bad-night-date")
    return day


def scored(event_id: int) -> bool:
    """Whether anything was scored in the event: a hand, a game with points or an end (a
    sheet, a forfeit, a tie settled), or a league forfeit."""
    games = select(Game.id).where(Game.event_id == event_id, or_(
        Game.hands_played > 0, Game.entries > 0, Game.points_a != 0, Game.points_b != 0,
        Game.end.is_not(None), Game.from_sheet.is_(True), Game.forfeited_by.is_not(None),
        Game.tie_method.is_not(None), Game.signed_off_at.is_not(None)))
    return bool(db.session.execute(select(
        exists(select(Hand.id).where(Hand.event_id == event_id)) | exists(games)
        | exists(select(Forfeit.id).where(Forfeit.event_id == event_id)))).scalar())


def delete_night(club_id: int, principal: Principal, event_id: int) -> None:
    """Delete a night made by mistake, while nothing was scored in it (its players, rounds
    and keys go with it). A night with results is archived instead: refused with a 409 that
    says so."""
    event = _club_night(club_id, event_id)
    if scored(event.id):
        raise Conflict(f"{event.name} has results (hands, sheets or forfeits), so it cannot be "
                       "deleted: archive it instead. An archived night leaves the club's lists, "
                       "series and profiles, and can be brought back.", code="night-has-results")
    club_audit(club_id, principal, "delete-event", "event", event.id,
               before={"name": event.name, "date": event.night_date,
                       "preset": event.preset_key})
    db.session.execute(delete(Event).where(Event.id == event.id))
    db.session.commit()


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

"""A club's nights and an event's rounds as calendars.

A club's feed has each of its nights (those set aside left out): a league's weeks and
playoff rounds, each on its night at its start time; any other night as a whole day on its
date (RULES.md section 5: a night has a date of its own). An event's feed has its night and
each round seated, from when its clock started (or it was seated) to its close (or the
clock's end), in the event's time zone."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from ..club.clubs import club_events, get_club
from ..core.db import db
from ..core.models import AuditEntry, ClubAudit, Event, Round
from . import ical
from .league_feeds import is_league, night_items

UPDATE_NIGHT = "update-night"  # the club audit's action when a night's date is set
# The audit log's actions that move a round's times: its clock started (again), closed, reopened.
ROUND_TIMES = ("start-clock", "close-round", "reopen-round")


def _date_changes(club_id: int) -> dict[int, list[datetime]]:
    """When each of the club's nights had its date changed (from the club's audit log)."""
    out: dict[int, list[datetime]] = {}
    for row in db.session.execute(
            select(ClubAudit).where(ClubAudit.club_id == club_id,
                                    ClubAudit.action == UPDATE_NIGHT)
            .order_by(ClubAudit.id)).scalars():
        before, after = row.before or {}, row.after or {}
        if before.get("date") != after.get("date"):
            out.setdefault(int(row.entity_id), []).append(row.at)
    return out


def _night_item(event: Event, changes: list[datetime]) -> ical.Item:
    return ical.Item(
        uid=ical.uid("night", event.code), summary=event.name, start=event.night_date,
        created=event.created_at, modified=max([event.created_at, *changes]),
        sequence=len(changes), description=f"{event.name}: the night's games.")


def club_calendar(club_id: int) -> tuple[str, list[ical.Item]]:
    """The club's feed: its name and every night of its events."""
    club = get_club(club_id)
    changes = _date_changes(club_id)
    items: list[ical.Item] = []
    for event in club_events(club_id):
        league = night_items(event) if is_league(event) else []
        items += league or [_night_item(event, changes.get(event.id, []))]
    return f"{club.name}: nights", items


def _round_changes(event: Event) -> dict[int, list[datetime]]:
    """When each round's times changed, from the event's audit log: every clock start, close
    and reopening, so a round's SEQUENCE only ever goes up (a reopened round's close time goes
    away, and its clock may start twice)."""
    out: dict[int, list[datetime]] = {}
    for number, at in db.session.execute(
            select(AuditEntry.round_number, AuditEntry.at)
            .where(AuditEntry.event_id == event.id, AuditEntry.action.in_(ROUND_TIMES))
            .order_by(AuditEntry.id)):
        if number is not None:
            out.setdefault(number, []).append(at)
    return out


def _round_item(event: Event, round_: Round, logged: list[datetime]) -> ical.Item:
    """A round from its start (the clock's, or when it was seated) to its close, or the
    clock's end while it is played. SEQUENCE counts the times its times changed (the audit
    log's clock starts, closes and reopenings; without a log, as a file brought in from
    another instance has none, what the round's own times show)."""
    seated = round_.created_at
    begun = round_.clock_started_at or seated
    start = ical.local(begun, event.time_zone)
    end = None
    if round_.closed_at is not None:
        end = ical.local(max(round_.closed_at, begun), event.time_zone)
    elif round_.minutes:
        end = start + timedelta(minutes=round_.minutes)
    if end is not None and end.replace(microsecond=0) <= start.replace(microsecond=0):
        end = None  # closed the second it began: RFC 5545 wants DTEND after DTSTART
    shown = [t for t in (round_.clock_started_at if round_.clock_started_at
                         and round_.clock_started_at > seated else None, round_.closed_at)
             if t is not None]
    clock = f" ({round_.minutes}-minute clock)" if round_.minutes else ""
    return ical.Item(
        uid=ical.uid("round", event.code, round_.number),
        summary=f"{event.name}: {round_.label}", start=start, end=end, created=seated,
        modified=max([seated, *shown, *logged]), sequence=max(len(shown), len(logged)),
        description=f"{event.name}: {round_.label}{clock}.")


def event_calendar(event: Event) -> tuple[str, list[ical.Item]]:
    """An event's feed: a league's weeks and playoff rounds; any other event's night and its
    rounds."""
    if is_league(event):
        return event.name, night_items(event)
    changes = _date_changes(event.club_id) if event.club_id is not None else {}
    items = [_night_item(event, changes.get(event.id, []))]
    logged = _round_changes(event)
    items += [_round_item(event, r, logged.get(r.number, [])) for r in event.rounds
              if r.status != "scheduled"]
    return event.name, items

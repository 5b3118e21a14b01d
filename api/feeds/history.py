"""When a league's nights changed: the season's changes replayed in order.

A league keeps its calendar's changes as a list in the event's schedule (each postponed or
made-up week and each moved match, with the time it was made), and the organizer's playoff
nights in the audit log. Replaying them one by one, and asking each time on which night every
match (or week) falls, tells how many times each one moved and when it last did: its
SEQUENCE and LAST-MODIFIED, with nothing stored for the feeds."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import date, datetime
from types import SimpleNamespace

from sqlalchemy import select

from ..core.db import db
from ..core.models import AuditEntry, Event

PLAYOFF_NIGHTS = "playoff-nights"  # the audit action of league/changes.set_playoff_nights
UPDATE_EVENT = "update-event"  # the audit action of night/events.rename_event

Nights = Callable[[object], dict[Hashable, date | None]]


def _playoff_night_changes(event: Event) -> list[AuditEntry]:
    return list(db.session.execute(
        select(AuditEntry).where(AuditEntry.event_id == event.id,
                                 AuditEntry.action == PLAYOFF_NIGHTS)
        .order_by(AuditEntry.id)).scalars())


def replay(event: Event, nights_of: Nights) -> dict[Hashable, tuple[int, datetime | None]]:
    """For every key `nights_of` gives (a match id, a week): how many of the season's changes
    moved its night, and when the last one was made. `nights_of` is asked about the event as
    it stood after each change (an object with the event's `schedule` and `rounds`)."""
    schedule = event.schedule or {}
    moves = schedule.get("moves", [])
    audits = _playoff_night_changes(event)
    steps = [(datetime.fromisoformat(m["at"]), "move", i + 1) for i, m in enumerate(moves)
             if m.get("at")]
    steps += [(a.at, "playoff", (a.after or {}).get("playoff_nights") or {}) for a in audits]
    steps.sort(key=lambda s: s[0])
    playoff = ((audits[0].before or {}).get("playoff_nights") or {}) if audits \
        else schedule.get("playoff_nights") or {}
    state = {"moves": 0, "playoff": playoff}

    def as_then():
        then = {**schedule, "moves": moves[:state["moves"]],
                "playoff_nights": state["playoff"]}
        return SimpleNamespace(id=event.id, schedule=then, rounds=event.rounds,
                               time_zone=event.time_zone)

    before = nights_of(as_then())
    counted: dict[Hashable, tuple[int, datetime | None]] = {}
    for at, kind, value in steps:
        if kind == "move":
            state["moves"] = value
        else:
            state["playoff"] = value
        after = nights_of(as_then())
        for key, night in after.items():
            if key in before and before[key] != night:
                times, _ = counted.get(key, (0, None))
                counted[key] = (times + 1, at)
        before = after
    return counted


def zone_changes(event: Event) -> list[datetime]:
    """When the event's time zone was changed: a league's nights start at a time of day in
    its zone, so each change moves every timed match and night to another moment."""
    rows = db.session.execute(
        select(AuditEntry.at, AuditEntry.before, AuditEntry.after)
        .where(AuditEntry.event_id == event.id, AuditEntry.action == UPDATE_EVENT)
        .order_by(AuditEntry.id))
    return [at for at, before, after in rows
            if (before or {}).get("time_zone") != (after or {}).get("time_zone")]

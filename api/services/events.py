"""Creating events and handing out access: the organizer key, runner keys, the join PIN."""

from __future__ import annotations

import math
import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import select

from ..auth import ORGANIZER, RUNNER, Principal, issue_key
from ..db import db
from ..models import ApiKey, Event, RateLimit, utcnow
from ..problems import Problem
from ..rules.presets import build_preset
from .common import audit, get_event, lock_event, preset_of

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread at a table


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if db.session.execute(select(Event.id).where(Event.code == code)).first() is None:
            return code


def _new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def create_event(name: str, preset_key: str, overrides: dict | None) -> tuple[Event, str]:
    """A new event from a preset and checked overrides; returns it with the organizer key,
    which is shown once and never stored in the clear."""
    preset = build_preset(preset_key, overrides)
    event = Event(code=_new_code(), name=name.strip(), preset_key=preset.based_on or preset.key,
                  parameters=preset.parameters(), seed=secrets.randbelow(2**31),
                  join_pin=_new_pin(), manual_order={}, status="open", revision=1)
    db.session.add(event)
    db.session.flush()
    _, secret = issue_key(event.id, ORGANIZER, label="organizer")
    db.session.commit()
    return event, secret


def find_by_code(code: str) -> Event:
    event = db.session.execute(
        select(Event).where(Event.code == code.strip().upper())).scalar_one_or_none()
    if event is None:
        raise Problem(404, f"No event has the code '{code}'. Check the code on the table card.",
                      code="not-found")
    return event


def rename_event(event_id: int, principal: Principal, name: str | None,
                 status: str | None) -> Event:
    event = lock_event(event_id, when_finished=True)
    before = {"name": event.name, "status": event.status}
    if name is not None:
        event.name = name.strip()
    if status is not None:
        event.status = status
    audit(event.id, principal, "update-event", "event", event.id, before=before,
          after={"name": event.name, "status": event.status})
    db.session.commit()
    return event


def list_keys(event_id: int) -> list[ApiKey]:
    return list(db.session.execute(
        select(ApiKey).where(ApiKey.event_id == event_id).order_by(ApiKey.id)).scalars())


def create_runner_key(event_id: int, principal: Principal, table: int | None,
                      label: str) -> tuple[ApiKey, str]:
    event = lock_event(event_id, when_finished=True)
    key, secret = issue_key(event.id, RUNNER, table=table, label=label)
    audit(event.id, principal, "issue-key", "key", key.id, after={"role": RUNNER,
                                                                  "table": table})
    db.session.commit()
    return key, secret


def revoke_key(event_id: int, principal: Principal, key_id: int) -> ApiKey:
    event = lock_event(event_id, when_finished=True)
    key = db.session.get(ApiKey, key_id)
    if key is None or key.event_id != event.id:
        raise Problem(404, f"Key {key_id} does not exist in this event.", code="not-found")
    if key.id == principal.key_id:
        raise Problem(409, "You cannot revoke the key you are using; issue a new organizer "
                      "key first.", code="own-key")
    if key.revoked_at is None:
        key.revoked_at = utcnow()
        audit(event.id, principal, "revoke-key", "key", key.id, after={"role": key.role})
    db.session.commit()
    return key


def reissue_organizer_key(event_id: int, principal: Principal) -> str:
    """A fresh organizer key; the old one keeps working until revoked."""
    event = lock_event(event_id, when_finished=True)
    key, secret = issue_key(event.id, ORGANIZER, label="organizer")
    audit(event.id, principal, "issue-key", "key", key.id, after={"role": ORGANIZER})
    db.session.commit()
    return secret


def new_pin(event_id: int, principal: Principal) -> Event:
    event = lock_event(event_id, when_finished=True)
    event.join_pin = _new_pin()
    audit(event.id, principal, "new-pin", "event", event.id)
    db.session.commit()
    return event


def _window_start(row: RateLimit, now):
    start = row.window_start
    if start.tzinfo is None:  # SQLite returns naive datetimes
        start = start.replace(tzinfo=now.tzinfo)
    return start


def _failures(bucket: str, *, add: bool = False) -> int:
    """Wrong PINs in this bucket's current window; `add` counts one more."""
    window = timedelta(seconds=current_app.config["PIN_WINDOW_SECONDS"])
    now = utcnow()
    row = db.session.get(RateLimit, bucket, populate_existing=True)
    if row is not None:
        start = _window_start(row, now)
        if now - start > window:
            row.window_start, row.attempts = now, 0
    if add:
        if row is None:
            row = RateLimit(bucket=bucket, window_start=now, attempts=0)
            db.session.add(row)
        row.attempts += 1
    return row.attempts if row else 0


def _seconds_left(bucket: str) -> int:
    """Seconds until a locked bucket's window ends and it takes guesses again."""
    window = current_app.config["PIN_WINDOW_SECONDS"]
    row = db.session.get(RateLimit, bucket)
    if row is None:
        return window
    now = utcnow()
    elapsed = (now - _window_start(row, now)).total_seconds()
    return max(1, min(window, math.ceil(window - elapsed)))


def _locked_out(table: int | None, *, event_wide: bool, seconds: int) -> Problem:
    """The 429 for a PIN lockout, saying which limit was hit (the whole event, or one table
    or the no-table join) and when joining that way works again."""
    minutes = max(1, math.ceil(seconds / 60))
    when = f"Try again in {minutes} minute{'s' if minutes > 1 else ''}"
    if event_wide:
        what = ("Too many wrong PINs for this event: joining with the PIN is paused at every "
                "table.")
    elif table:
        what = (f"Too many wrong PINs for table {table}: joining this table with the PIN is "
                "paused (other tables can still join).")
    else:
        what = ("Too many wrong PINs when joining without a table number: joining that way is "
                "paused (joining with a table number still works).")
    return Problem(429, f"{what} {when}, or ask the organizer for a runner link.",
                   code="too-many-attempts", headers={"Retry-After": str(seconds)})


def join_with_pin(code: str, pin: str, table: int | None) -> tuple[Event, str, ApiKey]:
    """Exchange the event code and PIN for a runner key (for one table when given).

    Wrong guesses are limited per event and table, not per address: every phone in a venue
    shares one address, and a guesser can change address but not the event they attack.
    The event as a whole has a limit too: otherwise naming each of the 1,000 possible tables
    in turn would buy a guesser 1,000 times the guesses.
    """
    event = find_by_code(code)
    lock_event(event.id, bump=False, when_finished=True)
    buckets = {f"pin:{event.id}:{table or 0}": current_app.config["PIN_ATTEMPTS"],
               f"pin:{event.id}": current_app.config["PIN_EVENT_ATTEMPTS"]}
    locked = [bucket for bucket, limit in buckets.items() if _failures(bucket) >= limit]
    if locked:
        raise _locked_out(table, event_wide=f"pin:{event.id}" in locked,
                          seconds=max(_seconds_left(bucket) for bucket in locked))
    if not secrets.compare_digest(pin.strip().encode(), event.join_pin.encode()):
        for bucket in buckets:
            _failures(bucket, add=True)
        db.session.commit()
        raise Problem(403, "That PIN is not right for this event. Check the PIN with the "
                      "organizer.", code="wrong-pin")
    key, secret = issue_key(event.id, RUNNER, table=table,
                            label=f"joined with PIN{f' at table {table}' if table else ''}")
    db.session.commit()
    return event, secret, key


def event_summary(event_id: int) -> dict:
    event = get_event(event_id)
    preset = preset_of(event)
    return {"event": event, "preset": preset}

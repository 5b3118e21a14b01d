"""Creating events and handing out access: the organizer key, runner keys, the join PIN."""

from __future__ import annotations

import secrets

from flask import current_app
from sqlalchemy import func, select

from ..core import limits
from ..core.common import audit, event_by_code, get_event, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Forbidden, NotFound
from ..core.hooks import Hook
from ..core.keys import ORGANIZER, RUNNER, Principal, issue_key
from ..core.models import ApiKey, Event, HandEntry, utcnow
from ..rules.presets import build_preset, preset_from_parameters

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread at a table


# A night's status set (open or finished), before it is committed: the club keeps the
# finishes of a finished night in its row (club/finishes.py).
STATUS_SET = Hook("an event's status set, in its transaction")
# A club's night marked finished, after the commit: the club keeps the standings of each of its
# series whose nights are now all finished (club/series.py).
CLUB_NIGHT_FINISHED = Hook("a club's night marked finished, committed")

def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if db.session.execute(select(Event.id).where(Event.code == code)).first() is None:
            return code


def _new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def create_event(name: str, preset_key: str, overrides: dict | None,
                 time_zone: str = "UTC", client: str = "",
                 club_id: int | None = None) -> tuple[Event, str]:
    """A new event from a preset and checked overrides; returns it with the organizer key,
    which is shown once and never stored in the clear. Events made from one client address
    are limited (EVENT_CREATE_LIMIT an hour): no organizer makes that many, and a script
    making thousands would fill the database for nothing. Only events made count: a refusal
    rolls its count back."""
    config = current_app.config
    limits.take(f"create:{client}", config["EVENT_CREATE_LIMIT"],
                config["EVENT_CREATE_WINDOW_SECONDS"],
                "Too many events were made from this network lately.")
    preset = build_preset(preset_key, overrides)
    event = Event(code=_new_code(), name=name.strip(), preset_key=preset.based_on or preset.key,
                  parameters=preset.parameters(), seed=secrets.randbelow(2**31),
                  join_pin=_new_pin(), manual_order={}, status="open", revision=1,
                  time_zone=time_zone, club_id=club_id)
    db.session.add(event)
    db.session.flush()
    _, secret = issue_key(event.id, ORGANIZER, label="organizer")
    db.session.commit()
    return event, secret


def find_by_code(code: str) -> Event:
    return event_by_code(code, "Check the code on the table card.")


def rename_event(event_id: int, principal: Principal, name: str | None,
                 status: str | None, time_zone: str | None = None,
                 hand_awards: list[str] | None = None,
                 verification: str | None = None,
                 correction_minutes: int | None = None) -> Event:
    """Change the event's name, status (open / finished), time zone, awards from the hands,
    who confirms a score (`verification`) or its correction window (`correction_minutes`)."""
    event = lock_event(event_id, when_finished=True)
    before = {"name": event.name, "status": event.status, "time_zone": event.time_zone,
              "hand_awards": event.hand_awards or []}
    if verification is not None:
        _set_verification(event, verification, before)
    if correction_minutes is not None:
        before["correction_minutes"] = preset_of(event).correction_minutes
        event.parameters = {**event.parameters, "correction_minutes": correction_minutes}
    if name is not None:
        event.name = name.strip()
    if status is not None:
        event.status = status
        STATUS_SET(event)
    if time_zone is not None:
        event.time_zone = time_zone
    if hand_awards is not None:
        event.hand_awards = list(dict.fromkeys(hand_awards))
    audit(event.id, principal, "update-event", "event", event.id, before=before,
          after={"name": event.name, "status": event.status, "time_zone": event.time_zone,
                 "hand_awards": event.hand_awards or [],
                 **({"verification": verification} if verification is not None else {}),
                 **({"correction_minutes": correction_minutes}
                    if correction_minutes is not None else {})})
    db.session.commit()
    if status == "finished" and before["status"] != "finished" and event.club_id is not None:
        CLUB_NIGHT_FINISHED(event.id)
    return event


def _set_verification(event: Event, mode: str, before: dict) -> None:
    """Who confirms a score, changed like a format parameter; refused while entries wait
    under the old mode (they would be left with nobody to decide them)."""
    old = preset_of(event).verification
    before["verification"] = old
    if mode == old:
        return
    waiting = db.session.execute(
        select(func.count()).select_from(HandEntry)
        .where(HandEntry.event_id == event.id,
               HandEntry.state.in_(("pending", "mismatch")))).scalar_one()
    if waiting:
        raise Conflict(f"{waiting} {'entry waits' if waiting == 1 else 'entries wait'} to be "
                       "confirmed or settled under the current way of checking scores; decide "
                       "them first (confirm, reject, withdraw or settle), then change it.",
                       code="entries-waiting")
    changed = {**event.parameters, "verification": mode}
    preset_from_parameters(event.preset_key, changed)  # the format still holds together
    event.parameters = changed


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


TABLE_CARD = "table card {table}"


def table_cards(event_id: int, principal: Principal, tables: int) -> tuple[list, int]:
    """A runner key for each table's printed card, 1 to `tables`. Printing again replaces the
    cards printed before: their keys are revoked (phones that scanned an old card join again
    with the new one), so reprints never pile up live keys. Returns [(table, secret)] and how
    many earlier card keys were revoked."""
    event = lock_event(event_id, when_finished=True)
    labels = {TABLE_CARD.format(table=n) for n in range(1, 1001)}
    old = [k for k in db.session.execute(select(ApiKey).where(
        ApiKey.event_id == event.id, ApiKey.role == RUNNER, ApiKey.revoked_at.is_(None),
        ApiKey.label.in_(labels))).scalars()]
    now = utcnow()
    for key in old:
        key.revoked_at = now
    made = [(n, issue_key(event.id, RUNNER, table=n, label=TABLE_CARD.format(table=n))[1])
            for n in range(1, tables + 1)]
    audit(event.id, principal, "table-cards", "event", event.id,
          after={"tables": tables, "replaced": len(old)})
    db.session.commit()
    return made, len(old)


def revoke_key(event_id: int, principal: Principal, key_id: int) -> ApiKey:
    event = lock_event(event_id, when_finished=True)
    key = db.session.get(ApiKey, key_id)
    if key is None or key.event_id != event.id:
        raise NotFound(f"Key {key_id} does not exist in this event.", code="not-found")
    if key.id == principal.key_id:
        raise Conflict("You cannot revoke the key you are using; issue a new organizer "
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
    """A new join PIN: the old one stops working, and the count of wrong guesses starts
    afresh (they were guesses at a PIN that no longer exists), which lifts any slowing down
    they caused."""
    event = lock_event(event_id, when_finished=True)
    event.join_pin = _new_pin()
    limits.clear(_event_bucket(event.id), prefix=_event_bucket(event.id) + ":")
    audit(event.id, principal, "new-pin", "event", event.id)
    db.session.commit()
    return event


def _event_bucket(event_id: int, client: str | None = None) -> str:
    """Wrong PINs at one event: from anyone, or from one client address."""
    return f"pin:{event_id}" if client is None else f"pin:{event_id}:{client}"


def wrong_pins(event_id: int) -> tuple[int, int]:
    """Wrong join PINs tried for the event in the current window, and the window's seconds
    left: the organizer sees it, and a new PIN starts it afresh."""
    return limits.current(_event_bucket(event_id), current_app.config["PIN_WINDOW_SECONDS"])


def join_with_pin(code: str, pin: str, table: int | None, client: str) -> \
        tuple[Event, str, ApiKey]:
    """Exchange the event code and PIN for a runner key (for one table when given).

    Wrong guesses are counted per event and client address, and slow that address down at
    that event only: after PIN_CLIENT_ATTEMPTS wrong PINs in a row each try waits, 2 seconds
    after the last wrong one and twice as long after each further one, up to PIN_WAIT_SECONDS
    (429 with Retry-After; the right PIN too, or the wait would tell which guess was right).
    Guessing at one event never slows another, and nobody else is slowed: the right PIN from
    any other address joins at once. (Every phone in a venue shares one address: a stranger
    guessing there makes the venue wait seconds, not minutes, and a new PIN lifts it.)

    Per event, past PIN_EVENT_ATTEMPTS wrong guesses in a window (more than one address
    makes: someone is guessing from many), each address is slowed after only
    PIN_EVENT_CLIENT_ATTEMPTS wrong guesses at that event, while an address that has not
    mistyped, such as the venue's, still joins. The organizer sees the count, and a new PIN,
    which makes every guess so far worthless, forgets them all.
    """
    config = current_app.config
    window = config["PIN_WINDOW_SECONDS"]
    event = find_by_code(code)
    # Joins at one event take turns, so its counts are exact whatever the workers.
    lock_event(event.id, bump=False, when_finished=True)
    here = _event_bucket(event.id, client)
    many = limits.current(_event_bucket(event.id), window)[0] >= config["PIN_EVENT_ATTEMPTS"]
    free = config["PIN_EVENT_CLIENT_ATTEMPTS"] if many else config["PIN_CLIENT_ATTEMPTS"]
    left = limits.wait_left(here, free, config["PIN_WAIT_SECONDS"], window)
    if left:
        raise limits.too_many(
            "Many wrong PINs were tried at this event lately, so each network may only try a "
            "few before it waits: check the PIN with the organizer (a new PIN lifts this) or "
            "ask for a runner link." if many else
            "Several wrong PINs were tried from this network at this event, so each try waits "
            "a little: check the PIN with the organizer (a new PIN lifts this).", left)
    if not secrets.compare_digest(pin.strip().encode(), event.join_pin.encode()):
        limits.count(_event_bucket(event.id), window)
        limits.failed(here, window)
        db.session.commit()
        raise Forbidden("That PIN is not right for this event. Check the PIN with the "
                        "organizer.", code="wrong-pin")
    key, secret = issue_key(event.id, RUNNER, table=table,
                            label=f"joined with PIN{f' at table {table}' if table else ''}")
    db.session.commit()
    return event, secret, key


def event_summary(event_id: int) -> dict:
    event = get_event(event_id)
    preset = preset_of(event)
    return {"event": event, "preset": preset}

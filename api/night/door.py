"""The check-in window and the door code (RULES.md §4).

The organizer sets when check-in opens and closes, in the venue's time zone; after it closes
only the organizer checks someone in, one person at a time, and each such check-in is in the
audit log. The door code (a random token on the door QR) lets players check themselves in
(self_check_in.py); the organizer rotates it, and the old one stops working at once.
"""

from __future__ import annotations

import secrets
from datetime import datetime, time
from zoneinfo import ZoneInfo

from ..core.common import audit, check_link_token, lock_event
from ..core.common import event_by_code as common_event_by_code
from ..core.db import db
from ..core.errors import Conflict
from ..core.keys import Principal
from ..core.models import Event, utcnow
from ..rules import check_in as rules


def zone_of(event: Event) -> ZoneInfo:
    return ZoneInfo(event.time_zone or "UTC")


def state(event: Event, now: datetime | None = None) -> str:
    """The window's state now: rules.NOT_SET, NOT_YET, OPEN or CLOSED."""
    return rules.state(event.check_in_opens_at, event.check_in_closes_at, now or utcnow())


def closed_at(event: Event) -> str | None:
    """When the window closed, in the venue's words ("6:50 pm"), or None while it is not
    closed (or there is none)."""
    if state(event) != rules.CLOSED:
        return None
    return rules.when(event.check_in_closes_at, zone_of(event), utcnow())


def window_view(event: Event, now: datetime | None = None) -> dict:
    """The window in UTC and in the venue's local time, its state and a sentence saying it."""
    now = now or utcnow()
    zone = zone_of(event)
    opens, closes = event.check_in_opens_at, event.check_in_closes_at

    def local(moment):
        return rules.local_text(moment.astimezone(zone)) if moment else None

    def words(moment):
        return rules.when(moment, zone, now) if moment else None

    return {"time_zone": zone.key, "opens": local(opens), "closes": local(closes),
            "opens_at": opens, "closes_at": closes, "opens_words": words(opens),
            "closes_words": words(closes), "state": state(event, now),
            "message": rules.message(opens, closes, zone, now)}


def set_window(event_id: int, principal: Principal, opens: datetime | time | None,
               closes: datetime | time | None) -> Event:
    """Set (or, with both None, clear) the check-in window. Times without an offset are the
    venue's local time; a time of day alone is on the venue's today."""
    event = lock_event(event_id)
    before = _window_audit(event)
    start, end = rules.window(opens, closes, zone_of(event), utcnow())
    event.check_in_opens_at, event.check_in_closes_at = start, end
    audit(event.id, principal, "check-in-window", "event", event.id, before=before,
          after=_window_audit(event))
    db.session.commit()
    return event


def _window_audit(event: Event) -> dict:
    zone = zone_of(event)
    return {"opens": event.check_in_opens_at and rules.local_text(
                event.check_in_opens_at.astimezone(zone)),
            "closes": event.check_in_closes_at and rules.local_text(
                event.check_in_closes_at.astimezone(zone))}


def allow_check_in(event: Event, principal: Principal | None, entity: str, entity_id: int,
                   name: str, after_window: bool) -> None:
    """Called before someone is checked in. Once the window has closed, the organizer checks
    a person in only by saying so for them (`after_window`), and that is audited; before it
    closes (or with no window) anyone the caller may check in is checked in."""
    if state(event) != rules.CLOSED:
        return
    closed = rules.when(event.check_in_closes_at, zone_of(event), utcnow())
    if not after_window:
        # The sentence is the organizer's (the console offers "Check in anyway"); a program
        # reads the code and `retry_with`, the field that confirms the exception.
        raise Conflict(f"Check-in closed at {closed}. To check {name} in anyway, confirm it "
                       "as an exception for them: Check in anyway.",
                       code="check-in-closed", retry_with={"after_window": True})
    audit(event.id, principal, "check-in-after-window", entity, entity_id,
          after={"name": name, "window_closed": rules.local_text(
              event.check_in_closes_at.astimezone(zone_of(event)))})


def rotate_token(event_id: int, principal: Principal) -> Event:
    """A new door code: the QR printed or shown before stops working at once."""
    event = lock_event(event_id)
    had = event.door_token is not None
    event.door_token = secrets.token_urlsafe(16)
    # The token itself stays out of the log: the log is read by anyone with the key anyway,
    # but an old token in it is of no use and a current one should not sit there.
    audit(event.id, principal, "rotate-door-code" if had else "make-door-code", "event",
          event.id)
    db.session.commit()
    return event


def event_by_code(code: str) -> Event:
    return common_event_by_code(code, "Scan the QR code at the door again.")


def check_token(event: Event, token: str) -> None:
    """The door code the page carries must be the event's current one."""
    check_link_token(event.door_token, token, "This check-in link is old or incomplete: "
                     "scan the QR code at the door again.", "wrong-door-code")


def require_open(event: Event) -> None:
    """Self check-in works only inside the window; outside it the door says when."""
    now = utcnow()
    now_state = state(event, now)
    if now_state == rules.OPEN:
        return
    words = rules.message(event.check_in_opens_at, event.check_in_closes_at, zone_of(event),
                          now)
    if now_state == rules.NOT_SET:
        words = "Check-in at the door is not open: see the organizer at the desk."
    elif now_state == rules.CLOSED:
        words += " See the organizer at the desk."
    raise Conflict(words, code=f"check-in-{now_state}")

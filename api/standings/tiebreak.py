"""The organizer's recorded order for entrants level on every tie-break."""

from __future__ import annotations

from ..core.common import audit, lock_event, preset_of
from ..core.db import db
from ..core.errors import Invalid
from ..core.models import Event
from .standings import entrants


def set_manual_order(event_id: int, principal, order: list[int]) -> Event:
    """The organizer's recorded order for entrants level on every tie-break (e.g. after
    rock-paper-scissors or a card draw): listed entrants are placed in this order."""
    event = lock_event(event_id)
    preset = preset_of(event)
    known = {p.id for p in entrants(event, preset)}
    unknown = [e for e in order if e not in known]
    if unknown:
        kind = "team" if preset.team_entry else "player"
        raise Invalid(f"Not a {kind} of this event: {unknown[0]}.", code="unknown-entrant")
    if len(set(order)) != len(order):
        raise Invalid("Each entrant can appear only once in the order.", code="duplicate")
    before = event.manual_order
    event.manual_order = {str(e): i for i, e in enumerate(order)}
    audit(event.id, principal, "tiebreak-order", "event", event.id, before=before,
          after=event.manual_order)
    db.session.commit()
    return event

"""SQLAlchemy tables: persistence only. Behaviour lives in the areas, the game in rules/.

One module per kind of table; every table is importable from here."""

from __future__ import annotations

from .base import Timestamp, UTCDateTime, utcnow
from .club import Club, ClubAudit, ClubKey, Person, Series, SeriesEvent, SeriesRow
from .feeds import TeamCalendar
from .play import Event, Game, Hand, Match, Player, Round, Seat, Team
from .ratings import RatedNight, Rating, RatingNight
from .records import (
    ApiKey,
    AuditEntry,
    Call,
    DeletedHand,
    DoorRequest,
    Forfeit,
    HandEntry,
    Protest,
    RateLimit,
    Result,
    Ruling,
)
from .webhooks import Webhook, WebhookDelivery

__all__ = [
    "utcnow",
    "UTCDateTime",
    "Timestamp",
    "Event",
    "Team",
    "Player",
    "Round",
    "Match",
    "Seat",
    "Game",
    "Hand",
    "DeletedHand",
    "HandEntry",
    "Result",
    "ApiKey",
    "RateLimit",
    "AuditEntry",
    "DoorRequest",
    "Forfeit",
    "Ruling",
    "Protest",
    "Call",
    "Club",
    "ClubKey",
    "Person",
    "Series",
    "SeriesRow",
    "SeriesEvent",
    "ClubAudit",
    "RatingNight",
    "Rating",
    "RatedNight",
    "TeamCalendar",
    "Webhook",
    "WebhookDelivery",
]

"""Webhooks: the URLs an organizer or a club registered, and the outbox of their deliveries
(api/webhooks/). A delivery row is written in the transaction of the change it tells of, and
sent afterwards by the deliverer, which claims rows with a lease."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db
from .base import Timestamp, utcnow


class Webhook(db.Model):
    """A URL told of an event's news (`event_id`) or of every event of a club (`club_id`).

    Deleting one only marks it (`deleted_at`): another worker may still hold it in its
    subscription cache for a moment, and a delivery written meanwhile must still have its
    row; the deliverer drops deliveries of a deleted webhook."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                                 nullable=True, index=True)
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"),
                                                nullable=True, index=True)
    url: Mapped[str] = mapped_column(String(500))
    kinds: Mapped[list] = mapped_column(JSON)  # the kinds of news it is sent
    secret: Mapped[str] = mapped_column(String(80))  # whsec_..., shown once
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    rotated_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)


class WebhookDelivery(db.Model):
    """One message to one webhook: its body as signed (the same bytes on every attempt), its
    id (`msg_id`, the webhook-id header, shared by the webhooks told of the same news), and
    where its sending stands: pending (due at `next_at`; claimed while `lease_until` is
    ahead), delivered, or failed after the last attempt."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (UniqueConstraint("webhook_id", "msg_id"),
                      Index("ix_webhook_deliveries_due", "status", "next_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    # No index of its own: the unique (webhook_id, msg_id) serves lookups by webhook, and a
    # hand's insert updates one index fewer.
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    msg_id: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(32))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(12), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    lease: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the claimer's token
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    last_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    # Not a foreign key: the event may go, its log of deliveries stays with the webhook.
    event_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


__all__ = ["Webhook", "WebhookDelivery"]

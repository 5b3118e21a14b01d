"""Webhooks: thin routes over api/webhooks/ (docs/webhooks.md). An event's are the organizer's
(or its club's key's); a club's are its club key's."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require, require_club
from ..core.common import get_event
from ..core.keys import ORGANIZER
from ..webhooks import registry
from ..webhooks.schemas import (
    DeliveryQuerySchema,
    DeliverySchema,
    WebhookCreateSchema,
    WebhookSchema,
    WebhookSecretSchema,
)

blp = Blueprint("webhooks", __name__, url_prefix="/api",
                description="Webhooks: news of an event or a club POSTed to a URL, signed")


def _owner_check(event_id: int | None, club_id: int | None) -> None:
    """The key may manage webhooks of this event (its organizer, its club) or this club."""
    if event_id is not None:
        require(event_id, ORGANIZER)
    else:
        require_club(club_id)


@blp.route("/events/<int:event_id>/webhooks")
class EventWebhooks(MethodView):
    @blp.response(200, WebhookSchema(many=True))
    def get(self, event_id):
        """The event's webhooks (organizer); their secrets are never shown again."""
        require(get_event(event_id), ORGANIZER)
        return registry.webhooks(event_id=event_id)

    @blp.arguments(WebhookCreateSchema)
    @blp.response(201, WebhookSecretSchema)
    def post(self, body, event_id):
        """Register a URL for the event's news; the answer holds its signing secret, shown
        this once (organizer)."""
        require(get_event(event_id), ORGANIZER)
        return registry.register(body["url"], body["kinds"], event_id=event_id)


@blp.route("/clubs/<int:club_id>/webhooks")
class ClubWebhooks(MethodView):
    @blp.response(200, WebhookSchema(many=True))
    def get(self, club_id):
        """The club's webhooks, told of every event of the club (club key)."""
        require_club(club_id)
        return registry.webhooks(club_id=club_id)

    @blp.arguments(WebhookCreateSchema)
    @blp.response(201, WebhookSecretSchema)
    def post(self, body, club_id):
        """Register a URL for the news of all the club's events; the answer holds its signing
        secret, shown this once (club key)."""
        require_club(club_id)
        return registry.register(body["url"], body["kinds"], club_id=club_id)


@blp.route("/webhooks/<int:webhook_id>")
class WebhookById(MethodView):
    @blp.response(204)
    def delete(self, webhook_id):
        """Delete a webhook: nothing more is sent to it, its waiting deliveries are dropped
        (the event's organizer, or the club key)."""
        _owner_check(*registry.webhook_owner(webhook_id))
        registry.delete(webhook_id)


@blp.route("/webhooks/<int:webhook_id>/secret")
class WebhookSecret(MethodView):
    @blp.response(200, WebhookSecretSchema)
    def post(self, webhook_id):
        """A new signing secret, shown this once; deliveries from now on are signed with it
        (the event's organizer, or the club key)."""
        _owner_check(*registry.webhook_owner(webhook_id))
        return registry.rotate(webhook_id)


@blp.route("/events/<int:event_id>/webhook-deliveries")
class EventDeliveries(MethodView):
    @blp.arguments(DeliveryQuerySchema, location="query")
    @blp.response(200, DeliverySchema(many=True))
    def get(self, query, event_id):
        """The delivery log of the event's webhooks, newest first: status, attempts, the last
        error (organizer)."""
        require(get_event(event_id), ORGANIZER)
        return registry.deliveries(event_id=event_id, **query)


@blp.route("/clubs/<int:club_id>/webhook-deliveries")
class ClubDeliveries(MethodView):
    @blp.arguments(DeliveryQuerySchema, location="query")
    @blp.response(200, DeliverySchema(many=True))
    def get(self, query, club_id):
        """The delivery log of the club's webhooks, newest first (club key)."""
        require_club(club_id)
        return registry.deliveries(club_id=club_id, **query)


@blp.route("/webhook-deliveries/<int:delivery_id>/redeliver")
class Redeliver(MethodView):
    @blp.response(200, DeliverySchema)
    def post(self, delivery_id):
        """Retry now: the same message (same id, same body) sent again at once, one more
        attempt even after it failed (the event's organizer, or the club key)."""
        _owner_check(*registry.delivery_owner(delivery_id))
        return registry.redeliver(delivery_id)

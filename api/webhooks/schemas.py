"""The API's shapes for webhooks and their deliveries."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import ListOf, Schema
from .outbox import KINDS
from .registry import MAX_URL, STATUSES


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(1, MAX_URL), metadata={
        "description": "Where deliveries are POSTed: http(s), to a public address (private "
                       "and local addresses are refused unless the server allows them).",
        "example": "https://example.org/euchre-hook"})
    kinds = ListOf(fields.String(validate=validate.OneOf(KINDS)), max_items=len(KINDS),
                   load_default=None, metadata={
                       "description": "The kinds of news to send; none or empty: all of them."})


class WebhookSchema(Schema):
    id = fields.Integer(required=True)
    event_id = fields.Integer(allow_none=True)
    club_id = fields.Integer(allow_none=True)
    url = fields.String(required=True)
    kinds = fields.List(fields.String(), required=True)
    created_at = fields.DateTime(required=True)
    rotated_at = fields.DateTime(allow_none=True)


class WebhookSecretSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={
        "description": "The signing secret (whsec_...), shown this once: keep it with the "
                       "receiver, which checks each delivery's webhook-signature with it."})


class DeliverySchema(Schema):
    id = fields.Integer(required=True)
    webhook_id = fields.Integer(required=True)
    url = fields.String(required=True)
    msg_id = fields.String(required=True, metadata={
        "description": "The message's id (the webhook-id header), the same on every attempt."})
    kind = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "pending, delivered or "
                                                                   "failed (no more attempts)"})
    attempts = fields.Integer(required=True)
    sending = fields.Boolean(required=True, metadata={
        "description": "A pending delivery being sent right now (claimed by a deliverer, the "
                       "receiver not answered yet): it has no next attempt time then."})
    next_at = fields.DateTime(allow_none=True, metadata={
        "description": "When a pending delivery is tried next (none while it is sending)."})
    last_status = fields.Integer(allow_none=True, metadata={
        "description": "The HTTP status of the last attempt, if it got an answer."})
    last_error = fields.String(allow_none=True)
    created_at = fields.DateTime(required=True)
    delivered_at = fields.DateTime(allow_none=True)
    event_id = fields.Integer(allow_none=True)


class DeliveryQuerySchema(Schema):
    status = fields.String(load_default=None, validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 500))

"""Events and access: create from a preset, rename, keys, the join PIN."""

from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import client_address, current_principal, require
from ..core.common import get_event, preset_of
from ..core.keys import ORGANIZER
from ..core.schemas import WhoAmISchema
from ..night import events as service
from ..night.presets import describe
from ..night.schemas import (
    AccessSchema,
    EventCreatedSchema,
    EventCreateSchema,
    EventSchema,
    EventUpdateSchema,
    IssuedKeySchema,
    JoinedSchema,
    JoinSchema,
    KeyCreateSchema,
    KeySchema,
    OrganizerKeySchema,
    TableCardsCreateSchema,
    TableCardsSchema,
)
from ..problems import Problem

blp = Blueprint("events", __name__, url_prefix="/api", description="Events and access keys")


def base_url() -> str:
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def links(event) -> dict:
    root = base_url()
    return {
        "leaderboard": f"{root}/e/{event.id}/board",
        "projector": f"{root}/e/{event.id}/projector",
        "organizer": f"{root}/e/{event.id}/organize",
        "join": f"{root}/join/{event.code}",
    }


def event_view(event) -> dict:
    return {
        "id": event.id, "code": event.code, "name": event.name, "preset": event.preset_key,
        "format": describe(preset_of(event)), "status": event.status,
        "revision": event.revision, "time_zone": event.time_zone,
        "created_at": event.created_at, "hand_awards": event.hand_awards or [],
        "club_id": event.club_id,
        "players": len([p for p in event.players if p.role == "player"]),
        "teams": len(event.teams),
        "rounds": len([r for r in event.rounds if r.status != "scheduled"]),
        "links": links(event),
    }


def access_view(event) -> dict:
    wrong, seconds = service.wrong_pins(event.id)
    return {"code": event.code, "join_pin": event.join_pin, "links": links(event),
            "wrong_pins": {"count": wrong, "seconds_left": seconds,
                           "advice": wrong >= current_app.config["PIN_EVENT_WARNING"]}}


def key_view(key) -> dict:
    return {"id": key.id, "role": key.role, "table": key.table, "label": key.label,
            "hint": key.hint, "created_at": key.created_at,
            "revoked": key.revoked_at is not None}


@blp.route("/events")
class Events(MethodView):
    @blp.arguments(EventCreateSchema)
    @blp.response(201, EventCreatedSchema)
    def post(self, body):
        """Create an event from a preset (with optional overrides).

        The answer carries the organizer key once; keep it, it is not shown again."""
        event, secret = service.create_event(body["name"], body["preset"], body["overrides"],
                                             body["time_zone"], client_address())
        view = event_view(event)
        view["links"]["organizer"] += f"#key={secret}"
        return {**view, "organizer_key": secret, "join_pin": event.join_pin}


@blp.route("/events/<int:event_id>")
class EventById(MethodView):
    @blp.response(200, EventSchema)
    def get(self, event_id):
        """An event: its format in plain words, counts and public links."""
        return event_view(get_event(event_id))

    @blp.arguments(EventUpdateSchema, required=False)
    @blp.response(200, EventSchema)
    def patch(self, body, event_id):
        """Rename an event, set its time zone, choose its awards from the hands, choose who
        confirms a score (verification; 409 while entries wait) and the correction window
        (correction_minutes), or mark it finished (organizer)."""
        principal = require(event_id, ORGANIZER)
        return event_view(service.rename_event(event_id, principal, body.get("name"),
                                               body.get("status"), body.get("time_zone"),
                                               body.get("hand_awards"),
                                               body.get("verification"),
                                               body.get("correction_minutes")))


@blp.route("/events/by-code/<string:code>")
class EventByCode(MethodView):
    @blp.response(200, EventSchema)
    def get(self, code):
        """Find an event by the code on its table cards."""
        return event_view(service.find_by_code(code))


@blp.route("/events/<int:event_id>/access")
class Access(MethodView):
    @blp.response(200, AccessSchema)
    def get(self, event_id):
        """The event code, the runners' join PIN and the links to hand out (organizer)."""
        require(event_id, ORGANIZER)
        return access_view(get_event(event_id))


@blp.route("/events/<int:event_id>/pin")
class Pin(MethodView):
    @blp.response(200, AccessSchema)
    def post(self, event_id):
        """Issue a new join PIN; the old one stops working (organizer)."""
        principal = require(event_id, ORGANIZER)
        return access_view(service.new_pin(event_id, principal))


@blp.route("/events/<int:event_id>/keys")
class Keys(MethodView):
    @blp.response(200, KeySchema(many=True))
    def get(self, event_id):
        """Every key of the event, without secrets (organizer)."""
        require(event_id, ORGANIZER)
        return [key_view(k) for k in service.list_keys(event_id)]

    @blp.arguments(KeyCreateSchema, required=False)
    @blp.response(201, IssuedKeySchema)
    def post(self, body, event_id):
        """Issue a runner key, for one table or all; the secret is shown once (organizer)."""
        principal = require(event_id, ORGANIZER)
        key, secret = service.create_runner_key(event_id, principal, body["table"],
                                                body["label"])
        event = get_event(event_id)
        return {**key_view(key), "key": secret,
                "link": f"{base_url()}/join/{event.code}#key={secret}"}


@blp.route("/events/<int:event_id>/keys/<int:key_id>")
class KeyById(MethodView):
    @blp.response(200, KeySchema)
    def delete(self, event_id, key_id):
        """Revoke a key: it stops working at once (organizer)."""
        principal = require(event_id, ORGANIZER)
        return key_view(service.revoke_key(event_id, principal, key_id))


@blp.route("/events/<int:event_id>/table-cards")
class TableCards(MethodView):
    @blp.arguments(TableCardsCreateSchema)
    @blp.response(201, TableCardsSchema)
    def post(self, body, event_id):
        """Runner links for the printed table cards, tables 1 to N; printing again revokes
        the cards printed before, so reprints never pile up live keys (organizer)."""
        principal = require(event_id, ORGANIZER)
        made, replaced = service.table_cards(event_id, principal, body["tables"])
        event = get_event(event_id)
        return {"cards": [{"table": table, "link": f"{base_url()}/join/{event.code}#key={secret}"}
                          for table, secret in made], "replaced": replaced}


@blp.route("/events/<int:event_id>/organizer-key")
class OrganizerKey(MethodView):
    @blp.response(201, OrganizerKeySchema)
    def post(self, event_id):
        """Issue another organizer key (e.g. for a second desk); shown once (organizer)."""
        principal = require(event_id, ORGANIZER)
        return {"organizer_key": service.reissue_organizer_key(event_id, principal)}


@blp.route("/join")
class Join(MethodView):
    @blp.arguments(JoinSchema)
    @blp.response(201, JoinedSchema)
    def post(self, body):
        """Exchange the event code and join PIN for a runner key (wrong PINs are limited per
        client address: a 429 with Retry-After)."""
        event, secret, key = service.join_with_pin(body["code"], body["pin"], body["table"],
                                                   client_address())
        return {"event_id": event.id, "event_name": event.name, "key": secret,
                "table": key.table}


@blp.route("/me")
class WhoAmI(MethodView):
    @blp.response(200, WhoAmISchema)
    def get(self):
        """What the key on this request may do: its event, role and table."""
        principal = current_principal()
        if principal is None:
            raise Problem(401, "No key was sent.", code="no-key",
                          headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
        if principal.club_id is not None:
            return {"key_id": principal.key_id, "event_id": None, "event_name": None,
                    "role": "club", "table": None, "club_id": principal.club_id}
        event = get_event(principal.event_id)
        return {"key_id": principal.key_id, "event_id": event.id, "event_name": event.name,
                "role": principal.role, "table": principal.table, "club_id": None}

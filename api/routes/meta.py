"""Health and the preset catalogue: what a client needs before it joins an event."""

from __future__ import annotations

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from sqlalchemy import text

from ..core.common import get_event
from ..core.db import db
from ..core.schemas import HealthSchema
from ..night import presets as preset_service
from ..night.qr import qr_svg
from ..night.schemas import PresetSchema, QrSchema
from ..problems import Problem

blp = Blueprint("meta", __name__, url_prefix="/api", description="Health, presets and QR codes")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self):
        """Is the server up and its database reachable?"""
        db.session.execute(text("SELECT 1"))
        return {"status": "ok", "database": db.engine.dialect.name}


@blp.route("/presets")
class Presets(MethodView):
    @blp.response(200, PresetSchema(many=True))
    def get(self):
        """Every preset with its parameters in plain words and the points table for a hand."""
        return preset_service.list_presets()


@blp.route("/presets/<string:key>")
class PresetByKey(MethodView):
    @blp.response(200, PresetSchema)
    def get(self, key):
        """One preset."""
        found = preset_service.find_preset(key)
        if found is None:
            raise Problem(404, f"There is no preset called '{key}'.", code="not-found")
        return found


@blp.route("/qr")
class Qr(MethodView):
    @blp.arguments(QrSchema)
    @blp.response(200, content_type="image/svg+xml", description="An SVG QR code.")
    def post(self, body):
        """Draw a QR code for a link (sent in the body, so links with keys stay out of URLs
        and logs)."""
        return Response(qr_svg(body["text"], title=body["title"]), mimetype="image/svg+xml",
                        headers={"Cache-Control": "no-store"})


@blp.route("/events/<int:event_id>/qr/<string:kind>.svg")
class EventQr(MethodView):
    @blp.response(200, content_type="image/svg+xml", description="An SVG QR code.")
    def get(self, event_id, kind):
        """The QR code of an event's public page: 'board' (leaderboard) or 'join' (the
        runners' join page, which still needs the PIN)."""
        event = get_event(event_id)
        paths = {"board": f"/e/{event.id}/board", "join": f"/join/{event.code}"}
        if kind not in paths:
            raise Problem(404, f"There is no QR code '{kind}'; use 'board' or 'join'.",
                          code="not-found")
        root = (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")
        return Response(qr_svg(root + paths[kind], title=f"{event.name}: {kind}"),
                        mimetype="image/svg+xml")

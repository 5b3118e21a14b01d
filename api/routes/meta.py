"""Health and the preset catalogue: what a client needs before it joins an event."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from sqlalchemy import text

from ..db import db
from ..problems import Problem
from ..schemas import HealthSchema, PresetSchema
from ..services import presets as preset_service

blp = Blueprint("meta", __name__, url_prefix="/api", description="Health and presets")


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

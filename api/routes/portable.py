"""One portable file (docs/portable-format.md): an event or a club's year exported as one
JSON document, imported as a new event or club; a club's past seasons from a spreadsheet."""

from __future__ import annotations

import json

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from ..auth import client_address, require, require_club
from ..club.clubs import get_club
from ..core.keys import ORGANIZER
from ..exports import file_slug
from ..portable import history, sheet_text
from ..portable.exporting import export_club, export_event
from ..portable.importing import import_document
from ..problems import Problem

blp = Blueprint("portable", __name__, url_prefix="/api",
                description="One portable file: export and import an event or a club's year")

def _download(document: dict, name: str) -> Response:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{file_slug(name) or "export"}'
                               f'-portable.json"'})


class PortableImportedSchema(Schema):
    scope = fields.String(metadata={"description": "event or club"})
    event_id = fields.Integer(metadata={"description": "the new event (an event's file)"})
    club_id = fields.Integer(metadata={"description": "the new club (a club's file)"})
    slug = fields.String(allow_none=True)
    event_ids = fields.List(fields.Integer(), metadata={"description": "every night made"})
    key = fields.String(metadata={"description": "the organizer key (an event) or the club "
                                                 "key (a club), shown this once"})


@blp.route("/events/<int:event_id>/export/portable.json")
class EventFile(MethodView):
    @blp.response(200, content_type="application/json",
                  description="The portable document (docs/portable-format.md).")
    def get(self, event_id):
        """The event (a night or a whole league season) as one portable JSON file
        (organizer)."""
        require(event_id, ORGANIZER)
        document = export_event(event_id)
        return _download(document, document["nights"][0]["event"]["name"])


@blp.route("/clubs/<int:club_id>/export/portable.json")
class ClubFile(MethodView):
    @blp.response(200, content_type="application/json",
                  description="The portable document (docs/portable-format.md).")
    def get(self, club_id):
        """The club's year: its people, series and every night, as one portable JSON file
        (club key)."""
        require_club(club_id)
        return _download(export_club(club_id), get_club(club_id).name)


@blp.route("/import")
class Import(MethodView):
    @blp.doc(requestBody={"required": True, "description": "A portable file "
                          "(docs/portable-format.schema.json).",
                          "content": {"application/json": {"schema": {"type": "object"}}}})
    @blp.response(201, PortableImportedSchema)
    @blp.alt_response(422, description="The file is not one this version reads; `errors` names "
                      "the path of each bad field. Nothing is stored.")
    def post(self):
        """Import a portable file as a new event or a new club (public, like making one):
        ids are new, and the new key is shown once. Up to 64 MB (LARGER_BODIES)."""
        document = request.get_json(silent=True)
        if document is None:
            raise Problem(422, "The body must be a portable file: JSON, sent with "
                          "Content-Type: application/json.", code="bad-portable-file",
                          errors={"$": ["a portable file (docs/portable-format.md)"]})
        return import_document(document, client=client_address(),
                               slug=request.args.get("slug"))


@blp.route("/clubs/<int:club_id>/history")
class History(MethodView):
    @blp.response(201, content_type="application/json",
                  description="The nights made (results only, no hands); with preview, 200 "
                              "and what would be made.")
    @blp.alt_response(422, description="A line has an error (`errors`, line by line): "
                      "nothing stored.")
    def post(self, club_id):
        """Bring the club's past nights in from a spreadsheet (club key): CSV of night
        (date), name, place, points, sent as text/csv, or as JSON {"csv": ..., "decisions":
        {name: person id or "new"}, "preview": true}. With preview (or ?preview=true) it
        answers what it would make (nights, names matched, new people, each line's error)
        and stores nothing; else it stores every night as a finished results-only night, or
        nothing when a line has an error."""
        principal = require_club(club_id)
        text, decisions, only_preview = _history_body()
        if only_preview:
            return history.preview(club_id, text), 200
        return history.commit(club_id, principal, text, decisions), 201


def _history_body() -> tuple[str, dict | None, bool]:
    asked = request.args.get("preview", "").lower() in ("1", "true", "yes")
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("csv"), str):
            raise Problem(422, "Send the spreadsheet as text/csv, or as JSON with the file's "
                          "text in 'csv'.", code="bad-history-body",
                          errors={"csv": ["the file's text"]})
        decisions = body.get("decisions")
        if decisions is not None and not isinstance(decisions, dict):
            raise Problem(422, "'decisions' maps names to a person's id or \"new\".",
                          code="bad-history-body", errors={"decisions": ["an object"]})
        return body["csv"], decisions, asked or body.get("preview") is True
    return sheet_text.decode(request.get_data(cache=False)), None, asked

"""CSV downloads of an event (organizer)."""

from __future__ import annotations

from flask import Response, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require
from ..core.keys import ORGANIZER
from ..exports import EXPORTS, export
from ..problems import Problem

blp = Blueprint("exports", __name__, url_prefix="/api/events/<int:event_id>/export",
                description="CSV exports")


@blp.route("/<string:name>.csv")
class Export(MethodView):
    @blp.response(200, content_type="text/csv",
                  description="UTF-8 CSV with a header row, streamed.")
    def get(self, event_id, name):
        """Download hands.csv, games.csv, standings.csv or scoresheets.csv (organizer)."""
        if name not in EXPORTS:
            raise Problem(404, f"There is no export called '{name}.csv'; choose one of "
                          f"{', '.join(e + '.csv' for e in EXPORTS)}.", code="not-found")
        require(event_id, ORGANIZER)
        filename, chunks = export(event_id, name)
        return Response(stream_with_context(chunks), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

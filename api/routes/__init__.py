"""HTTP entry points: flask-smorest blueprints that parse, authorize, call a service, serialize."""

from __future__ import annotations

from flask import request
from werkzeug.routing import IntegerConverter, UnicodeConverter

from ..problems import Problem

# The largest id a row can have: ids are 32-bit INTEGER columns on PostgreSQL.
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: a number too large to be an id is a 404 at routing, not a
    500 from the database (SQLite cannot bind past 64 bits, PostgreSQL's ids stop at 32).
    flask-smorest documents the bound as the parameter's `maximum`."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=MAX_ID, signed=False):  # noqa: A002
        super().__init__(url_map, fixed_digits, min, max, signed)


class TextConverter(UnicodeConverter):
    """`<string:...>` (and plain `<...>`) in every route: no NUL, which PostgreSQL cannot
    compare with text (a 500 for /api/events/by-code/%00)."""

    def __init__(self, url_map, minlength=1, maxlength=None, length=None):
        super().__init__(url_map, minlength, maxlength, length)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]", 1)


# Endpoints that also take a body other than JSON (the CSV import: text/csv).
OTHER_BODIES = {"entrants.Import"}


def refuse_bodies_not_json() -> None:
    """A body the API would not read is a 415, not a confusing 'Missing data' 422 (or, where
    every field is optional, a silent success): `curl -d '{...}'` without a JSON content type
    sends a form."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") or request.is_json:
        return
    has_body = (request.content_length or 0) > 0 or \
        "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if not has_body or request.endpoint in OTHER_BODIES or \
            not request.path.startswith("/api/"):
        return
    sent = request.mimetype or "no Content-Type"
    raise Problem(415, f"The body must be JSON, sent with Content-Type: application/json (this "
                  f"request said {sent}; with curl add -H 'Content-Type: application/json').",
                  code="unsupported-media-type")


def register_routes(app, api) -> None:
    from . import entrants, events, exports, games, league, meta, reading, rounds

    app.url_map.converters["int"] = IdConverter  # before any rule is added
    app.url_map.converters["string"] = app.url_map.converters["default"] = TextConverter
    for module in (meta, events, entrants, rounds, games, league, reading, exports):
        api.register_blueprint(module.blp)
    app.before_request(refuse_bodies_not_json)

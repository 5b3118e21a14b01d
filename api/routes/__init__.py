"""HTTP entry points: flask-smorest blueprints that parse, authorize, call a service, serialize."""

from __future__ import annotations

import json

from flask import request
from werkzeug.routing import IntegerConverter, UnicodeConverter

from ..auth import require_key
from ..core.db import db, reading_only
from ..core.text import json_depth
from ..problems import Problem
from .openapi import document_path, needs_key

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
OTHER_BODIES = {"entrants.Import", "portable.History"}


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


# (method, endpoint) of views that go on reading in the key check's transaction.
READS_ON_AFTER_KEY = {("POST", "games.Hands")}


def refuse_calls_without_a_key() -> None:
    """An operation that needs a key answers a call without one (or with a key that is not
    valid) with 401 before it reads anything the call sent: a body with a mistake got a 422
    first, telling a stranger what the operation takes, and tools reading the document's
    security expect the 401. Whether the key may do this is the view's to check."""
    rule = request.url_rule
    if rule is None or request.method == "OPTIONS" or not rule.rule.startswith("/api/"):
        return
    if needs_key(request.method, document_path(rule.rule)):
        # Only a read, so it takes no write lock (a retried hand is answered while another
        # table's write holds it), and it ends here: on SQLite a read transaction that later
        # writes cannot always take the lock, so the view's writes begin their own. A new
        # hand's view reads on in the same transaction and ends it itself before writing
        # (games/hand_entry.py), which saves a connection check-out, its ping, a BEGIN and
        # a ROLLBACK on the request a runner's phone makes most.
        keep = (request.method, request.endpoint) in READS_ON_AFTER_KEY
        with reading_only():
            try:
                require_key()
            except Exception:
                db.session.rollback()
                raise
            if not keep:
                db.session.rollback()


# Deeper than any body the API takes (a few levels), far short of what exhausts a parser.
MAX_JSON_DEPTH = 32


# Endpoints that take a larger body than MAX_CONTENT_LENGTH: a portable file (a club's year).
LARGER_BODIES = {"portable.Import": 64 * 1024 * 1024}


def allow_larger_bodies() -> None:
    """Set before anything reads the body (the checks below read it)."""
    larger = LARGER_BODIES.get(request.endpoint or "")
    if larger:
        request.max_content_length = larger


def refuse_unreadable_json() -> None:
    """A JSON body the parser would fail on with something other than a syntax error (a 500
    with no key needed) is refused before anything reads it: nested hundreds of levels deep
    (a RecursionError; its depth is counted without parsing first), or a number of more than
    4,300 digits (Python's ValueError). Syntax errors are left to the usual 400."""
    if not request.is_json or request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    body = request.get_data(cache=True)
    depth = json_depth(body)
    if depth > MAX_JSON_DEPTH:
        raise Problem(422, f"The JSON body is nested {depth} levels deep; the API takes at most "
                      f"{MAX_JSON_DEPTH}.", code="too-deep")
    try:
        json.loads(body.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return  # the argument parser answers these: 400, "Invalid JSON body."
    except ValueError:
        raise Problem(422, "The JSON body holds a number too long to read (over 4,300 "
                      "digits); no field of the API takes one.", code="number-too-long") from None


def register_routes(app, api) -> None:
    from . import (
        captains,
        clubs,
        door,
        entrants,
        event_day,
        events,
        exports,
        feeds,
        games,
        league,
        meta,
        portable,
        ratings,
        reading,
        rounds,
        rulings,
        story,
        verification,
        webhooks,
    )

    app.url_map.converters["int"] = IdConverter  # before any rule is added
    app.url_map.converters["string"] = app.url_map.converters["default"] = TextConverter
    for module in (meta, events, entrants, rounds, games, league, reading, exports, clubs,
                   event_day, door, captains, verification, rulings, ratings, story,
                   feeds, portable, webhooks):
        api.register_blueprint(module.blp)
    app.before_request(allow_larger_bodies)
    app.before_request(refuse_calls_without_a_key)
    app.before_request(refuse_bodies_not_json)
    app.before_request(refuse_unreadable_json)

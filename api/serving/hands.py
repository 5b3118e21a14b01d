"""A new hand and a game's first sheet answered before Flask: a WSGI layer for the writes a
runner's phone makes most.

`POST /api/games/<id>/hands` and `PUT /api/games/<id>/sheet` are answered here when their
ordinary case applies: a JSON body the route's schema takes, a key that may enter it, and a
hand (or first sheet) the short way stores (games/hand_entry.py), or a hand sent again.
The work is the route's own (`games.enter_ordinary_hand`, `games.enter_first_sheet`, which
share their reads with the Flask route's `enter_hand` and `enter_sheet`) in an app context,
without Flask's request: routing, the request hooks, the argument parser and the response
object cost about as much as storing the hand. Anything else (no key or a key that may not,
a body with a mistake, a game over, a sheet replaced, any error) stores nothing here and goes
to Flask, which answers it as before, every refusal worded.

The answer's headers are those Flask gave the same route's answer (same Origin) the last time,
so the security and CORS headers stay exactly Flask's (`web.LearnedHeaders`): until Flask has
answered once, every such request goes to Flask.
"""

from __future__ import annotations

import io
import json
import logging
import re

from flask import g
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ..auth import bearer_secret, principal_of
from ..core.db import db, reading_only
from ..core.errors import ServiceError
from ..core.keys import KEY_PREFIX
from ..games import hand_entry
from ..problems import Problem
from ..routes import MAX_ID
from ..routes.games import HANDS_IN, SHEET_IN, enter_first_sheet, enter_ordinary_hand, game_json
from ..rules.errors import RuleError
from ..web import LearnedHeaders
from ..webhooks import outbox

log = logging.getLogger(__name__)
PATH = re.compile(r"/api/games/([0-9]{1,10})/(hands|sheet)")
ROUTES = {("POST", "hands"), ("PUT", "sheet")}
# What the route refuses with a worded answer; Flask gives it.
REFUSALS = (Problem, ServiceError, RuleError, HTTPException)
MAX_BODY = 16 * 1024  # a hand is under 300 bytes, a sheet under 200; past this, Flask reads it
STATUS_LINE = {200: "200 OK", 201: "201 CREATED"}


class HandPosts:
    def __init__(self, app, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app
        self.headers = LearnedHeaders()
        app.extensions["hand_posts"] = self

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method not in ("POST", "PUT") or environ.get("QUERY_STRING"):
            return self.wsgi_app(environ, start_response)
        match = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or (method, match.group(2)) not in ROUTES or \
                int(match.group(1)) > MAX_ID:
            return self.wsgi_app(environ, start_response)
        kind, origin = match.group(2), environ.get("HTTP_ORIGIN")
        headers = self.headers.get((kind, origin))
        if headers is None:
            return self._to_flask(environ, start_response, kind, origin)
        body = _read_body(environ)
        if body is None:
            return self._to_flask(environ, start_response, kind, origin)
        answer = self._answer(kind, int(match.group(1)), body, environ)
        if answer is None:
            return self._to_flask(environ, start_response, kind, origin)
        data, status, version = answer
        start_response(STATUS_LINE[status], [*headers, ("Content-Length", str(len(data))),
                                             ("ETag", f'"{version}"')])
        return [data]

    def warm(self) -> None:
        """Build the SQL of a hand's statements (and of the key's look-up) before the worker
        takes requests (worker.py): otherwise the first hand a worker takes pays for
        it. A worker must start even if the database cannot answer yet."""
        try:
            with self.app.app_context():
                try:
                    principal_of(KEY_PREFIX + "0" * 43)  # no such key: a 401, once built
                except Problem:
                    pass
                finally:
                    db.session.rollback()
                hand_entry.prepare()
                outbox.prepare()  # the read of the event's webhooks (api/webhooks/)
        except Exception:  # noqa: BLE001 (the first hand builds it, as before)
            log.exception("preparing the hand path's statements")

    def _to_flask(self, environ, start_response, kind: str, origin: str | None):
        def learn(code: str) -> tuple | None:
            return (kind, origin) if code in ("200", "201") else None

        return self.wsgi_app(environ, self.headers.learning(start_response, learn))

    def _answer(self, kind: str, game_id: int, body: bytes, environ) -> tuple | None:
        """(body, status, version) of the answer, or None when Flask must answer."""
        try:
            sent = json.loads(body)
            args = (HANDS_IN if kind == "hands" else SHEET_IN).load(sent)
        except (ValueError, TypeError, RecursionError, ValidationError):
            return None  # the route's parser words the mistake
        if kind == "sheet" and environ.get("HTTP_IF_MATCH"):
            return None  # replacing a sheet: the long way, with its version checked
        with self.app.app_context():
            try:
                secret = bearer_secret(environ.get("HTTP_AUTHORIZATION", ""))
                if secret is None:
                    return None
                with reading_only():  # as the route reads it: no write lock for a read
                    g.principal = principal_of(secret)
                if kind == "hands":
                    answered = enter_ordinary_hand(game_id, args)
                    if answered is None:
                        return None
                    view, status = answered
                else:
                    view, status = enter_first_sheet(game_id, args), 200
                    if view is None:
                        return None
                data = game_json(view)
            except REFUSALS:
                db.session.rollback()  # Flask words it
                return None
            except Exception:
                db.session.rollback()
                log.exception("a %s before Flask; Flask answers it instead", kind)
                return None
        polls = self.app.extensions.get("leaderboard_polls")
        if polls is not None:
            polls.forget()  # as Flask's teardown does after every write
        return data, status, view["version"]


def _read_body(environ) -> bytes | None:
    """The request's body, read whole and put back for Flask should it answer after all;
    None for a body not sent as JSON, of unknown length or larger than any hand."""
    kind = (environ.get("CONTENT_TYPE") or "").partition(";")[0].strip().lower()
    if kind != "application/json":
        return None
    try:
        length = int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    if not 0 < length <= MAX_BODY or environ.get("HTTP_TRANSFER_ENCODING"):
        return None
    body = environ["wsgi.input"].read(length)
    environ["wsgi.input"] = io.BytesIO(body)
    return body if len(body) == length else None

"""One error shape for everything: RFC 9457 problem+json, produced here and nowhere else."""

from __future__ import annotations

import logging

import marshmallow as ma
from flask import current_app, has_request_context, json, request
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError

from .core import errors as domain
from .rules.errors import RuleError

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)


class Problem(Exception):
    """An error a service or route raises on purpose: an HTTP status and a message to act on."""

    def __init__(self, status: int, detail: str, *, code: str | None = None,
                 errors: dict | None = None, headers: dict | None = None, **extra):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra


class ProblemSchema(ma.Schema):
    """The body of every error response (RFC 9457)."""

    type = ma.fields.String(metadata={"description": "A URI naming the kind of problem."})
    title = ma.fields.String(metadata={"description": "The HTTP status in words."})
    status = ma.fields.Integer(metadata={"description": "The HTTP status code."})
    detail = ma.fields.String(metadata={"description": "What went wrong and what to do."})
    code = ma.fields.String(metadata={"description": "A stable machine-readable reason."})
    errors = ma.fields.Dict(metadata={"description": "Field-by-field input errors."})
    current_version = ma.fields.Integer(metadata={
        "description": "On a 412 (stale If-Match): the game's version now."})
    round_id = ma.fields.Integer(metadata={
        "description": "On a 409 for a round already seated: that round's id."})
    decisions = ma.fields.List(ma.fields.Dict(), metadata={
        "description": "On a 409 'people-to-decide' (a club's event): each name the club's "
                       "registry has only near matches for, with its candidates "
                       "[{name, candidates: [{id, name}]}]. Send the decisions as `people`."})
    readable = ma.fields.Integer(metadata={
        "description": "On a 422 'portable-version-unsupported': the newest version of the "
                       "portable format this instance reads."})
    entrant_id = ma.fields.Integer(metadata={
        "description": "On a 409 'stays-at-table' (a swap): the entrant who stays at a table."})
    entrant = ma.fields.String(metadata={
        "description": "On a 409 'stays-at-table': that entrant's name."})
    stays_at = ma.fields.Integer(metadata={
        "description": "On a 409 'stays-at-table': the table they stay at."})
    correctable_until = ma.fields.String(metadata={
        "description": "On a 403 'correction-window-closed': when the table's correction "
                       "window closed (ISO 8601); the organizer can still change the game."})
    rulings = ma.fields.List(ma.fields.String(), metadata={
        "description": "On a 409 'forfeit-stands' (a league forfeit whose week has started): "
                       "where the organizer rules on each game of the match, the only way to "
                       "change its result now."})
    retry_with = ma.fields.Dict(metadata={
        "description": "On a 409 'check-in-closed': the field that confirms the organizer's "
                       "exception ({\"after_window\": true})."})


def _body(status: int, title: str, detail: str, code: str | None = None,
          errors: dict | None = None, **extra) -> dict:
    # "about:blank": the title is the HTTP status in words; `code` names the exact reason.
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    if code:
        body["code"] = code
    if errors:
        body["errors"] = errors
    body.update(extra)
    return body


def problem_response(status: int, detail: str, *, code: str | None = None,
                     errors: dict | None = None, headers: dict | None = None, **extra):
    from http import HTTPStatus

    title = HTTPStatus(status).phrase
    response = current_app.response_class(
        json.dumps(_body(status, title, detail, code, errors, **extra)),
        status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _summarise(errors) -> str:
    """One sentence from marshmallow's nested error dict, for the `detail` line."""
    parts = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, path + [str(key)])
        elif isinstance(node, list) and node and all(isinstance(x, str) for x in node):
            where = ".".join(p for p in path if p not in ("json", "query", "headers", "form",
                                                          "files"))
            parts.append(f"{where}: {' '.join(node)}" if where else " ".join(node))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + [str(i)])

    walk(errors, [])
    return "; ".join(parts) or "The request is not valid."


class ProblemApi(Api):
    """flask-smorest's Api, answering and documenting every error as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        import http

        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def _register_error_handlers(self):
        app = self._app
        app.register_error_handler(HTTPException, self.handle_http_exception)
        app.register_error_handler(Problem, handle_problem)
        app.register_error_handler(RuleError, handle_rule_error)
        app.register_error_handler(domain.ServiceError, handle_service_error)
        app.register_error_handler(OperationalError, handle_database_error)
        app.register_error_handler(PoolTimeout, handle_database_error)
        app.register_error_handler(Exception, handle_unexpected)

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        # Keep the exception's own headers: a 405 must say which methods are allowed (Allow).
        headers = dict(error.get_headers())
        headers.pop("Content-Type", None)
        headers.update(data.get("headers") or {})
        errors = data.get("errors") or data.get("messages")
        detail = data.get("message")
        if errors and not detail:
            detail = _summarise(errors)
        if not detail:
            detail = error.description or error.name
        if error.code == 422 and "json" in (errors or {}):
            errors = errors["json"]
        if error.code == 413:
            detail, data = _too_large(), {"code": "too-large"}
        if error.code and error.code >= 500:
            log.error("server error: %s", error)
        return problem_response(error.code or 500, detail, code=data.get("code"),
                                errors=errors, headers=headers)


def _too_large() -> str:
    """A body past the limit, in words: how much this address takes, and for a portable
    file the way to import a larger one."""
    limit = request.max_content_length if has_request_context() else None
    words = "The body is larger than this address takes" + \
        (f" ({limit / 2**20:g} MB)." if limit else ".")
    if has_request_context() and request.endpoint == "portable.Import":
        words += " Import a larger file on the server: flask import-file <file>."
    return words


def handle_problem(problem: Problem):
    return problem_response(problem.status, problem.detail, code=problem.code,
                            errors=problem.errors, headers=problem.headers, **problem.extra)


RULE_STATUS = {"invalid": 422, "conflict": 409}

# Each kind of refusal a service raises, and the HTTP status it is answered with.
SERVICE_STATUS: dict[type, int] = {
    domain.NotFound: 404,
    domain.Invalid: 422,
    domain.Conflict: 409,
    domain.Gone: 410,
    domain.Forbidden: 403,
    domain.StaleVersion: 412,
    domain.VersionRequired: 428,
    domain.TooManyAttempts: 429,
}


def service_status(error: domain.ServiceError) -> int:
    for kind in type(error).__mro__:
        if kind in SERVICE_STATUS:
            return SERVICE_STATUS[kind]
    return 422


def handle_service_error(error: domain.ServiceError):
    headers = {}
    if isinstance(error, domain.TooManyAttempts):
        headers["Retry-After"] = str(error.retry_after)
    return problem_response(service_status(error), error.detail, code=error.code,
                            errors=error.errors, headers=headers, **error.extra)


def handle_rule_error(error: RuleError):
    return problem_response(RULE_STATUS.get(error.kind, 422), error.message, code=error.code)


# What a database says when it is too busy to answer now (SQLite's write lock held past the
# busy timeout; PostgreSQL's lock or statement timeout, a deadlock it broke, no connection
# slot free): a moment later it will answer.
BUSY = ("database is locked", "database table is locked", "canceling statement due to",
        "lock timeout", "could not obtain lock", "deadlock detected",
        "could not serialize access", "too many clients", "connection slots are reserved")
RETRY_AFTER_BUSY = 2


def handle_database_error(error: OperationalError | PoolTimeout):
    text = str(getattr(error, "orig", error)).lower()
    # A pool with no connection free in time (every one in use by slow requests) is busy too.
    if not isinstance(error, PoolTimeout) and not any(sign in text for sign in BUSY):
        return handle_unexpected(error)
    log.warning("database busy: %s", text.splitlines()[0] if text else error)
    return problem_response(503, "The database is busy with other writes just now; nothing was "
                            "stored. Try again in a moment (the app does this on its own).",
                            code="busy", headers={"Retry-After": str(RETRY_AFTER_BUSY)})


def handle_unexpected(error: Exception):
    if isinstance(error, HTTPException):  # pragma: no cover - routed to the handler above
        raise error
    if current_app.config.get("RAISE_UNEXPECTED"):
        raise error  # tests want the traceback, not a polite 500
    log.exception("unexpected error", exc_info=error)
    return problem_response(500, InternalServerError.description, code="server-error")

"""Why a use case refused: domain errors the services raise, named for what went wrong.

Services know nothing of HTTP. `api/problems.py` turns each kind into problem+json with its
status, in one place, as it does for the rules' errors; routes add nothing.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal with a sentence a person can act on, a stable `code` for programs, maybe the
    input errors field by field (`errors`) and further members for the answer (`extra`)."""

    default_code: str | None = None

    def __init__(self, detail: str, *, code: str | None = None, errors: dict | None = None,
                 **extra):
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code
        self.errors = errors
        self.extra = extra


class NotFound(ServiceError):
    """The thing named does not exist (or not in this event)."""

    default_code = "not-found"


class Invalid(ServiceError):
    """The request is well formed but makes no sense here (an unknown player, a bad order)."""


class Conflict(ServiceError):
    """The request is fine, but the event's state refuses it now (round closed, game over)."""


class Gone(ServiceError):
    """The thing existed once and was deleted on purpose (a hand id deleted since)."""


class Forbidden(ServiceError):
    """A secret the caller offered is wrong (a join PIN); keys themselves are checked in
    routes."""


class StaleVersion(ServiceError):
    """The change was made against an older version of the game (If-Match names an old one)."""

    default_code = "stale"


class VersionRequired(ServiceError):
    """The change needs the version it was made against, and none was sent."""

    default_code = "if-match-required"


class TooManyAttempts(ServiceError):
    """Too many tries of something limited; `retry_after` seconds until it works again."""

    default_code = "too-many-attempts"

    def __init__(self, detail: str, *, retry_after: int, **kwargs):
        super().__init__(detail, **kwargs)
        self.retry_after = retry_after


def not_found(what: str) -> NotFound:
    """'<what> does not exist.' as a NotFound, e.g. not_found("Game 12")."""
    return NotFound(f"{what} does not exist.")

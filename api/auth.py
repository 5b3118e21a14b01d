"""Access keys: long random secrets stored as digests; who may do what in which event."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from flask import g, request

from .db import db
from .models import ApiKey, Event
from .problems import Problem

ORGANIZER = "organizer"
RUNNER = "runner"
KEY_PREFIX = "euk_"


@dataclass(frozen=True)
class Principal:
    """Who is asking: a key of one event with a role, maybe limited to one table."""

    key_id: int
    event_id: int
    role: str
    table: int | None = None

    @property
    def label(self) -> str:
        where = f" (table {self.table})" if self.table else ""
        return f"{self.role} key #{self.key_id}{where}"


def digest(secret: str) -> str:
    # The secrets are 256-bit random values, so a fast hash is enough: nothing to brute-force.
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def issue_key(event_id: int, role: str, *, table: int | None = None, label: str = "") \
        -> tuple[ApiKey, str]:
    """Create a key; the secret is returned once and only its digest is kept."""
    secret = new_secret()
    key = ApiKey(event_id=event_id, role=role, table=table, label=label,
                 digest=digest(secret), hint=secret[-4:])
    db.session.add(key)
    db.session.flush()
    return key, secret


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Problem(401, "The Authorization header must be 'Bearer <key>'.", code="bad-key",
                      headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
    return value.strip()


def current_principal() -> Principal | None:
    """The key on this request, if any; a malformed, unknown or revoked key is a 401."""
    if "principal" in g:
        return g.principal
    secret = _bearer()
    principal = None
    if secret is not None:
        unknown = Problem(401, "This key is not valid (mistyped, or revoked by the organizer). "
                          "Ask the organizer for a new link or join with the event PIN.",
                          code="bad-key", headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
        if not secret.startswith(KEY_PREFIX) or len(secret) > 100:
            raise unknown
        key = db.session.execute(
            db.select(ApiKey).where(ApiKey.digest == digest(secret))).scalar_one_or_none()
        if key is None or key.revoked_at is not None:
            raise unknown
        principal = Principal(key.id, key.event_id, key.role, key.table)
    g.principal = principal
    return principal


def require(event: Event | int, role: str = ORGANIZER, *, table: int | None = None) -> Principal:
    """The request's key, checked: it belongs to this event and has the role (an organizer key
    can do anything a runner can). A table-limited runner key only reaches its own table."""
    event_id = event if isinstance(event, int) else event.id
    principal = current_principal()
    if principal is None:
        raise Problem(401, "This needs a key: open the link the organizer gave you, or join "
                      "with the event code and PIN.", code="no-key",
                      headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
    if principal.event_id != event_id:
        raise Problem(403, "This key belongs to another event.", code="wrong-event")
    if principal.role == ORGANIZER:
        return principal
    if role == ORGANIZER:
        raise Problem(403, "Only the organizer can do this.", code="organizer-only")
    if principal.table is not None and table is not None and principal.table != table:
        raise Problem(403, f"This runner key is for table {principal.table}, not table {table}.",
                      code="wrong-table")
    return principal

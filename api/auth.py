"""The key on a request, checked: who is asking, and whether their key may do this in this event
(a 401 or 403 problem if not). The keys themselves, and minting them, are core/keys.py."""

from __future__ import annotations

import dataclasses
import functools
from urllib.parse import unquote

from flask import g, request
from sqlalchemy import bindparam, select

from .core.db import db
from .core.keys import KEY_PREFIX, ORGANIZER, TEAM, Principal, client_bucket, digest
from .core.models import ApiKey, ClubKey, Event
from .problems import Problem


def client_address() -> str:
    """The client's address, for limits per client: the socket's, or, behind PROXY_HOPS
    trusted proxies, the one they forwarded (create_app applies ProxyFix for that).

    An IPv6 client is its /64 network: one home or phone is given a whole /64 and may use
    any address in it, so counting single addresses would let it make fresh ones at will.
    An IPv4 address written as IPv6 (::ffff:198.51.100.7) is that IPv4 address."""
    return client_bucket(request.remote_addr)


def _bearer() -> str | None:
    return bearer_secret(request.headers.get("Authorization", ""))


def bearer_secret(header: str) -> str | None:
    """The secret of an Authorization header ('Bearer <key>'); None for no header."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Problem(401, "The Authorization header must be 'Bearer <key>'.", code="bad-key",
                      headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
    return value.strip()


@functools.cache
def _key_query():
    """The look-up of a key by its digest, built once and run on the session's connection:
    it runs before every call that needs a key, and building the statement and loading an
    ORM object cost more than the look-up itself."""
    return select(ApiKey.id, ApiKey.event_id, ApiKey.role, ApiKey.table,
                  ApiKey.revoked_at, ApiKey.team_id).where(ApiKey.digest == bindparam("digest"))


def current_principal() -> Principal | None:
    """The key on this request, if any; a malformed, unknown or revoked key is a 401."""
    if "principal" in g:
        return g.principal
    principal = principal_of(_bearer())
    reason = request_reason()
    if principal is not None and reason is not None:
        principal = dataclasses.replace(principal, reason=reason)
    g.principal = principal
    return g.principal


# The longest reason kept (the audit log and the scoresheet show it whole).
REASON_LENGTH = 300


def request_reason() -> str | None:
    """The X-Reason header: why the caller makes this change (the organizer's reason for a
    correction after the correction window). Percent-encoded UTF-8 (a header carries Latin-1
    only), so "Scorer%20misread%20a%20loner" or plain ASCII; blank is none."""
    raw = request.headers.get("X-Reason")
    if raw is None or request.method in ("GET", "HEAD"):
        return None
    text = " ".join(unquote(raw, errors="replace").split())
    if not text:
        return None
    if len(text) > REASON_LENGTH:
        raise Problem(422, f"The X-Reason header is {len(text)} characters long; a reason "
                      f"takes at most {REASON_LENGTH}.", code="reason-too-long")
    return text


def principal_of(secret: str | None) -> Principal | None:
    """Who a key's secret is (None for no secret); a malformed, unknown or revoked key is a
    401. Read on the session's connection, in whatever transaction it has open."""
    principal = None
    if secret is not None:
        unknown = Problem(401, "This key is not valid (mistyped, or revoked by the organizer). "
                          "Ask the organizer for a new link or join with the event PIN.",
                          code="bad-key", headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
        if not secret.startswith(KEY_PREFIX) or len(secret) > 100:
            raise unknown
        key = db.session.connection().execute(_key_query(), {"digest": digest(secret)}).first()
        if key is not None:
            if key.revoked_at is not None:
                raise unknown
            principal = Principal(key.id, key.event_id, key.role, key.table,
                                  team_id=key.team_id)
        else:
            club_key = db.session.execute(db.select(ClubKey).where(
                ClubKey.digest == digest(secret))).scalar_one_or_none()
            if club_key is None or club_key.revoked_at is not None:
                raise unknown
            principal = Principal(club_key.id, None, ORGANIZER, None, club_key.club_id)
    return principal


def require_key() -> Principal:
    """The request's key, whatever it may do: a request without one is a 401 before anything
    it names (a match, a round) is looked up, so a stranger learns nothing of which exist."""
    principal = current_principal()
    if principal is None:
        raise Problem(401, "This needs a key: open the link the organizer gave you, or join "
                      "with the event code and PIN.", code="no-key",
                      headers={"WWW-Authenticate": 'Bearer realm="euchre"'})
    return principal


def require(event: Event | int, role: str = ORGANIZER, *, table: int | None = None) -> Principal:
    """The request's key, checked: it belongs to this event and has the role (an organizer key
    can do anything a runner can). A table-limited runner key only reaches its own table."""
    event_id = event if isinstance(event, int) else event.id
    principal = require_key()
    if principal.club_id is not None:
        club_id = event.club_id if isinstance(event, Event) else db.session.execute(
            db.select(Event.club_id).where(Event.id == event_id)).scalar_one_or_none()
        if club_id != principal.club_id:
            raise Problem(403, "This club key belongs to another club: it reaches only its "
                          "own club's events.", code="wrong-club")
        return principal
    if principal.event_id != event_id:
        raise Problem(403, "This key belongs to another event.", code="wrong-event")
    if principal.role == ORGANIZER:
        return principal
    if role == ORGANIZER:
        raise Problem(403, "Only the organizer can do this.", code="organizer-only")
    if principal.role == TEAM:
        raise Problem(403, "A team key edits only its team's roster and announces its "
                      "forfeits; this needs a runner's or the organizer's key.",
                      code="team-key")
    if principal.table is not None and table is not None and principal.table != table:
        raise Problem(403, f"This runner key is for table {principal.table}, not table {table}.",
                      code="wrong-table")
    return principal


def require_team(event_id: int, team_id: int) -> Principal:
    """The organizer's key (or the club's), or the team key of this team. A runner key, or
    another team's key, is a 403."""
    principal = require_key()
    if principal.role == TEAM and principal.event_id == event_id:
        if principal.team_id != team_id:
            raise Problem(403, "This team key belongs to another team.", code="wrong-team")
        return principal
    if principal.club_id is None and principal.event_id == event_id \
            and principal.role != ORGANIZER:
        raise Problem(403, "Only the team's captain (its team key) or the organizer can do "
                      "this.", code="team-only")
    return require(event_id, ORGANIZER)


def require_club(club_id: int) -> Principal:
    """A club key of this club; anything else is a 401 (no key) or a 403."""
    principal = require_key()
    if principal.club_id is None:
        raise Problem(403, "This needs the club key: an event's keys reach only their event.",
                      code="club-key-needed")
    if principal.club_id != club_id:
        raise Problem(403, "This club key belongs to another club.", code="wrong-club")
    return principal

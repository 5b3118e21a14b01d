"""What the OpenAPI document says beyond each route's own schemas: the bearer key and which
operations need one, and the answers an If-Match operation gives for a stale or missing
version (412, 428), so tools know what to send and what to expect.

Writes need a key except the few public ones; reads are public except the organizer's few.
tests/security/test_access_matrix.py checks the document against the routes' real behaviour.
"""

from __future__ import annotations

import re

from apispec import BasePlugin

SCHEME = "bearerKey"
# Writes anyone may make: create an event, exchange the PIN for a key, draw a QR code, check in
# at the door.
PUBLIC_WRITES = {("post", "/api/events"), ("post", "/api/join"), ("post", "/api/qr"),
                 ("post", "/api/clubs"),
                 # A portable file made into a new event or club, as making one is.
                 ("post", "/api/import"),
                 # Self check-in: the door code from the door QR stands in for a key.
                 ("post", "/api/door/{code}/check-in"), ("post", "/api/door/{code}/requests"),
                 # A captain registers a team: the registration link's token stands in.
                 ("post", "/api/register/{code}")}
# Reads that need the organizer's key: the PIN, the keys, the next round's plan, the audit
# log and the exports.
KEYED_READS = {"/api/events/{event_id}/access", "/api/events/{event_id}/keys",
               "/api/events/{event_id}/rounds/next", "/api/events/{event_id}/audit",
               "/api/events/{event_id}/export/{name}.csv",
               "/api/events/{event_id}/export/portable.json",
               "/api/clubs/{club_id}/export/portable.json",
               "/api/clubs/{club_id}/keys", "/api/clubs/{club_id}/audit",
               "/api/clubs/{club_id}/people/{person_id}/data",
               "/api/events/{event_id}/door-token", "/api/events/{event_id}/door-requests",
               "/api/events/{event_id}/registration", "/api/events/{event_id}/calls",
               # A team's calendar link: secret in a private league (the team key too).
               "/api/events/{event_id}/teams/{team_id}/calendar",
               "/api/events/{event_id}/webhooks", "/api/clubs/{club_id}/webhooks",
               "/api/events/{event_id}/webhook-deliveries",
               "/api/clubs/{club_id}/webhook-deliveries"}
# Answers about whichever key is sent, or none.
KEY_OPTIONAL = {("get", "/api/me")} | {("get", path) for path in (
    # A game: under double entry the organizer's key sees both sides' waiting entries.
    "/api/games/{game_id}",
    # A club's pages: its private people (profiles, series rows) show to its club key alone.
    # The club's events: the nights it set aside (archived) too, to its club key.
    "/api/clubs/{club_id}", "/api/clubs/by-slug/{slug}", "/api/clubs/{club_id}/events",
    "/api/clubs/{club_id}/people",
    "/api/clubs/{club_id}/people/{person_id}", "/api/clubs/{club_id}/series/{series_id}",
    "/api/clubs/{club_id}/series/{series_id}/standings.csv")}
# Limited per client address (429 with Retry-After): making events, joining with the PIN,
# registering players.
RATE_LIMITED = {("post", "/api/events"), ("post", "/api/join"), ("post", "/api/clubs"),
                ("post", "/api/clubs/{club_id}/events"),
                ("post", "/api/events/{event_id}/players"),
                ("post", "/api/events/{event_id}/teams"),
                ("post", "/api/events/{event_id}/import"),
                ("post", "/api/events/{event_id}/teams/{team_id}/substitutes"),
                ("post", "/api/door/{code}/check-in"), ("post", "/api/door/{code}/requests"),
                ("post", "/api/register/{code}")}

# The game writes whose change, after the table's correction window, the organizer makes only
# with a reason (games/game_writes.py): they take the X-Reason header.
REASON_HEADER = {
    "in": "header", "name": "X-Reason", "required": False, "schema": {"type": "string"},
    "description": "Why the organizer changes the game after the table's correction window "
                   "closed (percent-encoded UTF-8, at most 300 characters): required then "
                   "(422 'reason-required' without it), kept in the audit log and on the "
                   "game's scoresheet."}
NOT_CORRECTIONS = ("/rulings", "/call", "/protests", "/reopen")


def takes_a_reason(method: str, path: str) -> bool:
    return method in ("post", "put", "delete") and path.startswith("/api/games/{game_id}/") \
        and not any(part in path for part in NOT_CORRECTIONS)


SECURITY_SCHEME = {
    "type": "http", "scheme": "bearer",
    "description": "A key of the event (organizer or runner), or a club key (an organizer "
                   "of every event of its club), sent as 'Authorization: Bearer euk_...'. "
                   "Shown once when issued; a wrong or revoked one is a 401.",
}


def needs_key(method: str, path: str) -> bool:
    """Whether the operation (an OpenAPI path such as /api/events/{event_id}) needs a key."""
    method = method.lower()
    if method in ("get", "head"):
        return path in KEYED_READS
    return (method, path) not in PUBLIC_WRITES


def document_path(rule: str) -> str:
    """A Flask rule as the OpenAPI document writes its path: <int:event_id> is {event_id}."""
    return re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", r"{\1}", rule)


class KeysAndVersions(BasePlugin):
    """An apispec plugin that marks each operation's key and its If-Match answers."""

    def init_spec(self, spec):
        super().init_spec(spec)
        self.spec = spec
        spec.components.security_scheme(SCHEME, SECURITY_SCHEME)

    def _answer(self, responses: dict, status: int, name: str) -> None:
        # get_ref also marks the lazily registered component as used, so it is written out.
        responses.setdefault(str(status), self.spec.components.get_ref("response", name))

    def operation_helper(self, path=None, operations=None, **kwargs):
        for method, operation in (operations or {}).items():
            if (method, path) in KEY_OPTIONAL:
                operation.setdefault("security", [{}, {SCHEME: []}])
            elif needs_key(method, path):
                operation.setdefault("security", [{SCHEME: []}])
                responses = operation.setdefault("responses", {})
                self._answer(responses, 401, "UNAUTHORIZED")
                self._answer(responses, 403, "FORBIDDEN")
            else:
                operation.setdefault("security", [])
            # Any call may meet a database too busy to answer in time: a write waiting for a
            # lock, or any call when every connection is in use.
            self._answer(operation.setdefault("responses", {}), 503, "SERVICE_UNAVAILABLE")
            if (method, path) in RATE_LIMITED:
                self._answer(operation.setdefault("responses", {}), 429, "TOO_MANY_REQUESTS")
            if takes_a_reason(method, path):
                operation.setdefault("parameters", []).append(dict(REASON_HEADER))
            headers = [p for p in operation.get("parameters", [])
                       if isinstance(p, dict) and p.get("name") == "If-Match"]
            if headers:
                responses = operation.setdefault("responses", {})
                self._answer(responses, 412, "PRECONDITION_FAILED")
                self._answer(responses, 428, "PRECONDITION_REQUIRED")

"""The leaderboard as the wire carries it: its JSON bytes made once per revision, gzipped for
clients that take it, and its ETag (the event's revision) for polls with If-None-Match."""

from __future__ import annotations

import functools
import gzip

from flask import current_app, request

from ..core.common import get_event
from ..core.writes_first import yield_to_writes
from ..standings.standings import revision_of
from .board import RoundsView, build_leaderboard
from .cache import cached, timed
from .schemas import LeaderboardSchema, StandingRowSchema

BOARD_BODY = "leaderboard.json"


BOARD_BODY_GZIP = "leaderboard.json.gz"


# Level 1: 0.7 ms for an 800-player board of 180 KB, to a seventh of it; higher levels take
# several times longer for a few percent less.
GZIP_LEVEL = 1


def etag_for(name: str, event_id: int, revision: int) -> str:
    return f'W/"{name}-{event_id}-{revision}"'


def etag_matches(tag: str, if_none_match: str | None) -> bool:
    wanted = [t.strip() for t in (if_none_match or "").split(",")]
    return tag in wanted or "*" in wanted


def revision_etag(event_id: int, name: str):
    """The event's revision as an ETag, read without loading anything else. Returns the tag,
    and a ready 304 response when the poller already has it (a 304 costs almost nothing)."""
    tag = etag_for(name, event_id, revision_of(event_id))
    if etag_matches(tag, request.headers.get("If-None-Match")):
        response = current_app.response_class(status=304)
        response.headers["ETag"] = tag
        if name == "board":
            response.vary.add("Accept-Encoding")
        return tag, response
    return tag, None


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header takes gzip (every browser's does)."""
    weights = {}
    for part in (accept_encoding or "").split(","):
        coding, _, params = part.partition(";")
        params = params.strip().lower()
        try:
            weights[coding.strip().lower()] = float(params[2:]) if params.startswith("q=") \
                else 1.0
        except ValueError:
            weights[coding.strip().lower()] = 0.0
    return weights.get("gzip", weights.get("*", 0.0)) > 0


_BOARD_FIELDS = list(LeaderboardSchema().fields)


_PLAIN = ("rows", "ties", "waiting")  # plain ints, strings, bools, lists and dicts already


_BOARD_HEAD = LeaderboardSchema(exclude=_PLAIN)


_ROW_KEYS = [(name, f'"{name}":') for name in StandingRowSchema().fields]


def board_body(board: dict) -> bytes:
    """The leaderboard as JSON bytes, exactly as its schema would dump it, made once per
    revision (a big event's is 1 MB).

    Only the small head goes through marshmallow: the rows (one per entrant, 2,000 in a big
    event) and the ties are plain values already, so they are written out directly, and each
    row's rounds (most of the bytes) keep their JSON between revisions (RoundsView). Dumping
    the rows field by field cost 20 ms for 800 players. The bytes are the schema's own dump's
    (tests/api/test_fast_dumps_agree.py).
    """
    dumps = functools.partial(current_app.json.dumps, separators=(",", ":"))
    head = _BOARD_HEAD.dump(board)
    parts = []
    for name in _BOARD_FIELDS:
        if name == "rows":
            text = "[" + ",".join(_row_json(row, dumps) for row in board["rows"]) + "]"
        elif name in _PLAIN:
            if name not in board:
                continue
            text = dumps(board[name])
        elif name in head:
            text = dumps(head[name])
        else:
            continue
        parts.append(f'"{name}":{text}')
    return ("{" + ",".join(parts) + "}\n").encode()


def _row_json(row: dict, dumps) -> str:
    rounds = row["rounds"]
    if type(rounds) is RoundsView:  # kept between revisions: so is the row's JSON, until
        values = list(row.values())  # any of its values changes (its place, say)
        if rounds.row is not None and rounds.row[0] == values:
            return rounds.row[1]
    text = "{" + ",".join(key + _value(row[name], dumps) for name, key in _ROW_KEYS) + "}"
    if type(rounds) is RoundsView:
        rounds.row = (values, text)
    return text


def _value(value, dumps) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is RoundsView:
        if value.json is None:
            value.json = dumps(value)
        return value.json
    if not value and (kind is list or kind is dict):
        return "[]" if kind is list else "{}"
    return dumps(value)


def leaderboard_body(event_id: int, gzipped: bool = False) -> bytes:
    """The leaderboard's response body, built and serialized once per revision and process
    (and gzipped once, for the clients that take it).

    Callers let a hand being stored in this process go first (`yield_to_writes`) before they
    read the event's revision, so that the board shows it under the revision it made: waiting
    after the read would label the results read after the hand with the revision before it."""
    event = get_event(event_id)

    def build() -> bytes:
        board = build_leaderboard(event)
        yield_to_writes()
        return board_body(board)

    def squeeze() -> bytes:
        yield_to_writes()
        return gzip.compress(body, GZIP_LEVEL, mtime=0)

    body = cached(event, BOARD_BODY, lambda: timed(event, build))
    if not gzipped:
        return body
    return cached(event, BOARD_BODY_GZIP, squeeze)

"""Leaderboards cached per event revision, shared by every thread of a worker: pollers after a
change share one build of the new board instead of each making their own.

Keys are (event id, event code, revision, name); the random event code keeps two databases'
event 1 apart (tests, a restored backup). Revisions only go up, so an entry never goes stale:
old ones simply age out (api/caching.py). Several revisions of a board are kept on purpose:
while the newest is being built, a poller is answered with the newest one built.
"""

from __future__ import annotations

import time

from ..core.caching import Kept
from ..core.models import Event

CACHE_SIZE = 64
CACHE_BYTES = 4_000_000  # bodies kept (a big event's leaderboard is 1.1 MB a revision)

BOARDS = Kept(CACHE_SIZE, weigh=lambda v: len(v) if isinstance(v, bytes) else 0,
              max_weight=CACHE_BYTES)
# (event, code, name) -> the newest revision cached; (event, code) -> its last build's seconds.
NEWEST = Kept(4 * CACHE_SIZE)
BUILD_SECONDS = Kept(4 * CACHE_SIZE)


def cache_key(event_id: int, code: str, revision: int, name: str) -> tuple:
    return (event_id, code, revision, name)


def peek(key: tuple):
    """What is cached under `key`, or None (never builds)."""
    return BOARDS.peek(key)


def building(*keys: tuple) -> bool:
    """Whether a thread of this process is building any of `keys` now."""
    return any(BOARDS.building(key) for key in keys)


def peek_newest(event_id: int, code: str, name: str) -> tuple[int, object] | None:
    """The newest revision of an event's `name` still cached, as (revision, value)."""
    revision = NEWEST.peek((event_id, code, name))
    value = None if revision is None else BOARDS.peek((event_id, code, revision, name))
    return None if value is None else (revision, value)


def cached(event: Event, name: str, build):
    """`build()` once per event revision and name, shared by every thread of the process:
    pollers that arrive while it is being built wait for that build instead of repeating it."""
    key = cache_key(event.id, event.code, event.revision, name)
    value = BOARDS.get_or_build(key, build)
    revision = event.revision
    NEWEST.update((event.id, event.code, name),
                  lambda newest: revision if newest is None else max(newest, revision))
    return value


def timed(event: Event, build):
    """`build()`, remembering how long it took as the event's last leaderboard build."""
    start = time.perf_counter()
    value = build()
    BUILD_SECONDS.put((event.id, event.code), time.perf_counter() - start)
    return value


def board_build_seconds(event_id: int, code: str) -> float | None:
    """How long this process took to build the event's last leaderboard (None: never built)."""
    return BUILD_SECONDS.peek((event_id, code))


def clear() -> None:
    """Forget every cached board, as a restart does (after rows were put back by hand)."""
    for kept in (BOARDS, NEWEST, BUILD_SECONDS):
        kept.clear()

"""Leaderboards cached per event revision, shared by every thread of a worker: pollers after a
change share one build of the new board instead of each making their own.

Keys are (event id, event code, revision, name); the random event code keeps two databases'
event 1 apart (tests, a restored backup). Revisions only go up, so an entry never goes stale:
old ones simply age out.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from ..models import Event

_cache: OrderedDict[tuple, object] = OrderedDict()


_cache_lock = threading.Lock()


_building: dict[tuple, threading.Lock] = {}


_newest: dict[tuple, int] = {}  # (event, code, name) -> the newest revision cached


_build_seconds: dict[tuple, float] = {}  # (event, code) -> its last leaderboard build


CACHE_SIZE = 64


CACHE_BYTES = 4_000_000  # bodies kept (a big event's leaderboard is 1.1 MB a revision)


_cache_bytes = 0


def cache_key(event_id: int, code: str, revision: int, name: str) -> tuple:
    # The random event code keeps two databases' event 1 apart (tests, a restored backup).
    return (event_id, code, revision, name)


def peek(key: tuple):
    """What is cached under `key`, or None (never builds)."""
    with _cache_lock:
        return _cache.get(key)


def building(*keys: tuple) -> bool:
    """Whether a thread of this process is building any of `keys` now."""
    with _cache_lock:
        return any(key in _building for key in keys)


def peek_newest(event_id: int, code: str, name: str) -> tuple[int, object] | None:
    """The newest revision of an event's `name` still cached, as (revision, value)."""
    with _cache_lock:
        revision = _newest.get((event_id, code, name))
        value = None if revision is None else _cache.get((event_id, code, revision, name))
    return None if value is None else (revision, value)


def cached(event: Event, name: str, build):
    """`build()` once per event revision and name, shared by every thread of the process:
    pollers that arrive while it is being built wait for that build instead of repeating it."""
    key = cache_key(event.id, event.code, event.revision, name)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
        building = _building.setdefault(key, threading.Lock())
    with building:
        with _cache_lock:
            if key in _cache:
                return _cache[key]
        try:
            value = build()
        finally:
            with _cache_lock:
                _building.pop(key, None)
        _keep(key, value)
    return value


def _keep(key: tuple, value) -> None:
    """Cache a value; the oldest go first beyond CACHE_SIZE entries or CACHE_BYTES of bytes
    (the newest is always kept)."""
    global _cache_bytes
    with _cache_lock:
        _cache[key] = value
        _cache_bytes += len(value) if isinstance(value, bytes) else 0
        event_id, code, revision, name = key
        if revision > _newest.get((event_id, code, name), -1):
            if len(_newest) >= 4 * CACHE_SIZE:
                _newest.clear()
                _build_seconds.clear()
            _newest[(event_id, code, name)] = revision
        while len(_cache) > 1 and (len(_cache) > CACHE_SIZE or _cache_bytes > CACHE_BYTES):
            _, old = _cache.popitem(last=False)
            _cache_bytes -= len(old) if isinstance(old, bytes) else 0


def timed(event: Event, build):
    """`build()`, remembering how long it took as the event's last leaderboard build."""
    start = time.perf_counter()
    value = build()
    with _cache_lock:
        _build_seconds[(event.id, event.code)] = time.perf_counter() - start
    return value


def board_build_seconds(event_id: int, code: str) -> float | None:
    """How long this process took to build the event's last leaderboard (None: never built)."""
    with _cache_lock:
        return _build_seconds.get((event_id, code))


def clear() -> None:
    """Forget every cached board, as a restart does (after rows were put back by hand)."""
    global _cache_bytes
    with _cache_lock:
        _cache.clear()
        _newest.clear()
        _build_seconds.clear()
        _cache_bytes = 0

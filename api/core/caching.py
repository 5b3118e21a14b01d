"""What a worker keeps in memory between requests: bounded maps, least recently used out
first, shared by the threads of the process.

Every cache of the app is one of these (docs/architecture.md, "What is cached and when it is
forgotten"). A value is kept under a key (what it is of: an event, a game, a person) with a
stamp (what it was computed from: the revisions that every write bumps). A read with another
stamp is a miss, so nothing is ever invalidated by hand: a write bumps a revision, and the
next read computes afresh and replaces the value. The random event code in a key or a stamp
keeps two databases' event 1 apart (tests, a restored backup).

Standard library only, importable from any layer.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

_MISSING = object()
_every: weakref.WeakSet[Kept] = weakref.WeakSet()


class Kept:
    """At most `size` values (and, with `weigh`, at most `max_weight` of their weight; the
    newest is kept whatever it weighs), the least recently read or written going first."""

    def __init__(self, size: int, *, weigh: Callable[[Any], int] | None = None,
                 max_weight: int | None = None):
        if size < 1:
            raise ValueError("a cache keeps at least one value")
        self.size, self.weigh, self.max_weight = size, weigh, max_weight
        self._entries: OrderedDict[Hashable, tuple[Hashable, Any]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}
        _every.add(self)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable, stamp: Hashable = None, default=None):
        """The value kept under `key` for `stamp` (now the most recently used), or `default`."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != stamp:
                return default
            self._entries.move_to_end(key)
            return entry[1]

    def peek(self, key: Hashable, stamp: Hashable = None, default=None):
        """As `get`, without counting as a use."""
        with self._lock:
            entry = self._entries.get(key)
        return default if entry is None or entry[0] != stamp else entry[1]

    def put(self, key: Hashable, value, stamp: Hashable = None) -> None:
        """Keep `value` under `key` for `stamp`, replacing what was kept there."""
        with self._lock:
            self._put(key, stamp, value)

    def update(self, key: Hashable, change: Callable[[Any], Any], stamp: Hashable = None):
        """Keep `change(the value kept for stamp, or None)` under `key`, in one step no other
        thread comes between; returns the value kept."""
        with self._lock:
            entry = self._entries.get(key)
            value = change(None if entry is None or entry[0] != stamp else entry[1])
            self._put(key, stamp, value)
            return value

    def get_or_build(self, key: Hashable, build: Callable[[], Any], stamp: Hashable = None):
        """The value kept for `stamp`, or `build()`'s, kept. Threads asking for the same key
        and stamp meanwhile wait for that one build instead of each making their own."""
        value = self.get(key, stamp, _MISSING)
        if value is not _MISSING:
            return value
        with self._lock:
            gate = self._building.setdefault((key, stamp), threading.Lock())
        with gate:
            value = self.get(key, stamp, _MISSING)
            if value is not _MISSING:
                return value
            try:
                value = build()
            finally:
                with self._lock:
                    self._building.pop((key, stamp), None)
            self.put(key, value, stamp)
            return value

    def building(self, key: Hashable, stamp: Hashable = None) -> bool:
        """Whether a thread is building the value of `key` for `stamp` now."""
        with self._lock:
            return (key, stamp) in self._building

    def pop(self, key: Hashable) -> None:
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is not None:
                self._weight -= self._weight_of(entry[1])

    def clear(self) -> None:
        """Forget everything, as a restart does."""
        with self._lock:
            self._entries.clear()
            self._weight = 0

    def _weight_of(self, value) -> int:
        return self.weigh(value) if self.weigh is not None else 0

    def _put(self, key, stamp, value) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self._weight -= self._weight_of(old[1])
        self._entries[key] = (stamp, value)
        self._weight += self._weight_of(value)
        heavy = self.max_weight is not None
        while len(self._entries) > 1 and (len(self._entries) > self.size or
                                          (heavy and self._weight > self.max_weight)):
            _, (_, gone) = self._entries.popitem(last=False)
            self._weight -= self._weight_of(gone)


def forget_everything() -> None:
    """Every cache of the process cleared, as a restart would (after rows were put back by
    hand, a backup restored under a running worker)."""
    for kept in list(_every):
        kept.clear()

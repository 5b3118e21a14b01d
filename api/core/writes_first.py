"""Writes before reads, among the threads of one worker process.

A worker's threads share one interpreter. A hand's request lets go of it a dozen times (each
database call, each socket read) and has to win it back each time. While another thread
builds an 800-player leaderboard (10-20 ms of Python, some of it in long C calls that keep
the interpreter throughout) or answers polls, each of those waits, and a hand that takes
3 ms alone took 50-120 ms. The runner is waiting for the tap to be stored; a phone polling
the board does not notice it 5 ms later. So builds yield to writes:

- a board build, between its stages, waits while another thread of this process is
  answering a write, for at most PATIENCE seconds each time, so that a steady stream of
  writes holds the boards back by that much at most (`yield_to_writes`);
- a build behind the polls first waits for the writes to settle (`settle`): a runner
  catching up sends several hands back to back, each a new revision of the board, and
  building each one in turn is what those hands waited for.

Polls themselves do not wait: a poll is a fraction of a millisecond, and one parked at the
gate held one of the worker's few request threads, which a hand arriving then waited for.

Standard library only. The WSGI layer that marks the writes is in api/serving (writes.py);
the builders below it call the rest, which is why this gate stays at the bottom of the house
while the layer sits at the top. With the layer switched off nothing is ever counted, and
every wait here returns at once.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

# A hand alone takes 1.5-7 ms; a reader waits this long at most before going on regardless.
PATIENCE = 0.02

# A runner's burst: the next hand leaves the phone within a few ms of the last one's answer.
QUIET = 0.03

_writing = 0  # writes in flight in this process
_last_ended = 0.0  # time.monotonic() when the last one ended
_idle = threading.Condition(threading.Lock())
_mine = threading.local()  # how many of them the current thread is in (a write may read)


@contextmanager
def writing():
    """Count a write in flight for the duration of the block."""
    global _writing, _last_ended
    with _idle:
        _writing += 1
    _mine.depth = getattr(_mine, "depth", 0) + 1
    try:
        yield
    finally:
        _mine.depth -= 1
        with _idle:
            _writing -= 1
            _last_ended = time.monotonic()
            if not _writing:
                _idle.notify_all()


def yield_to_writes(patience: float | None = None) -> None:
    """Wait, without holding the interpreter, until no thread of this process is answering a
    write, or for `patience` seconds at most (default PATIENCE). Costs nothing when none is
    (no lock taken). A thread answering a write itself (one that reads a board, say) does not
    wait."""
    if not _writing or getattr(_mine, "depth", 0):
        return
    with _idle:
        _idle.wait_for(lambda: not _writing, PATIENCE if patience is None else patience)


def settle(until: float, quiet: float = QUIET) -> None:
    """Wait, without holding the interpreter, until no thread of this process has answered a
    write for `quiet` seconds, or until the time.monotonic() `until` at the latest."""
    while True:
        with _idle:
            now = time.monotonic()
            if now >= until:
                return
            if _writing:
                _idle.wait(until - now)  # woken when the last write in flight ends
                continue
            calm = _last_ended + quiet - now
            if calm <= 0:
                return
        time.sleep(min(calm, until - now))

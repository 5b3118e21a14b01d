"""What gunicorn.conf.py does to a worker once it has built the app, and gunicorn's own error
answers. Nothing here builds the app or opens a connection: gunicorn.conf.py imports this in
the master, before the fork.

Each trick with its measured need and the benchmark that prices it (`python -m bench tricks`,
BENCHMARKS.md "The speed tricks, priced one by one"); SERVING_OFF switches any of them off.
"""

from __future__ import annotations

import ctypes
import gc
import json
import logging
import sys

from .switches import on

log = logging.getLogger(__name__)

# Well inside gunicorn's `timeout`, which also runs while a worker starts.
WARM_SECONDS = 10

# switch_interval. How long a thread running Python may keep the interpreter while another
# waits for it (CPython's default: 5 ms). A hand's request gives it up at each of its dozen
# database calls and socket reads; while another thread built an 800-player board (10-20 ms of
# Python), each of those waited up to the whole interval: 50-150 ms for one hand.
# Benchmark: hand POST p90 / max at table pace with 1,000 phones polling.
SWITCH_INTERVAL = 0.0002

# gc_threshold. The youngest generation is collected every this many new objects instead of
# 700: nearly all of a request's garbage is freed by reference counting anyway, and a worker
# serving a live event spent about 1% of its time in the collector, up to 50 ms at once.
# Benchmark (`bench tricks`, `gc_threshold` off): hand POST p90 and max.
GC_THRESHOLD = (20_000, 10, 10)

# mallopt (glibc only). Allocations of 128 KiB and more (a big board's body and its gzip) are
# mapped and unmapped on their own, in two heaps shared by the threads: by default glibc
# raises that threshold after the first such buffer is freed and gives each thread a heap, and
# the buffers stayed in freed heap space the worker never gave back (peak 149-154 MB before,
# 125-126 after, a worker holding an 800- and a 2,000-player event). Benchmark (`bench tricks`,
# `mallopt` off): the worker's peak memory, +6-7% without it.
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
MMAP_THRESHOLD_BYTES = 128 * 1024
ARENAS = 2


def tune_worker(worker) -> None:
    """gunicorn's post_worker_init: the tricks switched on, then the warm-up (the boards of
    the events in play, and the SQL of a hand) before the worker takes requests."""
    if on("gc_freeze"):
        # The app just built (Flask, SQLAlchemy, the schemas: ~120,000 objects) lives as long
        # as the worker: kept out of the collector's full passes, which otherwise paused the
        # request that triggered one for ~100 ms. Benchmark (`bench tricks`, `gc_freeze`
        # off): the polls' p90.
        gc.freeze()
    if on("gc_threshold"):
        gc.set_threshold(*GC_THRESHOLD)
    if on("mallopt"):
        _return_big_buffers()
    if on("switch_interval"):
        sys.setswitchinterval(SWITCH_INTERVAL)
    warm(getattr(worker.wsgi, "extensions", {}))


def warm(extensions: dict) -> None:
    """The leaderboards of the events in play built before the worker takes requests (for up
    to WARM_SECONDS; the rest behind the polls), so that the first poll after a start does not
    read every result of a big event (a second for 200,000 hands); and the SQL of a hand's
    statements, which the first hand a worker took used to build."""
    polls = extensions.get("leaderboard_polls")
    if polls is not None:
        polls.warm(wait=WARM_SECONDS)
    hands = extensions.get("hand_posts")
    if hands is not None:
        hands.warm()


def _return_big_buffers() -> None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        libc.mallopt(M_ARENA_MAX, ARENAS)
    except (OSError, AttributeError):  # not glibc: its allocator's own defaults
        pass


# The headers every answer of the app carries (api/web.py), on the answers gunicorn makes
# itself before the app sees a request (a 400 for a malformed request, a 414 for a line too
# long): no sniffing, no framing, nothing loaded from the page, nothing cached. Not a speed
# trick, so no switch: tests/security/test_gunicorn_edges.py holds it.
ERROR_HEADERS = ("X-Content-Type-Options: nosniff\r\n"
                 "X-Frame-Options: DENY\r\n"
                 "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
                 "Referrer-Policy: no-referrer\r\n"
                 "Cache-Control: no-store\r\n")


def answer_errors_as_problems(util) -> None:
    """Have gunicorn (its `util` module) write its own error answers as problem+json with the
    app's security headers: gunicorn offers no setting for it, so its `write_error` is
    replaced."""

    def write_error(sock, status_int, reason, mesg):
        body = json.dumps({"type": "about:blank", "title": reason, "status": status_int,
                           "detail": f"{reason}: {mesg}" if mesg else reason}).encode()
        head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
                f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n"
                f"{ERROR_HEADERS}\r\n").encode("latin1", "replace")
        util.write_nonblock(sock, head + body)

    util.write_error = write_error

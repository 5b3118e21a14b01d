"""gunicorn settings: threaded workers, no app or database connection before the fork."""

import ctypes
import gc
import json
import os
import sys

from gunicorn import glogging, util

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# The app is built in each worker, never in the master, so no connection crosses a fork.
preload_app = False
timeout = 30
graceful_timeout = 10
keepalive = 5
# https at the venue (README, "Serving it where the tables are"): a certificate and its key,
# e.g. made with mkcert for the laptop's address. Without them, plain http.
certfile = os.environ.get("TLS_CERT") or None
keyfile = os.environ.get("TLS_KEY") or None
# Keys travel in the Authorization header, never in the URL, and access logs omit headers.
accesslog = "-" if os.environ.get("ACCESS_LOG") else None
# The default format logs the Basic-auth user and the query string: a key sent the wrong way
# (curl -u KEY:, or ?key=KEY) would be written down. This one has neither.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'
errorlog = "-"


class OneLineAccessLog(glogging.Logger):
    """The access log with every line one request: the path is logged decoded, so a %0A in
    a URL wrote a line break into the log (a forged second line); control characters are
    written as \\xNN instead."""

    def atoms(self, resp, req, environ, request_time):
        return {name: _one_line(value) if isinstance(value, str) else value
                for name, value in super().atoms(resp, req, environ, request_time).items()}


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


logger_class = OneLineAccessLog

# The headers every answer of the app carries (api/web.py), on the answers gunicorn makes
# itself before the app sees a request (a 400 for a malformed request, a 414 for a line too
# long): no sniffing, no framing, nothing loaded from the page, nothing cached.
ERROR_HEADERS = ("X-Content-Type-Options: nosniff\r\n"
                 "X-Frame-Options: DENY\r\n"
                 "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
                 "Referrer-Policy: no-referrer\r\n"
                 "Cache-Control: no-store\r\n")


def write_error(sock, status_int, reason, mesg):
    """gunicorn's own error answer, as problem+json with the app's security headers."""
    body = json.dumps({"type": "about:blank", "title": reason, "status": status_int,
                       "detail": f"{reason}: {mesg}" if mesg else reason}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n"
            f"{ERROR_HEADERS}\r\n").encode("latin1", "replace")
    util.write_nonblock(sock, head + body)


util.write_error = write_error


# Well inside `timeout`, which also runs while a worker starts.
WARM_SECONDS = 10
# How long a thread running Python may keep the interpreter while another waits for it
# (CPython's default: 5 ms). A hand's request gives the interpreter up at each of its dozen
# or so database calls and socket reads; while another thread builds a leaderboard (10-20 ms
# of Python for 800 players after every hand), each of those waited up to the whole interval
# to have it back: 50-150 ms for one hand. Benchmark (table pace, 200 tables, 1,000 phones
# polling), hand p90 / max: SQLite 31 / 83 ms at 5 ms, 23 / 46 at 0.5 ms, 21 / 37 at 0.2 ms;
# PostgreSQL x2 56 / 107 ms at 5 ms, 25 / 59 at 0.2 ms; the workers' CPU +2%.
SWITCH_INTERVAL = 0.0002


def post_worker_init(worker):
    """The app a worker has just built (Flask, SQLAlchemy, the schemas: ~120,000 objects) lives
    as long as the worker: keep it out of the garbage collector's full passes, which otherwise
    pause whichever request triggers one for ~100 ms (benchmark: a big event's leaderboard).

    Then collect the youngest generation every 20,000 new objects instead of 700: nearly all
    of a request's garbage is freed by reference counting anyway, and a worker serving a live
    event spent about 1% of its time in the collector and up to 50 ms at once; now a fifth of
    that (benchmark: hand entry at table pace, p90 CPU per hand 15 ms rather than 20)."""
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    _return_big_buffers()
    sys.setswitchinterval(SWITCH_INTERVAL)
    # Then build the leaderboards of the events in play before taking requests (for up to
    # WARM_SECONDS; the rest is built behind the polls), so that the first poll after a start
    # or restart does not read every result of a big event: a second for 200,000 hands.
    extensions = getattr(worker.wsgi, "extensions", {})
    polls = extensions.get("leaderboard_polls")
    if polls is not None:
        polls.warm(wait=WARM_SECONDS)
    # And the SQL of a hand's statements, which the first hand a worker took used to build.
    hands = extensions.get("hand_posts")
    if hands is not None:
        hands.warm()


def _return_big_buffers():
    """glibc only: allocations of 128 KiB and more (a big event's leaderboard is a 1.1 MB body
    and a 0.3 MB gzip, built on request and builder threads alike) are mapped and unmapped on
    their own, and the threads share two heaps. By default glibc raises that threshold after
    the first such buffer is freed and gives each thread a heap of its own, so the buffers
    stayed in freed heap space the worker never gives back. Benchmark (a worker holding an
    800-player event in play and a 2,000-player one): peak 149-154 MB before, 125-126 after."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD, fixed
        libc.mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):  # not glibc: its allocator's own defaults
        pass

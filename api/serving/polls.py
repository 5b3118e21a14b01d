"""Leaderboard polls answered before Flask: a WSGI layer for the one request every phone and
projector repeats every few seconds.

`GET /api/events/<id>/leaderboard` is answered here when it can be from one small query (the
event's revision and code, on a raw pooled connection: no session, no ORM): a 304 when the
poller's If-None-Match already names that revision, or a 200 with the body already built for
it, gzipped for clients that take it (`body.leaderboard_body` caches both per revision).
Anything else (first read of a revision, unknown event, other methods, query strings, any
error) goes to Flask as before.

The revision read itself is shared for POLL_FRESH_SECONDS (a quarter of a second) by the polls
of one worker, but only where that cannot show a poller anything older than it has seen: see
`_recent_revision`. Writes in the worker forget it at once, so nobody waits on their own change;
a read without If-None-Match (a first read, or the console reading again after a change made on
any worker) always reads the revision and gets the newest board, waiting for its build if need be.

Flask's routing, hooks and response objects cost more than the rest of a poll put together
(about 0.5 ms of a 304's 0.7 ms), which is what keeps a poll from getting near the throughput
of a static file. The headers are those Flask itself gave the same kind of answer (same status,
same Origin) the last time it made one, so the security and CORS headers stay exactly Flask's:
until Flask has answered once, every poll goes to Flask.

Measured need: a 304 poll through Flask cost about 0.7 ms of CPU, here about 0.2 ms; at a
venue of a thousand phones polling every second or two that is most of a worker. Benchmark:
`python -m bench tricks`, the leaderboard poll's p50/p90 and the workers' CPU with `polls` off.
The timings (the app's config, api/config.py): POLL_FRESH_SECONDS (0.25 s, a revision read
shared by the polls of a worker) and POLL_BUILD_BEHIND_MS (20 ms, a board slower than that to
build is built behind the polls); here, SETTLE_AT_MOST (0.25 s) and the gate's QUIET (30 ms).
"""

from __future__ import annotations

import logging
import re
import threading
import time

from flask import request
from sqlalchemy import create_engine, event, select

from ..core.caching import Kept
from ..core.db import db, reading_only, request_threads
from ..core.models import Round
from ..core.writes_first import QUIET, settle, yield_to_writes
from ..leaderboard import cache
from ..leaderboard.body import (
    BOARD_BODY,
    BOARD_BODY_GZIP,
    accepts_gzip,
    etag_for,
    etag_matches,
    leaderboard_body,
)
from ..web import LearnedHeaders

log = logging.getLogger(__name__)
BOARD_PATH = re.compile(r"/api/events/([0-9]{1,15})/leaderboard")
_MAX_ORIGINS = 32  # learned header sets are kept per Origin; a bound against odd clients
_MAX_RECENT = 1024  # events whose revision is remembered (the least recently polled go first)
SETTLE_AT_MOST = 0.25  # seconds a build behind the polls waits for an event's writes to settle


# etag_for("board", event id, revision), as If-None-Match sends it back.
BOARD_TAG = re.compile(r'(?:W/)?"board-([0-9]{1,15})-([0-9]{1,15})"')


def newest_seen(event_id: int, if_none_match: str | None) -> int | None:
    """The newest revision of this event's leaderboard that If-None-Match names; None when it
    names none (a first read: an organizer's console just after a change, a phone opening the
    board) or anything else, which only a fresh read and the newest board can answer."""
    if not (if_none_match or "").strip():
        return None
    newest = 0
    for text in (if_none_match or "").split(","):
        if not text.strip():
            continue
        tag = BOARD_TAG.fullmatch(text.strip())
        if tag is None or int(tag.group(1)) != event_id:
            return None
        newest = max(newest, int(tag.group(2)))
    return newest


class LeaderboardPolls:
    def __init__(self, app, wsgi_app):
        self.wsgi_app = wsgi_app
        self.app = app
        with app.app_context():
            self.engine = db.engine
        if self.engine.dialect.name != "sqlite":
            # PostgreSQL: a small pool of its own in autocommit and without the pre-ping, so
            # a poll is one round trip, not four (ping, BEGIN, SELECT, ROLLBACK), and a
            # connection for every request thread. A broken connection is dropped and the
            # poll goes to Flask. SQLite's connections are in
            # autocommit already and a query costs microseconds: the app's pool serves.
            main = self.engine
            threads = request_threads()
            self.engine = create_engine(main.url, isolation_level="AUTOCOMMIT",
                                        pool_size=threads, max_overflow=threads,
                                        pool_pre_ping=False)
            event.listen(main, "engine_disposed", lambda _engine: self.engine.dispose())
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self.sql = f"SELECT revision, code FROM events WHERE id = {mark}"
        # A 200's per Origin and encoding, a 304's per Origin.
        self.learned = LearnedHeaders(limit=3 * _MAX_ORIGINS)
        # event id -> (revision, code, when read): one revision read serves every poll of
        # the next `fresh_for` seconds instead of one a poll (hundreds a second at a venue).
        self.recent = Kept(_MAX_RECENT)
        self.fresh_for = app.config["POLL_FRESH_SECONDS"]
        behind = app.config.get("POLL_BUILD_BEHIND_MS")
        self.build_behind = None if behind is None else behind / 1000
        self.queued: set[int] = set()  # events whose board the builder thread will build
        self.queue_lock = threading.Condition()
        self.builder: threading.Thread | None = None
        app.extensions["leaderboard_polls"] = self

        @app.teardown_request
        def forget_after_writes(_exc):
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                self.forget()

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return self.wsgi_app(environ, start_response)
        match = BOARD_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.wsgi_app(environ, start_response)
        origin = environ.get("HTTP_ORIGIN")
        gzipped = accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING"))
        event_id = int(match.group(1))
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        try:
            row = self._recent_revision(event_id, if_none_match)
        except Exception:  # noqa: BLE001 (Flask answers, and reports, whatever went wrong)
            row = None
        if row is not None:
            revision, code = row
            tag = etag_for("board", event_id, revision)
            if etag_matches(tag, if_none_match):
                headers = self.learned.get(("304", origin))
                if headers is not None:
                    start_response("304 NOT MODIFIED", [*headers, ("ETag", tag)])
                    return [b""]
            elif (headers := self.learned.get(("200", origin, gzipped))) is not None:
                name = BOARD_BODY_GZIP if gzipped else BOARD_BODY
                body = cache.peek(cache.cache_key(event_id, code, revision, name))
                if body is None:
                    return self._while_building(event_id, code, revision, name, if_none_match,
                                                origin, gzipped, environ, start_response)
                start_response("200 OK", [*headers, ("Content-Length", str(len(body))),
                                          ("ETag", tag)])
                return [body]
        return self.wsgi_app(environ, self._learning(origin, gzipped, start_response))

    def _while_building(self, event_id, code, revision, name, if_none_match, origin, gzipped,
                        environ, start_response):
        """The board of `revision` is not built yet. While another thread builds it, a
        poller gets the newest board built instead of queueing behind the build (which holds
        a request thread each): a 304 when it has that one, else that board, and never one
        older than it has seen. Otherwise Flask answers, building or waiting for the build."""
        keys = [cache.cache_key(event_id, code, revision, n)
                for n in (BOARD_BODY, BOARD_BODY_GZIP)]
        older = cache.peek_newest(event_id, code, name)
        seen = newest_seen(event_id, if_none_match)
        if older is not None and seen is not None and seen <= older[0] < revision and \
                (cache.building(*keys) or self._build_behind(event_id, code)):
            built, body = older
            tag = etag_for("board", event_id, built)
            if seen < built:
                headers = self.learned.get(("200", origin, gzipped))
                start_response("200 OK", [*headers, ("Content-Length", str(len(body))),
                                          ("ETag", tag)])
                return [body]
            if (headers := self.learned.get(("304", origin))) is not None:
                start_response("304 NOT MODIFIED", [*headers, ("ETag", tag)])
                return [b""]
        return self.wsgi_app(environ, self._learning(origin, gzipped, start_response))

    def _build_behind(self, event_id: int, code: str) -> bool:
        """For a board slow to build (its last build took POLL_BUILD_BEHIND_MS or more): have
        the builder thread build the event's newest board, so that no poller waits for it.
        Whether it is (or already was) queued."""
        took = cache.board_build_seconds(event_id, code)
        if self.build_behind is None or took is None or took < self.build_behind:
            return False
        self._queue(event_id)
        return True

    def warm(self, wait: float = 0.0) -> None:
        """Build the boards of the events being played now (a round in play) on the builder
        thread, and wait up to `wait` seconds for them: called as a worker starts
        (worker.py), before it takes requests, so that the first poll it answers does
        not pay for reading every result of the event (a second for a 2,000-player event
        with 200,000 hands). What is not built by then is built behind the polls."""
        try:
            with self.app.app_context(), reading_only():
                try:
                    playing = set(db.session.execute(
                        select(Round.event_id).where(Round.status == "playing")).scalars())
                finally:
                    db.session.remove()
        except Exception:  # noqa: BLE001 (a worker must start even if the database cannot
            log.exception("reading the events in play")  # answer yet: polls build as usual)
            return
        for event_id in sorted(playing):
            self._queue(event_id)
        deadline = time.monotonic() + wait
        with self.queue_lock:
            while self.queued & playing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.queue_lock.wait(left)

    def _queue(self, event_id: int) -> None:
        with self.queue_lock:
            if event_id not in self.queued:
                self.queued.add(event_id)
                if self.builder is None or not self.builder.is_alive():
                    self.builder = threading.Thread(target=self._build_queued, daemon=True,
                                                    name="leaderboard-builder")
                    self.builder.start()
                self.queue_lock.notify()

    def _build_queued(self) -> None:
        """The builder thread: one board at a time, the event's newest revision each."""
        while True:
            with self.queue_lock:
                while not self.queued:
                    self.queue_lock.wait()
                event_id = next(iter(self.queued))
            try:
                self._settle(event_id)
                self.build(event_id)
            except Exception:  # noqa: BLE001 (the next poll builds it the usual way instead)
                log.exception("building the leaderboard of event %s in the background",
                              event_id)
            finally:
                with self.queue_lock:
                    self.queued.discard(event_id)
                    self.queue_lock.notify_all()  # a worker's warm-up may be waiting

    def _settle(self, event_id: int) -> None:
        """Before building an event's board behind the polls: wait until its revision has
        stood still for QUIET seconds with no write answered in this process meanwhile (hands
        sent back to back, here or in another worker), SETTLE_AT_MOST seconds at most. One
        build then shows the whole burst, instead of a build for each hand of it competing
        with the next."""
        until = time.monotonic() + SETTLE_AT_MOST
        revision = self._revision(event_id)
        while time.monotonic() < until:
            time.sleep(max(0.0, min(QUIET, until - time.monotonic())))
            settle(until)
            now = self._revision(event_id)
            if now == revision:
                return
            revision = now

    def build(self, event_id: int) -> None:
        """Build the event's newest board (and its gzip) into the cache, reading only: on
        SQLite it never holds the write lock, so hands arriving meanwhile are not held up."""
        yield_to_writes()  # before the revision is read (see leaderboard_body)
        with self.app.app_context(), reading_only():
            try:
                leaderboard_body(event_id, gzipped=True)
            finally:
                db.session.remove()

    def _recent_revision(self, event_id: int, if_none_match: str | None):
        """The event's revision as read at most `fresh_for` seconds ago in this process, when
        that cannot take a poller backwards: for a poller whose ETag names that revision or an
        older one (or none yet), who gets a 304 at most `fresh_for` late, or a newer board. A
        poller that has seen a newer revision (on another worker) makes a fresh read."""
        now = time.monotonic()
        recent = self.recent.get(event_id)
        if recent is not None and now - recent[2] < self.fresh_for:
            revision, code, _ = recent
            seen = newest_seen(event_id, if_none_match)
            if seen is not None and seen <= revision:
                return revision, code
        row = self._revision(event_id)
        if row is None:
            self.recent.pop(event_id)
            return None
        self.recent.put(event_id, (*row, now))
        return row

    def forget(self) -> None:
        """After a write in this process: the next poll of any event reads its revision."""
        self.recent.clear()

    def _revision(self, event_id: int) -> tuple[int, str] | None:
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute(self.sql, (event_id,))
            row = cursor.fetchone()
            cursor.close()
        except Exception:
            conn.invalidate()  # never reuse a connection that failed
            raise
        finally:
            conn.close()  # back to the pool
        return None if row is None else (row[0], row[1])

    def _learning(self, origin: str | None, gzipped: bool, start_response):
        """Remember the headers of Flask's 200 and 304 leaderboard answers."""

        def kind(code: str) -> tuple | None:
            if code == "200":
                return code, origin, gzipped
            return (code, origin) if code == "304" else None

        return self.learned.learning(start_response, kind)

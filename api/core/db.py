"""The database handle and the connection settings each backend needs to keep every hand."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from flask import has_request_context, request
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine

# Stable constraint names, so alembic migrations can drop and alter them on both backends.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

db = SQLAlchemy(metadata=MetaData(naming_convention=NAMING))
migrate = Migrate()

SQLITE_BUSY_TIMEOUT_MS = 10_000
STATEMENT_SECONDS = 20
LOCK_SECONDS = 10
READ_METHODS = ("GET", "HEAD", "OPTIONS")
# Set while work outside a request only reads (the leaderboard builder thread, a worker's
# warm-up): its SQLite transactions then begin deferred, like a GET's, instead of taking the
# write lock for the length of a board build.
_READING: ContextVar[bool] = ContextVar("reading_only", default=False)


@contextmanager
def reading_only() -> Iterator[None]:
    """Mark the work inside as read-only, so on SQLite it never holds the write lock."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


def _only_reading() -> bool:
    if _READING.get():
        return True
    return has_request_context() and request.method in READ_METHODS


def request_threads() -> int:
    """How many requests a worker serves at once (gunicorn.conf.py's threads)."""
    return int(os.environ.get("GUNICORN_THREADS", "8"))


def pool_options() -> dict:
    """A pooled connection for every request thread, and the poll layer's one, kept open.

    A pool smaller than the worker's threads opens and closes an overflow connection for
    every request past its size: on a busy worker that is most of them, and a connection
    costs a fork on PostgreSQL and four PRAGMAs on SQLite (the benchmark found it: a third
    of a leaderboard poll's time went to connecting)."""
    threads = request_threads()
    return {"pool_size": threads + 2, "max_overflow": threads}


def engine_options(url: str) -> dict:
    """Engine settings per backend; merged under any options the configuration gives."""
    if url.startswith("sqlite"):
        # The driver's own transaction handling is turned off (isolation_level=None) so that
        # the "begin" hook below decides how each transaction starts.
        # An in-memory database lives in one connection: SQLAlchemy's own pool for it.
        pool = {} if url in ("sqlite://", "sqlite:///:memory:") else pool_options()
        return {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000,
                                 "isolation_level": None, "check_same_thread": False}, **pool}
    # A request gives up rather than hold a worker thread for ever: gunicorn's timeout does
    # not stop a threaded worker's request, and the PWA stops waiting after 15 s. A statement
    # over STATEMENT_SECONDS, or a lock not had within LOCK_SECONDS, ends in a 503 (problems.py)
    # that says to try again.
    options = (f"-c statement_timeout={STATEMENT_SECONDS * 1000} "
               f"-c lock_timeout={LOCK_SECONDS * 1000}")
    return {"pool_pre_ping": True, "connect_args": {"options": options}, **pool_options()}


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def configure_sqlite(engine: Engine) -> None:
    """WAL, synchronous=FULL, foreign keys and a busy timeout on every connection, and
    BEGIN IMMEDIATE for writes.

    A deferred BEGIN that later writes can fail with "database is locked" at once, whatever
    the busy timeout, when another writer got there first; taking the write lock up front makes
    concurrent writers queue instead. Reads (GET requests, and work marked `reading_only`)
    begin deferred so they never wait for a writer, nor make one wait: WAL gives them a
    consistent snapshot.
    """

    @event.listens_for(engine, "connect")
    def set_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection):
        connection.exec_driver_sql("BEGIN" if _only_reading() else "BEGIN IMMEDIATE")


def init_db(app) -> None:
    """Bind the database to an app; no connection is opened until a request needs one."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    options = engine_options(url)
    options.update(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    if url.startswith("sqlite:///"):
        from pathlib import Path

        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    from . import models  # noqa: F401  (registers the tables for migrations)

    db.init_app(app)
    # Batch mode lets alembic alter SQLite tables (it copies and renames them).
    migrate.init_app(app, db, directory=str(app.config["MIGRATIONS_DIR"]), render_as_batch=True)
    with app.app_context():
        if _is_sqlite(db.engine):
            configure_sqlite(db.engine)

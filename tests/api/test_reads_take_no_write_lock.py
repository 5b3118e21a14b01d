"""Work outside a request that only reads (the leaderboard builder thread, a worker's warm-up)
never holds SQLite's write lock: a hand arriving meanwhile is not kept waiting."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import select

from api.core.db import db, reading_only
from api.core.models import Event

from .client import ApiClient

# The write lock is SQLite's: these run on SQLite only (never a skip on PostgreSQL).
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _other_writer_can_begin(app) -> bool:
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return False
    finally:
        other.close()


@SQLITE_ONLY
def test_a_read_only_transaction_outside_a_request_leaves_the_write_lock_free(app):
    ApiClient(app.test_client()).create_event("progressive")
    with app.app_context():
        try:
            with reading_only():
                db.session.execute(select(Event.id)).all()  # the transaction is open
                assert _other_writer_can_begin(app)
        finally:
            db.session.remove()
        try:  # outside a request and not marked: a write transaction, as before
            db.session.execute(select(Event.id)).all()
            assert not _other_writer_can_begin(app)
        finally:
            db.session.remove()


@SQLITE_ONLY
def test_the_leaderboard_builder_reads_without_the_write_lock(app, monkeypatch):
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    seen = []
    from api.serving import polls

    def build_and_check(event_id, gzipped=False):
        db.session.execute(select(Event.id)).all()
        seen.append(_other_writer_can_begin(app))

    monkeypatch.setattr(polls, "leaderboard_body", build_and_check)
    app.extensions["leaderboard_polls"].build(event["id"])
    assert seen == [True]

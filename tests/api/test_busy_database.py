"""A database too busy to answer in time (another write holds the lock) is a 503 that says to
try again, with Retry-After, and nothing half-stored: never a 500. And one import cannot hold
the lock for long: a file is capped in rows and read before the lock is taken."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import create_engine, text

import api.core.db
from api import create_app
from api.core.db import db

from .client import ApiClient


@pytest.fixture
def impatient_app(database_url, monkeypatch):
    """The app with short waits for a lock, so a held lock shows in a second."""
    monkeypatch.setattr(api.core.db, "SQLITE_BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr(api.core.db, "LOCK_SECONDS", 1)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None, "RAISE_UNEXPECTED": True,
                      "PUBLIC_URL": "http://euchre.test"})
    yield app
    with app.app_context():
        db.engine.dispose()


def test_a_write_that_cannot_get_the_lock_in_time_is_a_503_to_try_again(impatient_app):
    api_ = ApiClient(impatient_app.test_client())
    event = api_.create_event("progressive")
    key = event["organizer_key"]
    url = impatient_app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite"):
        holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        release = holder.close
    else:
        engine = create_engine(url)
        conn = engine.connect()
        conn.execute(text("SELECT id FROM events WHERE id = :id FOR UPDATE"),
                     {"id": event["id"]})

        def release():
            conn.rollback()
            conn.close()
            engine.dispose()
    try:
        busy = api_.post(f"/api/events/{event['id']}/players", key=key,
                         json={"name": "Ann", "checked_in": True})
        assert busy.status_code == 503, busy.get_data(as_text=True)
        assert busy.mimetype == "application/problem+json"
        assert busy.get_json()["code"] == "busy" and "Try again" in busy.get_json()["detail"]
        assert int(busy.headers["Retry-After"]) > 0
    finally:
        release()
    api_.post(f"/api/events/{event['id']}/players", key=key,
              json={"name": "Ann", "checked_in": True}, expect=201)
    assert [p["name"] for p in api_.get(f"/api/events/{event['id']}/players",
                                        expect=200).get_json()] == ["Ann"]


def test_an_import_is_capped_in_rows_and_says_the_limit(api, app):
    app.config["IMPORT_ROWS"] = 50
    event = api.create_event("progressive")
    key = event["organizer_key"]
    big = "name,checked_in\n" + "".join(f"P{i},yes\n" for i in range(51))
    refused = api.post(f"/api/events/{event['id']}/import", key=key, data=big.encode(),
                       content_type="text/csv")
    assert refused.status_code == 422
    problem = refused.get_json()
    assert problem["code"] == "too-many-rows" and "at most 50" in problem["detail"]
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []
    fits = "name,checked_in\n" + "".join(f"P{i},yes\n" for i in range(50))
    done = api.post(f"/api/events/{event['id']}/import", key=key, data=fits.encode(),
                    content_type="text/csv", expect=201).get_json()
    assert done["players"] == 50

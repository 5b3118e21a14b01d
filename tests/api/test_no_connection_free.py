"""When every database connection a worker has is in use (slow requests holding them all), a
request that cannot get one in time is a 503 that says to try again, never a 500."""

from __future__ import annotations

import pytest

from api import create_app
from api.core.db import db

from .client import ApiClient


@pytest.fixture
def one_connection_app(database_url):
    """The app with a pool of one connection and a short wait for it."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None, "RAISE_UNEXPECTED": True,
                      "PUBLIC_URL": "http://euchre.test",
                      "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 1, "max_overflow": 0,
                                                    "pool_timeout": 0.2}})
    yield app
    with app.app_context():
        db.engine.dispose()


def test_a_request_with_no_connection_free_is_a_503_to_try_again(one_connection_app):
    api = ApiClient(one_connection_app.test_client())
    event = api.create_event("progressive")
    with one_connection_app.app_context(), db.engine.connect():  # the pool's only connection
        for method, path, body in [
                ("POST", f"/api/events/{event['id']}/players", {"name": "Ann"}),
                ("GET", f"/api/events/{event['id']}", None)]:
            busy = api.request(method, path, key=event["organizer_key"], json=body)
            assert busy.status_code == 503, busy.get_data(as_text=True)
            assert busy.mimetype == "application/problem+json"
            assert busy.get_json()["code"] == "busy"
            assert int(busy.headers["Retry-After"]) > 0
    api.post(f"/api/events/{event['id']}/players", key=event["organizer_key"],
             json={"name": "Ann"}, expect=201)

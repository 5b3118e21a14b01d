"""API test fixtures: a freshly migrated database per test, on SQLite and on PostgreSQL."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api import create_app
from api.config import normalise_database_url
from api.db import db
from tests.conftest import POSTGRES_URL, require_or_skip

from .client import ApiClient

BACKENDS = ["sqlite", "postgres"]


def _pg_url(database: str | None = None) -> str:
    url = make_url(normalise_database_url(POSTGRES_URL))
    return url.set(database=database or url.database).render_as_string(hide_password=False)


def _migrate(url: str) -> None:
    from flask_migrate import upgrade

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    with app.app_context():
        upgrade()
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """One migrated SQLite file; each test gets a copy (much faster than migrating)."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    _migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_database():
    """A database of our own on the PostgreSQL server, migrated once, dropped at the end."""
    require_or_skip(bool(POSTGRES_URL), "PostgreSQL (TEST_POSTGRES_URL)")
    name = f"euchre_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(_pg_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = _pg_url(name)
    try:
        _migrate(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _truncate(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        tables = [t.name for t in reversed(db.metadata.sorted_tables)]
        conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "euchre.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("postgres_database")
    _truncate(url)
    return url


@pytest.fixture
def app(database_url):
    # Boards are built when asked for (POLL_BUILD_BEHIND_MS None): a test reads what it just
    # wrote, and no builder thread outlives the test's database (test_polls covers it).
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None,
                      "RAISE_UNEXPECTED": True, "PUBLIC_URL": "http://euchre.test"})
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


@pytest.fixture
def progressive(api):
    """A progressive night of eight players, one with a formula-looking name; round 1 seated."""
    event = api.create_event("progressive", name="Fix-it night")
    players = api.add_players(event, ["=HYPERLINK(\"x\")", "Bob", "Carol", "Dave", "Eve",
                                      "Frank", "Gina", "Hal"])
    round_ = api.seat_round(event, 1)
    return {"event": event, "key": event["organizer_key"], "round": round_,
            "players": players, "game": round_["tables"][0]["games"][0]["id"]}

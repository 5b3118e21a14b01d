"""API test fixtures: a freshly migrated database per test, on SQLite and on PostgreSQL, and one
app per backend for the whole run."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import uuid
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api import create_app
from api.config import normalise_database_url
from api.core.caching import forget_everything
from api.core.db import db
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
def sqlite_folder(tmp_path_factory):
    """Where the API tests' SQLite files live: in memory (/dev/shm) where the machine has it,
    since a test needs what a commit makes visible, not the disk's flush at every commit
    (2 ms each here, a hundred commits in a long test)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path_factory.mktemp("sqlite")
        return
    folder = Path(tempfile.mkdtemp(prefix="euchre-tests-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def sqlite_template(sqlite_folder) -> Path:
    """One migrated SQLite file; each test starts from its pages (much faster than
    migrating)."""
    path = sqlite_folder / "template.db"
    _migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_database():
    """A database of our own on the PostgreSQL server, migrated once, dropped at the end.
    Its commits do not wait for the disk (`synchronous_commit = off`): a test needs what a
    commit makes visible, not what survives the server losing power."""
    require_or_skip(bool(POSTGRES_URL), "PostgreSQL (TEST_POSTGRES_URL)")
    name = f"euchre_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(_pg_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
        conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    url = _pg_url(name)
    try:
        _migrate(url)
        yield url
    finally:
        engine = _ENGINES.pop(url, None)
        if engine is not None:
            engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


_ENGINES: dict[str, object] = {}


def _empty_postgres(url: str) -> None:
    """Remove every row the last test left and start every id from 1 again. Only the tables
    that hold rows are emptied: TRUNCATE of all 22 tables took half a second a test."""
    engine = _ENGINES.get(url) or _ENGINES.setdefault(url, create_engine(url))
    tables = [t.name for t in reversed(db.metadata.sorted_tables)]
    holding = " UNION ALL ".join(f"SELECT '{t}' WHERE EXISTS (SELECT 1 FROM {t})"
                                 for t in tables)
    with engine.begin() as conn:
        full = {row[0] for row in conn.execute(text(holding))}
        for table in tables:  # children first
            if table in full:
                conn.execute(text(f"DELETE FROM {table}"))
        conn.execute(text("SELECT setval(oid::regclass, 1, false) FROM pg_class "
                          "WHERE relkind = 'S'"))


def _restore_sqlite(template: Path, path: Path) -> None:
    """Put the template's pages into the database file through SQLite itself (its backup
    API), so a connection still open on the file sees the fresh database rather than a file
    swapped under it, and no write-ahead log of the last test survives."""
    source, target = sqlite3.connect(template), sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


@pytest.fixture(scope="session")
def sqlite_shared(sqlite_folder) -> Path:
    """The one SQLite file the API tests of this process use, one after another."""
    return sqlite_folder / "euchre.db"


# database URL -> the app every test on that database shares (see `app`), and its
# configuration. By URL, not backend: a test directory that imports these fixtures into its own
# conftest gets databases of its own.
_SHARED: dict[str, tuple[Flask, dict]] = {}


@pytest.fixture(params=BACKENDS)
def database_url(request) -> str:
    """A freshly migrated database for the test, emptied of every earlier test's rows."""
    for shared, _ in _SHARED.values():  # nothing of the last test's may stay connected
        with shared.app_context():
            db.engine.dispose()
    if request.param == "sqlite":
        path = request.getfixturevalue("sqlite_shared")
        _restore_sqlite(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("postgres_database")
    _empty_postgres(url)
    return url


# What every API test's app is built with, but its database.
APP_CONFIG = {"TESTING": True,
              # Boards are built when asked for (None): a test reads what it just wrote, and
              # no builder thread outlives the test's database (test_polls covers it).
              "POLL_BUILD_BEHIND_MS": None,
              "RAISE_UNEXPECTED": True, "PUBLIC_URL": "http://euchre.test"}


def _shared_app(database_url: str) -> Flask:
    """The app of this backend, built once per test run: building one (its routes and its
    OpenAPI document) costs more than most tests. Each test gets it as a new one would be:
    the configuration it was built with (a test may change a setting), nothing remembered of
    earlier tests' events. A test about what a worker does as it starts, or one that changes
    the app's layers, takes `fresh_app` instead."""
    if database_url not in _SHARED:
        app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url})
        _SHARED[database_url] = (app, dict(app.config))
    app, config = _SHARED[database_url]
    app.config.clear()
    app.config.update(config)
    forget_everything()
    return app


@pytest.fixture
def app(database_url):
    app = _shared_app(database_url)
    yield app
    with app.app_context():
        db.session.remove()


@pytest.fixture
def fresh_app(database_url):
    """An app built for this test alone, as a worker builds it when it starts."""
    app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url})
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


@pytest.fixture
def allowed(app):
    """The app sending webhooks to receivers on this machine (private addresses allowed, as a
    club's LAN would), retried at once, with a 2 s timeout and 3 attempts."""
    app.config.update(WEBHOOKS_ALLOW_PRIVATE=True, WEBHOOKS_RETRY_SECONDS=0,
                      WEBHOOKS_TIMEOUT_SECONDS=2, WEBHOOKS_MAX_ATTEMPTS=3)
    return app

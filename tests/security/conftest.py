"""Fixtures for the hostile-input tests: the API fixtures (SQLite and PostgreSQL) plus a
seeded world that is built over HTTP once per backend and restored row by row for each test
(seeding takes seconds; restoring the rows takes milliseconds)."""

from __future__ import annotations

import sys
import uuid

import pytest
from sqlalchemy import create_engine, text

from api import create_app
from api.core.caching import forget_everything
from api.core.db import db
from tests.api.client import ApiClient
from tests.api.conftest import *  # noqa: F403  (client, api, sqlite_template, ...)
from tests.api.conftest import BACKENDS, _migrate, _pg_url
from tests.conftest import POSTGRES_URL, require_or_skip

from .world import Seeded, seed_world

# backend -> (rows of every table, the seeded world), filled by the first test per backend.
_SEEDS: dict[str, tuple[dict[str, list[dict]], dict[str, Seeded]]] = {}


def _tables(conn) -> list:
    """Every table of the app, parents first: the models' tables, which the migrations made
    (tests/reliability/test_migrations.py checks they agree). Reflecting the database instead
    took a third of each test's time."""
    return db.metadata.sorted_tables


def dump_rows(app) -> dict[str, list[dict]]:
    with app.app_context(), db.engine.begin() as conn:
        return {t.name: [dict(r) for r in conn.execute(t.select()).mappings()]
                for t in _tables(conn)}


def restore_rows(app, rows: dict[str, list[dict]]) -> None:
    """Put the database back to exactly the dumped rows (ids, keys, PIN buckets and all)."""
    with app.app_context():
        db.session.remove()
        with db.engine.begin() as conn:
            tables = _tables(conn)
            for table in reversed(tables):
                conn.execute(table.delete())
            for table in tables:
                if rows.get(table.name):
                    conn.execute(table.insert(), rows[table.name])
            if conn.dialect.name == "postgresql":
                for table in tables:
                    # Only integer ids come from a sequence (a hand's id is made by the phone).
                    if "id" in table.c and table.c.id.primary_key and \
                            table.c.id.type.python_type is int:
                        conn.execute(text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                            f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"))
    forget_what_the_process_keeps()


def forget_what_the_process_keeps() -> None:
    """Forget what a restart forgets. The app keeps leaderboards and standings totals per
    event and revision, trusting that revisions only go up; putting rows back sends them
    down, as restoring a backup does (and a restore is followed by a restart)."""
    forget_everything()


@pytest.fixture(scope="session")
def security_postgres_database():
    """A PostgreSQL database of the security tests' own (the API tests truncate theirs)."""
    require_or_skip(bool(POSTGRES_URL), "PostgreSQL (TEST_POSTGRES_URL)")
    name = f"euchre_security_{uuid.uuid4().hex[:10]}"
    admin = create_engine(_pg_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        url = _pg_url(name)
        _migrate(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def app(request, tmp_path_factory):
    """One app per backend for the whole session: building an app (its OpenAPI document)
    takes longer than a test here, and the `world` fixture puts the rows back before each."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("security") / "euchre.db"
        _migrate(f"sqlite:///{path}")
        url = f"sqlite:///{path}"
    else:
        url = request.getfixturevalue("security_postgres_database")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None,
                      "RAISE_UNEXPECTED": True, "PUBLIC_URL": "http://euchre.test"})
    yield app
    with app.app_context():
        db.engine.dispose()


def backend_of(app) -> str:
    return "sqlite" if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") else "postgres"


@pytest.fixture
def world(app) -> dict[str, Seeded]:
    """The events of world.py (progressive, ended, league, preseason, WEC singles) with
    runner keys (every table, table 1), a revoked organizer key and a revoked runner key.
    The same ids and keys in every test of a backend, the rows as seeded."""
    backend = backend_of(app)
    if backend not in _SEEDS:
        seeded = seed_world(ApiClient(app.test_client()))
        _SEEDS[backend] = (dump_rows(app), seeded)
    else:
        restore_rows(app, _SEEDS[backend][0])
    return _SEEDS[backend][1]


@pytest.fixture
def world_rows(app, world) -> dict[str, list[dict]]:
    """The seeded rows, to put the database back mid-test."""
    return _SEEDS[backend_of(app)][0]


# Authorization is decided in Python before any query that differs between the databases:
# these run on SQLite only, unless --security-everywhere (on PostgreSQL too they took a
# quarter of CI's time on a 2-core machine). The limits per address (their counters are
# dialect-specific upserts) and the hardening tests run on both.
SQLITE_ONLY = ("tests/security/test_access_matrix.py", "tests/security/test_club_access.py")


def _dropped(item, config) -> bool:
    backend = getattr(item, "callspec", None) and item.callspec.params.get("app")
    if item.name.startswith("test_fuzz_every_operation["):
        return backend == "sqlite" and not config.getoption("--fuzz-everywhere")
    return backend == "postgres" and item.nodeid.startswith(SQLITE_ONLY) and \
        not config.getoption("--security-everywhere")


def pytest_collection_modifyitems(config, items):
    """The full fuzz run is PostgreSQL's unless --fuzz-everywhere (test_fuzz.py says why);
    the access matrix and the club access tests SQLite's unless --security-everywhere."""
    kept, dropped = [], []
    for item in items:
        (dropped if _dropped(item, config) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter):
    """The fuzzer's figures (README's "Reliability" section quotes them)."""
    fuzz = sys.modules.get("tests.security.test_fuzz")  # not imported when it did not run
    tally = fuzz.TALLY if fuzz is not None else {"cases": 0}
    if tally["cases"]:
        statuses = ", ".join(f"{k} {tally[k]}" for k in ("2xx", "3xx", "4xx", "5xx") if tally[k])
        terminalreporter.write_line(
            f"fuzz: {tally['cases']} cases ({statuses}); server errors: "
            f"{tally['server errors']}")

"""Fixtures for the hostile-input tests: the API fixtures (SQLite and PostgreSQL) plus a
seeded world that is built over HTTP once per backend and put back before each test.

Seeding takes seconds; putting the world back takes milliseconds: on SQLite the seeded file's
pages are copied back through SQLite's backup API, on PostgreSQL the tables that changed (and
those that point into them) are emptied and refilled from a copy in the database. Whether a
request changed the database is asked of a snapshot, every row of every table as the database
itself writes it out as text, so that no changed value, added row or removed row goes unseen."""

from __future__ import annotations

import sqlite3
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

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


def _tables() -> list:
    """Every table of the app, parents first: the models' tables, which the migrations made
    (tests/reliability/test_migrations.py checks they agree). Reflecting the database instead
    took a third of each test's time."""
    return db.metadata.sorted_tables


def dump_rows(app) -> dict[str, list[dict]]:
    """Every row of every table, as Python values (to put back, and to pick real ids from)."""
    with app.app_context(), db.engine.begin() as conn:
        return {t.name: [dict(r) for r in conn.execute(t.select()).mappings()]
                for t in _tables()}


def _row_text(table, dialect: str) -> str:
    """SQL for one row of `table` as text that changes whenever any of its values does:
    SQLite's quote() of each column (a literal that reads back as the same value: type, every
    digit of a float, NULL apart from ''), PostgreSQL's own text form of the whole row."""
    if dialect == "postgresql":
        return "x::text"
    return " || ',' || ".join(f'quote(x."{c.name}")' for c in table.columns)


@dataclass(frozen=True)
class Snapshot:
    """Every row of the database, table by table, each row as text, sorted."""

    tables: dict[str, tuple[str, ...]]

    def changes(self, other: Snapshot) -> dict[str, dict[str, list[str]]]:
        """What differs from `other`: per table, the rows only here and the rows only there."""
        found = {}
        for name in self.tables.keys() | other.tables.keys():
            mine, theirs = self.tables.get(name, ()), other.tables.get(name, ())
            if mine != theirs:
                found[name] = {"only now": sorted(set(mine) - set(theirs))[:5],
                               "only before": sorted(set(theirs) - set(mine))[:5]}
        return found


_SNAPSHOT_SQL: dict[str, str] = {}  # dialect -> the one query that reads every row


def snapshot(app) -> Snapshot:
    """The whole database in one query (one round trip), compared as text: a tenth of the
    time of reading every row into Python values."""
    with app.app_context(), db.engine.connect() as conn:
        dialect = conn.dialect.name
        if dialect not in _SNAPSHOT_SQL:
            _SNAPSHOT_SQL[dialect] = " UNION ALL ".join(
                f"SELECT '{t.name}' AS t, {_row_text(t, dialect)} AS r FROM {t.name} AS x"
                for t in _tables())
        rows = conn.exec_driver_sql(_SNAPSHOT_SQL[dialect]).all()
    tables: dict[str, list[str]] = {t.name: [] for t in _tables()}
    for name, row in rows:
        tables[name].append(row)
    return Snapshot({name: tuple(sorted(found)) for name, found in tables.items()})


def assert_unchanged(app, before: Snapshot, why: str) -> None:
    changes = snapshot(app).changes(before)
    assert not changes, f"{why}: {changes}"


def assert_changed(app, before: Snapshot, why: str) -> None:
    assert snapshot(app) != before, why


@dataclass(frozen=True)
class Saved:
    """A state of the database to put back: its snapshot, and a copy of its rows (SQLite: a
    copy of the file; PostgreSQL: a schema in the database holding a copy of every table)."""

    snapshot: Snapshot
    copy: Path | None = None
    schema: str | None = None


def _sqlite_path(app) -> Path:
    return Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))


def _copy_sqlite(source: Path, target: Path) -> None:
    """The source file's pages into the target, through SQLite itself (a connection still open
    on the target sees the copy, as tests/api/conftest.py's _restore_sqlite explains)."""
    origin, destination = sqlite3.connect(source), sqlite3.connect(target)
    try:
        origin.backup(destination)
    finally:
        origin.close()
        destination.close()


def save_state(app, name: str) -> Saved:
    """Keep the database as it is now, to put back (`put_back`) as often as needed. On
    PostgreSQL the copy stays in the database and goes back with INSERT ... SELECT: exact (a
    JSON column's SQL NULL stays NULL, which a round trip through Python values turns into
    JSON null), and no rows cross the wire."""
    if backend_of(app) == "sqlite":
        path = _sqlite_path(app)
        copy = path.with_name(f"{path.stem}-{name}.db")
        _copy_sqlite(path, copy)
        return Saved(snapshot(app), copy=copy)
    schema = f"saved_{name}"
    with app.app_context(), db.engine.begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}; " +
                             " ".join(f"CREATE TABLE {schema}.{t.name} AS TABLE {t.name};"
                                      for t in _tables()))
    return Saved(snapshot(app), schema=schema)


def _put_back_postgres(schema: str, changed: set[str]) -> None:
    """Empty and refill the tables that changed and every table that points into one of them
    (deleting a parent's rows cascades into its children), then start every id sequence after
    the saved rows again: one round trip."""
    tables = _tables()
    emptied = set(changed)
    for table in tables:  # parents first: a child of anything emptied is emptied too
        if any(fk.column.table.name in emptied for fk in table.foreign_keys):
            emptied.add(table.name)
    steps = [f"DELETE FROM {t.name}" for t in reversed(tables) if t.name in emptied]
    steps += [f"INSERT INTO {t.name} SELECT * FROM {schema}.{t.name}" for t in tables
              if t.name in emptied]
    # Only integer ids come from a sequence (a hand's id is made by the phone).
    steps.append("SELECT " + ", ".join(
        f"setval(pg_get_serial_sequence('{t.name}', 'id'), "
        f"COALESCE((SELECT MAX(id) FROM {t.name}), 0) + 1, false)"
        for t in tables if "id" in t.c and t.c.id.primary_key and
        t.c.id.type.python_type is int))
    with db.engine.begin() as conn:
        conn.exec_driver_sql("; ".join(steps))


def put_back(app, saved: Saved) -> None:
    """Put the database back to exactly the saved rows (ids, keys, PIN buckets and all)."""
    with app.app_context():
        db.session.remove()
        if saved.copy is not None:
            db.engine.dispose()  # nothing of the last test's stays connected
            _copy_sqlite(saved.copy, _sqlite_path(app))
        else:
            _put_back_postgres(saved.schema, set(snapshot(app).changes(saved.snapshot)))
    forget_what_the_process_keeps()


@dataclass
class Seed:
    """The seeded world of one backend: its ids and keys, its rows, and the state to put back."""

    world: dict[str, Seeded]
    rows: dict[str, list[dict]]
    saved: Saved


# backend -> the seeded world, made by the first test per backend that asks for it.
_SEEDS: dict[str, Seed] = {}


def put_world_back(app) -> None:
    """Put the database back to exactly the seeded world."""
    put_back(app, _SEEDS[backend_of(app)].saved)


def forget_what_the_process_keeps() -> None:
    """Forget what a restart forgets. The app keeps leaderboards and standings totals per
    event and revision, trusting that revisions only go up; putting rows back sends them
    down, as restoring a backup does (and a restore is followed by a restart)."""
    forget_everything()


@pytest.fixture(scope="session")
def security_postgres_database():
    """A PostgreSQL database of the security tests' own (the API tests truncate theirs), whose
    commits do not wait for the disk, as the API tests' database (tests/api/conftest.py)."""
    require_or_skip(bool(POSTGRES_URL), "PostgreSQL (TEST_POSTGRES_URL)")
    name = f"euchre_security_{uuid.uuid4().hex[:10]}"
    admin = create_engine(_pg_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
        conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    try:
        url = _pg_url(name)
        _migrate(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def app(request, sqlite_folder):
    """One app per backend for the whole session: building an app (its OpenAPI document)
    takes longer than a test here, and the `world` fixture puts the rows back before each.
    The SQLite file is in memory where the machine allows (tests/api/conftest.py's
    `sqlite_folder`: a test needs what a commit makes visible, not a flush to disk)."""
    if request.param == "sqlite":
        url = f"sqlite:///{sqlite_folder / f'security-{uuid.uuid4().hex[:8]}.db'}"
        _migrate(url)
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


def _seed(app) -> Seed:
    world = seed_world(ApiClient(app.test_client()))
    return Seed(world, dump_rows(app), save_state(app, "world"))


@pytest.fixture
def world(app) -> dict[str, Seeded]:
    """The events of world.py (progressive, ended, league, preseason, WEC singles) with
    runner keys (every table, table 1), a revoked organizer key and a revoked runner key.
    The same ids and keys in every test of a backend, the rows as seeded."""
    backend = backend_of(app)
    if backend not in _SEEDS:
        _SEEDS[backend] = _seed(app)
    else:
        put_world_back(app)
    return _SEEDS[backend].world


@pytest.fixture
def world_rows(app, world) -> dict[str, list[dict]]:
    """The seeded rows (to pick real ids from)."""
    return _SEEDS[backend_of(app)].rows


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

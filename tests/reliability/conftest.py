"""Reliability tests: the API tests' databases, but a SQLite file and an app of each test's own.

These tests start servers and processes over the database (gunicorn workers killed mid-hand,
backups, migrations down and up): a file of its own per test means nothing an earlier test
started can still hold a lock on it, and the app is built afresh as a worker's is.
"""

import pytest

from api import create_app
from api.core.db import db
from tests.api.conftest import (  # noqa: F401  (fixtures)
    APP_CONFIG,
    BACKENDS,
    _empty_postgres,
    _restore_sqlite,
    api,
    client,
    postgres_database,
    sqlite_folder,
    sqlite_template,
)


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "euchre.db"
        _restore_sqlite(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("postgres_database")
    _empty_postgres(url)
    return url


@pytest.fixture
def app(database_url):
    app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url})
    yield app
    with app.app_context():
        db.engine.dispose()


def pytest_terminal_summary(terminalreporter):
    """The crash test's figures (README's "Reliability" section quotes them)."""
    from .test_crash import SUMMARY

    for backend, figures in SUMMARY.items():
        terminalreporter.write_line(
            f"crash test ({backend}): " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                                    for k, v in figures.items()))

"""Reliability tests share the API tests' databases (SQLite and PostgreSQL per test)."""

from tests.api.conftest import (  # noqa: F401  (fixtures)
    api,
    app,
    client,
    database_url,
    postgres_database,
    sqlite_template,
)

"""Reliability tests share the API tests' databases (SQLite and PostgreSQL per test)."""

from tests.api.conftest import (  # noqa: F401  (fixtures)
    api,
    app,
    client,
    database_url,
    fresh_app,
    postgres_database,
    sqlite_folder,
    sqlite_shared,
    sqlite_template,
)


def pytest_terminal_summary(terminalreporter):
    """The crash test's figures (README's "Reliability" section quotes them)."""
    from .test_crash import SUMMARY

    for backend, figures in SUMMARY.items():
        terminalreporter.write_line(
            f"crash test ({backend}): " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                                    for k, v in figures.items()))

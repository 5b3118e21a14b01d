"""Settings every test shares: what CI=true requires, and where PostgreSQL is."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "").strip()


def require_or_skip(available: bool, what: str) -> None:
    """Skip a test whose prerequisite is missing, except under CI=true, where it fails."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{what} is required when CI=true", pytrace=False)
    pytest.skip(f"{what} is not available (it is required when CI=true)")


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true",
                     help="run the slow fault and fuzz tests (always on under CI=true)")
    parser.addoption("--fuzz-everywhere", action="store_true",
                     help="the full fuzz run on SQLite as well as PostgreSQL")
    parser.addoption("--security-everywhere", action="store_true",
                     help="the access matrix and club access tests on PostgreSQL too")


def pytest_collection_modifyitems(config, items):
    if IN_CI or config.getoption("--run-slow"):
        return
    slow = pytest.mark.skip(reason="slow: runs under CI=true or with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(slow)

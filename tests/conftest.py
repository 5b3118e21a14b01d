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
                     help="run the slow fault, fuzz and bench tests (always on under CI=true)")
    parser.addoption("--fuzz-everywhere", action="store_true",
                     help="the full fuzz run on SQLite as well as PostgreSQL")
    parser.addoption("--security-everywhere", action="store_true",
                     help="the access matrix and club access tests on PostgreSQL too")


# Tests that take seconds each (real servers, a browser) run before the in-process ones.
LONG_FOLDERS = ("e2e", "reliability", "bench")


def _length_class(item) -> int:
    """0 for the slow group, 1 for a test against real servers or a browser, 2 otherwise."""
    if "slow" in item.keywords:
        return 0
    folder = item.path.parent.name
    return 1 if folder in LONG_FOLDERS or "browser" in item.keywords else 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    # Longest first (a stable sort: each kind keeps pytest's order, which groups the tests of
    # a parametrized session fixture). pytest-xdist hands each process a run of tests and
    # lets an idle one take from another's end: a long test left for the end of the run
    # kept one core busy while the other had nothing to do.
    items.sort(key=_length_class)
    if IN_CI or config.getoption("--run-slow"):
        return
    slow = pytest.mark.skip(reason="slow: runs under CI=true or with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(slow)

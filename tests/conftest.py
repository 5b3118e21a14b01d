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

"""Configuration from the environment, with safe defaults for the embedded SQLite setup."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def normalise_database_url(url: str) -> str:
    """Hosting platforms hand out postgres:// URLs; SQLAlchemy wants the driver named."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def database_url_from_env() -> str:
    """DATABASE_URL when set (PostgreSQL for larger deployments), else a local SQLite file."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        path = Path(os.environ.get("EUCHRE_DATA_DIR", ROOT / "instance")) / "euchre.db"
        return f"sqlite:///{path}"
    return normalise_database_url(url)


class Config:
    """Settings every deployment shares; override by environment variables."""

    SQLALCHEMY_DATABASE_URI = None  # filled in by load_config
    SQLALCHEMY_TRACK_MODIFICATIONS = False
    SQLALCHEMY_ENGINE_OPTIONS: dict = {}
    # Enough for a 400-player CSV import; anything larger is refused before it is read.
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024
    JSON_SORT_KEYS = False

    API_TITLE = "Euchre scorekeeper"
    API_VERSION = "1"
    OPENAPI_VERSION = "3.1.0"
    OPENAPI_URL_PREFIX = "/api"
    OPENAPI_JSON_PATH = "openapi.json"
    OPENAPI_REDOC_PATH = "/docs"
    OPENAPI_REDOC_URL = "/api/docs/redoc.standalone.js"

    # Comma-separated origins allowed to call the API from other sites; empty: CORS off.
    CORS_ORIGINS = ""
    # Wrong join PINs allowed per event and table in each window, and per event in all.
    PIN_ATTEMPTS = 10
    PIN_EVENT_ATTEMPTS = 30
    PIN_WINDOW_SECONDS = 300
    # Where the PWA is served from; the public address used in links and QR codes.
    PWA_DIR = str(ROOT / "pwa")
    PUBLIC_URL = ""
    # A leaderboard poll may answer from an event revision read this many seconds ago in the
    # same worker (never older than what the poller already has; a write in the worker
    # forgets it). Polls then cost next to nothing, and a new hand shows at most this late.
    POLL_FRESH_SECONDS = 0.25
    # A leaderboard whose last build took at least this many milliseconds (a 2,000-player
    # event's takes about 50) is rebuilt off the poll path after a change: pollers get the
    # newest board already built (never older than theirs) until the new one is ready, instead
    # of one of them waiting for it. None: the first poller after a change builds it.
    POLL_BUILD_BEHIND_MS: float | None = 20


def load_config(overrides: dict | None = None) -> dict:
    """The settings for one app: defaults, then the environment, then explicit overrides."""
    settings = {k: getattr(Config, k) for k in dir(Config) if k.isupper()}
    settings["SQLALCHEMY_DATABASE_URI"] = database_url_from_env()
    for name in ("CORS_ORIGINS", "PUBLIC_URL"):
        if name in os.environ:
            settings[name] = os.environ[name]
    if overrides:
        settings.update(overrides)
    return settings

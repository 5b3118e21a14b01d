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
    # Wrong join PINs one client address may try at one event before it is slowed: from then
    # on each try waits, 2 seconds after the last wrong one and twice as long after each
    # further one, up to PIN_WAIT_SECONDS. A guesser is slowed, never locked out for long, and
    # only at that event: the right PIN from any other address joins at once, and guesses at
    # one event never slow another. Wrong PINs PIN_WINDOW_SECONDS old are forgotten. Every
    # phone at a venue shares one address; a venue mistypes far fewer.
    PIN_CLIENT_ATTEMPTS = 20
    PIN_WINDOW_SECONDS = 300
    PIN_WAIT_SECONDS = 30
    # Wrong PINs for one event in a window at which the console advises a new PIN.
    PIN_EVENT_WARNING = 10
    # Wrong PINs for one event in a window past which someone is guessing from many addresses:
    # each address is then slowed after PIN_EVENT_CLIENT_ATTEMPTS wrong guesses at that event
    # (a venue that mistyped twice still joins at once); a new PIN lifts it.
    PIN_EVENT_ATTEMPTS = 50
    PIN_EVENT_CLIENT_ATTEMPTS = 3
    # Events one client address may make in a window (an organizer makes a few a night).
    EVENT_CREATE_LIMIT = 60
    EVENT_CREATE_WINDOW_SECONDS = 3600
    # The largest field: players (substitutes included) in one event, and rows in one CSV
    # import. Every write on an event is one transaction, and seating or calling time on
    # 2,000 players holds SQLite's write lock (every event's) for about a second; a 400-player
    # night is a fifth of it.
    EVENT_PLAYERS = 2000
    IMPORT_ROWS = 2000
    # Players registered from one client address in a window: two of the largest fields an
    # hour. Every write on an event grows with its field; this bounds how much of that work
    # one address can make (a script filling events one after another to seat them at once).
    REGISTRATION_LIMIT = 4000
    REGISTRATION_WINDOW_SECONDS = 3600
    # Self check-in at the door, per event and client address (every phone on the venue's
    # wifi shares one): door writes that change something (a check-in, a request to be added)
    # in a window. A wrong door code, a repeated tap or a refusal writes nothing and counts
    # nothing, so a stranger cannot use up the venue's count; a whole field is far below it.
    DOOR_LIMIT = 2000
    DOOR_WINDOW_SECONDS = 600
    # Requests to be added waiting at once from one address at one event, and from everyone
    # at one event: the organizer's queue. Declining them (one by one, or a flood at once)
    # makes room again.
    DOOR_REQUEST_LIMIT = 20
    DOOR_REQUESTS_WAITING = 200
    # Teams registered through one league's registration link from one client address in a
    # window (a new link starts afresh): one address cannot fill the league.
    CAPTAIN_REGISTRATION_LIMIT = 10
    CAPTAIN_REGISTRATION_WINDOW_SECONDS = 3600
    # Teams in one league: its season is written at once (weeks x matches x games), about a
    # second for 40 teams' full round robin; a league night is a few dozen teams at most.
    LEAGUE_TEAMS = 40
    # The number of proxies in front of the app whose X-Forwarded-For is trusted for the
    # client's address (0: none, the socket's address is the client's).
    PROXY_HOPS = 0
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
    # Webhooks (docs/webhooks.md). WEBHOOKS_DELIVER: "thread" (a deliverer thread in each
    # gunicorn worker) or "off" (run `flask webhooks-deliver` instead). An attempt waits
    # WEBHOOKS_TIMEOUT_SECONDS for the receiver at most; after a failed one the next waits
    # WEBHOOKS_RETRY_SECONDS, doubling each time (up to WEBHOOKS_RETRY_MAX_SECONDS, half of it
    # random), until WEBHOOKS_MAX_ATTEMPTS; a claimed delivery is another deliverer's to take
    # again after WEBHOOKS_LEASE_SECONDS (a deliverer killed mid-send). URLs to private or
    # local addresses are refused unless WEBHOOKS_ALLOW_PRIVATE (a club's own network, tests).
    WEBHOOKS_DELIVER = "thread"
    WEBHOOKS_TIMEOUT_SECONDS = 5.0
    WEBHOOKS_RETRY_SECONDS = 10.0
    WEBHOOKS_RETRY_MAX_SECONDS = 3600.0
    WEBHOOKS_MAX_ATTEMPTS = 8
    WEBHOOKS_LEASE_SECONDS = 60.0
    WEBHOOKS_ALLOW_PRIVATE = False


# Limits a deployment may set from the environment (whole numbers).
INT_SETTINGS = ("PIN_CLIENT_ATTEMPTS", "PIN_WINDOW_SECONDS", "PIN_WAIT_SECONDS",
                "PIN_EVENT_WARNING", "PIN_EVENT_ATTEMPTS", "PIN_EVENT_CLIENT_ATTEMPTS",
                "EVENT_CREATE_LIMIT", "EVENT_CREATE_WINDOW_SECONDS", "EVENT_PLAYERS",
                "IMPORT_ROWS", "REGISTRATION_LIMIT", "REGISTRATION_WINDOW_SECONDS",
                "DOOR_LIMIT", "DOOR_WINDOW_SECONDS", "DOOR_REQUEST_LIMIT", "DOOR_REQUESTS_WAITING",
                "CAPTAIN_REGISTRATION_LIMIT", "CAPTAIN_REGISTRATION_WINDOW_SECONDS",
                "LEAGUE_TEAMS", "PROXY_HOPS", "WEBHOOKS_MAX_ATTEMPTS")
FLOAT_SETTINGS = ("WEBHOOKS_TIMEOUT_SECONDS", "WEBHOOKS_RETRY_SECONDS",
                  "WEBHOOKS_RETRY_MAX_SECONDS", "WEBHOOKS_LEASE_SECONDS")


def load_config(overrides: dict | None = None) -> dict:
    """The settings for one app: defaults, then the environment, then explicit overrides."""
    settings = {k: getattr(Config, k) for k in dir(Config) if k.isupper()}
    settings["SQLALCHEMY_DATABASE_URI"] = database_url_from_env()
    for name in ("CORS_ORIGINS", "PUBLIC_URL"):
        if name in os.environ:
            settings[name] = os.environ[name]
    for name in INT_SETTINGS:
        if os.environ.get(name, "").strip():
            settings[name] = int(os.environ[name])
    for name in FLOAT_SETTINGS:
        if os.environ.get(name, "").strip():
            settings[name] = float(os.environ[name])
    if os.environ.get("WEBHOOKS_DELIVER", "").strip():
        settings["WEBHOOKS_DELIVER"] = os.environ["WEBHOOKS_DELIVER"].strip()
    if os.environ.get("WEBHOOKS_ALLOW_PRIVATE", "").strip():
        settings["WEBHOOKS_ALLOW_PRIVATE"] = os.environ["WEBHOOKS_ALLOW_PRIVATE"].strip() in (
            "1", "true", "yes", "on")
    if overrides:
        settings.update(overrides)
    return settings

"""Browser tests: a real gunicorn over a fresh SQLite file (tests/live.py), driven by Debian's
chromium.

Data is set up through the HTTP API only (see EventSetup); the browser is a phone (390x844,
touch) unless a test says otherwise. Under CI=true a missing chromium fails; elsewhere it skips.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import require_or_skip
from tests.live import LiveServer

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Without the networking switches chromium's background connections fail noisily on a closed
# network (shared/TESTING.md).
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
# A test's page runs without the service worker unless the test asks for it with
# @pytest.mark.browser_context_args(**SERVICE_WORKER) (with its other context arguments: only
# the nearest such mark counts). Installing the worker caches the whole shell in every new
# context: about 0.25 s of chromium's CPU each, an eighth of the browser tests' time on two
# cores. The tests of what the worker is for (offline, updates, installing) keep it.
SERVICE_WORKER = {"service_workers": "allow"}
# How long an expectation waits unless it says otherwise. The screens poll (the board and the
# projector every 3 s, a player's next seat every 5 s), and on CI's loaded two cores an answer
# can take a second or two more, so a change made behind a screen's back may need two polls
# to show. A test of a promised time (the board within 5 s) passes its own timeout.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """gunicorn (one gthread worker) over a freshly migrated SQLite file, for the session."""
    folder = tmp_path_factory.mktemp("e2e")
    with LiveServer(folder=folder, workers=1, threads=4, log=folder / "server.log") as server:
        yield server


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    require_or_skip(Path(CHROMIUM).exists(), f"Debian's chromium ({CHROMIUM})")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **PHONE, "service_workers": "block"}


@pytest.fixture
def shot():
    """Save a screenshot of the current screen, named after it, for people to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        # One image pixel per CSS pixel: small files, the size a reader sees on a phone.
        page.screenshot(path=str(path), full_page=full_page, scale="css")
        return path

    return take


# --- setting data up through the HTTP API ------------------------------------------------------

class ApiError(AssertionError):
    pass


class Api:
    """The API over HTTP, as a test's organizer or runner uses it (urllib, no browser)."""

    def __init__(self, base: str):
        self.base = base

    def call(self, method: str, path: str, body=None, key: str | None = None,
             headers: dict | None = None, expect=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("Authorization", f"Bearer {key}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read()
                etag = response.headers.get("ETag")
        except urllib.error.HTTPError as error:
            status, text, etag = error.code, error.read(), error.headers.get("ETag")
        parsed = json.loads(text) if text else None
        if expect is not None and status not in ((expect,) if isinstance(expect, int) else expect):
            raise ApiError(f"{method} {path} -> {status}: {text[:500]!r}")
        return status, parsed, etag

    def get(self, path, **kw):
        return self.call("GET", path, **kw)[1]

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body, **kw)[1]


class EventSetup:
    """One event with players checked in and round 1 seated; a runner's code and PIN."""

    def __init__(self, api: Api, preset: str = "progressive", players: int = 8,
                 name: str = "Friday night euchre", overrides: dict | None = None):
        self.api = api
        body = {"name": name, "preset": preset}
        if overrides:
            body["overrides"] = overrides  # a custom format built on the preset
        _, event, _ = api.call("POST", "/api/events", body, expect=201)
        self.event = event
        self.id = event["id"]
        self.code = event["code"]
        self.pin = event["join_pin"]
        self.organizer_key = event["organizer_key"]
        names = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal", "Ivy", "Jack",
                 "Kim", "Lou", "Max", "Ned", "Ola", "Pat", "Quinn", "Rosa", "Sam", "Tess"]
        self.players = [api.call("POST", f"/api/events/{self.id}/players",
                                 {"name": names[i % len(names)] + ("" if i < len(names)
                                                                   else str(i)),
                                  "checked_in": True}, key=self.organizer_key,
                                 expect=201)[1] for i in range(players)]
        _, self.round, _ = api.call("POST", f"/api/events/{self.id}/rounds", {"number": 1},
                                    key=self.organizer_key, expect=201)

    @property
    def tables(self) -> list[dict]:
        return self.round["tables"]

    def game_id(self, table_index: int = 0) -> int:
        return self.tables[table_index]["games"][0]["id"]

    def game(self, game_id: int) -> dict:
        return self.api.get(f"/api/games/{game_id}")

    def hand(self, game_id: int, maker: str, tricks: int | None, key: str | None = None,
             **extra) -> dict:
        body = {"id": f"api-{uuid.uuid4().hex[:12]}", "maker": maker, "tricks": tricks,
                **extra}
        return self.api.call("POST", f"/api/games/{game_id}/hands", body,
                             key=key or self.organizer_key, expect=(200, 201))[1]

    def runner_key(self, table: int | None = None) -> dict:
        return self.api.call("POST", f"/api/events/{self.id}/keys",
                             {"table": table, "label": "test"}, key=self.organizer_key,
                             expect=201)[1]


@pytest.fixture
def api(live_server) -> Api:
    return Api(live_server.url)


@pytest.fixture(scope="session")
def postgres_live_server(tmp_path_factory):
    """gunicorn over a PostgreSQL database of its own (made, migrated, dropped here), for the
    walks that must hold on both databases. Started the first time a test asks for it."""
    from sqlalchemy import create_engine, text

    from tests.api.conftest import _migrate, _pg_url
    from tests.conftest import POSTGRES_URL

    require_or_skip(bool(POSTGRES_URL), "PostgreSQL (TEST_POSTGRES_URL)")
    name = f"euchre_e2e_{uuid.uuid4().hex[:10]}"
    admin = create_engine(_pg_url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
        conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    folder = tmp_path_factory.mktemp("e2e-postgres")
    try:
        _migrate(_pg_url(name))
        with LiveServer(_pg_url(name), folder=folder, workers=1, threads=4,
                        log=folder / "server.log") as server:
            yield server
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Site:
    """Where a walk runs: the server's address, the API over HTTP, and phones (each a browser
    context of its own, closed when the test ends)."""

    def __init__(self, url: str, browser):
        self.url = url
        self.api = Api(url)
        self.browser = browser
        self.contexts: list = []

    def phone(self):
        context = self.browser.new_context(base_url=self.url, **PHONE)
        self.contexts.append(context)
        return context, context.new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def site(request, browser):
    """The same walk against the SQLite server and the PostgreSQL one."""
    server = request.getfixturevalue(
        "live_server" if request.param == "sqlite" else "postgres_live_server")
    walk = Site(server.url, browser)
    yield walk
    walk.close()


@pytest.fixture
def event(api) -> EventSetup:
    return EventSetup(api)

"""Hardening: the headers every answer carries, CORS, size limits, keys kept out of logs,
PIN guessing, and spreadsheet formulas in CSV files.

(The access matrix and the fuzzer have their own modules; tests/api has the first checks of
the PIN limit and of a formula-looking name in the standings export, which these extend.)
"""

from __future__ import annotations

import base64
import csv
import io
import logging
import re
import threading
import urllib.error
import urllib.request
import uuid
from html.parser import HTMLParser
from pathlib import Path

import pytest

from api import create_app
from api.config import Config
from tests.api.client import ApiClient, play, signer
from tests.api.scripts import fixed_hands_game
from tests.live import LiveServer, call

ROOT = Path(__file__).resolve().parents[2]
SQLITE_ONLY = pytest.mark.parametrize("app", ["sqlite"], indirect=True)
ORIGIN = "https://scores.example.org"  # the one origin the CORS tests configure
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["detail"]
    return body


# --- security headers -----------------------------------------------------------------------

def assert_hardened(response, where: str) -> None:
    h = response.headers
    policy = h.get("Content-Security-Policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    scripts = directives.get("script-src", directives.get("default-src"))
    assert scripts == ["'self'"], f"{where}: script-src {scripts} (no inline, eval or remote)"
    assert directives.get("frame-ancestors") == ["'none'"], f"{where}: {policy}"
    assert directives.get("object-src") == ["'none'"], f"{where}: {policy}"
    assert h.get("X-Frame-Options") == "DENY", where
    assert h.get("X-Content-Type-Options") == "nosniff", where
    assert h.get("Referrer-Policy") == "no-referrer", where


@SQLITE_ONLY
def test_every_kind_of_answer_carries_the_security_headers(app, api, world):
    s = world["progressive"]
    board = f"/api/events/{s.id}/leaderboard"
    answers = {
        "the app shell": api.get("/"),
        "a screen's address": api.get(f"/e/{s.id}/board"),
        "a stylesheet": api.get("/app.css"),
        "a script": api.get("/js/app.js"),
        "the service worker": api.get("/sw.js"),
        "the manifest": api.get("/manifest.webmanifest"),
        "a missing file": api.get("/nothing.png"),
        "API JSON": api.get("/api/presets"),
        "the OpenAPI document": api.get("/api/openapi.json"),
        "the API docs page": api.get("/api/docs"),
        "a QR code (SVG)": api.get(f"/api/events/{s.id}/qr/board.svg"),
        "a CSV export": api.get(f"/api/events/{s.id}/export/hands.csv", key=s.organizer),
        "a 401": api.get(f"/api/events/{s.id}/access"),
        "a 404 problem": api.get("/api/nothing"),
        "a 405 problem": api.delete("/api/presets"),
        "a 413 problem": api.post("/api/events", data=b"x" * (Config.MAX_CONTENT_LENGTH + 1),
                                  content_type="application/json"),
        "a preflight": api.request("OPTIONS", "/api/presets"),
    }
    # The leaderboard: Flask's first answer, then the poll layer's 200 and 304 (api/polls.py
    # answers repeated polls before Flask, with the headers it learned from Flask).
    first = api.get(board, expect=200)
    answers["a leaderboard"] = first
    answers["a repeated leaderboard poll"] = api.get(board, expect=200)
    answers["a 304 poll"] = api.get(board, headers={"If-None-Match": first.headers["ETag"]},
                                    expect=304)
    answers["a repeated 304 poll"] = api.get(
        board, headers={"If-None-Match": first.headers["ETag"]}, expect=304)
    assert answers["a CSV export"].status_code == 200
    for where, response in answers.items():
        response.get_data()  # files and exports stream: read and close them here
        response.close()
        assert response.status_code < 500, where
        assert_hardened(response, where)


class _InlineScripts(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would refuse to run."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                    "javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")
        if tag == "script":
            self._in_script = "src" not in attributes
            if attributes.get("type") == "importmap":
                self.found.append("an inline import map")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append(f"inline <script>: {data.strip()[:60]}")


@SQLITE_ONLY
def test_no_page_has_inline_script_for_the_policy_to_refuse(api):
    pages = {p.name: p.read_text() for p in (ROOT / "pwa").rglob("*.html")}
    pages["/api/docs"] = api.get("/api/docs", expect=200).get_data(as_text=True)
    assert "index.html" in pages
    for name, html in pages.items():
        parser = _InlineScripts()
        parser.feed(html)
        assert parser.found == [], name


# --- CORS -----------------------------------------------------------------------------------

def _cors_headers(response) -> dict:
    return {k: v for k, v in response.headers.items() if k.lower().startswith("access-control")}


def _cors_calls(api: ApiClient, s, origin: str) -> dict:
    board = f"/api/events/{s.id}/leaderboard"
    first = api.get(board, headers={"Origin": origin})
    return {
        "a leaderboard read": first,
        "a repeated poll": api.get(board, headers={"Origin": origin}),
        "a 304 poll": api.get(board, headers={"Origin": origin,
                                              "If-None-Match": first.headers["ETag"]}),
        "a write": api.post(f"/api/games/{s.ids['game_id']}/hands", key=s.keys["runner"],
                            json={"id": f"cors-{uuid.uuid4().hex[:8]}", "maker": "A",
                                  "tricks": 3}, headers={"Origin": origin}),
        "a refusal": api.get(f"/api/events/{s.id}/access", headers={"Origin": origin}),
        "a preflight": api.request("OPTIONS", f"/api/games/{s.ids['game_id']}/hands", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type"}),
    }


@SQLITE_ONLY
def test_cors_is_off_unless_configured(app, api, world):
    assert app.config["CORS_ORIGINS"] == ""
    for origin in (ORIGIN, "https://evil.example", "null"):
        for where, response in _cors_calls(api, world["progressive"], origin).items():
            assert _cors_headers(response) == {}, (origin, where)


@pytest.fixture
def cors_app(app):
    configured = create_app({**{k: app.config[k] for k in ("SQLALCHEMY_DATABASE_URI",
                                                           "TESTING", "PUBLIC_URL",
                                                           "POLL_BUILD_BEHIND_MS")},
                             "CORS_ORIGINS": f"{ORIGIN}, https://second.example.org"})
    yield configured
    with configured.app_context():
        from api.core.db import db

        db.engine.dispose()


@SQLITE_ONLY
def test_cors_answers_the_configured_origins_only(cors_app, world):
    api = ApiClient(cors_app.test_client())
    s = world["progressive"]
    for where, response in _cors_calls(api, s, ORIGIN).items():
        h = response.headers
        assert h.get("Access-Control-Allow-Origin") == ORIGIN, where
        assert "Origin" in h.get("Vary", ""), where
        assert "Access-Control-Allow-Credentials" not in h, where  # keys are headers, not cookies
    preflight = _cors_calls(api, s, ORIGIN)["a preflight"].headers
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    assert {"authorization", "if-match", "content-type"} <= {
        v.strip().lower() for v in preflight["Access-Control-Allow-Headers"].split(",")}
    # Every other origin, including after the configured ones were answered (the poll layer
    # learns headers per origin): nothing.
    for origin in ("https://evil.example", "https://scores.example.org.evil.example",
                   "http://scores.example.org", "null"):
        for where, response in _cors_calls(api, s, origin).items():
            assert _cors_headers(response) == {}, (origin, where)
    again = _cors_calls(api, s, "https://second.example.org")["a repeated poll"]
    assert again.headers["Access-Control-Allow-Origin"] == "https://second.example.org"


# --- request size ---------------------------------------------------------------------------

def _chunked(api: ApiClient, path: str, body: bytes, key: str, content_type: str):
    """A body with no Content-Length (chunked): the limit must hold while it is read."""
    return api.client.open(path, method="POST", input_stream=io.BytesIO(body), headers={
        "Authorization": f"Bearer {key}", "Content-Type": content_type,
        "Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})


def test_a_body_past_the_size_limit_is_a_413_problem_and_stores_nothing(app, api, world):
    s = world["progressive"]
    limit = app.config["MAX_CONTENT_LENGTH"]
    players = f"/api/events/{s.id}/players"
    before = api.get(players, expect=200).get_json()
    rows = "name\n" + "".join(f"Player {i:07d}\n" for i in range(limit // 15 + 10))
    big_csv = rows.encode()
    assert len(big_csv) > limit
    big_json = ('{"csv": "' + rows.replace("\n", "\\n") + '"}').encode()
    imports = f"/api/events/{s.id}/import"
    problem(api.post(imports, key=s.organizer, data=big_json,
                     content_type="application/json"), 413)
    problem(api.post(imports, key=s.organizer, data=big_csv, content_type="text/csv"), 413)
    problem(_chunked(api, imports, big_csv, s.organizer, "text/csv"), 413)
    problem(_chunked(api, imports, big_json, s.organizer, "application/json"), 413)
    hand = ('{"id": "big", "maker": "A", "tricks": 3, "note": "' + "x" * limit + '"}').encode()
    problem(api.post(f"/api/games/{s.ids['game_id']}/hands", key=s.organizer, data=hand,
                     content_type="application/json"), 413)
    problem(api.post("/api/events", data=b"{" + b" " * limit + b"}",
                     content_type="application/json"), 413)
    assert api.get(players, expect=200).get_json() == before
    # A small file the same way is read.
    fits = ("name\n" + "".join(f"Late {i}\n" for i in range(3))).encode()
    api.post(imports, key=s.organizer, data=fits, content_type="text/csv", expect=201)


# --- keys and PINs stay out of logs ---------------------------------------------------------

def _use_every_kind_of_secret(base_call, world_event) -> list[str]:
    """Create, use, mistype, revoke and exchange keys and the PIN through `base_call`
    (method, path, body=None, key=None, headers=None) -> (status, body). Returns every
    secret that went over the wire."""
    status, event = base_call("POST", "/api/events", {"name": "Log test", "preset": "progressive"})
    assert status == 201
    organizer, eid = event["organizer_key"], event["id"]
    status, access = base_call("GET", f"/api/events/{eid}/access", key=organizer)
    pin, code = access["join_pin"], access["code"]
    status, runner = base_call("POST", f"/api/events/{eid}/keys", {"table": 1}, key=organizer)
    assert status == 201
    status, joined = base_call("POST", "/api/join", {"code": code, "pin": pin, "table": 2})
    assert status == 201
    wrong_pin = f"{(int(pin) + 1) % 10**6:06d}"
    assert base_call("POST", "/api/join", {"code": code, "pin": wrong_pin})[0] == 403
    near_miss = organizer[:-2] + ("AA" if not organizer.endswith("AA") else "BB")
    assert base_call("GET", f"/api/events/{eid}/access", key=near_miss)[0] == 401
    basic = base64.b64encode(f"{organizer}:x".encode()).decode()  # curl -u KEY:x
    assert base_call("GET", f"/api/events/{eid}/access",
                     headers={"Authorization": f"Basic {basic}"})[0] == 401
    assert base_call("GET", f"/api/events/{eid}/access?key={organizer}")[0] == 401
    assert base_call("DELETE", f"/api/events/{eid}/keys/{runner['id']}", key=organizer)[0] == 200
    assert base_call("GET", "/api/me", key=runner["key"])[0] == 401  # revoked
    status, other = base_call("POST", f"/api/events/{eid}/organizer-key", key=organizer)
    assert status == 201
    assert base_call("GET", f"/api/events/{world_event.id}/access", key=organizer)[0] == 403
    return [organizer, runner["key"], joined["key"], other["organizer_key"], near_miss, pin,
            wrong_pin, world_event.organizer]


@SQLITE_ONLY
def test_keys_and_pins_never_reach_the_apps_logs(app, api, world, caplog):
    def base_call(method, path, body=None, key=None, headers=None):
        response = api.request(method, path, json=body, key=key, headers=headers)
        return response.status_code, response.get_json(silent=True)

    caplog.set_level(logging.DEBUG)  # every logger, every level
    secrets = _use_every_kind_of_secret(base_call, world["progressive"])
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    for secret in secrets:
        assert secret not in logged
    # A key is also never a digest away from the log: the stored form is not logged either.
    assert not re.search(r"\b[0-9a-f]{64}\b", logged)


@SQLITE_ONLY
def test_a_key_anywhere_but_the_authorization_header_is_not_accepted(api, world):
    s = world["progressive"]
    hand = {"id": "elsewhere", "maker": "A", "tricks": 3}
    hands = f"/api/games/{s.ids['game_id']}/hands"
    for name in ("key", "access_token", "api_key", "token", "authorization"):
        problem(api.get(f"/api/events/{s.id}/access?{name}={s.organizer}"), 401)
        problem(api.post(f"{hands}?{name}=Bearer%20{s.organizer}", json=hand), 401)
    for header in ("X-Api-Key", "Api-Key", "X-Auth-Token", "Proxy-Authorization"):
        problem(api.post(hands, json=hand, headers={header: s.organizer}), 401)
        problem(api.post(hands, json=hand, headers={header: f"Bearer {s.organizer}"}), 401)
    api.client.set_cookie("key", s.organizer)
    problem(api.post(hands, json=hand), 401)
    api.client.delete_cookie("key")
    assert api.get(f"/api/games/{s.ids['game_id']}", expect=200).get_json()["hands_played"] == 2


def _live_call(server: LiveServer):
    def base_call(method, path, body=None, key=None, headers=None):
        if headers:  # urllib cannot add a raw Authorization through `call`
            request = urllib.request.Request(server.url + path, method=method,
                                             headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, None
            except urllib.error.HTTPError as error:
                return error.code, None
        return call(server.url, method, path, body, key=key)
    return base_call


def test_gunicorns_logs_hold_no_keys_or_pins_and_the_pin_limit_holds_across_workers(
        tmp_path, world, app):
    """The project's gunicorn.conf.py with its access log on, over a real socket."""
    log = tmp_path / "gunicorn.log"
    server = LiveServer(app.config["SQLALCHEMY_DATABASE_URI"], workers=2, threads=4, log=log,
                        project_config=True, env={"ACCESS_LOG": "1", "CORS_ORIGINS": ""})
    server.start()
    try:
        base_call = _live_call(server)
        secrets = _use_every_kind_of_secret(base_call, world["progressive"])
        # Wrong PINs arrive at once, over both workers: the limit is in the database.
        s = world["wec"]
        wrong = f"{(int(s.keys['pin']) + 1) % 10**6:06d}"
        statuses: list[int] = []

        def guess():
            statuses.append(base_call("POST", "/api/join", {"code": s.ids["code"],
                                                            "pin": wrong, "table": 3})[0])

        # The limit is this address's at this event (the wrong PIN tried above was at
        # another event, and counts there only).
        left = Config.PIN_CLIENT_ATTEMPTS
        threads = [threading.Thread(target=guess) for _ in range(left + 8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [403] * left + [429] * 8
        # A CSV export of an event named in a non-Latin script (the file name is a header).
        status, event = base_call("POST", "/api/events", {"name": "Łódź Турнир 東京",
                                                          "preset": "progressive"})
        request = urllib.request.Request(
            f"{server.url}/api/events/{event['id']}/export/standings.csv",
            headers={"Authorization": f"Bearer {event['organizer_key']}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
            assert response.read().startswith("\ufeffplace,name".encode())
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert '"POST /api/join HTTP/1.1" 403' in text, "the access log was not written"
    for secret in secrets:
        assert secret not in text


# --- PIN guessing ---------------------------------------------------------------------------

def _join(api: ApiClient, s, pin: str, table: int | None = None, address: str = "10.0.0.1"):
    return api.client.post("/api/join", json={"code": s.ids["code"], "pin": pin,
                                              "table": table},
                           environ_base={"REMOTE_ADDR": address},
                           headers={"X-Forwarded-For": address, "X-Real-IP": address})


def _wrong(s) -> str:
    return f"{(int(s.keys['pin']) + 1) % 10**6:06d}"


def test_wrong_pins_from_many_addresses_never_lock_the_right_pin_out(app, api, world):
    # A stranger spraying wrong PINs (from as many addresses as they like) slows only
    # themselves: the runners with the right PIN still join, and the organizer sees the
    # guesses and can make a new PIN, which starts the count afresh.
    s = world["progressive"]
    for i in range(3 * app.config["PIN_CLIENT_ATTEMPTS"]):
        problem(_join(api, s, _wrong(s), table=4, address=f"198.51.100.{i % 250 + 1}"), 403)
    assert _join(api, s, s.keys["pin"], table=4, address="203.0.113.77").status_code == 201
    access = api.get(f"/api/events/{s.id}/access", key=s.organizer, expect=200)
    seen = access.get_json()["wrong_pins"]
    assert seen["count"] == 3 * app.config["PIN_CLIENT_ATTEMPTS"] and seen["advice"]
    fresh = api.post(f"/api/events/{s.id}/pin", key=s.organizer, expect=200)
    assert fresh.get_json()["wrong_pins"]["count"] == 0


def test_one_address_guessing_is_slowed_at_that_event_only(app, api, world, monkeypatch):
    # Guessing at one event slows that address there: at the other events, and for every
    # other address, the right PIN joins at once.
    from api.core import limits
    moment = limits.utcnow()
    monkeypatch.setattr(limits, "utcnow", lambda: moment)  # the wait never runs out here
    limit = app.config["PIN_CLIENT_ATTEMPTS"]
    target, *others = [world[name] for name in ("progressive", "league", "wec")]
    for _ in range(limit):
        problem(_join(api, target, _wrong(target), address="192.0.2.9"), 403)
    refused = problem(_join(api, target, target.keys["pin"], address="192.0.2.9"), 429)
    assert refused["code"] == "too-many-attempts"
    for other in others:
        assert _join(api, other, other.keys["pin"], address="192.0.2.9").status_code == 201
    assert _join(api, target, target.keys["pin"], address="192.0.2.10").status_code == 201


# --- spreadsheet formulas -------------------------------------------------------------------

FORMULAS = ["=1+1", "+SUM(A1:A2)", "-2+3", "@SUM(1,1)", "=HYPERLINK(\"http://x\",\"y\")",
            "=cmd|' /C calc'!A0"]


def _cells(text: str) -> list[str]:
    assert text.startswith("\ufeff")
    return [cell for row in csv.reader(io.StringIO(text[1:])) for cell in row]


def test_formula_cells_are_neutralised_in_every_export_and_kept_as_typed_in_the_app(api):
    event = api.create_event("progressive", name="=Formula night")
    key = event["organizer_key"]
    names = FORMULAS + ["\t=tab", "Plain \"quoted\", name"]
    text = "name,checked_in\n" + "".join(
        '"' + name.replace('"', '""') + '",yes\n' for name in names)
    assert api.post(f"/api/events/{event['id']}/import", key=key, data=text.encode(),
                    content_type="text/csv", expect=201).get_json()["players"] == 8
    stored = [p["name"] for p in api.get(f"/api/events/{event['id']}/players",
                                         expect=200).get_json()]
    assert stored == FORMULAS + ["=tab", "Plain \"quoted\", name"], "kept as typed (trimmed)"
    round_ = api.seat_round(event, 1)
    game = round_["tables"][0]["games"][0]["id"]
    play(api, key, game, fixed_hands_game(5, 3, 8))
    for note in ("@SUM(1,1)", "\t=1+1", "\r=1+1", "-1+1"):
        state = api.post(f"/api/games/{round_['tables'][1]['games'][0]['id']}/hands", key=key,
                         json={"id": f"note-{uuid.uuid4().hex[:6]}", "maker": "A",
                               "tricks": 3, "note": note}, expect=201).get_json()
    assert state["hands"][-1]["note"] == "-1+1"
    # The game is signed off by a player whose name is a formula: the games export has it.
    done = api.get(f"/api/games/{game}", expect=200).get_json()
    api.post(f"/api/games/{game}/sign-off", key=key, json={"by": signer(done)}, expect=200)
    seen = set()
    for export in ("hands", "games", "standings", "scoresheets"):
        response = api.get(f"/api/events/{event['id']}/export/{export}.csv", key=key,
                           expect=200)
        cells = _cells(response.get_data(as_text=True))
        dangerous = [c for c in cells if c.startswith(FORMULA_START)]
        assert dangerous == [], export
        seen.update(c for c in cells if c.startswith("'"))
        assert 'filename="formula-night-' in response.headers["Content-Disposition"]
    for value in FORMULAS + ["@SUM(1,1)", "-1+1"]:
        assert "'" + value in seen, value  # present, and neutralised
    # Notes are cleaned as names are (hostile-input issue): "\t=1+1" is stored as "=1+1",
    # which the export neutralises like any other formula.
    assert "'=1+1" in seen

"""The per-address limits hold exactly, whoever sends what: a burst from one address over many
events at once gets no more guesses than the limit, an IPv6 client cannot escape by changing
addresses within its /64, a forwarded address counts only behind a configured proxy, guessing
from many addresses at one event is slowed again without locking anyone out, and a whole
venue behind one address never meets a limit."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from flask import Flask

from api import create_app
from api.core import limits
from api.core.db import db
from api.core.keys import client_bucket
from tests.api.client import ApiClient
from tests.api.conftest import APP_CONFIG, _shared_app
from tests.api.test_join_pin_lockout import Clock


@pytest.fixture
def app(database_url):
    """The API tests' app of this backend (tests/api/conftest.py: built once, handed to each
    test with the settings it was built with), on a fresh database: the tests change its
    limits, and the security tests' shared app must keep the defaults."""
    app = _shared_app(database_url)
    yield app
    with app.app_context():
        db.session.remove()


# database URL -> a second app over it (a second app server) and its settings as built.
_SECOND: dict[str, tuple[Flask, dict]] = {}


@pytest.fixture
def second_app(app, database_url):
    """Another app over the same database, as a second app server: built once per database,
    handed to each test with the settings it was built with."""
    if database_url not in _SECOND:
        built = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url})
        _SECOND[database_url] = (built, dict(built.config))
    second, config = _SECOND[database_url]
    second.config.clear()
    second.config.update(config)
    yield second
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """The limits' clock, still unless a test moves it: a wait never runs out under a slow
    machine's feet."""
    clock = Clock()
    monkeypatch.setattr(limits, "utcnow", clock)
    return clock


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


def _event(api) -> dict:
    event = api.create_event("progressive", name="Guessed at")
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    return {**event, "pin": access["join_pin"],
            "wrong": f"{(int(access['join_pin']) + 1) % 10**6:06d}"}


def _join(client, event, pin, address, **environ):
    return client.post("/api/join", json={"code": event["code"], "pin": pin},
                       environ_base={"REMOTE_ADDR": address, **environ})


def _at_once(app, calls) -> list[int]:
    """Run the calls together, each on its own client and thread; their statuses."""
    statuses: list[int] = []
    start = threading.Barrier(len(calls))

    def run(call):
        client = app.test_client()
        start.wait()
        statuses.append(call(client).status_code)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_a_burst_of_guesses_at_one_event_over_two_app_servers_gets_exactly_the_limit(
        app, second_app, api, clock):
    # Two app instances over one database, as two app servers: the count is the database's.
    for server in (app, second_app):
        server.config["PIN_CLIENT_ATTEMPTS"] = 6
    events = [_event(api) for _ in range(2)]
    calls = [lambda c, e=events[0]: _join(c, e, e["wrong"], "198.51.100.7")] * 16
    statuses: list[int] = []
    start = threading.Barrier(len(calls))

    def run(i, call):
        client = (app if i % 2 else second_app).test_client()
        start.wait()
        statuses.append(call(client).status_code)

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(statuses) == {403: 6, 429: 10}
    # The guesser is slowed at that event only; any other address joins it with its PIN.
    assert _join(api.client, events[1], events[1]["pin"], "198.51.100.7").status_code == 201
    assert _join(api.client, events[0], events[0]["pin"], "203.0.113.1").status_code == 201


def test_events_made_at_once_from_one_address_stop_at_the_limit(app, api):
    app.config["EVENT_CREATE_LIMIT"] = 5
    body = {"name": "Night", "preset": "progressive"}
    calls = [lambda c: c.post("/api/events", json=body,
                              environ_base={"REMOTE_ADDR": "198.51.100.8"})] * 12
    assert Counter(_at_once(app, calls)) == {201: 5, 429: 7}


def test_an_ipv6_client_is_its_64_network_and_ipv4_written_as_ipv6_is_that_address(
        app, api, clock):
    app.config["PIN_CLIENT_ATTEMPTS"] = 3
    event = _event(api)
    for i in range(3):  # three addresses of one /64
        assert _join(api.client, event, event["wrong"], f"2001:db8:1:2::{i + 1}").status_code \
            == 403
    slowed = _join(api.client, event, event["pin"], "2001:db8:1:2:ffff::9")
    assert slowed.status_code == 429 and int(slowed.headers["Retry-After"]) > 0
    assert _join(api.client, event, event["pin"], "2001:db8:1:3::1").status_code == 201
    for _ in range(3):
        _join(api.client, event, event["wrong"], "198.51.100.9")
    assert _join(api.client, event, event["pin"], "::ffff:198.51.100.9").status_code == 429


@pytest.mark.parametrize(("address", "counted_as"), [
    ("198.51.100.7", "198.51.100.7"),
    ("198.51.100.7:51234", "198.51.100.7"),  # a proxy that forwards the port too
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"),
    ("::ffff:198.51.100.7", "198.51.100.7"),
    ("", "unknown"),
    ("x" * 300, "x" * 64),  # whatever a misconfigured proxy forwards, at a length stored
])
def test_a_client_is_counted_by_its_address_not_its_port_or_its_ipv6_host(address, counted_as):
    assert client_bucket(address) == counted_as


def test_a_forwarded_address_counts_only_behind_the_configured_proxies(database_url, clock):
    def guesses(hops: int, clients: list[str]) -> list[int]:
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                          "POLL_BUILD_BEHIND_MS": None, "PROXY_HOPS": hops,
                          "PIN_CLIENT_ATTEMPTS": 2, "PUBLIC_URL": "http://euchre.test"})
        try:
            event = _event(ApiClient(app.test_client()))
            # Every request arrives from 10.0.0.2 (the proxy, when there is one), and each
            # claims a new address of its own before the one the proxy added.
            return [_join(app.test_client(), event, event["wrong"], "10.0.0.2",
                          HTTP_X_FORWARDED_FOR=f"198.51.100.{i}, {client}").status_code
                    for i, client in enumerate(clients)]
        finally:
            with app.app_context():
                db.engine.dispose()

    # Without a proxy configured the header is only the client's word: the socket counts.
    assert guesses(0, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) == [403, 403, 429]
    # Behind one proxy its own entry (the last) is the client: each client has its own count,
    # and what a client wrote before it changes nothing.
    assert guesses(1, ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"]) == \
        [403, 403, 429, 403]


def test_guessing_from_many_addresses_at_one_event_is_slowed_without_locking_anyone_out(
        app, api, clock):
    app.config.update(PIN_EVENT_ATTEMPTS=10, PIN_EVENT_CLIENT_ATTEMPTS=2)
    event = _event(api)
    other = _event(api)
    # The venue mistyped once, early on.
    assert _join(api.client, event, event["wrong"], "192.0.2.1").status_code == 403
    # Someone guesses from many addresses, two tries each, until past the event's count.
    for i in range(10):
        for _ in range(2):
            assert _join(api.client, event, event["wrong"], f"198.51.100.{i + 1}") \
                .status_code == 403
    third = _join(api.client, event, event["wrong"], "198.51.100.1")
    assert third.status_code == 429 and "new PIN" in third.get_json()["detail"]
    assert 0 < int(third.headers["Retry-After"]) <= app.config["PIN_WINDOW_SECONDS"]
    # The same addresses guess at other events as before (their limit there is their own).
    assert _join(api.client, other, other["wrong"], "198.51.100.1").status_code == 403
    # The venue, which mistyped once, and any fresh address join with the right PIN.
    assert _join(api.client, event, event["pin"], "192.0.2.1").status_code == 201
    assert _join(api.client, event, event["pin"], "203.0.113.50").status_code == 201
    # The organizer sees it; a new PIN lifts the slowing, and the new PIN joins from anywhere.
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    assert access["wrong_pins"]["count"] == 21 and access["wrong_pins"]["advice"]
    fresh = api.post(f"/api/events/{event['id']}/pin", key=event["organizer_key"],
                     expect=200).get_json()
    assert _join(api.client, event, fresh["join_pin"], "198.51.100.1").status_code == 201


def test_players_registered_from_one_address_are_limited_however_they_are_sent(app, api):
    # Each event's field is bounded; this bounds how many fields one address fills (and so
    # how much seating work it can line up) however many events it makes.
    app.config["REGISTRATION_LIMIT"] = 12
    events = [api.post("/api/events", json={"name": "Filler", "preset": preset},
                       environ_base={"REMOTE_ADDR": "198.51.100.20"}, expect=201).get_json()
              for preset in ("progressive", "progressive", "teams")]

    def register(path, address="198.51.100.20", event=events[0], **body):
        return api.client.post(f"/api/events/{event['id']}{path}",
                               headers={"Authorization": f"Bearer {event['organizer_key']}"},
                               environ_base={"REMOTE_ADDR": address}, **body)

    rows = "name\n" + "".join(f"P{i}\n" for i in range(8))
    assert register("/import", data=rows, content_type="text/csv").status_code == 201
    refused_file = register("/import", data=rows.replace("P", "Q"), content_type="text/csv")
    assert refused_file.status_code == 429 and "12 players" in refused_file.get_json()["detail"]
    assert int(refused_file.headers["Retry-After"]) > 0
    # What was refused did not count: four more fit, one by one or as a team, in any event.
    for name in ("Ann", "Bob"):
        assert register("/players", json={"name": name}).status_code == 201
    assert register("/teams", event=events[2],
                    json={"name": "Pair", "players": ["Cy", "Di"]}).status_code == 201
    assert register("/players", event=events[1], json={"name": "Ed"}).status_code == 429
    # Another address is not limited by it.
    assert register("/players", event=events[1], address="203.0.113.20",
                    json={"name": "Ed"}).status_code == 201


def test_a_whole_venue_behind_one_address_never_meets_a_limit(app, api):
    # A 400-player night: a few organizers' events, the field registered at the door, 100
    # tables joining with the PIN from the venue's one address, with as many typos as a busy
    # bar makes.
    venue = "192.0.2.10"
    events = [api.post("/api/events", json={"name": f"Night {i}", "preset": "progressive"},
                       environ_base={"REMOTE_ADDR": venue}, expect=201).get_json()
              for i in range(5)]
    access = api.get(f"/api/events/{events[0]['id']}/access",
                     key=events[0]["organizer_key"], expect=200).get_json()
    event = {**events[0], "pin": access["join_pin"],
             "wrong": f"{(int(access['join_pin']) + 1) % 10**6:06d}"}
    field = "name,checked_in\n" + "".join(f"Player {i},yes\n" for i in range(400))
    assert api.client.post(f"/api/events/{event['id']}/import", data=field,
                           content_type="text/csv", environ_base={"REMOTE_ADDR": venue},
                           headers={"Authorization": f"Bearer {event['organizer_key']}"}
                           ).status_code == 201
    for name in ("Late Lou", "Later Liz"):  # walk-ins, one at a time
        assert api.client.post(f"/api/events/{event['id']}/players", json={"name": name},
                               environ_base={"REMOTE_ADDR": venue},
                               headers={"Authorization": f"Bearer {event['organizer_key']}"}
                               ).status_code == 201
    for table in range(1, 101):
        if table % 8 == 0:  # a typo first at every eighth table
            assert _join(api.client, event, event["wrong"], venue).status_code == 403
        joined = api.client.post("/api/join", json={"code": event["code"],
                                                    "pin": event["pin"], "table": table},
                                 environ_base={"REMOTE_ADDR": venue})
        assert joined.status_code == 201, (table, joined.get_json())


# --- the door ---------------------------------------------------------------------------------

def _door_night(api, names: list[str], address: str) -> dict:
    event = api.post("/api/events", json={"name": "Door night", "preset": "progressive"},
                     environ_base={"REMOTE_ADDR": address}, expect=201).get_json()
    key = event["organizer_key"]
    rows = "name,checked_in\n" + "".join(f"{name},no\n" for name in names)
    api.post(f"/api/events/{event['id']}/import", key=key, data=rows, content_type="text/csv",
             environ_base={"REMOTE_ADDR": address}, expect=201)
    api.put(f"/api/events/{event['id']}/check-in-window", key=key, expect=200,
            json={"opens": "2000-01-01T00:00", "closes": "2100-01-01T00:00"})
    token = api.post(f"/api/events/{event['id']}/door-token", key=key,
                     expect=200).get_json()["token"]
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    return {**event, "key": key, "token": token, "ids": [p["id"] for p in players]}


def _door(client, night, path, address, **body):
    return client.post(f"/api/door/{night['code']}/{path}", environ_base={"REMOTE_ADDR": address},
                       json={"token": night["token"], **body})


@pytest.mark.slow  # 400 check-ins and 400 more requests: about a minute on a busy machine
def test_a_400_player_door_on_one_wifi_gets_in_whatever_a_stranger_there_sends(app, api):
    # Every phone at the venue (and behind a proxy with PROXY_HOPS=0, every client) has one
    # address. A stranger there sprays invented door codes, a wrong token, unknown names and
    # repeat taps; all 400 players check themselves in within the same 10 minutes.
    venue = "192.0.2.44"
    night = _door_night(api, [f"Player {i:03d}" for i in range(400)], venue)
    client = api.client
    for i in range(300):
        assert client.post(f"/api/door/ZZZZ{i % 10}{i % 7}/check-in",
                           environ_base={"REMOTE_ADDR": venue},
                           json={"token": "x" * 22, "player_id": 1}).status_code == 404
    for player_id in night["ids"][:40]:
        assert _door(client, night, "check-in", venue, player_id=player_id).status_code == 200
    for i in range(20):
        assert _door(client, night, "check-in", venue, player_id=night["ids"][0]) \
            .status_code == 200  # a repeat tap answers the same and counts nothing
        assert _door(client, {**night, "token": "y" * 22}, "check-in", venue,
                     player_id=night["ids"][50]).status_code == 403
        assert _door(client, night, "check-in", venue, player_id=10**6 + i).status_code == 404
    for player_id in night["ids"][40:]:
        answer = _door(client, night, "check-in", venue, player_id=player_id)
        assert answer.status_code == 200, answer.get_json()
    players = api.get(f"/api/events/{night['id']}/players", expect=200).get_json()
    assert sum(p["checked_in"] for p in players) == 400


def test_the_door_limit_is_read_from_the_environment(database_url, monkeypatch):
    for name, value in (("DOOR_LIMIT", "2"), ("DOOR_WINDOW_SECONDS", "120"),
                        ("DOOR_REQUEST_LIMIT", "4"), ("DOOR_REQUESTS_WAITING", "9"),
                        ("CAPTAIN_REGISTRATION_LIMIT", "3"),
                        ("CAPTAIN_REGISTRATION_WINDOW_SECONDS", "60"),
                        ("PIN_WAIT_SECONDS", "12")):
        monkeypatch.setenv(name, value)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None, "PUBLIC_URL": "http://euchre.test"})
    try:
        assert (app.config["DOOR_LIMIT"], app.config["DOOR_WINDOW_SECONDS"],
                app.config["DOOR_REQUEST_LIMIT"], app.config["DOOR_REQUESTS_WAITING"],
                app.config["CAPTAIN_REGISTRATION_LIMIT"],
                app.config["CAPTAIN_REGISTRATION_WINDOW_SECONDS"],
                app.config["PIN_WAIT_SECONDS"]) == (2, 120, 4, 9, 3, 60, 12)
        api = ApiClient(app.test_client())
        night = _door_night(api, ["Ann", "Bob", "Cy"], "192.0.2.45")
        for player_id in night["ids"][:2]:
            assert _door(api.client, night, "check-in", "192.0.2.45",
                         player_id=player_id).status_code == 200
        slowed = _door(api.client, night, "check-in", "192.0.2.45", player_id=night["ids"][2])
        assert slowed.status_code == 429 and slowed.mimetype == "application/problem+json"
        assert 0 < int(slowed.headers["Retry-After"]) <= 120
    finally:
        with app.app_context():
            db.engine.dispose()


def test_strangers_filling_the_walk_in_queue_are_capped_and_cleared_in_one_step(app, api):
    app.config.update(DOOR_REQUEST_LIMIT=3, DOOR_REQUESTS_WAITING=9)
    night = _door_night(api, ["Ann"], "192.0.2.46")
    requests = f"/api/events/{night['id']}/door-requests"
    client = api.client
    # One address gets 3 waiting requests, then a clear 429.
    for i in range(3):
        assert _door(client, night, "requests", "198.51.100.1", name=f"Bot 1-{i}") \
            .status_code == 201
    capped = _door(client, night, "requests", "198.51.100.1", name="Bot 1-3")
    assert capped.status_code == 429 and capped.mimetype == "application/problem+json"
    assert int(capped.headers["Retry-After"]) > 0
    # Two more addresses fill the queue: a real walk-in is told to see the organizer.
    for address in ("198.51.100.2", "198.51.100.3"):
        for i in range(3):
            assert _door(client, night, "requests", address, name=f"Bot {address}-{i}") \
                .status_code == 201
    full = _door(client, night, "requests", "203.0.113.7", name="Real Rita")
    assert full.status_code == 429 and full.get_json()["code"] == "too-many-requests"
    assert int(full.headers["Retry-After"]) > 0
    # The organizer sees where they come from and declines one address's at once...
    waiting = api.get(requests, key=night["key"], expect=200).get_json()
    assert {r["same_network"] for r in waiting} == {3}
    done = api.post(f"{requests}/decline", key=night["key"], json={"like": waiting[0]["id"]},
                    expect=200).get_json()
    assert done["declined"] == 3 and done["names"] == [f"Bot 1-{i}" for i in range(3)]
    assert _door(client, night, "requests", "203.0.113.7", name="Real Rita").status_code == 201
    # ... or every request made since the flood began (Rita's too: she asks again).
    since = waiting[3]["created_at"]
    done = api.post(f"{requests}/decline", key=night["key"], json={"since": since},
                    expect=200).get_json()
    assert done["declined"] == 7 and "Real Rita" in done["names"]
    assert [r for r in api.get(requests, key=night["key"]).get_json()
            if r["status"] == "waiting"] == []
    asked = _door(client, night, "requests", "203.0.113.7", name="Real Rita")
    assert asked.status_code == 201
    page = client.get(f"/api/door/{night['code']}",
                      query_string={"token": night["token"], "request": waiting[0]["id"]})
    assert page.get_json()["request"]["status"] == "declined", "the bot's phone sees it"
    # Nothing left to decline is no error; a request of another event is a 404.
    assert api.post(f"{requests}/decline", key=night["key"], json={"like": 10**6},
                    expect=404)
    log = api.get(f"/api/events/{night['id']}/audit", key=night["key"]).get_json()
    assert [e["after"]["declined"] for e in log if e["action"] == "decline-door-requests"] \
        == [7, 3]


# --- team registration links ------------------------------------------------------------------

def test_a_squatter_cannot_fill_a_league_through_its_registration_link(app, api):
    app.config.update(LEAGUE_TEAMS=10, CAPTAIN_REGISTRATION_LIMIT=3)
    league = api.post("/api/events", json={"name": "Tuesday league", "preset": "league"},
                      expect=201).get_json()
    eid, key = league["id"], league["organizer_key"]
    for name in ("Desk A", "Desk B"):  # teams the organizer added
        api.post(f"/api/events/{eid}/teams", key=key, expect=201,
                 json={"name": name, "players": [f"{name} 1", f"{name} 2"]})
    token = api.put(f"/api/events/{eid}/registration", key=key, json={},
                    expect=200).get_json()["token"]

    def register(name, address, link=None):
        return api.client.post(f"/api/register/{league['code']}",
                               environ_base={"REMOTE_ADDR": address},
                               json={"token": link or token, "name": name,
                                     "players": [f"{name} 1", f"{name} 2"]})

    squatted = []
    for n, address in enumerate(["198.51.100.1"] * 3 + ["198.51.100.2"] * 3
                                + ["198.51.100.3"] * 2):
        answer = register(f"Squat {n}", address)
        assert answer.status_code == 201
        squatted.append(answer.get_json())
    capped = register("Squat more", "198.51.100.1")
    assert capped.status_code == 429 and capped.mimetype == "application/problem+json"
    assert 0 < int(capped.headers["Retry-After"]) <= 3600
    assert "ask the organizer" in capped.get_json()["detail"]
    full = register("Real Team", "203.0.113.8")
    assert full.status_code == 409 and full.get_json()["code"] == "too-many-teams"
    # The organizer removes every team registered through the link at once; their own stay.
    removed = api.post(f"/api/events/{eid}/registration/remove-teams", key=key,
                       expect=200).get_json()
    assert removed["removed"] == 8 and removed["names"][0] == "Squat 0"
    teams = [t["name"] for t in api.get(f"/api/events/{eid}/teams", expect=200).get_json()]
    assert teams == ["Desk A", "Desk B"]
    gone = api.client.get("/api/me", headers={"Authorization": f"Bearer {squatted[0]['key']}"})
    assert gone.status_code == 401, "the squatter's team keys went with the teams"
    assert register("Real Team", "203.0.113.8").status_code == 201
    # The squatter's address stays limited on this link; a new link starts afresh.
    assert register("Real Too", "198.51.100.1").status_code == 429
    fresh = api.put(f"/api/events/{eid}/registration", key=key, json={"rotate": True},
                    expect=200).get_json()["token"]
    assert register("Real Too", "198.51.100.1", link=fresh).status_code == 201
    # Once the season is scheduled, its teams are no longer removed at once.
    api.post(f"/api/events/{eid}/season", key=key, json={}, expect=201)
    refused = api.post(f"/api/events/{eid}/registration/remove-teams", key=key, json={})
    assert refused.status_code == 409 and refused.get_json()["code"] == "season-scheduled"


def test_walk_in_requests_and_registrations_sent_at_once_over_two_app_servers_stop_exactly(
        app, second_app, api):
    for server in (app, second_app):
        server.config.update(DOOR_REQUEST_LIMIT=4, CAPTAIN_REGISTRATION_LIMIT=3)
    night = _door_night(api, ["Ann"], "192.0.2.47")
    league = api.post("/api/events", json={"name": "Burst league", "preset": "league"},
                      expect=201).get_json()
    token = api.put(f"/api/events/{league['id']}/registration",
                    key=league["organizer_key"], json={}, expect=200).get_json()["token"]

    def burst(calls) -> Counter:
        statuses: list[int] = []
        start = threading.Barrier(len(calls))

        def run(i, call):
            client = (app if i % 2 else second_app).test_client()
            start.wait()
            statuses.append(call(client).status_code)

        threads = [threading.Thread(target=run, args=(i, call))
                   for i, call in enumerate(calls)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return Counter(statuses)

    asks = [lambda c, n=n: _door(c, night, "requests", "198.51.100.30", name=f"Bot {n}")
            for n in range(10)]
    assert burst(asks) == {201: 4, 429: 6}
    teams = [lambda c, n=n: c.post(f"/api/register/{league['code']}",
                                   environ_base={"REMOTE_ADDR": "198.51.100.31"},
                                   json={"token": token, "name": f"Team {n}",
                                         "players": [f"T{n} 1", f"T{n} 2"]})
             for n in range(6)]
    assert burst(teams) == {201: 3, 429: 3}

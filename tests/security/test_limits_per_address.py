"""The per-address limits hold exactly, whoever sends what: a burst from one address over many
events at once gets no more guesses than the limit, an IPv6 client cannot escape by changing
addresses within its /64, a forwarded address counts only behind a configured proxy, guessing
from many addresses at one event is slowed again without locking anyone out, and a whole
venue behind one address never meets a limit."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from api import create_app
from api.auth import client_bucket
from api.db import db
from tests.api.client import ApiClient


@pytest.fixture
def app(database_url):
    # An app of this test's own, on a fresh database: the tests change its limits (the
    # security tests' shared app must keep the defaults).
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None, "RAISE_UNEXPECTED": True,
                      "PUBLIC_URL": "http://euchre.test"})
    yield app
    with app.app_context():
        db.engine.dispose()


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


def test_a_burst_of_guesses_over_many_events_at_once_gets_exactly_the_limit(app, api):
    app.config["PIN_CLIENT_ATTEMPTS"] = 6
    events = [_event(api) for _ in range(4)]
    calls = [lambda c, e=events[i % 4]: _join(c, e, e["wrong"], "198.51.100.7")
             for i in range(16)]
    assert Counter(_at_once(app, calls)) == {403: 6, 429: 10}
    # Any other address still joins each event with its PIN.
    for event in events:
        assert _join(api.client, event, event["pin"], "203.0.113.1").status_code == 201


def test_events_made_at_once_from_one_address_stop_at_the_limit(app, api):
    app.config["EVENT_CREATE_LIMIT"] = 5
    body = {"name": "Night", "preset": "progressive"}
    calls = [lambda c: c.post("/api/events", json=body,
                              environ_base={"REMOTE_ADDR": "198.51.100.8"})] * 12
    assert Counter(_at_once(app, calls)) == {201: 5, 429: 7}


def test_an_ipv6_client_is_its_64_network_and_ipv4_written_as_ipv6_is_that_address(app, api):
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


def test_a_forwarded_address_counts_only_behind_the_configured_proxies(database_url):
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
        app, api):
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

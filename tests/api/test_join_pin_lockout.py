"""Wrong join PINs slow the address that guesses, at that event only, and by seconds: a stranger
cannot lock the organizer's runners out, not from another event, not from many addresses, and
not for long from the venue's own network; guessing the PIN stays hopeless. The refusal says
when to try again; the organizer sees the guesses and a new PIN forgets them at once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api.core import limits
from api.core.models import utcnow


class Clock:
    """The limits' clock, moved by the test instead of waited for."""

    def __init__(self):
        self.now = utcnow()

    def __call__(self):
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(limits, "utcnow", clock)
    return clock


def _join(api, access, pin, table=None, address="198.51.100.1"):
    return api.post("/api/join", json={"code": access["code"], "pin": pin, "table": table},
                    environ_base={"REMOTE_ADDR": address})


def _access(api):
    event = api.create_event("progressive")
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    access["wrong"] = f"{(int(access['join_pin']) + 1) % 10**6:06d}"
    access["event"] = event
    return access


def test_an_address_guessing_is_slowed_by_seconds_that_double_and_told_how_long(
        app, api, clock):
    access = _access(api)
    free = app.config["PIN_CLIENT_ATTEMPTS"]
    for _ in range(free):
        assert _join(api, access, access["wrong"], table=4).status_code == 403
    # The right PIN waits too (else the wait would tell which guess was right), by seconds.
    slowed = _join(api, access, access["join_pin"], table=4)
    assert slowed.status_code == 429
    body = slowed.get_json()
    assert body["code"] == "too-many-attempts" and "new PIN" in body["detail"]
    assert slowed.headers["Retry-After"] == "2" and "Try again in 2 seconds" in body["detail"]
    # Every other address still joins with the right PIN, at that table too.
    assert _join(api, access, access["join_pin"], table=4, address="203.0.113.5") \
        .status_code == 201
    # Each further wrong guess doubles the wait, up to PIN_WAIT_SECONDS.
    wait, waits = 2, []
    for _ in range(6):
        clock.wait(wait)
        assert _join(api, access, access["wrong"]).status_code == 403
        wait = int(_join(api, access, access["wrong"]).headers["Retry-After"])
        waits.append(wait)
    assert waits == [4, 8, 16, 30, 30, 30]
    # Once the wait is over, the right PIN joins from that address.
    clock.wait(30)
    assert _join(api, access, access["join_pin"], table=4).status_code == 201


def test_wrong_pins_at_another_event_never_slow_this_one(app, api, clock):
    venue, elsewhere = _access(api), _access(api)
    for _ in range(app.config["PIN_CLIENT_ATTEMPTS"] + 5):
        _join(api, elsewhere, elsewhere["wrong"], address="192.0.2.10")
    assert _join(api, elsewhere, elsewhere["join_pin"], address="192.0.2.10").status_code \
        == 429
    assert _join(api, venue, venue["join_pin"], table=1, address="192.0.2.10").status_code \
        == 201


def test_a_new_pin_lifts_the_slowing_at_once(app, api, clock):
    access = _access(api)
    event = access["event"]
    for _ in range(app.config["PIN_CLIENT_ATTEMPTS"] + 4):
        _join(api, access, access["wrong"], address="192.0.2.20")
    assert _join(api, access, access["join_pin"], address="192.0.2.20").status_code == 429
    fresh = api.post(f"/api/events/{event['id']}/pin", key=event["organizer_key"],
                     expect=200).get_json()
    assert _join(api, access, fresh["join_pin"], address="192.0.2.20").status_code == 201


def test_guessing_for_hours_from_one_address_gets_nowhere_near_the_pin(app, api, clock):
    # A script that guesses whenever it may, and pauses until its count is forgotten rather
    # than wait the longest wait, for half an hour (simulated): at that pace a whole night is
    # a sliver of the million PINs.
    access = _access(api)
    forget, longest = app.config["PIN_WINDOW_SECONDS"], app.config["PIN_WAIT_SECONDS"]
    tried, elapsed = 0, 0
    while elapsed < 1800:
        answer = _join(api, access, access["wrong"], address="198.51.100.66")
        if answer.status_code == 403:
            tried += 1
            continue
        assert answer.status_code == 429
        wait = int(answer.headers["Retry-After"])
        step = wait if wait < longest else forget + 1
        clock.wait(step)
        elapsed += step
    assert 50 < tried < 160, tried  # six hours of it: under 0.2 % of the PINs
    assert _join(api, access, access["join_pin"], address="203.0.113.66").status_code == 201


def test_a_stranger_cannot_lock_the_event_however_many_addresses_they_use(app, api):
    access = _access(api)
    for i in range(100):  # more than any per-event limit of old, from 100 addresses
        assert _join(api, access, access["wrong"], table=i % 7 + 1,
                     address=f"198.51.100.{i + 1}").status_code == 403
    assert _join(api, access, access["join_pin"], table=3, address="203.0.113.9") \
        .status_code == 201


def test_the_organizer_sees_the_wrong_pins_and_a_new_pin_starts_afresh(app, api):
    access = _access(api)
    event = access["event"]
    for i in range(app.config["PIN_EVENT_WARNING"]):
        _join(api, access, access["wrong"], address=f"198.51.100.{i + 1}")
    seen = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                   expect=200).get_json()["wrong_pins"]
    assert seen["count"] == app.config["PIN_EVENT_WARNING"] and seen["advice"]
    assert 0 < seen["seconds_left"] <= app.config["PIN_WINDOW_SECONDS"]
    fresh = api.post(f"/api/events/{event['id']}/pin", key=event["organizer_key"],
                     expect=200).get_json()
    assert fresh["wrong_pins"] == {"count": 0, "seconds_left": 0, "advice": False}
    assert fresh["join_pin"] != access["join_pin"]


def test_events_made_from_one_address_are_limited_with_a_clear_429(app, api):
    app.config["EVENT_CREATE_LIMIT"] = 3
    for _ in range(3):
        api.post("/api/events", json={"name": "Night", "preset": "progressive"},
                 environ_base={"REMOTE_ADDR": "198.51.100.50"}, expect=201)
    refused = api.post("/api/events", json={"name": "Night", "preset": "progressive"},
                       environ_base={"REMOTE_ADDR": "198.51.100.50"})
    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    assert 0 < int(refused.headers["Retry-After"]) <= app.config["EVENT_CREATE_WINDOW_SECONDS"]
    assert "Too many events" in refused.get_json()["detail"]
    other = api.post("/api/events", json={"name": "Night", "preset": "progressive"},
                     environ_base={"REMOTE_ADDR": "198.51.100.51"})
    assert other.status_code == 201, "another address is not limited"
    bad = api.post("/api/events", json={"name": "Night", "preset": "nonsense"},
                   environ_base={"REMOTE_ADDR": "198.51.100.52"})
    assert bad.status_code == 422, "a refused event is not counted"

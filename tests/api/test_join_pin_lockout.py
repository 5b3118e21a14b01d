"""Wrong join PINs slow the address that guesses, never the event: a stranger cannot lock the
organizer's runners out. The refusal says when to try again; the organizer sees the guesses
and a new PIN starts the count afresh."""

from __future__ import annotations


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


def test_an_address_with_too_many_wrong_pins_is_told_when_to_try_again(app, api):
    access = _access(api)
    for _ in range(app.config["PIN_CLIENT_ATTEMPTS"]):
        assert _join(api, access, access["wrong"], table=4).status_code == 403
    slowed = _join(api, access, access["join_pin"], table=4)
    assert slowed.status_code == 429
    body = slowed.get_json()
    assert body["code"] == "too-many-attempts" and "this network" in body["detail"]
    retry = int(slowed.headers["Retry-After"])
    assert 0 < retry <= app.config["PIN_WINDOW_SECONDS"]
    assert f"{-(-retry // 60)} minute" in body["detail"]
    # Every other address still joins with the right PIN, at that table too.
    assert _join(api, access, access["join_pin"], table=4, address="203.0.113.5") \
        .status_code == 201


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

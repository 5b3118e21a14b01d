"""An event keeps the venue's time zone: set at creation (the console sends the laptop's),
changed by the organizer, refused with a message when it is not a real zone."""

from __future__ import annotations


def test_an_event_is_made_in_the_venues_time_zone_and_can_move_to_another(api):
    event = api.post("/api/events", json={"name": "Bar night", "preset": "progressive",
                                          "time_zone": "America/Detroit"},
                     expect=201).get_json()
    assert event["time_zone"] == "America/Detroit"
    moved = api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
                      json={"time_zone": "Europe/London"}, expect=200).get_json()
    assert moved["time_zone"] == "Europe/London"
    assert api.create_event("progressive")["time_zone"] == "UTC", "the default"


def test_a_time_zone_that_does_not_exist_is_refused_with_what_to_send(api):
    refused = api.post("/api/events", json={"name": "x", "preset": "progressive",
                                            "time_zone": "Mars/Olympus_Mons"})
    assert refused.status_code == 422
    assert "IANA" in refused.get_json()["detail"]
    event = api.create_event("progressive")
    refused = api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
                        json={"time_zone": "../../etc/passwd"})
    assert refused.status_code == 422

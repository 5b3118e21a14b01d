"""A team that arrives after round 1 is marked late, as a player is: the organizer sees who
came in after the seating started."""

from __future__ import annotations


def _teams_event(api):
    event = api.create_event("teams")
    for name in ("Aces", "Bowers", "Clubs", "Diamonds"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    api.seat_round(event, 1)
    return event


def test_a_team_checked_in_after_round_one_is_marked_late(api):
    event = _teams_event(api)
    key = event["organizer_key"]
    late = api.post(f"/api/events/{event['id']}/teams", key=key, json={
        "name": "Euchres", "players": ["Eve", "Ed"], "checked_in": False},
        expect=201).get_json()
    assert not any(m["late"] for m in late["members"]), "not here yet: not late yet"
    here = api.patch(f"/api/events/{event['id']}/teams/{late['id']}", key=key,
                     json={"checked_in": True}, expect=200).get_json()
    assert all(m["late"] for m in here["members"] if m["role"] == "player")
    on_time = api.get(f"/api/events/{event['id']}/teams", expect=200).get_json()[0]
    assert not any(m["late"] for m in on_time["members"])


def test_a_team_registered_here_after_round_one_is_marked_late(api):
    event = _teams_event(api)
    made = api.add_team(event, "Farmers", ["Fay", "Fred"])  # checked in as it registers
    assert all(m["late"] for m in made["members"])

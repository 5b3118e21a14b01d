"""A check-in made by mistake at the door can be undone: the person is not here again, no
longer counted late, not seated in the next round, and the audit log says so."""

from __future__ import annotations


def test_undoing_a_check_in_leaves_the_player_out_of_the_next_round(api):
    event = api.create_event("progressive")
    key, eid = event["organizer_key"], event["id"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    api.seat_round(event, 1)
    wrong = api.post(f"/api/events/{eid}/players", key=key,
                     json={"name": "Pat", "checked_in": True}, expect=201).get_json()
    assert wrong["late"] is True
    undone = api.patch(f"/api/events/{eid}/players/{wrong['id']}", key=key,
                       json={"checked_in": False}, expect=200).get_json()
    assert undone["checked_in"] is False and undone["late"] is False
    plan = api.get(f"/api/events/{eid}/rounds/next", key=key, expect=200).get_json()
    seated = {s["name"] for t in plan["tables"] for s in t["seats"]}
    assert "Pat" not in seated
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    entry = next(e for e in log if e["action"] == "update-player")
    assert entry["before"]["checked_in"] is True and entry["after"]["checked_in"] is False


def test_undoing_a_team_check_in_is_logged_with_the_team(api):
    event = api.create_event("teams")
    key, eid = event["organizer_key"], event["id"]
    team = api.add_team(event, "Aces", ["Ann", "Al"])
    api.patch(f"/api/events/{eid}/teams/{team['id']}", key=key, json={"checked_in": False},
              expect=200)
    teams = api.get(f"/api/events/{eid}/teams", expect=200).get_json()
    assert not any(m["checked_in"] for m in teams[0]["members"])
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    entry = next(e for e in log if e["action"] == "update-team")
    assert (entry["before"]["checked_in"], entry["after"]["checked_in"]) == (True, False)

"""The audit log says every field a correction changed, and which key made it: two desks (two
runner links) can be told apart, and 3 tricks -> 4 is not "nothing that counts"."""

from __future__ import annotations


def _edit(api, key, game_id, hand, **changes):
    game = api.game(game_id)
    body = {k: hand[k] for k in ("maker", "tricks", "alone")} | changes
    return api.put(f"/api/games/{game_id}/hands/{hand['id']}", key=key, json=body,
                   headers={"If-Match": f'"{game["version"]}"'}, expect=200).get_json()


def test_a_correction_that_keeps_the_score_still_names_what_it_changed_and_who(api):
    event = api.create_event("progressive")
    organizer = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"])
    table = api.seat_round(event, 1)["tables"][0]
    game_id = table["games"][0]["id"]
    desk = api.post(f"/api/events/{event['id']}/keys", key=organizer,
                    json={"label": "Desk 2"}, expect=201).get_json()
    state = api.hand(desk["key"], game_id, "A", 3)
    hand = state["hands"][0]

    _edit(api, desk["key"], game_id, hand, tricks=4)
    _edit(api, organizer, game_id, {**hand, "tricks": 4}, note="scorer misread")

    log = api.get(f"/api/events/{event['id']}/audit", key=organizer, expect=200).get_json()
    note, tricks = log[0], log[1]
    assert tricks["action"] == "edit-hand" and tricks["changed"] == ["tricks"]
    assert tricks["before"]["points"] == tricks["after"]["points"], "the same score"
    assert tricks["key"]["label"] == "Desk 2" and tricks["key"]["role"] == "runner"
    assert tricks["key"]["hint"] == desk["key"][-4:]
    assert note["changed"] == ["note"] and note["key"]["role"] == "organizer"
    assert note["key"]["hint"] == organizer[-4:]


def test_a_filter_the_log_does_not_know_is_refused_not_ignored(api):
    """`?rnd=2` (a typo) must not quietly show the whole log as if it were round 2's."""
    event = api.create_event("progressive")
    organizer = event["organizer_key"]
    path = f"/api/events/{event['id']}/audit"
    assert api.get(f"{path}?round=1&table=1", key=organizer, expect=200).get_json() == []
    for bad in ("rnd=2", "round=1&=null", "=x"):
        problem = api.get(f"{path}?{bad}", key=organizer, expect=422).get_json()
        assert problem["status"] == 422 and "Unknown field" in problem["detail"]

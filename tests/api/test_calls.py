"""A table calls the organizer (RULES.md §7): the call waits, listed for the organizer with its
table, game and age, until answered; calling again while it waits is the same call; a table
cannot flood the organizer; calls and answers are counted and in the night's log."""

from __future__ import annotations

from api.games import calls


def _night(api):
    event = api.create_event("progressive", name="Calling night")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    tables = api.seat_round(event, 1)["tables"]
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    return event, key, runner, [t["games"][0]["id"] for t in tables]


def test_a_call_waits_until_answered_and_a_second_tap_is_the_same_call(api):
    event, key, runner, (game, other) = _night(api)
    base = f"/api/events/{event['id']}/calls"
    assert api.get(base, key=key, expect=200).get_json() == {
        "waiting": 0, "answered": 0, "total": 0, "calls": []}
    first = api.post(f"/api/games/{game}/call", key=runner, expect=201).get_json()
    assert first["waiting"] and first["table"] == 1 and first["game_id"] == game
    assert first["answered_by"] is None
    again = api.post(f"/api/games/{game}/call", key=runner, expect=200).get_json()
    assert again["id"] == first["id"], "idempotent while it waits"
    api.post(f"/api/games/{other}/call", key=key, expect=201)
    listed = api.get(base, key=key, expect=200).get_json()
    assert (listed["waiting"], listed["total"]) == (2, 2)
    assert [c["table"] for c in listed["calls"]] == [1, 2], "oldest first"
    assert all(c["age_seconds"] >= 0 for c in listed["calls"])

    answered = api.post(f"{base}/{first['id']}/answer", key=key, expect=200).get_json()
    assert not answered["waiting"] and answered["answered_by"]["label"]
    assert answered["answered_at"] is not None
    twice = api.post(f"{base}/{first['id']}/answer", key=key, expect=200).get_json()
    assert twice["answered_at"] == answered["answered_at"], "answering again changes nothing"
    listed = api.get(base, key=key, expect=200).get_json()
    assert (listed["waiting"], listed["answered"], listed["total"]) == (1, 1, 2)
    assert [c["waiting"] for c in listed["calls"]] == [True, False]
    # Answered, the table may call again: a new call.
    new = api.post(f"/api/games/{game}/call", key=runner, expect=201).get_json()
    assert new["id"] != first["id"]
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert [e["action"] for e in log[:4]] == ["call", "answer-call", "call", "call"]
    assert log[1]["table"] == 1 and "waited_seconds" in log[1]["after"]


def test_who_may_call_answer_and_list(api):
    event, key, runner, (game, other) = _night(api)
    base = f"/api/events/{event['id']}/calls"
    assert api.post(f"/api/games/{other}/call", key=runner).status_code == 403, \
        "a table's key calls from its own table"
    assert api.post(f"/api/games/{game}/call").status_code == 401
    assert api.get(base, key=runner).status_code == 403
    call = api.post(f"/api/games/{game}/call", key=runner, expect=201).get_json()
    assert api.post(f"{base}/{call['id']}/answer", key=runner).status_code == 403
    assert api.get(base, key=key, expect=200).get_json()["waiting"] == 1, "still waiting"
    missing = api.post(f"{base}/424242/answer", key=key)
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
    assert api.post("/api/games/999999/call", key=key).status_code == 404


def test_a_table_cannot_flood_the_organizer(api):
    event, key, runner, (game, _other) = _night(api)
    base = f"/api/events/{event['id']}/calls"
    for _ in range(calls.CALLS_PER_WINDOW):
        call = api.post(f"/api/games/{game}/call", key=runner, expect=201).get_json()
        api.post(f"{base}/{call['id']}/answer", key=key, expect=200)
    refused = api.post(f"/api/games/{game}/call", key=runner)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert int(refused.headers["Retry-After"]) > 0
    assert "Table 1" in refused.get_json()["detail"]
    listed = api.get(base, key=key, expect=200).get_json()
    assert (listed["total"], listed["waiting"]) == (calls.CALLS_PER_WINDOW, 0), \
        "the refused call is not stored"

"""Correcting hands after entry: a deleted hand renumbers the rest and is audited; a signed-off
game is closed to runners until the organizer reopens it."""

from __future__ import annotations

from .client import play, signer
from .scripts import fixed_hands_game


def test_deleting_a_middle_hand_renumbers_the_rest_and_is_audited(api, progressive):
    key, game = progressive["key"], progressive["game"]
    play(api, key, game, [{"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 5},
                          {"maker": "A", "tricks": 0}])
    state = api.game(game)
    middle = state["hands"][1]["id"]
    after = api.delete(f"/api/games/{game}/hands/{middle}", key=key,
                       headers={"If-Match": f'"{state["version"]}"'}, expect=200).get_json()
    assert [h["number"] for h in after["hands"]] == [1, 2]
    assert after["points"] == {"A": 1, "B": 2} and after["hands_played"] == 2
    state = api.hand(key, game, "A", 4)
    assert [h["number"] for h in state["hands"]] == [1, 2, 3]
    audit = api.get(f"/api/events/{progressive['event']['id']}/audit?table=1", key=key,
                    expect=200).get_json()
    assert audit[0]["action"] == "delete-hand" and audit[0]["before"]["id"] == middle
    assert audit[0]["table"] == 1 and audit[0]["round_number"] == 1


def test_a_signed_off_game_is_closed_to_runners_and_reopened_by_the_organizer(api, progressive):
    key, game = progressive["key"], progressive["game"]
    event_id = progressive["event"]["id"]
    runner = api.post(f"/api/events/{event_id}/keys", key=key, json={"label": "floor"},
                      expect=201).get_json()["key"]
    state = play(api, runner, game, fixed_hands_game(5, 3, 8))
    by = signer(state)
    signed = api.post(f"/api/games/{game}/sign-off", key=runner, json={"by": by},
                      expect=200).get_json()
    assert signed["signed_off"] and signed["signed_off_by"] == by
    hand = state["hands"][0]["id"]
    version = api.game(game)["version"]
    edit = api.put(f"/api/games/{game}/hands/{hand}", key=runner, json={"maker": "B",
                   "tricks": 3}, headers={"If-Match": f'"{version}"'})
    assert edit.status_code == 409 and f"signed off by {by}" in edit.get_json()["detail"]
    assert api.post(f"/api/games/{game}/reopen", key=runner).status_code == 403
    reopened = api.post(f"/api/games/{game}/reopen", key=key, expect=200).get_json()
    assert not reopened["signed_off"]
    fixed = api.put(f"/api/games/{game}/hands/{hand}", key=runner,
                    json={"maker": "B", "tricks": 3},
                    headers={"If-Match": f'"{reopened["version"]}"'}, expect=200).get_json()
    assert fixed["hands"][0]["outcome"] == "B made it: B +1"
    actions = [a["action"] for a in api.get(f"/api/events/{event_id}/audit", key=key,
                                            expect=200).get_json()]
    assert actions[:3] == ["edit-hand", "reopen", "sign-off"]
    assert api.get(f"/api/events/{event_id}/audit", key=runner).status_code == 403

"""Correcting hands after entry: a deleted hand renumbers the rest and is audited; a signed-off
game stays open to the table within its correction window (RULES.md §7), and a change to its
result undoes the sign-off; the organizer may reopen a signed-off game too."""

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


def test_a_signed_off_game_is_open_to_the_table_in_its_window_and_unsigned_by_a_change(
        api, progressive):
    key, game = progressive["key"], progressive["game"]
    event_id = progressive["event"]["id"]
    runner = api.post(f"/api/events/{event_id}/keys", key=key, json={"label": "floor"},
                      expect=201).get_json()["key"]
    state = play(api, runner, game, fixed_hands_game(5, 3, 8))
    by = signer(state)
    signed = api.post(f"/api/games/{game}/sign-off", key=runner, json={"by": by},
                      expect=200).get_json()
    assert signed["signed_off"] and signed["signed_off_by"] == by
    assert signed["correction_open"] and signed["correctable_until"] is None, \
        "the round is in play: the window has not started to run"
    hand = state["hands"][0]["id"]
    assert api.post(f"/api/games/{game}/reopen", key=runner).status_code == 403
    fixed = api.put(f"/api/games/{game}/hands/{hand}", key=runner,
                    json={"maker": "B", "tricks": 3},
                    headers={"If-Match": f'"{signed["version"]}"'}, expect=200).get_json()
    assert fixed["hands"][0]["outcome"] == "B made it: B +1"
    assert not fixed["signed_off"] and fixed["signed_off_by"] is None, \
        "a changed result is not what was signed"
    audit = api.get(f"/api/events/{event_id}/audit", key=key, expect=200).get_json()
    assert [a["action"] for a in audit[:2]] == ["edit-hand", "sign-off"]
    assert audit[0]["after"]["sign_off"] == "undone: the result changed"
    assert api.get(f"/api/events/{event_id}/audit", key=runner).status_code == 403

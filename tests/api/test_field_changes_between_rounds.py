"""The field changing during an event: a withdrawal or a late arrival changes the next round's
seating, never the round being played."""

from __future__ import annotations

from .client import play
from .scripts import fixed_hands_game


def test_a_withdrawal_and_a_late_arrival_change_the_next_round_not_this_one(api, progressive):
    key, event = progressive["key"], progressive["event"]
    for t in progressive["round"]["tables"]:
        play(api, key, t["games"][0]["id"], fixed_hands_game(6, 2, 8))
    api.close_round(event, progressive["round"]["id"])
    gone = progressive["players"][1]
    api.patch(f"/api/events/{event['id']}/players/{gone['id']}", key=key,
              json={"withdrawn": True}, expect=200)
    late = api.add_players(event, ["Late Larry"])[0]
    assert late["late"]
    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key,
                      expect=200).get_json()
    seated = [s["player_id"] for t in preview["tables"] for s in t["seats"]]
    assert gone["id"] not in seated and late["id"] in seated
    assert seated.count(None) == 0
    round_ = api.seat_round(event, 2)
    assert [s["player_id"] for t in round_["tables"] for s in t["seats"]] == seated
    board = {r["entrant_id"]: r for r in api.leaderboard(event)["rows"]}
    assert board[gone["id"]]["withdrawn"] and board[gone["id"]]["total"] in (2, 6)

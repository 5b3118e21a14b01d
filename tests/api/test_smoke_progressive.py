"""A first walk through a progressive event over HTTP (expanded in the full event tests)."""


def test_a_progressive_round_can_be_seated_and_scored(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(1, 15)])
    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key, expect=200).get_json()
    assert len(preview["tables"]) == 4
    round_ = api.seat_round(event, 1)
    assert round_["tables"] == [dict(t, games=t["games"]) for t in round_["tables"]]
    game_id = round_["tables"][0]["games"][0]["id"]
    for _ in range(8):
        state = api.hand(key, game_id, "A", 3)
    assert state["over"] and state["points"] == {"A": 8, "B": 0}
    board = api.leaderboard(event)
    assert board["rows"][0]["total"] == 8

"""A whole Loner Seekers night over HTTP, as issue 16 will be checked: 27 players, 20 of them
checking themselves in at the door, a late player refused after the window, one player who
cannot move tables, a $10 fee with a $20 maintenance fee, two rounds, a disqualification, the
payouts and a door-prize draw."""

from __future__ import annotations

from datetime import UTC, datetime

from api.night import door

from .client import play, play_sheet
from .scripts import fixed_hands_game

DURING = datetime(2026, 12, 7, 23, 40, tzinfo=UTC)  # 6:40 pm in Detroit
AFTER = datetime(2026, 12, 7, 23, 55, tzinfo=UTC)  # 6:55 pm
NAMES = [f"Player {n:02d}" for n in range(1, 29)]


def test_a_loner_seekers_night_from_the_door_to_the_prize_table(api, monkeypatch):
    monkeypatch.setattr(door, "utcnow", lambda: DURING)
    event = api.post("/api/events", json={"name": "Loner Seekers, December",
                                          "preset": "progressive",
                                          "time_zone": "America/Detroit"},
                     expect=201).get_json()
    key, eid = event["organizer_key"], event["id"]
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES, checked_in=False)}
    api.put(f"/api/events/{eid}/check-in-window", key=key,
            json={"opens": "2026-12-07T18:30", "closes": "2026-12-07T18:50"}, expect=200)
    token = api.post(f"/api/events/{eid}/door-token", key=key, expect=200).get_json()["token"]

    # 20 check themselves in from their phones (all on the venue's wifi: one address).
    for name in NAMES[:20]:
        api.post(f"/api/door/{event['code']}/check-in", environ_base={"REMOTE_ADDR": "10.0.0.9"},
                 json={"token": token, "player_id": ids[name]}, expect=200)
    for name in NAMES[20:27]:  # 7 more at the desk
        api.patch(f"/api/events/{eid}/players/{ids[name]}", key=key, json={"checked_in": True},
                  expect=200)
    # The 28th comes at 6:55: refused, with the time it closed.
    monkeypatch.setattr(door, "utcnow", lambda: AFTER)
    late = api.patch(f"/api/events/{eid}/players/{ids[NAMES[27]]}", key=key,
                     json={"checked_in": True}, expect=409).get_json()
    assert "6:50 pm" in late["detail"]
    players = api.get(f"/api/events/{eid}/players", expect=200).get_json()
    assert sum(p["checked_in"] for p in players) == 27

    stayer = ids["Player 05"]
    api.patch(f"/api/events/{eid}/players/{stayer}", key=key, json={"stays_at": 3}, expect=200)
    for name in NAMES[:27]:
        api.patch(f"/api/events/{eid}/players/{ids[name]}", key=key, json={"paid": True},
                  expect=200)
    money = api.put(f"/api/events/{eid}/money", key=key,
                    json={"entry_fee": 10, "maintenance_amount": 20}, expect=200).get_json()
    assert (money["collected"], money["pool"]) == (270, 250)
    assert [p["amount"] for p in money["places"]] == [125, 75, 50]  # 27 players: 50/30/20

    for number in (1, 2):
        round_ = api.seat_round(event, number)
        assert len(round_["tables"]) == 7
        where = [t["table"] for t in round_["tables"]
                 for s in t["seats"] if s["player_id"] == stayer]
        assert where == [3], f"round {number}: the stayer keeps table 3"
        # Round 1's hands come from the tables' phones one by one, round 2's from the
        # paper sheets the tables hand in.
        enter = play if number == 1 else play_sheet
        for table in round_["tables"]:
            a, b = (9, 3) if table["table"] % 2 else (4, 8)
            enter(api, key, table["games"][0]["id"], fixed_hands_game(a, b, 8))
        api.close_round(event, round_["id"])

    board = api.leaderboard(event)
    winner = board["rows"][0]
    api.patch(f"/api/events/{eid}/players/{winner['entrant_id']}", key=key,
              json={"disqualified": "Phone at the table (rule 17)"}, expect=200)
    board = api.leaderboard(event)
    rows = {r["entrant_id"]: r for r in board["rows"]}
    struck = rows[winner["entrant_id"]]
    assert struck["place"] is None and struck["payout"] == 0 and struck["total"] == winner["total"]
    placed = [r for r in board["rows"] if r["place"] is not None]
    assert placed[0]["place"] == 1 and len(placed) == 26
    money = api.get(f"/api/events/{eid}/money", expect=200).get_json()
    paid_out = sum(r["payout"] for r in board["rows"])
    assert paid_out + money["remainder"] == 250
    for row in placed:  # level entrants take the same; a better place never takes less
        same = [r["payout"] for r in placed if r["place"] == row["place"]]
        assert len(set(same)) == 1
        assert all(r["payout"] <= row["payout"] for r in placed if r["place"] > row["place"])

    draw = api.post(f"/api/events/{eid}/draws", key=key, json={"count": 2},
                    expect=201).get_json()
    prize_winners = {r["entrant_id"] for r in board["rows"] if r["payout"] or r["prize"]}
    assert not {w["id"] for w in draw["winners"]} & prize_winners
    assert ids[NAMES[27]] not in {w["id"] for w in draw["winners"]}, "not checked in"
    assert api.leaderboard(event)["draw"]["winners"] == draw["winners"]

"""A whole progressive tournament over HTTP: 14 players (two ghost tables), 5 rounds."""

from __future__ import annotations

from collections import defaultdict

from .client import play, play_sheet
from .scripts import fixed_hands_game

NAMES = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal", "Ivy", "Jack", "Kim",
         "Lou", "Mia", "Ned"]


def planned_score(round_number: int, table: int) -> tuple[int, int]:
    """The score each table plays to: side A wins at even (round + table), else B; 8-3."""
    return (8, 3) if (round_number + table) % 2 == 0 else (3, 8)


def test_a_fourteen_player_progressive_runs_five_rounds_with_two_ghost_tables(api):
    event = api.create_event("progressive", name="Monday progressive")
    key = event["organizer_key"]
    players = api.add_players(event, NAMES)
    ids = {p["name"]: p["id"] for p in players}
    expected = defaultdict(int)
    seen_partners = defaultdict(set)

    previous = None
    for number in range(1, 6):
        round_ = api.seat_round(event, number)
        assert round_["label"] == f"Round {number}"
        tables = round_["tables"]
        assert len(tables) == 4
        seated = [s["player_id"] for t in tables for s in t["seats"] if s["player_id"]]
        assert sorted(seated) == sorted(ids.values()), "everyone seated exactly once"
        ghost_tables = [t["table"] for t in tables if any(s["player_id"] is None
                                                          for s in t["seats"])]
        assert ghost_tables == [3, 4], "the ghosts never move"
        for t in tables:
            if t["table"] in (3, 4):
                assert t["seats"][3]["player_id"] is None and t["seats"][3]["name"] == "Ghost"
        if previous:
            _check_movement(previous, number - 1, tables)
        for t in tables:
            a, b = planned_score(number, t["table"])
            # Round 1's first table hand by hand, as its phone enters it; the rest from
            # their paper sheets (the movement and the totals are the point here).
            enter = play if number == 1 and t["table"] == 1 else play_sheet
            state = enter(api, key, t["games"][0]["id"], fixed_hands_game(a, b, 8))
            assert state["over"] and state["points"] == {"A": a, "B": b}
            assert state["winner"] == ("A" if a > b else "B")
            ghost = t["table"] in (3, 4)
            for seat in t["seats"]:
                pid = seat["player_id"]
                if pid is None:
                    continue
                side_points = a if seat["seat"] in (1, 3) else b
                expected[pid] += max(side_points, 7) if ghost else side_points
                partner = t["seats"][(seat["seat"] + 1) % 4]["player_id"]
                if partner is not None:
                    seen_partners[pid].add(partner)
        api.close_round(event, round_["id"])
        previous = tables

    board = api.leaderboard(event)
    totals = {row["entrant_id"]: row["total"] for row in board["rows"]}
    assert totals == dict(expected)
    ordered = sorted(expected.values(), reverse=True)
    assert [row["total"] for row in board["rows"]] == ordered
    for row in board["rows"]:
        assert row["place"] == 1 + sum(1 for v in expected.values() if v > row["total"])
        assert row["shared"] == (list(expected.values()).count(row["total"]) > 1)
        assert set(row["rounds"]) == {"1", "2", "3", "4", "5"}
    # 14 players: 12 to 20 players win 1st and 2nd prizes.
    assert {row["place"] for row in board["rows"] if row["prize"]} <= {1, 2}
    assert board["rows"][0]["prize"]

    sheet = api.get(f"/api/events/{event['id']}/players/{ids['Ann']}/scoresheet",
                    expect=200).get_json()
    assert [r["round"] for r in sheet["rounds"]] == [1, 2, 3, 4, 5]
    assert sheet["total"] == expected[ids["Ann"]]
    assert sum(r["score"] for r in sheet["rounds"]) == expected[ids["Ann"]]

    nobody_more = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 6},
                           expect=409).get_json()
    assert "All 5 rounds" in nobody_more["detail"]


def _check_movement(previous: list[dict], last_round: int, tables: list[dict]) -> None:
    """Winners stay at their table; each table's two stayers are now opponents."""
    now = {t["table"]: {s["player_id"]: s["seat"] for s in t["seats"] if s["player_id"]}
           for t in tables}
    for t in previous:
        if any(s["player_id"] is None for s in t["seats"]):
            continue
        a, b = planned_score(last_round, t["table"])
        won = "A" if a > b else "B"
        seats = (1, 3) if won == "A" else (2, 4)
        stayers = [t["seats"][n - 1]["player_id"] for n in seats]
        here = now[t["table"]]
        assert all(p in here for p in stayers), "the winning pair stays at its table"
        assert (here[stayers[0]] % 2) != (here[stayers[1]] % 2), "stayers become opponents"


def test_a_ghost_table_player_scores_at_least_seven_for_the_round(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, NAMES[:7])
    round_ = api.seat_round(event, 1)
    ghost_table = next(t for t in round_["tables"] if t["seats"][3]["player_id"] is None)
    play(api, key, ghost_table["games"][0]["id"], fixed_hands_game(2, 9, 8))
    board = {r["entrant_id"]: r for r in api.leaderboard(event)["rows"]}
    losers = [s["player_id"] for s in ghost_table["seats"] if s["seat"] in (1, 3)]
    winner = ghost_table["seats"][1]["player_id"]
    assert all(board[p]["total"] == 7 for p in losers), "2 points, raised to the minimum of 7"
    assert board[winner]["total"] == 9


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

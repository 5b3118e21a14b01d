"""Whole World Euchre Championship events over HTTP: singles (16 players) and doubles (8
teams), 8 games of 12 hands with bumps, awards and the bump cup."""

from __future__ import annotations

from collections import defaultdict

from .client import play, play_sheet
from .scripts import fixed_hands_game

# One game's script at every table: 12 hands, side A 9 points, side B 7, with bumps.
# Seats 1 and 3 are side A, 2 and 4 side B.
SCRIPT = [
    {"maker": "A", "tricks": 3},  # A +1
    {"maker": "B", "tricks": 1},  # B euchred: A +2, $1 each for seats 2 and 4
    {"maker": "B", "tricks": 5},  # B +2
    {"maker": "A", "tricks": 0, "alone": True, "loner_seat": 3},  # loner euchred: B +2, $2 seat 3
    {"maker": "A", "tricks": 4},  # A +1
    {"maker": "B", "tricks": 3},  # B +1
    {"maker": "A", "tricks": 5},  # A +2
    {"maker": "B", "tricks": 3, "renege": {"by": "A", "upheld": True}},  # B +2, $1 seats 1, 3
    {"maker": "A", "tricks": 3},  # A +1
    {"maker": "A", "tricks": 3},  # A +1
    {"maker": "A", "tricks": 3},  # A +1
    {"maker": "B", "tricks": 4},  # B +1
]
SCRIPT_POINTS = {"A": 9, "B": 8}
SCRIPT_BUMPS = {1: 1, 2: 1, 3: 3, 4: 1}


def test_script_adds_up_as_written():
    assert len(SCRIPT) == 12
    assert sum(SCRIPT_BUMPS.values()) == 6


def test_a_sixteen_player_wec_singles_runs_eight_games_with_bumps(api):
    event = api.create_event("wec-singles", name="New Glarus singles")
    key = event["organizer_key"]
    players = api.add_players(event, [f"Player {n:02d}" for n in range(1, 17)])
    expected = defaultdict(int)
    wins = defaultdict(int)
    bumps = defaultdict(int)
    partners = set()
    for number in range(1, 9):
        round_ = api.seat_round(event, number)
        assert round_["label"] == f"Game {number}"
        assert sorted(s["player_id"] for t in round_["tables"] for s in t["seats"]) == \
            sorted(p["id"] for p in players)
        for t in round_["tables"]:
            seats = {s["seat"]: s["player_id"] for s in t["seats"]}
            for a, b in ((1, 3), (2, 4)):
                pair = frozenset((seats[a], seats[b]))
                assert pair not in partners, "nobody partners the same player twice"
                partners.add(pair)
            game = t["games"][0]["id"]
            if t["table"] == 1:
                # The WEC game sheet: only final points and bumps per seat.
                state = api.put(f"/api/games/{game}/sheet", key=key, json={
                    "points": SCRIPT_POINTS, "bumps": {str(k): v for k, v in
                                                       SCRIPT_BUMPS.items()}},
                    expect=200).get_json()
            elif number == 1 and t["table"] == 2:
                state = play(api, key, game, SCRIPT)  # hand by hand, as a phone enters it
            else:  # the paper sheet, all 12 hands in one request
                state = play_sheet(api, key, game, SCRIPT)
            assert state["points"] == SCRIPT_POINTS and state["winner"] == "A"
            assert {int(k): v for k, v in state["bumps"].items()} == SCRIPT_BUMPS
            for seat, pid in seats.items():
                side = "A" if seat in (1, 3) else "B"
                expected[pid] += SCRIPT_POINTS[side]
                wins[pid] += side == "A"
                bumps[pid] += SCRIPT_BUMPS[seat]
        api.close_round(event, round_["id"])

    board = api.leaderboard(event)
    for row in board["rows"]:
        assert row["total"] == expected[row["entrant_id"]]
        assert row["games_won"] == wins[row["entrant_id"]]
        assert row["games_played"] == 8
    ranked = sorted(expected, key=lambda p: (-expected[p], -wins[p]))
    assert [r["entrant_id"] for r in board["rows"]][:1] == ranked[:1] or \
        board["rows"][0]["shared"]
    assert board["bump_cup_total"] == sum(bumps.values()) == 8 * 4 * 6

    awards = api.get(f"/api/events/{event['id']}/awards", expect=200).get_json()
    assert awards["bump_cup"]["total"] == 8 * 4 * 6
    assert {p["id"]: p["dollars"] for p in awards["bump_cup"]["players"]} == dict(bumps)
    assert len(awards["bump_cup"]["tables"]) == 8 * 4
    assert all(t["dollars"] == 6 for t in awards["bump_cup"]["tables"])
    low = min(expected.values())
    assert awards["low_score"]["total"] == low
    assert {e["id"] for e in awards["low_score"]["entrants"]} == \
        {p for p, v in expected.items() if v == low}
    assert awards["high_game"]["points"] == 9


def test_the_organizer_records_a_tiebreak_for_players_level_on_points_and_games(api):
    event = api.create_event("wec-singles")
    key = event["organizer_key"]
    players = api.add_players(event, [f"P{n}" for n in range(1, 13)])
    round_ = api.seat_round(event, 1)
    for t in round_["tables"]:
        play_sheet(api, key, t["games"][0]["id"], SCRIPT)
    rows = api.leaderboard(event)["rows"]
    winners = [r for r in rows if r["place"] == 1]
    assert len(winners) == 6 and all(r["shared"] for r in winners)
    order = [r["entrant_id"] for r in reversed(winners)]
    rows = api.put(f"/api/events/{event['id']}/tiebreak", key=key, json={"order": order},
                   expect=200).get_json()["rows"]
    assert [r["entrant_id"] for r in rows[:6]] == order
    assert [r["place"] for r in rows[:6]] == [1, 2, 3, 4, 5, 6]
    assert api.leaderboard(event)["recorded_order"] == order, "the console shows what it holds"
    assert len(players) == 12


def test_wec_singles_needs_a_multiple_of_four_players(api):
    event = api.create_event("wec-singles")
    api.add_players(event, [f"P{n}" for n in range(1, 15)])
    refused = api.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                       json={"number": 1}, expect=409).get_json()
    assert "14" in refused["detail"] and "2" in refused["detail"]


def test_an_implausible_game_sheet_is_refused_and_nothing_changes(api):
    event = api.create_event("wec-singles")
    key = event["organizer_key"]
    api.add_players(event, [f"P{n}" for n in range(1, 13)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    before = api.game(game)
    refused = api.put(f"/api/games/{game}/sheet", key=key, json={
        "points": {"A": 60, "B": 0}}, expect=422).get_json()
    assert "cannot come out of 12 hands" in refused["detail"]
    assert api.game(game) == before


def test_an_eight_team_wec_doubles_keeps_game_one_winners_at_home(api):
    event = api.create_event("wec-doubles", name="New Glarus doubles")
    key = event["organizer_key"]
    teams = [api.add_team(event, f"Team {n}", [f"T{n} a", f"T{n} b"]) for n in range(1, 9)]
    expected = defaultdict(int)
    home = {}
    met = defaultdict(set)
    for number in range(1, 9):
        round_ = api.seat_round(event, number)
        for t in round_["tables"]:
            a, b = t["team_a"]["id"], t["team_b"]["id"]
            if number == 1:
                home[t["table"]] = a  # side A wins every game in this script
            else:
                assert home[t["table"]] == a, "game-1 winners keep their table and seats"
            met[a].add(b)
            play_sheet(api, key, t["games"][0]["id"], SCRIPT)
            expected[a] += 9
            expected[b] += 8
        api.close_round(event, round_["id"])
    visitors = {t["id"] for t in teams} - set(home.values())
    for team in home.values():
        assert met[team] == visitors, "with 4 tables each home team meets every visitor"
    board = api.leaderboard(event)
    assert {r["entrant_id"]: r["total"] for r in board["rows"]} == dict(expected)
    assert [r["total"] for r in board["rows"][:4]] == [72] * 4
    assert all(r["shared"] and r["place"] == 1 for r in board["rows"][:4])
    awards = api.get(f"/api/events/{event['id']}/awards", expect=200).get_json()
    assert awards["bump_cup"]["total"] == 8 * 4 * 6
    assert len(awards["bump_cup"]["players"]) == 16


def test_a_wec_singles_scoresheet_lists_the_games_still_to_come_from_the_fixed_schedule(api):
    event = api.create_event("wec-singles", name="Schedule night")
    players = api.add_players(event, [f"P{i}" for i in range(1, 13)])
    round_ = api.seat_round(event, 1)
    me = players[0]
    sheet = api.get(f"/api/events/{event['id']}/players/{me['id']}/scoresheet",
                    expect=200).get_json()
    assert [r["round"] for r in sheet["rounds"]] == [1]
    assert sheet["rounds"][0]["finished"] is False
    assert [u["round"] for u in sheet["upcoming"]] == list(range(2, 9))
    partners = {sheet["rounds"][0]["partner"]} | {u["partner"] for u in sheet["upcoming"]}
    assert len(partners) == 8, "a new partner every game"
    # Game 2 seated: the sheet's plan for it was where the player sits.
    planned = sheet["upcoming"][0]
    for table in round_["tables"]:
        play_sheet(api, event["organizer_key"], table["games"][0]["id"],
                   fixed_hands_game(7, 5, 12))
    api.close_round(event, round_["id"])
    second = api.seat_round(event, 2)
    table = next(t for t in second["tables"] if t["table"] == planned["table"])
    assert any(s["player_id"] == me["id"] and s["seat"] == planned["seat"] for s in table["seats"])
    sheet = api.get(f"/api/events/{event['id']}/players/{me['id']}/scoresheet",
                    expect=200).get_json()
    assert sheet["rounds"][0]["finished"] is True
    assert [u["round"] for u in sheet["upcoming"]] == list(range(3, 9))

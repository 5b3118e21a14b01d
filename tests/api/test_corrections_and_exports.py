"""Fixing mistakes, the clock, the field changing between rounds, and the CSV exports."""

from __future__ import annotations

import csv
import io

import pytest

from .client import play, signer
from .scripts import fixed_hands_game


@pytest.fixture
def progressive(api):
    event = api.create_event("progressive", name="Fix-it night")
    players = api.add_players(event, ["=HYPERLINK(\"x\")", "Bob", "Carol", "Dave", "Eve",
                                      "Frank", "Gina", "Hal"])
    round_ = api.seat_round(event, 1)
    return {"event": event, "key": event["organizer_key"], "round": round_,
            "players": players, "game": round_["tables"][0]["games"][0]["id"]}


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


def test_calling_time_ends_games_and_a_level_one_is_settled_by_a_card_draw(api, progressive):
    key = progressive["key"]
    tables = progressive["round"]["tables"]
    play(api, key, tables[0]["games"][0]["id"], fixed_hands_game(3, 3, 4))
    play(api, key, tables[1]["games"][0]["id"], fixed_hands_game(4, 1, 5))
    round_id = progressive["round"]["id"]
    called = api.post(f"/api/rounds/{round_id}/time", key=key, expect=200).get_json()
    assert called["time_called"]
    level = api.game(tables[0]["games"][0]["id"])
    assert level["over"] and level["end"] == "time" and level["needs_settlement"]
    refused = api.post(f"/api/games/{level['id']}/hands", key=key,
                       json={"id": "after-time", "maker": "A", "tricks": 3})
    assert refused.status_code == 409 and "time was called" in refused.get_json()["detail"]
    blocked = api.post(f"/api/rounds/{round_id}/close", key=key, expect=409).get_json()
    assert "card draw" in blocked["detail"]
    settled = api.post(f"/api/games/{level['id']}/settlement", key=key,
                       json={"method": "card-draw", "winner": "B"}, expect=200).get_json()
    assert settled["winner"] == "B" and settled["points"] == {"A": 3, "B": 3}
    assert settled["tie"] == {"method": "card-draw", "winner": "B"}
    closed = api.close_round(progressive["event"], round_id)
    assert closed["status"] == "closed"
    nxt = api.seat_round(progressive["event"], 2)
    winners = {s["player_id"] for s in tables[0]["seats"] if s["seat"] in (2, 4)}
    assert winners <= {s["player_id"] for s in nxt["tables"][0]["seats"]}


def test_the_round_clock_counts_down_from_the_preset_minutes(api, progressive):
    clock = progressive["round"]["clock"]
    assert clock["minutes"] == 25 and 0 < clock["seconds_left"] <= 25 * 60
    restarted = api.post(f"/api/rounds/{progressive['round']['id']}/clock",
                         key=progressive["key"], json={"minutes": 10}, expect=200).get_json()
    assert restarted["clock"]["minutes"] == 10
    assert restarted["clock"]["seconds_left"] <= 600
    board = api.leaderboard(progressive["event"])
    assert board["current_round"]["clock"]["minutes"] == 10


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


def _csv(response) -> list[dict]:
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff"), "a byte-order mark, so spreadsheets read UTF-8"
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def test_the_exports_are_utf8_csv_with_headers_and_no_formulas(api, progressive):
    key, event = progressive["key"], progressive["event"]
    for t in progressive["round"]["tables"]:
        play(api, key, t["games"][0]["id"], fixed_hands_game(6, 2, 8))
    base = f"/api/events/{event['id']}/export"
    hands = api.get(f"{base}/hands.csv", key=key, expect=200)
    assert hands.mimetype == "text/csv"
    assert 'filename="fix-it-night-hands.csv"' in hands.headers["Content-Disposition"]
    rows = _csv(hands)
    assert len(rows) == 16 and rows[0]["round"] == "1" and rows[0]["hand"] == "1"
    made = next(r for r in rows if r["maker_side"] == "A" and r["tricks"] == "3")
    makers = made["makers"].removeprefix("'")  # a formula-looking name starts with ' here
    assert made["outcome"].removeprefix("'") == f"{makers} made it: {makers} +1", \
        "the table's names, not side letters"
    games = _csv(api.get(f"{base}/games.csv", key=key, expect=200))
    assert [(g["points_a"], g["points_b"], g["winner"]) for g in games] == [("6", "2", "A")] * 2
    standings = _csv(api.get(f"{base}/standings.csv", key=key, expect=200))
    assert len(standings) == 8 and set(standings[0]) >= {"place", "name", "total", "round_1"}
    names = {r["name"] for r in standings}
    assert "'=HYPERLINK(\"x\")" in names, "a formula-looking name is neutralised"
    sheets = _csv(api.get(f"{base}/scoresheets.csv", key=key, expect=200))
    assert len(sheets) == 8 and all(r["round"] == "1" for r in sheets)
    assert api.get(f"{base}/standings.csv").status_code == 401
    assert api.get(f"{base}/secrets.csv", key=key).status_code == 404


def test_every_players_scoresheet_is_readable_for_printing(api, progressive):
    sheets = api.get(f"/api/events/{progressive['event']['id']}/scoresheets",
                     expect=200).get_json()
    assert len(sheets) == 8
    assert all(len(s["rounds"]) == 1 and s["rounds"][0]["table"] in (1, 2) for s in sheets)

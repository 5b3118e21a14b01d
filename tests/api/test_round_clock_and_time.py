"""The round clock and calling time: the clock counts down from the format's minutes and can be
restarted; calling time ends the round's games (a level one is settled by a card draw), and a
format without a time limit says why time cannot be called."""

from __future__ import annotations

from .client import play, play_sheet
from .scripts import fixed_hands_game


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


def test_calling_time_in_a_league_of_eight_hand_games_names_the_hands(api):
    event, key, _ = api.league(hands_per_game=8)
    assert event["format"]["parameters"]["target_points"] is None
    round_ = api.seat_round(event, 1)
    refused = api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=409).get_json()
    assert refused["code"] == "no-time-limit"
    assert "None" not in refused["detail"]
    assert "8 hands" in refused["detail"]


def test_calling_time_in_the_league_preset_names_the_target(api):
    event, key, _ = api.league()
    round_ = api.seat_round(event, 1)
    refused = api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=409).get_json()
    assert "10 points" in refused["detail"]


def test_a_round_out_of_turn_or_no_longer_playing_is_refused_and_closing_twice_is_one_close(
        api, progressive):
    event, key, round_ = progressive["event"], progressive["key"], progressive["round"]
    for table in round_["tables"]:
        play_sheet(api, key, table["games"][0]["id"], fixed_hands_game(6, 2, 8))
    closed = api.close_round(event, round_["id"])
    problem = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 5},
                       expect=409).get_json()
    assert "The next round is round 2, not 5" in problem["detail"]
    again = api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=200).get_json()
    assert again["status"] == closed["status"] == "closed"
    for action in ("time", "clock"):
        problem = api.post(f"/api/rounds/{round_['id']}/{action}", key=key,
                           expect=409).get_json()
        assert problem["code"] == "round-not-playing", action
    api.seat_round(event, 2)
    problem = api.post(f"/api/rounds/{round_['id']}/reopen", key=key, expect=409).get_json()
    assert "Round 2 is already seated" in problem["detail"]

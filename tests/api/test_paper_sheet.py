"""A game entered from its paper sheet (POST /api/games/{id}/paper-sheet): all its hands in one
request, stored whole or not at all, a mistake reported on its row, a retry stored once."""

from __future__ import annotations

import uuid

import pytest

# Loner Seekers' eight hands as a paper sheet has them: A makes, B marches, A is euchred, B
# goes alone and marches, A makes, A makes, B makes, A marches. A: 1+1+1+2 = 5; B: 2+2+4+1 = 9.
EIGHT = [{"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 5},
         {"maker": "A", "tricks": 1}, {"maker": "B", "tricks": 5, "alone": True},
         {"maker": "A", "tricks": 4}, {"maker": "A", "tricks": 3},
         {"maker": "B", "tricks": 3}, {"maker": "A", "tricks": 5}]


def _sheet(hands=EIGHT, sheet_id=None):
    return {"id": sheet_id or f"sheet-{uuid.uuid4().hex[:10]}", "hands": [dict(h) for h in hands]}


def _send(api, key, game_id, body, expect):
    return api.post(f"/api/games/{game_id}/paper-sheet", key=key, json=body, expect=expect)


def _revision(api, event):
    return api.get(f"/api/events/{event['id']}/leaderboard", expect=200).headers["ETag"]


def test_a_sheet_stores_every_hand_at_once_and_a_retry_is_not_doubled(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    body = _sheet()
    game = _send(api, key, game_id, body, 201).get_json()
    assert game["points"] == {"A": 5, "B": 9}
    assert game["hands_played"] == 8 and game["over"] and game["winner"] == "B"
    assert [h["id"] for h in game["hands"]] == [f"{body['id']}.{n}" for n in range(1, 9)]
    assert [h["number"] for h in game["hands"]] == list(range(1, 9))
    assert game["hands"][3]["result"] == "loner-march"
    etag = _revision(api, progressive["event"])

    again = _send(api, key, game_id, body, 200).get_json()
    assert again == game, "the same sheet again is answered as stored"
    assert _revision(api, progressive["event"]) == etag, "a retry changes nothing"
    assert api.game(game_id)["hands_played"] == 8
    board = api.leaderboard(progressive["event"])
    assert sorted(r["total"] for r in board["rows"])[-2:] == [9, 9]


def test_a_mistake_in_row_5_names_row_5_and_stores_nothing(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    etag = _revision(api, progressive["event"])
    hands = [dict(h) for h in EIGHT]
    hands[4] = {"maker": "A", "tricks": 6}
    refused = _send(api, key, game_id, _sheet(hands), 422)
    problem = refused.get_json()
    assert refused.mimetype == "application/problem+json"
    assert list(problem["errors"]["hands"]) == ["4"]
    assert "Row 5" in problem["detail"] and "6 tricks" in problem["detail"]
    assert api.game(game_id)["hands_played"] == 0
    assert _revision(api, progressive["event"]) == etag, "nothing stored, nothing bumped"

    # A row the schema refuses is named by its row as well.
    hands[4] = {"maker": "C", "tricks": 3}
    problem = _send(api, key, game_id, _sheet(hands), 422).get_json()
    assert list(problem["errors"]["hands"]) == ["4"]
    assert "maker" in problem["errors"]["hands"]["4"]


def test_hands_after_the_game_ended_are_refused_on_their_rows(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    problem = _send(api, key, game_id, _sheet(EIGHT + [{"maker": "A", "tricks": 3}]),
                    422).get_json()
    assert list(problem["errors"]["hands"]) == ["8"]
    assert "ended at row 8" in problem["errors"]["hands"]["8"][0]
    assert api.game(game_id)["hands_played"] == 0

    _send(api, key, game_id, _sheet(), 201)
    ended = _send(api, key, game_id, _sheet([{"maker": "A", "tricks": 3}]), 409).get_json()
    assert ended["code"] == "game-over" and list(ended["errors"]["hands"]) == ["0"]
    assert api.game(game_id)["hands_played"] == 8


def test_a_game_to_ten_ends_at_its_row_and_a_row_past_it_is_refused(api):
    event, key, _ = api.league()
    round_ = api.seat_round(event, 1)
    game_id = round_["tables"][0]["games"][0]["id"]
    five_marches = [{"maker": "A", "tricks": 5}] * 5
    problem = _send(api, key, game_id, _sheet(five_marches + [{"maker": "B", "tricks": 3}]),
                    422).get_json()
    assert list(problem["errors"]["hands"]) == ["5"]
    assert "ended at row 5" in problem["errors"]["hands"]["5"][0]
    game = _send(api, key, game_id, _sheet(five_marches), 201).get_json()
    assert game["points"] == {"A": 10, "B": 0} and game["winner"] == "A"


def test_a_sheet_carries_a_renege_and_a_loner_seat(api):
    event = api.create_event("wec-singles")
    api.add_players(event, [f"P{n}" for n in range(1, 13)])
    round_ = api.seat_round(event, 1)
    key = event["organizer_key"]
    game_id = round_["tables"][0]["games"][0]["id"]
    hands = [{"maker": "A", "tricks": 3, "renege": {"by": "B", "upheld": True}},
             {"maker": "B", "tricks": 1, "alone": True, "loner_seat": 2},
             {"maker": "A", "tricks": 4}] + [{"maker": "B", "tricks": 3}] * 9
    game = _send(api, key, game_id, _sheet(hands), 201).get_json()
    assert [h["result"] for h in game["hands"][:3]] == ["renege", "euchred", "made"]
    assert game["points"] == {"A": 5, "B": 9}
    assert game["bumps"] == {"2": 3, "4": 1}
    assert game["hands_played"] == 12 and game["over"]


def test_a_runner_key_of_another_table_is_refused_and_its_own_table_may(api, progressive):
    event = progressive["event"]
    key = progressive["key"]
    tables = progressive["round"]["tables"]
    table1 = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    other = tables[1]["games"][0]["id"]
    problem = _send(api, table1, other, _sheet(), 403).get_json()
    assert problem["status"] == 403
    assert api.game(other)["hands_played"] == 0
    assert _send(api, table1, tables[0]["games"][0]["id"], _sheet(), 201).get_json()["over"]
    _send(api, None, other, _sheet(), 401)


def test_a_sheet_follows_hands_already_entered_and_the_same_ids_again_are_refused(
        api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    api.hand(key, game_id, "A", 3)
    body = _sheet(EIGHT[1:])
    game = _send(api, key, game_id, body, 201).get_json()
    assert game["hands_played"] == 8 and game["points"] == {"A": 5, "B": 9}
    # The same ids with other hands: a 409 on the rows, nothing changed.
    changed = {"id": body["id"], "hands": [{**h, "tricks": 4} for h in body["hands"]]}
    problem = _send(api, key, game_id, changed, 409).get_json()
    assert problem["code"] == "id-conflict" and "0" in problem["errors"]["hands"]


@pytest.mark.parametrize("body", [
    {"id": "s", "hands": []},
    {"id": "bad id", "hands": [{"maker": "A", "tricks": 3}]},
    {"id": "s", "hands": [{"maker": "A", "tricks": 3}] * 41},
    {"id": "s", "hands": [{"id": "x", "maker": "A", "tricks": 3},
                          {"id": "x", "maker": "B", "tricks": 3}]},
    {"hands": [{"maker": "A", "tricks": 3}]},
    {"id": "s", "hands": [{"maker": "A", "tricks": 3.5}]},
])
def test_bad_sheets_are_refused_with_a_4xx_and_nothing_stored(api, progressive, body):
    key, game_id = progressive["key"], progressive["game"]
    problem = _send(api, key, game_id, body, 422).get_json()
    assert problem["detail"]
    assert api.game(game_id)["hands_played"] == 0


def test_a_sheet_after_time_was_called_counts_the_hands_played_before_it(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    api.post(f"/api/rounds/{progressive['round']['id']}/time", key=key, expect=200)
    game = _send(api, key, game_id, _sheet(EIGHT[:6]), 201).get_json()
    assert game["hands_played"] == 6 and game["end"] == "time"
    assert game["points"] == {"A": 3, "B": 8}


# --- a sheet is the whole game: short, shifted and level sheets (issue 26) ----------------------

def test_a_short_sheet_is_refused_with_what_is_missing_and_nothing_stored(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    etag = _revision(api, progressive["event"])
    # Seven rows for an eight-hand game: a hand left out (or a row lost and the rest moved up).
    refused = _send(api, key, game_id, _sheet(EIGHT[:7]), 422)
    problem = refused.get_json()
    assert refused.mimetype == "application/problem+json"
    assert problem["code"] == "sheet-short"
    assert "The sheet has 7 hands, but the game at table 1 has 8: 1 is missing" in \
        problem["detail"]
    assert "Nothing was stored" in problem["detail"] and "calls time" in problem["detail"]
    game = api.game(game_id)
    assert game["hands_played"] == 0 and not game["over"]
    assert _revision(api, progressive["event"]) == etag, "nothing stored, nothing bumped"
    # The whole sheet is then taken.
    assert _send(api, key, game_id, _sheet(), 201).get_json()["over"]


def test_a_short_sheet_after_hands_already_entered_counts_them(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    api.hand(key, game_id, "A", 3)
    problem = _send(api, key, game_id, _sheet(EIGHT[1:7]), 422).get_json()
    assert problem["code"] == "sheet-short" and "6 hands" in problem["detail"]
    assert "1 is missing" in problem["detail"]
    assert api.game(game_id)["hands_played"] == 1


def test_a_bad_tricks_digit_is_refused_on_its_row_and_the_rows_do_not_move(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    hands = [dict(h) for h in EIGHT]
    hands[2] = {"maker": "A", "tricks": 7}  # a typo of 1: the row stays row 3
    problem = _send(api, key, game_id, _sheet(hands), 422).get_json()
    assert list(problem["errors"]["hands"]) == ["2"]
    assert problem["detail"].startswith("Nothing was stored. Row 3:")
    assert "7 tricks" in problem["detail"]
    assert api.game(game_id)["hands_played"] == 0


def test_a_short_sheet_in_a_game_to_ten_says_nobody_reached_ten(api):
    event, key, _ = api.league()
    round_ = api.seat_round(event, 1)
    game_id = round_["tables"][0]["games"][0]["id"]
    problem = _send(api, key, game_id, _sheet([{"maker": "A", "tricks": 5}] * 3),
                    422).get_json()
    assert problem["code"] == "sheet-short"
    assert "no side reached 10 (6-0)" in problem["detail"]


def _wec_game(api):
    event = api.create_event("wec-singles")
    api.add_players(event, [f"P{n}" for n in range(1, 13)])
    round_ = api.seat_round(event, 1)
    return event, round_, event["organizer_key"], round_["tables"][0]["games"][0]["id"]


def test_a_level_wec_sheet_says_it_needs_its_playoff_and_the_playoff_is_taken_with_it(api):
    event, round_, key, game_id = _wec_game(api)
    level = api.put(f"/api/games/{game_id}/sheet", key=key,
                    json={"points": {"A": 8, "B": 8}}, expect=200).get_json()
    assert level["level"] and level["needs_settlement"] and level["winner"] is None
    assert level["attention"] == ("The game at table 1 is level, 8-8: record who won the "
                                  "playoff hand or the card draw, or the round cannot close.")

    # Another table's level sheet with its card draw, in one request.
    other = round_["tables"][1]["games"][0]["id"]
    settled = api.put(f"/api/games/{other}/sheet", key=key, json={
        "points": {"A": 8, "B": 8}, "tie": {"method": "card-draw", "winner": "B"}},
        expect=200).get_json()
    assert settled["points"] == {"A": 8, "B": 8} and settled["winner"] == "B"
    assert settled["tie"] == {"method": "card-draw", "winner": "B"}
    assert not settled["needs_settlement"] and settled["attention"] is None

    # A playoff on a sheet that is not level is a typo somewhere: refused, nothing stored.
    third = round_["tables"][2]["games"][0]["id"]
    problem = api.put(f"/api/games/{third}/sheet", key=key, json={
        "points": {"A": 9, "B": 7}, "tie": {"method": "playoff-hand", "winner": "B"}},
        expect=422).get_json()
    assert problem["code"] == "not-level" and "is not level (9-7)" in problem["detail"]
    assert not api.game(third)["from_sheet"]
    assert api.game(game_id)["attention"], "the first table still says what it needs"


def test_a_level_paper_sheet_takes_its_playoff_with_it(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    # 4-4 after eight hands: A makes 4 times, B makes 4 times (1 point each).
    hands = [{"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 3}] * 4
    wrong = _send(api, key, game_id, {**_sheet(hands), "tie": {"method": "card", "winner": "A"}},
                  422).get_json()
    assert "tie" in wrong["errors"]
    game = _send(api, key, game_id, {**_sheet(hands),
                                     "tie": {"method": "playoff-hand", "winner": "A"}},
                 201).get_json()
    assert game["points"] == {"A": 4, "B": 4} and game["winner"] == "A"
    assert game["tie"] == {"method": "playoff-hand", "winner": "A"} and not game["attention"]


def test_a_second_sheet_a_deleted_hands_id_or_rows_out_of_order_are_refused(api, progressive):
    key, game_id = progressive["key"], progressive["game"]
    _send(api, key, game_id, _sheet(), 201)
    problem = _send(api, key, game_id, _sheet(), 409).get_json()
    assert problem["code"] == "game-over" and "all 8 hands are played" in problem["detail"]

    other = progressive["round"]["tables"][1]["games"][0]["id"]
    hand = api.hand(key, other, "A", 3)["hands"][0]
    version = api.game(other)["version"]
    api.delete(f"/api/games/{other}/hands/{hand['id']}", key=key,
               headers={"If-Match": f'"{version}"'}, expect=200)
    problem = _send(api, key, other, {"id": "late-sheet", "hands": [
        {"id": hand["id"], "maker": "A", "tricks": 3}]}, 410).get_json()
    assert "0" in problem["errors"]["hands"] and "deleted" in problem["detail"]

    # Rows 2 and 3 entered hand by hand under the sheet's ids, then the whole sheet.
    rows = [{"id": f"r{n}-{uuid.uuid4().hex[:6]}", **h} for n, h in enumerate(EIGHT)]
    for row in rows[1:3]:
        api.post(f"/api/games/{other}/hands", key=key, json={"alone": False, **row},
                 expect=201)
    problem = _send(api, key, other, {"id": "whole", "hands": rows}, 409).get_json()
    assert problem["code"] == "id-conflict" and "not the rows before them" in problem["detail"]
    assert api.game(other)["hands_played"] == 2, "nothing more stored"

"""A WEC round entered from paper sheets under each way of checking scores: the same round
gives the same hands and the same standings, whoever confirms it."""

from __future__ import annotations

import pytest

from .scripts import fixed_hands_game
from .verification_helpers import confirm, new_id, night, read, sheet, stored_hands, totals

SCORES = [(7, 5), (4, 9), (12, 3)]  # one a table: A's points, B's points over 12 hands


def _round(api, mode: str):
    event, key, round_ = night(api, mode, preset="wec-singles", players=12)
    games = [t["games"][0]["id"] for t in round_["tables"]]
    for game, (a, b) in zip(games, SCORES, strict=True):
        rows = fixed_hands_game(a, b, 12)
        if mode == "sign_off":
            api.post(f"/api/games/{game}/paper-sheet", key=key,
                     json={"id": new_id("s"), "hands": rows}, expect=201)
        elif mode == "confirm_each_hand":
            sheet_id = new_id("s")
            waiting = sheet(api, key, game, "B", rows, sheet_id=sheet_id).get_json()
            assert waiting["hands_played"] == 0
            assert waiting["entries"][0]["kind"] == "sheet"
            assert waiting["entries"][0]["count"] == 12
            assert "The sheet (hands 1 to 12) waits for side A" in waiting["waiting_for"]
            confirm(api, key, game, sheet_id, "A")
        else:
            first = sheet(api, key, game, "A", rows).get_json()
            assert first["hands_played"] == 0 and first["waiting"] == 1
            sheet(api, key, game, "B", rows)
    api.close_round(event, round_["id"])
    return event, [read(api, g) for g in games]


@pytest.mark.parametrize("mode", ["confirm_each_hand", "double_entry"])
def test_a_wec_round_from_sheets_stores_what_sign_off_stores(api, mode):
    plain, plain_games = _round(api, "sign_off")
    checked, games = _round(api, mode)
    for game, alone, (a, b) in zip(games, plain_games, SCORES, strict=True):
        assert game["points"] == alone["points"] == {"A": a, "B": b}
        assert game["hands_played"] == 12 and game["waiting"] == 0
        assert stored_hands(game) == stored_hands(alone)
    assert totals(api, checked) == totals(api, plain)


def test_a_sheet_mismatch_names_the_rows_and_is_settled_by_taking_one_side(api):
    event, key, round_ = night(api, "double_entry", preset="wec-singles", players=12)
    game = round_["tables"][0]["games"][0]["id"]
    rows = fixed_hands_game(7, 5, 12)
    wrong = [dict(r) for r in rows]
    wrong[3] = {**wrong[3], "tricks": 4 if wrong[3]["tricks"] == 3 else 3}
    sheet(api, key, game, "A", rows)
    view = sheet(api, key, game, "B", wrong).get_json()
    (mismatch,) = view["mismatches"]
    assert mismatch["kind"] == "sheet" and mismatch["differ"] == ["hands[3].tricks"]
    assert view["hands_played"] == 0 and totals(api, event) == [0] * 12
    done = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json={"take": "A"},
                    expect=200).get_json()
    assert done["points"] == {"A": 7, "B": 5} and done["hands_played"] == 12


@pytest.mark.parametrize("mode", ["confirm_each_hand", "double_entry"])
def test_the_game_sheets_final_points_are_refused_where_hands_are_checked(api, mode):
    event, key, round_ = night(api, mode, preset="wec-singles", players=12)
    game = round_["tables"][0]["games"][0]["id"]
    refused = api.put(f"/api/games/{game}/sheet", key=key,
                      json={"points": {"A": 9, "B": 7}}, expect=409)
    assert refused.get_json()["code"] == "sheet-needs-hands"
    assert read(api, game)["hands_played"] == 0 and not read(api, game)["from_sheet"]


def test_a_sheet_with_a_mistake_is_refused_on_its_row_and_not_kept(api):
    event, key, round_ = night(api, "double_entry", preset="wec-singles", players=12)
    game = round_["tables"][0]["games"][0]["id"]
    rows = fixed_hands_game(7, 5, 12)
    rows[4] = {"maker": "A", "tricks": 6}
    refused = sheet(api, key, game, "A", rows, expect=422).get_json()
    assert list(refused["errors"]["hands"]) == ["4"] and "Row 5" in refused["detail"]
    assert read(api, game, key=key)["waiting"] == 0

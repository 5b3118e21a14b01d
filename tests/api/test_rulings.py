"""The organizer's rulings on a game (RULES.md §7): points to a side, a forfeit, a protest
upheld or rejected, each with its reason. A ruling is part of the result: the game's points
and winner, its match, the standings and leaderboard, the scoresheet and every export; it is
audited, listed, and can be withdrawn (with a reason), which undoes it."""

from __future__ import annotations

import csv
import io

from .scripts import played_round


def _night(api):
    """A progressive night of 8, round 1 played out 6-2 at both tables (not closed)."""
    event, key, _round, games = played_round(api, "Ruling night", close=False)
    return event, key, games


def _totals(api, event) -> dict[str, int]:
    return {r["name"]: r["total"] for r in api.leaderboard(event)["rows"]}


def _side_names(game: dict, side: str) -> list[str]:
    return [p["name"] for p in game["sides"][side]["players"]]


def _csv(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def test_an_adjustment_counts_everywhere_the_points_are_read_and_is_withdrawn(api):
    event, key, (game, other) = _night(api)
    state = api.game(game)
    b_players = _side_names(state, "B")
    before = _totals(api, event)
    ruled = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "adjust", "side": "B", "points": 3, "reason": "A renege seen by the desk"}
    ).get_json()
    assert ruled["kind"] == "adjust" and ruled["points"] == 3 and not ruled["withdrawn"]
    assert ruled["game"]["points"] == {"A": 6, "B": 5} and ruled["game"]["winner"] == "A"
    assert ruled["game"]["ruled"] and [r["id"] for r in ruled["game"]["rulings"]] == [
        ruled["id"]]
    after = _totals(api, event)
    assert {n: after[n] - before[n] for n in after if after[n] != before[n]} == {
        n: 3 for n in b_players}, "the leaderboard counts the adjusted points"

    # Points taken away can turn the result: the side with more points once adjusted wins.
    turned = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "adjust", "side": "A", "points": -2, "reason": "Slow play, warned twice"}
    ).get_json()["game"]
    assert turned["points"] == {"A": 4, "B": 5} and turned["winner"] == "B"
    assert turned["match"]["winner"] == "B"

    listed = api.get(f"/api/games/{game}/rulings", expect=200).get_json()
    assert [(r["kind"], r["side"], r["points"]) for r in listed] == [
        ("adjust", "B", 3), ("adjust", "A", -2)]
    sheets = api.get(f"/api/events/{event['id']}/scoresheets", expect=200).get_json()
    notes = {s["name"]: s["rounds"][0]["notes"] for s in sheets}
    assert notes[b_players[0]] == ["Ruling: +3 points to side B (A renege seen by the desk)",
                                   "Ruling: -2 points to side A (Slow play, warned twice)"]
    assert all(notes[n] == [] for n in _side_names(api.game(other), "A"))
    games_csv = _csv(api.get(f"/api/events/{event['id']}/export/games.csv", key=key,
                             expect=200))
    row = games_csv[0]
    assert (row["points_a"], row["points_b"], row["winner"], row["ruled"],
            row["ruling_points_a"], row["ruling_points_b"]) == ("4", "5", "B", "yes", "-2", "3")
    assert "A renege seen by the desk" in row["rulings_and_corrections"]
    assert games_csv[1]["ruled"] == "no"
    standings = {r["name"]: r["total"] for r in _csv(api.get(
        f"/api/events/{event['id']}/export/standings.csv", key=key, expect=200))}
    assert standings[b_players[0]] == "5"
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert [e["action"] for e in log[:2]] == ["ruling", "ruling"]
    assert log[0]["after"]["ruling"]["reason"] == "Slow play, warned twice"

    withdrawn = api.delete(f"/api/games/{game}/rulings/{listed[1]['id']}", key=key,
                           json={"reason": "Warning was for another table"},
                           expect=200).get_json()
    assert withdrawn["withdrawn"] and withdrawn["withdrawn_reason"] == \
        "Warning was for another table"
    assert withdrawn["game"]["points"] == {"A": 6, "B": 5}
    assert withdrawn["game"]["winner"] == "A"
    assert [r["withdrawn"] for r in api.get(f"/api/games/{game}/rulings",
                                            expect=200).get_json()] == [False, True]
    api.delete(f"/api/games/{game}/rulings/{listed[0]['id']}", key=key,
               json={"reason": "Renege not proven"}, expect=200)
    plain = api.game(game)
    assert plain["points"] == {"A": 6, "B": 2} and not plain["ruled"] and plain["rulings"] == []
    assert _totals(api, event) == before
    assert api.get(f"/api/events/{event['id']}/audit", key=key,
                   expect=200).get_json()[0]["action"] == "withdraw-ruling"


def test_a_forfeit_ruling_gives_the_game_to_the_other_side(api):
    event, key, (game, _other) = _night(api)
    forfeited = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "forfeit", "side": "A", "reason": "Played with a phone out"}).get_json()["game"]
    assert forfeited["forfeited_by"] == "A" and forfeited["winner"] == "B"
    assert forfeited["end"] == "forfeit" and forfeited["ruled"]
    twice = api.post(f"/api/games/{game}/rulings", key=key, json={
        "kind": "forfeit", "side": "B", "reason": "Both sides"})
    assert twice.status_code == 409 and twice.get_json()["code"] == "already-forfeited"
    assert api.game(game)["version"] == forfeited["version"], "nothing half-stored"
    ruling = forfeited["rulings"][0]["id"]
    back = api.delete(f"/api/games/{game}/rulings/{ruling}", key=key,
                      json={"reason": "Misunderstanding"}, expect=200).get_json()["game"]
    assert back["forfeited_by"] is None and back["points"] == {"A": 6, "B": 2}
    again = api.delete(f"/api/games/{game}/rulings/{ruling}", key=key,
                       json={"reason": "Twice"})
    assert again.status_code == 409 and again.get_json()["code"] == "ruling-withdrawn"


def test_a_ruling_needs_the_organizer_a_reason_and_a_body_that_makes_sense(api):
    event, key, (game, _other) = _night(api)
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    version = api.game(game)["version"]
    good = {"kind": "adjust", "side": "A", "points": 2, "reason": "Desk decision"}
    assert api.post(f"/api/games/{game}/rulings", key=runner, json=good).status_code == 403
    assert api.post(f"/api/games/{game}/rulings", json=good).status_code == 401
    for body, status, field in (
            ({**good, "reason": ""}, 422, "reason"),
            ({k: v for k, v in good.items() if k != "reason"}, 422, "reason"),
            ({**good, "kind": "bribe"}, 422, "kind"),
            ({**good, "side": None}, 422, "side"),
            ({**good, "points": 0}, 422, "points"),
            ({**good, "points": 101}, 422, "points"),
            ({"kind": "forfeit", "side": "A", "points": 2, "reason": "x"}, 422, "points"),
            ({"kind": "protest_upheld", "reason": "x"}, 422, "side")):
        refused = api.post(f"/api/games/{game}/rulings", key=key, json=body)
        assert refused.status_code == status, (body, refused.get_json())
        assert refused.mimetype == "application/problem+json"
        assert field in (refused.get_json().get("errors") or {}), refused.get_json()
    assert api.game(game)["version"] == version and not api.game(game)["ruled"]
    assert api.get(f"/api/games/{game}/rulings", expect=200).get_json() == []
    assert api.post("/api/games/999999/rulings", key=key, json=good).status_code == 404
    assert api.delete(f"/api/games/{game}/rulings/424242", key=key,
                      json={"reason": "x"}).status_code == 404
    rejected = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "protest_rejected", "reason": "Player was registered"}).get_json()
    assert rejected["game"]["ruled"] and rejected["game"]["points"] == {"A": 6, "B": 2}


def test_once_the_next_round_is_seated_a_ruling_cannot_change_who_won(api):
    event, key, (game, other) = _night(api)
    round_id = api.game(game)["round"]["id"]
    api.post(f"/api/rounds/{round_id}/close", key=key, expect=200)
    api.seat_round(event, 2)
    state = api.game(game)
    refused = api.post(f"/api/games/{game}/rulings", key=key, json={
        "kind": "forfeit", "side": "A", "reason": "Too late to change the seating"})
    assert refused.status_code == 409 and refused.get_json()["code"] == "winner-used"
    assert api.game(game) == state and api.get(f"/api/games/{game}/rulings",
                                               expect=200).get_json() == []
    # Points that keep the winner are fine, in the closed round and after its window.
    kept = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "adjust", "side": "B", "points": 1, "reason": "A renege seen late"}
    ).get_json()["game"]
    assert kept["points"] == {"A": 6, "B": 3} and kept["winner"] == "A"


def test_each_kind_of_ruling_reads_as_a_sentence_on_the_scoresheet():
    from api.core.models import Ruling
    from api.games.result_notes import ruling_words

    def words(kind, **more):
        return ruling_words(Ruling(kind=kind, reason="Table 3's call", **more))

    assert words("adjust", points=-1, side="B") == \
        "Ruling: -1 point to side B (Table 3's call)"
    assert words("adjust", points=2, side="A") == "Ruling: +2 points to side A (Table 3's call)"
    assert words("forfeit", side="A") == "Ruling: side A forfeits (Table 3's call)"
    assert words("protest_upheld", side="B") == \
        "Ruling: protest upheld, side B forfeits (Table 3's call)"
    assert words("protest_rejected") == \
        "Ruling: protest rejected, the result stands (Table 3's call)"

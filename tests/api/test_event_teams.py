"""A whole fixed-team tournament over HTTP: 8 teams, 3 rounds, a tie at the cut, the final."""

from __future__ import annotations

from .client import play_sheet, signer
from .scripts import fixed_hands_game

# Points each team scores in rounds 1-3, whoever it meets; equal values make a level game.
PLAN = {
    "Aces": (13, 13, 13),  # 39: clear first
    "Bowers": (12, 11, 10),  # 33 } level at the cut:
    "Clubs": (11, 12, 10),  # 33 } a two-team playoff for the second spot
    "Diamonds": (10, 10, 12),  # 32
    "Euchres": (9, 9, 9),  # 27
    "Farmers": (8, 8, 8),  # 24
    "Giants": (7, 7, 7),  # 21
    "Hearts": (6, 6, 6),  # 18
}
PLAYERS = {name: [f"{name} one", f"{name} two"] for name in PLAN}


def _finish(api, key, game_id, points_a, points_b, hands, settle_winner="A"):
    state = play_sheet(api, key, game_id, fixed_hands_game(points_a, points_b, hands))
    if state["level"]:
        assert state["needs_settlement"] and state["winner"] is None
        state = api.post(f"/api/games/{game_id}/settlement", key=key,
                         json={"method": "playoff-hand", "winner": settle_winner},
                         expect=200).get_json()
        assert state["points"] == {"A": points_a, "B": points_b}, "the points stay level"
    return api.post(f"/api/games/{game_id}/sign-off", key=key,
                    json={"by": signer(state)},
                    expect=200).get_json()


def test_an_eight_team_tournament_settles_a_tie_at_the_cut_and_plays_the_final(api):
    event = api.create_event("teams", name="NMU teams")
    key = event["organizer_key"]
    teams = {name: api.add_team(event, name, PLAYERS[name]) for name in PLAN}
    name_of = {t["id"]: name for name, t in teams.items()}
    previous = None
    for number in (1, 2, 3):
        round_ = api.seat_round(event, number)
        assert len(round_["tables"]) == 4
        placed = sorted(x for t in round_["tables"] for x in (t["team_a"]["id"],
                                                               t["team_b"]["id"]))
        assert placed == sorted(t["id"] for t in teams.values())
        if previous:
            for t in previous:
                winner = t["winner_team"]
                here = next(n for n in round_["tables"] if winner in (n["team_a"]["id"],
                                                                      n["team_b"]["id"]))
                assert here["table"] == t["table"], "the winning team stays at its table"
        for t in round_["tables"]:
            a, b = PLAN[name_of[t["team_a"]["id"]]][number - 1], \
                PLAN[name_of[t["team_b"]["id"]]][number - 1]
            game = t["games"][0]["id"]
            unsigned = api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=409)
            assert "still being played" in unsigned.get_json()["detail"]
            state = _finish(api, key, game, a, b, 12)
            t["winner_team"] = t["team_a"]["id"] if state["winner"] == "A" else \
                t["team_b"]["id"]
        api.close_round(event, round_["id"])
        previous = round_["tables"]

    board = api.leaderboard(event)
    totals = {row["name"]: row["total"] for row in board["rows"]}
    assert totals == {name: sum(points) for name, points in PLAN.items()}
    cut = board["championship"]
    assert [q["name"] for q in cut["qualified"]] == ["Aces"]
    assert sorted(c["name"] for c in cut["contenders"]) == ["Bowers", "Clubs"]
    assert cut["playoff"] == "two-team" and cut["spots"] == 1

    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key, expect=200).get_json()
    assert preview["stage"] == "cut-playoff" and len(preview["tables"]) == 1
    playoff = api.seat_round(event, 4)
    table = playoff["tables"][0]
    game = table["games"][0]["id"]
    assert api.game(game)["format"]["hands_per_game"] == 4
    # Level after 4 hands (2-2): the sudden-death hand is recorded as the settlement.
    clubs_side = "A" if table["team_a"]["name"] == "Clubs" else "B"
    _finish(api, key, game, 2, 2, 4, settle_winner=clubs_side)
    api.close_round(event, playoff["id"])

    cut = api.leaderboard(event)["championship"]
    assert sorted(q["name"] for q in cut["qualified"]) == ["Aces", "Clubs"]
    assert cut["contenders"] == []
    final = api.seat_round(event, 5)
    assert final["stage"] == "championship" and final["label"] == "Championship"
    table = final["tables"][0]
    assert {table["team_a"]["name"], table["team_b"]["name"]} == {"Aces", "Clubs"}
    clubs_a = table["team_a"]["name"] == "Clubs"
    game = table["games"][0]["id"]
    assert api.game(game)["format"]["hands_per_game"] == 12
    _finish(api, key, game, *((9, 7) if clubs_a else (7, 9)), 12)
    api.close_round(event, final["id"])

    board = api.leaderboard(event)
    order = [(row["place"], row["name"], row["total"]) for row in board["rows"]]
    assert order == [(1, "Clubs", 33), (2, "Aces", 39), (3, "Bowers", 33), (4, "Diamonds", 32),
                     (5, "Euchres", 27), (6, "Farmers", 24), (7, "Giants", 21),
                     (8, "Hearts", 18)], "playoff and final points do not count in totals"
    assert board["championship"]["champion"]["name"] == "Clubs"
    done = api.post(f"/api/events/{event['id']}/rounds", key=key, json={}, expect=409)
    assert "Clubs won" in done.get_json()["detail"]


def test_an_odd_number_of_teams_cannot_be_seated(api):
    event = api.create_event("teams")
    for name in list(PLAN)[:3]:
        api.add_team(event, name, PLAYERS[name])
    refused = api.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                       json={"number": 1}, expect=409).get_json()
    assert "3 teams" in refused["detail"]

"""Three teams level at the teams format's cut play a round robin; when it leaves them level on
games won, the points scored in it decide, teams still level play again, and the API says
why each team goes through or not (RULES.md §3 `teams`)."""

from __future__ import annotations

from .test_event_teams import PLAYERS, _finish

# Round 1-3 points: Aces clear first; Bowers, Clubs and Diamonds level at 33 for one spot.
PLAN = {
    "Aces": (13, 13, 13), "Bowers": (12, 11, 10), "Clubs": (11, 12, 10),
    "Diamonds": (10, 12, 11), "Euchres": (9, 9, 9), "Farmers": (8, 8, 8),
    "Giants": (7, 7, 7), "Hearts": (6, 6, 6),
}
# The round robin: each team wins once; Bowers and Clubs 5 points each, Diamonds 4.
ROUND_ROBIN = {frozenset({"Bowers", "Clubs"}): {"Bowers": 3, "Clubs": 1},
               frozenset({"Bowers", "Diamonds"}): {"Bowers": 2, "Diamonds": 3},
               frozenset({"Clubs", "Diamonds"}): {"Clubs": 4, "Diamonds": 1}}


def test_a_round_robin_level_on_wins_goes_to_points_then_to_another_playoff(api):
    event = api.create_event("teams", name="NMU teams")
    key = event["organizer_key"]
    for name in PLAN:
        api.add_team(event, name, PLAYERS[name])
    for number in (1, 2, 3):
        round_ = api.seat_round(event, number)
        for t in round_["tables"]:
            a, b = t["team_a"]["name"], t["team_b"]["name"]
            _finish(api, key, t["games"][0]["id"], PLAN[a][number - 1], PLAN[b][number - 1], 12)
        api.close_round(event, round_["id"])
    cut = api.leaderboard(event)["championship"]
    assert cut["playoff"] == "round-robin" and cut["spots"] == 1
    why = {r["name"]: (r["status"], r["reason"]) for r in cut["reasons"]}
    assert why["Aces"] == ("through", "39 points: in the top 2")
    assert why["Bowers"][0] == why["Clubs"][0] == why["Diamonds"][0] == "level"
    assert why["Euchres"] == ("out", "27 points: below the cut (33 points)")

    for number in (4, 5, 6):
        round_ = api.seat_round(event, number)
        assert round_["stage"] == "cut-playoff" and len(round_["tables"]) == 1
        t = round_["tables"][0]
        a, b = t["team_a"]["name"], t["team_b"]["name"]
        points = ROUND_ROBIN[frozenset({a, b})]
        _finish(api, key, t["games"][0]["id"], points[a], points[b], 4)
        api.close_round(event, round_["id"])

    cut = api.leaderboard(event)["championship"]
    assert sorted(c["name"] for c in cut["contenders"]) == ["Bowers", "Clubs"]
    assert cut["playoff"] == "two-team"
    why = {r["name"]: (r["status"], r["reason"]) for r in cut["reasons"]}
    assert why["Diamonds"][0] == "out" and "out on points" in why["Diamonds"][1]
    assert why["Bowers"][0] == why["Clubs"][0] == "level"
    assert "still level" in why["Bowers"][1]

    playoff = api.seat_round(event, 7)
    t = playoff["tables"][0]
    assert {t["team_a"]["name"], t["team_b"]["name"]} == {"Bowers", "Clubs"}
    clubs_a = t["team_a"]["name"] == "Clubs"
    _finish(api, key, t["games"][0]["id"], *((3, 1) if clubs_a else (1, 3)), 4)
    api.close_round(event, playoff["id"])
    cut = api.leaderboard(event)["championship"]
    assert sorted(q["name"] for q in cut["qualified"]) == ["Aces", "Clubs"]
    why = {r["name"]: (r["status"], r["reason"]) for r in cut["reasons"]}
    assert why["Clubs"] == ("through", "won the playoff at the cut")
    assert why["Bowers"] == ("out", "lost the playoff at the cut")
    assert why["Diamonds"][0] == "out", "the round robin's verdict stands"

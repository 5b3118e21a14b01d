"""The teams format's championship cut leaves withdrawn teams out: a withdrawn team level at the
top is neither through nor a contender, and one above the cut gives its place to the next."""

from __future__ import annotations

from .client import play_sheet, signer
from .scripts import fixed_hands_game

# Points each team scores in rounds 1 and 2, whoever it meets (12-hand games: any two teams
# meeting score at least 12 between them, so every pair can be played out exactly).
ROUND_1 = {"Aces": 20, "Bowers": 14, "Clubs": 13, "Diamonds": 9, "Euchres": 8, "Farmers": 7}
ROUND_2 = {"Bowers": 6, "Clubs": 7, "Diamonds": 6, "Euchres": 6, "Farmers": 6, "Latecomers": 6}
# After round 2: Aces 20 (withdrawn), Bowers 20, Clubs 20, Diamonds 15, Euchres 14, ...


def _finish(api, key, game_id, points_a, points_b):
    state = play_sheet(api, key, game_id, fixed_hands_game(points_a, points_b, 12))
    if state["level"]:
        api.post(f"/api/games/{game_id}/settlement", key=key,
                 json={"method": "playoff-hand", "winner": "A"}, expect=200)
    # Signed off by a player of side B, the opponents of side A.
    by = signer(state)
    api.post(f"/api/games/{game_id}/sign-off", key=key, json={"by": by}, expect=200)


def _play_round(api, event, number, points):
    key = event["organizer_key"]
    round_ = api.seat_round(event, number)
    for t in round_["tables"]:
        a, b = points[t["team_a"]["name"]], points[t["team_b"]["name"]]
        _finish(api, key, t["games"][0]["id"], a, b)
    api.close_round(event, round_["id"])
    return round_


def test_a_withdrawn_team_level_at_the_top_is_left_out_of_the_cut_and_the_championship(api):
    event = api.create_event("teams", name="Two-round teams", rounds=2)
    key = event["organizer_key"]
    teams = {name: api.add_team(event, name, [f"{name} one", f"{name} two"])
             for name in ROUND_1}
    _play_round(api, event, 1, ROUND_1)
    assert api.leaderboard(event)["rows"][0]["name"] == "Aces", "Aces lead after round 1"

    api.patch(f"/api/events/{event['id']}/teams/{teams['Aces']['id']}", key=key,
              json={"withdrawn": True}, expect=200)
    api.add_team(event, "Latecomers", ["Late one", "Late two"])
    second = _play_round(api, event, 2, ROUND_2)
    seated = {n for t in second["tables"] for n in (t["team_a"]["name"], t["team_b"]["name"])}
    assert "Aces" not in seated and "Latecomers" in seated

    board = api.leaderboard(event)
    aces = next(r for r in board["rows"] if r["name"] == "Aces")
    assert aces["withdrawn"] and aces["total"] == 20, "still listed, marked withdrawn"
    level = sorted(r["name"] for r in board["rows"] if r["total"] == 20)
    assert level == ["Aces", "Bowers", "Clubs"], "three teams level at the top"

    cut = board["championship"]
    named = [t["name"] for t in cut["qualified"] + cut["contenders"]]
    assert "Aces" not in named, "a withdrawn team is neither through nor a contender"
    assert sorted(t["name"] for t in cut["qualified"]) == ["Bowers", "Clubs"]
    assert cut["contenders"] == [] and cut["playoff"] is None

    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key, expect=200).get_json()
    assert preview["stage"] == "championship", preview["label"]
    finalists = {n for t in preview["tables"] for n in (t["team_a"]["name"],
                                                        t["team_b"]["name"])}
    assert finalists == {"Bowers", "Clubs"}
    final = api.seat_round(event, 3)
    assert {final["tables"][0]["team_a"]["name"],
            final["tables"][0]["team_b"]["name"]} == {"Bowers", "Clubs"}


def test_a_team_withdrawn_at_the_cut_gives_its_place_to_the_next_team(api):
    """Aces and Bowers are clear of the field; Aces withdraw, so Clubs are through with
    Bowers and no playoff is needed."""
    event = api.create_event("teams", name="Two-round teams", rounds=2)
    key = event["organizer_key"]
    teams = {name: api.add_team(event, name, [f"{name} one", f"{name} two"])
             for name in ROUND_1}
    _play_round(api, event, 1, ROUND_1)
    api.patch(f"/api/events/{event['id']}/teams/{teams['Aces']['id']}", key=key,
              json={"withdrawn": True}, expect=200)
    api.add_team(event, "Latecomers", ["Late one", "Late two"])
    _play_round(api, event, 2, {**ROUND_2, "Bowers": 10})  # Bowers 24, Aces 20, Clubs 20
    cut = api.leaderboard(event)["championship"]
    assert [t["name"] for t in cut["qualified"]] == ["Bowers", "Clubs"]
    assert cut["contenders"] == []

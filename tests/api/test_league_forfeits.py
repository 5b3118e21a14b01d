"""League forfeits: a forfeit lists only the games it costs (a game already played stands), one
week is one offence, and a team removed from the league cannot forfeit again."""

from __future__ import annotations

from .client import play_sheet
from .scripts import to_target_game


def _forfeit(api, key, match_id, team_id, reason, minutes=None, expect=201):
    return api.post(f"/api/matches/{match_id}/forfeits", key=key, expect=expect,
                    json={"team_id": team_id, "reason": reason, "minutes_late": minutes})


def _offences(api, event, name):
    season = api.get(f"/api/events/{event['id']}/season", expect=200).get_json()
    return next(o for o in season["offences"] if o["name"] == name)


def _forfeit_audits(api, event, key):
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    return [entry["after"] for entry in log if entry["action"] == "forfeit"]


def test_a_no_show_recorded_after_game_1_was_played_forfeits_only_games_2_and_3(api):
    event, key, _ = api.league()
    t = api.seat_round(event, 1)["tables"][0]
    first = t["games"][0]["id"]
    play_sheet(api, key, first, to_target_game("B", 4))  # game 1 is played: the away team wins it
    result = _forfeit(api, key, t["match_id"], t["team_b"]["id"], "no-show").get_json()
    assert result["games"] == [2, 3], "a played game is not forfeited"
    assert result["offences"] == 1
    assert "Game 1" in result["message"] and "stands" in result["message"]

    played = api.game(first)
    assert played["winner"] == "B" and played["points"] == {"A": 4, "B": 10}, \
        "the played game keeps its result"
    for game in t["games"][1:]:
        assert api.game(game["id"])["winner"] == "A", "games 2 and 3 go to the home team"
    assert [a["games"] for a in _forfeit_audits(api, event, key)] == [[2, 3]]


def test_a_team_late_for_a_game_already_played_forfeits_nothing_and_is_not_an_offence(api):
    event, key, _ = api.league()
    t = api.seat_round(event, 1)["tables"][0]
    play_sheet(api, key, t["games"][0]["id"], to_target_game("A", 3))
    refused = _forfeit(api, key, t["match_id"], t["team_b"]["id"], "late", 10,
                       expect=409).get_json()
    assert refused["code"] == "nothing-to-forfeit"
    assert "Game 1" in refused["detail"] and "already played" in refused["detail"]
    assert _offences(api, event, "South")["offences"] == 0
    assert _forfeit_audits(api, event, key) == []


def test_a_later_forfeit_in_the_same_week_adds_only_the_games_it_costs(api):
    event, key, _ = api.league()
    t = api.seat_round(event, 1)["tables"][0]
    late = _forfeit(api, key, t["match_id"], t["team_b"]["id"], "late", 10).get_json()
    assert late["games"] == [1]
    play_sheet(api, key, t["games"][1]["id"], to_target_game("B", 6))  # they arrived for game 2
    absent = _forfeit(api, key, t["match_id"], t["team_b"]["id"], "one-player").get_json()
    assert absent["games"] == [1, 3], "game 1 forfeited earlier, game 3 now; game 2 was played"
    assert absent["offences"] == 1, "one week, one offence"
    assert api.game(t["games"][1]["id"])["winner"] == "B"
    assert [a["games"] for a in _forfeit_audits(api, event, key)] == [[3], [1]]


def test_a_forfeit_for_a_team_already_removed_from_the_league_is_refused(api):
    event, key, _ = api.league(("North", "South", "East", "West"), weeks=6)
    for week in (1, 2, 3):
        round_ = api.seat_round(event, week)
        for t in round_["tables"]:
            names = (t["team_a"]["name"], t["team_b"]["name"])
            if "West" in names:
                west = t["team_a"] if names[0] == "West" else t["team_b"]
                first = _forfeit(api, key, t["match_id"], west["id"], "no-show").get_json()
                if week == 3:  # the removing forfeit sent again (a lost answer): the same
                    again = _forfeit(api, key, t["match_id"], west["id"], "no-show")
                    assert again.get_json() == first and first["status"] == "removed"
            else:
                for game in t["games"]:
                    play_sheet(api, key, game["id"], to_target_game("A", 0))
        api.close_round(event, round_["id"])
    assert _offences(api, event, "West")["status"] == "removed"

    round_ = api.seat_round(event, 4)
    t = next(t for t in round_["tables"] if "West" in (t["team_a"]["name"],
                                                       t["team_b"]["name"]))
    west = t["team_a"] if t["team_a"]["name"] == "West" else t["team_b"]
    revision = api.get(f"/api/events/{event['id']}", expect=200).get_json()["revision"]
    refused = _forfeit(api, key, t["match_id"], west["id"], "no-show", expect=409)
    assert refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "team-removed"
    assert "West" in body["detail"] and "removed" in body["detail"]
    assert "forfeit wins for its opponents" in body["detail"]
    assert "Offence 4" not in body["detail"]
    offences = _offences(api, event, "West")
    assert offences["offences"] == 3 and offences["status"] == "removed"
    assert len(_forfeit_audits(api, event, key)) == 3
    assert api.get(f"/api/events/{event['id']}", expect=200).get_json()["revision"] == revision




def test_a_forfeit_is_refused_for_a_game_under_way_another_table_or_a_closed_week(api):
    event, key, _ = api.league(("North", "South", "East", "West"), weeks=3)
    round_ = api.seat_round(event, 1)
    here, there = round_["tables"]
    api.hand(key, here["games"][0]["id"], "A", 3)
    problem = _forfeit(api, key, here["match_id"], here["team_b"]["id"], "no-show",
                       expect=409).get_json()
    assert problem["code"] == "game-started" and "Game 1" in problem["detail"]
    problem = _forfeit(api, key, here["match_id"], there["team_b"]["id"], "no-show",
                       expect=422).get_json()
    assert problem["code"] == "not-in-match"
    assert _forfeit_audits(api, event, key) == [], "nothing recorded"

    for t in round_["tables"]:
        for game in t["games"]:
            if api.game(game["id"])["end"] is None:
                play_sheet(api, key, game["id"], to_target_game("A", 2))
    api.close_round(event, round_["id"])
    problem = _forfeit(api, key, there["match_id"], there["team_b"]["id"], "late", 10,
                       expect=409).get_json()
    assert problem["code"] == "round-closed" and "closed" in problem["detail"]

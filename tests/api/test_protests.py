"""League protests (RULES.md §6): a captain (the team key) or the organizer lodges a protest
about an opposing player's eligibility before a playoff game (refused once the game has
entries); the game is played as scheduled; the organizer rules later with a reason: upheld,
the protested team forfeits the game; rejected, the result stands. Shown on the game, the
team page and the list; audited."""

from __future__ import annotations

import itertools

from .scripts import to_target_game

_sheets = itertools.count()


def _sheet(api, key, game_id, winner):
    return api.post(f"/api/games/{game_id}/paper-sheet", key=key, expect=201, json={
        "id": f"protest-sheet-{next(_sheets)}", "hands": to_target_game(winner, 4)}).get_json()


def _playoff(api):
    """A two-team league whose one week is played (North wins) and closed, and the playoff
    final seated: the event, its key, the teams, the playoff match's first game and a team
    key for each captain."""
    event, key, teams = api.league(teams=("North", "South"), weeks=1)
    week = api.seat_round(event)
    while True:
        games = [g for t in api.get(f"/api/rounds/{week['id']}", expect=200).get_json()[
            "tables"] for g in t["games"] if api.game(g["id"])["end"] is None]
        if not games:
            break
        for game in games:
            _sheet(api, key, game["id"], "A")
    api.close_round(event, week["id"])
    final = api.seat_round(event)
    assert final["stage"] == "playoff", final
    game = api.game(final["tables"][0]["games"][0]["id"])
    captains = {name: api.post(f"/api/events/{event['id']}/teams/{team['id']}/key", key=key,
                               expect=201).get_json()["key"] for name, team in teams.items()}
    return event, key, teams, game, captains


def _side_of(game: dict, team_id: int) -> str:
    return next(s for s in "AB" if game["sides"][s]["team_id"] == team_id)


def _player(teams, name: str) -> int:
    return teams[name]["members"][0]["id"]


def test_an_upheld_protest_forfeits_the_game_after_it_was_played(api):
    event, key, teams, game, captains = _playoff(api)
    south_player = _player(teams, "South")
    lodged = api.post(f"/api/games/{game['id']}/protests", key=captains["North"], expect=201,
                      json={"player_id": south_player,
                            "grounds": "Not on South's roster after week 2"}).get_json()
    assert lodged["status"] == "waiting" and lodged["lodged_by"] == "team"
    assert (lodged["team_id"], lodged["against_team_id"]) == (teams["North"]["id"],
                                                              teams["South"]["id"])
    same = api.post(f"/api/games/{game['id']}/protests", key=captains["North"], expect=200,
                    json={"player_id": south_player, "grounds": "Again"}).get_json()
    assert same["id"] == lodged["id"], "the waiting protest, not a second one"
    assert [p["id"] for p in api.game(game["id"])["protests"]] == [lodged["id"]]

    south = _side_of(game, teams["South"]["id"])
    played = _sheet(api, key, game["id"], south)  # played as scheduled: South wins it
    assert played["winner"] == south
    refused = api.post(f"/api/games/{game['id']}/protests", key=captains["North"],
                       json={"player_id": _player(teams, "South"), "grounds": "Late"})
    assert refused.status_code == 409 and refused.get_json()["code"] == "game-started"

    base = f"/api/events/{event['id']}/protests"
    assert api.post(f"{base}/{lodged['id']}/ruling", key=captains["North"],
                    json={"upheld": True, "reason": "x"}).status_code == 403
    ruled = api.post(f"{base}/{lodged['id']}/ruling", key=key, expect=200, json={
        "upheld": True, "reason": "Roster closed after week 2"}).get_json()
    assert ruled["status"] == "upheld" and ruled["ruling_reason"] == "Roster closed after week 2"
    assert ruled["game"]["forfeited_by"] == south and ruled["game"]["winner"] != south
    assert ruled["game"]["ruled"] and ruled["game"]["rulings"][0]["kind"] == "protest_upheld"
    again = api.post(f"{base}/{lodged['id']}/ruling", key=key,
                     json={"upheld": False, "reason": "Changed my mind"})
    assert again.status_code == 409 and again.get_json()["code"] == "protest-ruled"
    page = api.get(f"/api/events/{event['id']}/teams/{teams['South']['id']}/schedule",
                   expect=200).get_json()
    assert [(p["id"], p["status"]) for p in page["protests"]] == [(lodged["id"], "upheld")]
    assert (page["protests"][0]["player_name"], page["protests"][0]["team_name"]) == (
        teams["South"]["members"][0]["name"], "North")
    assert api.get(base, expect=200).get_json()[0]["status"] == "upheld"
    actions = [e["action"] for e in api.get(f"/api/events/{event['id']}/audit", key=key,
                                            expect=200).get_json()]
    assert "protest" in actions and actions[0] == "ruling"

    # Withdrawing the ruling puts the result back and the protest waits again.
    ruling = ruled["ruling"]
    back = api.delete(f"/api/games/{game['id']}/rulings/{ruling}", key=key, expect=200,
                      json={"reason": "Roster date misread"}).get_json()
    assert back["game"]["forfeited_by"] is None and back["game"]["winner"] == south
    assert api.get(base, expect=200).get_json()[0]["status"] == "waiting"


def test_a_rejected_protest_leaves_the_result_standing(api):
    event, key, teams, game, captains = _playoff(api)
    lodged = api.post(f"/api/games/{game['id']}/protests", key=key, expect=201, json={
        "player_id": _player(teams, "North"), "grounds": "Said to be a ringer"}).get_json()
    assert lodged["lodged_by"] == "organizer"
    assert lodged["against_team_id"] == teams["North"]["id"]
    played = _sheet(api, key, game["id"], "A")
    ruled = api.post(f"/api/events/{event['id']}/protests/{lodged['id']}/ruling", key=key,
                     expect=200, json={"upheld": False, "reason": "Registered in week 1"}
                     ).get_json()
    assert ruled["status"] == "rejected"
    assert ruled["game"]["points"] == played["points"]
    assert ruled["game"]["winner"] == played["winner"] and ruled["game"]["ruled"]


def test_protests_refused_with_reasons_and_nothing_stored(api):
    event, key, teams, game, captains = _playoff(api)
    url = f"/api/games/{game['id']}/protests"
    north_player, south_player = _player(teams, "North"), _player(teams, "South")
    # A captain protests about the other team's players only.
    own = api.post(url, key=captains["North"], json={"player_id": north_player,
                                                     "grounds": "x"})
    assert own.status_code == 403 and own.get_json()["code"] == "not-your-match"
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={},
                      expect=201).get_json()["key"]
    assert api.post(url, key=runner, json={"player_id": south_player,
                                           "grounds": "x"}).status_code == 403
    assert api.post(url, json={"player_id": south_player, "grounds": "x"}).status_code == 401
    for body, status in (({"player_id": south_player}, 422),
                         ({"player_id": south_player, "grounds": " "}, 422),
                         ({"player_id": 999999, "grounds": "x"}, 404)):
        refused = api.post(url, key=key, json=body)
        assert refused.status_code == status and \
            refused.mimetype == "application/problem+json", refused.get_json()
    assert api.get(f"/api/events/{event['id']}/protests", expect=200).get_json() == []
    # A regular week's game takes no protest.
    week_game = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()[0]
    regular = api.get(f"/api/rounds/{week_game['id']}", expect=200).get_json()[
        "tables"][0]["games"][0]["id"]
    refused = api.post(f"/api/games/{regular}/protests", key=key,
                       json={"player_id": south_player, "grounds": "x"})
    assert refused.status_code == 409 and refused.get_json()["code"] == "not-a-playoff-game"
    missing = api.post(f"/api/events/{event['id']}/protests/424242/ruling", key=key,
                       json={"upheld": True, "reason": "x"})
    assert missing.status_code == 404

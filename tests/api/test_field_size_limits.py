"""An event's field is bounded, so no write on it (an import, seating, a league's season) holds
the database for long: players per event, rows per import, teams per league and substitutes
per team. Each refusal says the limit and stores nothing; a 400-player night never meets one."""

from __future__ import annotations


def _import(api, event, text: str):
    return api.post(f"/api/events/{event['id']}/import", key=event["organizer_key"],
                    data=text.encode(), content_type="text/csv")


def _players(n: int, start: int = 0) -> str:
    return "name,checked_in\n" + "".join(f"Player {i},yes\n" for i in range(start, start + n))


def _teams(n: int, start: int = 0, substitutes: str = "") -> str:
    return "team,player1,player2,substitutes\n" + "".join(
        f"Team {i},A{i},B{i},{substitutes}\n" for i in range(start, start + n))


def _names(api, event) -> list[str]:
    return [p["name"] for p in api.get(f"/api/events/{event['id']}/players",
                                       expect=200).get_json()]


def test_a_400_player_night_fits_in_one_import_and_is_seated(api):
    event = api.create_event("progressive")
    assert _import(api, event, _players(400)).get_json() == {"players": 400, "teams": 0}
    assert len(api.seat_round(event, 1)["tables"]) == 100


def test_players_past_the_largest_field_are_refused_whole_by_import_or_one_by_one(app, api):
    app.config["EVENT_PLAYERS"] = 10
    event = api.create_event("progressive")
    assert _import(api, event, _players(8)).status_code == 201
    refused = _import(api, event, _players(3, start=8))
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["code"] == "too-many-players"
    assert "at most 10 players" in problem["detail"] and "has 8" in problem["detail"]
    assert len(_names(api, event)) == 8, "nothing of the refused file was stored"
    api.add_players(event, ["Ann", "Bob"])
    one_more = api.post(f"/api/events/{event['id']}/players", key=event["organizer_key"],
                        json={"name": "Carol", "checked_in": True})
    assert one_more.status_code == 409 and one_more.get_json()["code"] == "too-many-players"
    assert "Carol" not in _names(api, event)


def test_a_team_event_counts_both_players_of_each_team(app, api):
    app.config["EVENT_PLAYERS"] = 10
    event = api.create_event("teams")
    assert _import(api, event, _teams(6)).status_code == 409
    assert _import(api, event, _teams(5)).status_code == 201
    refused = api.post(f"/api/events/{event['id']}/teams", key=event["organizer_key"],
                       json={"name": "Late", "players": ["Lee", "Max"]})
    assert refused.status_code == 409 and "at most 10 players" in refused.get_json()["detail"]


def test_an_import_of_more_rows_than_one_takes_is_refused_before_the_event_is_touched(app, api):
    app.config["IMPORT_ROWS"] = 20
    event = api.create_event("progressive")
    refused = _import(api, event, _players(21))
    assert refused.status_code == 422
    assert refused.get_json()["code"] == "too-many-rows"
    assert "at most 20" in refused.get_json()["detail"]
    assert _names(api, event) == []


def test_a_league_takes_a_bounded_number_of_teams_as_its_season_is_written_at_once(app, api):
    app.config["LEAGUE_TEAMS"] = 4
    event = api.create_event("league")
    refused = _import(api, event, _teams(5))
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["code"] == "too-many-teams" and "at most 4 teams" in problem["detail"]
    assert _import(api, event, _teams(4)).status_code == 201
    one_more = api.post(f"/api/events/{event['id']}/teams", key=event["organizer_key"],
                        json={"name": "Late", "players": ["Lee", "Max"]})
    assert one_more.status_code == 409 and one_more.get_json()["code"] == "too-many-teams"
    api.post(f"/api/events/{event['id']}/season", key=event["organizer_key"], json={},
             expect=201)


def test_a_league_team_keeps_a_few_substitutes_however_they_are_added(api):
    event = api.create_event("league")
    key = event["organizer_key"]
    nine = [f"Sub {i}" for i in range(9)]
    refused = api.post(f"/api/events/{event['id']}/teams", key=key,
                       json={"name": "North", "players": ["Ann", "Bob"], "substitutes": nine})
    assert refused.status_code == 422 and "at most 8 substitutes" in refused.get_json()["detail"]
    by_file = _import(api, event, _teams(1, substitutes=";".join(nine)))
    assert by_file.status_code == 422
    assert "Line 2" in by_file.get_json()["detail"]
    assert "at most 8 substitutes" in by_file.get_json()["detail"]
    assert _names(api, event) == []
    team = api.add_team(event, "North", ["Ann", "Bob"], substitutes=nine[:8])
    one_more = api.post(f"/api/events/{event['id']}/teams/{team['id']}/substitutes", key=key,
                        json={"name": "Sub 9"})
    assert one_more.status_code == 409
    assert one_more.get_json()["code"] == "too-many-substitutes"
    assert len(_names(api, event)) == 10

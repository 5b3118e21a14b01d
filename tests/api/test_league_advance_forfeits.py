"""A forfeit recorded before its week's night (RULES.md §3 league, §6): a team calls ahead
that it cannot come, through its captain's team key (POST .../advance-forfeits) or the
organizer (POST /matches/<id>/forfeits while the week is still to come). The opponent sees it
on its schedule at once; the games are forfeited when the week starts, so the standings count
it with the weeks played so far, never before; one week is one offence. Sent again, it is
recorded once. Every bad request is a 4xx problem+json with nothing stored. Taking one back
before its week starts: test_league_take_back.py."""

from __future__ import annotations

from .client import play_sheet
from .scripts import to_target_game

TEAMS = ("North", "South", "East", "West")


def _league(api):
    """Four teams, three weeks scheduled (two matches a week), nothing played."""
    return api.league(TEAMS, weeks=3)


def _week(api, event, number: int) -> dict:
    season = api.get(f"/api/events/{event['id']}/season", expect=200).get_json()
    return season["weeks"][number - 1]


def _board(api, event) -> dict[str, tuple[int, int, int]]:
    """Each team's (standings points, games won, games played)."""
    return {r["name"]: (r["total"], r["games_won"], r["games_played"])
            for r in api.leaderboard(event)["rows"]}


def _play_week(api, event, key, number: int) -> dict:
    """Seat week `number` and play what is left of it: the home team wins every game."""
    week = api.seat_round(event, number)
    for table in week["tables"]:
        for game in table["games"]:
            if api.game(game["id"])["end"] is None:
                play_sheet(api, key, game["id"], to_target_game("A", 4))
    return week


def _problem(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    if code is not None:
        assert body["code"] == code, body
    assert body["detail"], "a sentence a person can act on"
    return body


def _stored(api, event, key) -> tuple:
    """What a refused request must leave as it was: the season (with its forfeits and
    offences), the night's log, the event's revision and the standings."""
    eid = event["id"]
    return (api.get(f"/api/events/{eid}/season", expect=200).get_json(),
            api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json(),
            api.get(f"/api/events/{eid}", expect=200).get_json()["revision"],
            api.leaderboard(event)["rows"])


def _forfeit(api, key, match_id, team_id, reason="no-show", **more):
    return api.post(f"/api/matches/{match_id}/forfeits", key=key,
                    json={"team_id": team_id, "reason": reason, **more})


def test_an_advance_forfeit_counts_in_the_standings_from_the_night_of_its_week(api):
    event, key, teams = _league(api)
    match = _week(api, event, 2)["matches"][0]
    home, away = match["home"], match["away"]
    done = _forfeit(api, key, match["match_id"], away["id"], note="Away for work")
    assert done.status_code == 201, done.get_data(as_text=True)
    done = done.get_json()
    assert done["advance"] and done["games"] == [1, 2, 3]
    assert (done["offences"], done["status"]) == (0, "ok"), "no offence before the night"
    assert (done["offence"], done["counted"]) == (1, False)
    assert f"Recorded before the night: {home['name']} see it on their schedule" in \
        done["message"]
    assert "its games are forfeited when Week 2 starts" in done["message"]
    assert "Week 2 (forfeited ahead) becomes offence 1 when it starts: loss of the games." \
        in done["message"]

    # The opponent sees it now; the season lists it with the offence.
    theirs = api.get(f"/api/events/{event['id']}/teams/{home['id']}/schedule",
                     expect=200).get_json()
    (row,) = [w for w in theirs["weeks"] if w["week"] == 2]
    assert row["status"] == "scheduled" and row["forfeits"] == [
        {"team_id": away["id"], "name": away["name"], "reason": "no-show",
         "minutes_late": None, "games": [1, 2, 3], "advance": True,
         "announced_by": "organizer", "note": "Away for work", "offence": 1,
         "counted": False, "offence_message": "Week 2 (forfeited ahead) becomes offence 1 "
                                              "when it starts: loss of the games."}]
    assert row["points"] is None, "no points for a week not played yet"
    row = next(m for m in _week(api, event, 2)["matches"]
               if m["match_id"] == match["match_id"])
    assert row["forfeits"] == [away["id"]]
    season = api.get(f"/api/events/{event['id']}/season", expect=200).get_json()
    offence = next(o for o in season["offences"] if o["team_id"] == away["id"])
    assert (offence["offences"], offence["status"], offence["ahead"]) == (0, "ok", [2])

    # Before the night nothing counts in the standings, nor after week 1 beyond week 1.
    assert set(_board(api, event).values()) == {(0, 0, 0)}
    api.close_round(event, _play_week(api, event, key, 1)["id"])
    after_week_1 = _board(api, event)
    assert sorted(after_week_1.values()) == [(0, 0, 3), (0, 0, 3), (7, 3, 3), (7, 3, 3)]

    # Week 2 starts: the games are forfeit wins for the opponent, 3-0 (7 points).
    week2 = _play_week(api, event, key, 2)
    table = next(t for t in week2["tables"] if t["match_id"] == match["match_id"])
    games = [api.game(g["id"]) for g in table["games"]]
    assert [(g["end"], g["winner"], g["points"]) for g in games] == \
        [("forfeit", "A", {"A": 0, "B": 0})] * 3, "home (side A) wins each game, no hands"
    now = _board(api, event)
    assert now[home["name"]] == (after_week_1[home["name"]][0] + 7,
                                 after_week_1[home["name"]][1] + 3,
                                 after_week_1[home["name"]][2] + 3)
    assert now[away["name"]] == (after_week_1[away["name"]][0],
                                 after_week_1[away["name"]][1],
                                 after_week_1[away["name"]][2] + 3)
    api.close_round(event, week2["id"])  # the forfeited match holds nothing up
    theirs = api.get(f"/api/events/{event['id']}/teams/{home['id']}/schedule",
                     expect=200).get_json()
    (row,) = [w for w in theirs["weeks"] if w["week"] == 2]
    assert (row["games_won"], row["points"]) == ({"us": 3, "them": 0}, 7)
    season = api.get(f"/api/events/{event['id']}/season", expect=200).get_json()
    offence = next(o for o in season["offences"] if o["team_id"] == away["id"])
    assert (offence["offences"], offence["status"], offence["ahead"]) == \
        (1, "loss-of-games", []), "one week, one offence, from its start"
    (row,) = [w for w in theirs["weeks"] if w["week"] == 2]
    assert (row["forfeits"][0]["counted"], row["forfeits"][0]["offence_message"]) == \
        (True, "Offence 1: loss of the games.")
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    forfeits = [e for e in log if e["action"] == "forfeit"]
    assert len(forfeits) == 1 and forfeits[0]["after"]["advance"]
    # The log says the offence it became when its week started, as the answer did (not the
    # team's offences when it was recorded, none then).
    assert (forfeits[0]["after"]["offence"], forfeits[0]["after"]["offences"]) == (1, 0)
    assert (forfeits[0]["round_number"], forfeits[0]["table"]) == (2, row["table"])


def test_a_captains_advance_forfeit_sent_again_is_recorded_once(api):
    event, key, teams = _league(api)
    north = teams["North"]["id"]
    captain = api.post(f"/api/events/{event['id']}/teams/{north}/key", key=key,
                       expect=201).get_json()["key"]
    week = next(w for w in api.get(f"/api/events/{event['id']}/teams/{north}/schedule",
                                   expect=200).get_json()["weeks"] if not w["bye"])
    url = f"/api/events/{event['id']}/teams/{north}/advance-forfeits"
    first = api.post(url, key=captain, json={"week": week["week"], "note": "Holiday"},
                     expect=201).get_json()
    stored = _stored(api, event, key)
    again = api.post(url, key=captain, json={"week": week["week"], "note": "Holiday"},
                     expect=201).get_json()
    assert again == first and first["games"] == [1, 2, 3] and first["offence"] == 1
    assert _stored(api, event, key) == stored, "the second send changes nothing"
    # The organizer recording the same no-show for that match is the same forfeit too.
    api.post(f"/api/matches/{week['match_id']}/forfeits", key=key, expect=201,
             json={"team_id": north, "reason": "no-show", "note": "Holiday"})
    assert _stored(api, event, key) == stored


def test_bad_advance_forfeits_are_refused_and_nothing_is_stored(api):
    event, key, teams = _league(api)
    eid = event["id"]
    north = teams["North"]["id"]
    captain = api.post(f"/api/events/{eid}/teams/{north}/key", key=key,
                       expect=201).get_json()["key"]
    schedule = api.get(f"/api/events/{eid}/teams/{north}/schedule", expect=200).get_json()
    week = next(w for w in schedule["weeks"] if not w["bye"] and w["week"] >= 2)
    opponent = week["opponent"]["id"]
    stranger = next(t["id"] for t in teams.values() if t["id"] not in (north, opponent))
    stored = _stored(api, event, key)
    url = f"/api/events/{eid}/teams/{north}/advance-forfeits"

    # The captain's route: the week, the team and the key must be right.
    for body in ({}, {"week": 0}, {"week": "two"}, {"week": 61}, {"week": 2, "extra": 1}):
        assert _problem(api.post(url, key=captain, json=body), 422)["errors"]
    _problem(api.post(url, key=captain, json={"week": 9}), 422, "no-such-week")
    _problem(api.post(f"/api/events/{eid}/teams/{opponent}/advance-forfeits", key=captain,
                      json={"week": week["week"]}), 403, "wrong-team")
    _problem(api.post(f"/api/events/{eid}/teams/987654/advance-forfeits", key=key,
                      json={"week": week["week"]}), 404)
    _problem(api.post(url, json={"week": week["week"]}), 401)
    # The organizer's route: the wrong side (a team not in that match), a lateness before
    # the night, an unknown reason or match.
    match_id = week["match_id"]
    problem = _problem(_forfeit(api, key, match_id, stranger), 422, "not-in-match")
    assert f"Team {stranger}" in problem["detail"]
    late = _problem(_forfeit(api, key, match_id, north, "late", minutes_late=10), 409,
                    "not-late-yet")
    assert "record a no show" in late["detail"]
    _problem(_forfeit(api, key, match_id, north, "late"), 409, "not-late-yet")
    _problem(_forfeit(api, key, match_id, north, "sick"), 422)
    _problem(_forfeit(api, key, match_id, north, "late", minutes_late=-5), 422)
    _problem(_forfeit(api, key, 987654, north), 404)
    captain_on_organizers_route = _forfeit(api, captain, match_id, north)
    assert captain_on_organizers_route.status_code == 403
    assert _stored(api, event, key) == stored, "nothing stored by any refusal"

    # A week under way or played is no longer the captain's to forfeit ahead; a closed one
    # is nobody's.
    _play_week(api, event, key, 1)
    first = next(w for w in schedule["weeks"] if w["week"] == 1)
    stored = _stored(api, event, key)
    if not first["bye"]:
        _problem(api.post(url, key=captain, json={"week": 1}), 409, "week-started")
        problem = _problem(_forfeit(api, key, first["match_id"], north), 409,
                           "nothing-to-forfeit")
        assert "already played" in problem["detail"]
    assert _stored(api, event, key) == stored
    round1 = api.get(f"/api/events/{eid}/rounds", key=key, expect=200).get_json()[0]
    api.close_round(event, round1["id"])
    stored = _stored(api, event, key)
    if not first["bye"]:
        _problem(api.post(url, key=captain, json={"week": 1}), 409, "week-started")
        _problem(_forfeit(api, key, first["match_id"], north), 409, "round-closed")
    assert _stored(api, event, key) == stored


def test_a_forfeit_ahead_is_refused_outside_a_league(api):
    teams_event = api.create_event("teams", name="Fixed teams")
    key = teams_event["organizer_key"]
    made = [api.add_team(teams_event, name, [f"{name} 1", f"{name} 2"]) for name in TEAMS]
    table = api.seat_round(teams_event, 1)["tables"][0]
    log = api.get(f"/api/events/{teams_event['id']}/audit", key=key, expect=200).get_json()
    problem = _problem(_forfeit(api, key, table["match_id"], table["team_a"]["id"]), 409,
                       "not-league")
    assert "Only a league" in problem["detail"]
    _problem(api.post(f"/api/events/{teams_event['id']}/teams/{made[0]['id']}"
                      "/advance-forfeits", key=key, json={"week": 1}), 409, "not-league")
    assert api.get(f"/api/events/{teams_event['id']}/audit", key=key,
                   expect=200).get_json() == log
    assert api.game(table["games"][0]["id"])["end"] is None


def test_both_teams_of_a_match_cannot_each_forfeit_the_same_games_ahead(api):
    event, key, teams = _league(api)
    match = _week(api, event, 3)["matches"][0]
    _forfeit(api, key, match["match_id"], match["home"]["id"])
    stored = _stored(api, event, key)
    problem = _problem(_forfeit(api, key, match["match_id"], match["away"]["id"]), 409,
                       "nothing-to-forfeit")
    assert "forfeited by the other team" in problem["detail"]
    assert _stored(api, event, key) == stored

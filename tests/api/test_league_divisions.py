"""A league in divisions, on dated league nights: a round robin within each division, every
week's date, a cancelled night moving the rest of the season a week on, teams kept in their
division once the season is scheduled, and standings ranked within each division too."""

from __future__ import annotations

from datetime import date, timedelta

from .client import play
from .scripts import to_target_game

A_TEAMS = ["Aces", "Bowers", "Clubs", "Diamonds", "Euchres"]
B_TEAMS = ["Farmers", "Gophers", "Hearts", "Irons"]


def _league(api):
    event = api.create_event("league")
    key, eid = event["organizer_key"], event["id"]
    teams = {}
    for division, names in (("Upper", A_TEAMS), ("Lower", B_TEAMS)):
        for name in names:
            teams[name] = api.post(f"/api/events/{eid}/teams", key=key, json={
                "name": name, "players": [f"{name} 1", f"{name} 2"], "division": division},
                expect=201).get_json()
    return event, key, eid, teams


def test_each_division_plays_its_own_round_robin_on_dated_nights(api):
    event, key, eid, teams = _league(api)
    assert teams["Aces"]["division"] == "Upper"
    season = api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201).get_json()
    assert season["divisions"] == ["Lower", "Upper"]
    assert len(season["weeks"]) == 5  # the five-team division's round robin
    division_of = {t["id"]: t["division"] for t in teams.values()}
    met = set()
    for number, week in enumerate(season["weeks"]):
        assert week["date"] == (date(2027, 1, 5) + timedelta(days=7 * number)).isoformat()
        assert week["start"] == "19:00"
        for match in week["matches"]:
            if match["bye"]:
                assert match["division"] == "Upper"  # only the odd division has byes
                continue
            home, away = match["home"]["id"], match["away"]["id"]
            assert division_of[home] == division_of[away] == match["division"]
            if division_of[home] == "Upper":
                met.add(frozenset((home, away)))
    assert len(met) == 10  # every pair of the five Upper teams, once

    # A team cannot change division once the season pairs teams within divisions.
    refused = api.patch(f"/api/events/{eid}/teams/{teams['Aces']['id']}", key=key,
                        json={"division": "Lower"}, expect=409).get_json()
    assert refused["code"] == "season-scheduled"


def test_a_cancelled_night_moves_the_season_a_week_on(api):
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    moved = api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 2, "reason": "Snow storm"}, expect=200).get_json()
    dates = [w["date"] for w in moved["weeks"]]
    assert dates == ["2027-01-05", "2027-01-19", "2027-01-26", "2027-02-02", "2027-02-09"]
    assert moved["changes"][0]["week"] == 2 and moved["changes"][0]["reason"] == "Snow storm"
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert log[0]["action"] == "postpone-week"
    assert log[0]["before"]["date"] == "2027-01-12" and log[0]["after"]["date"] == "2027-01-19"
    # A night already under way does not move; a week that does not exist is refused.
    api.seat_round(event, 1)
    started = api.post(f"/api/events/{eid}/season/postpone", key=key, json={"week": 1},
                       expect=409).get_json()
    assert started["code"] == "week-started"
    api.post(f"/api/events/{eid}/season/postpone", key=key, json={"week": 9}, expect=422)


def test_standings_rank_each_team_within_its_division(api):
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={}, expect=201)
    week = api.seat_round(event, 1)
    for table in week["tables"]:
        for game in table["games"]:
            play(api, key, game["id"], to_target_game("A", 4))
    rows = api.leaderboard(event)["rows"]
    assert all(r["division"] in ("Upper", "Lower") for r in rows)
    for division in ("Upper", "Lower"):
        mine = [r for r in rows if r["division"] == division]
        places = [r["division_place"] for r in mine]
        assert places[0] == 1 and places == sorted(places)
        # Level teams share their division place as they share their place overall.
        for a, b in zip(mine, mine[1:], strict=False):
            assert (a["place"] == b["place"]) == (a["division_place"] == b["division_place"])


def test_without_dates_or_divisions_a_league_works_as_before(api):
    event = api.create_event("league")
    key, eid = event["organizer_key"], event["id"]
    for name in ("North", "South"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    season = api.post(f"/api/events/{eid}/season", key=key, json={"weeks": 2},
                      expect=201).get_json()
    assert season["divisions"] == [] and [w["date"] for w in season["weeks"]] == [None, None]
    refused = api.post(f"/api/events/{eid}/season/postpone", key=key, json={"week": 1},
                       expect=409).get_json()
    assert refused["code"] == "no-dates"
    # Half in a division and half not: say which.
    other = api.create_event("league")
    api.post(f"/api/events/{other['id']}/teams", key=other["organizer_key"], json={
        "name": "Aces", "players": ["A 1", "A 2"], "division": "Upper"}, expect=201)
    api.add_team(other, "Bowers", ["B 1", "B 2"])
    mixed = api.post(f"/api/events/{other['id']}/season", key=other["organizer_key"],
                     json={}, expect=409).get_json()
    assert "Bowers" in mixed["detail"]


def test_a_forfeit_can_be_recorded_before_the_night(api):
    """A team calls ahead: its forfeit is in the season view before its week opens."""
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    season = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    week3 = season["weeks"][2]
    assert week3["status"] == "scheduled"
    match = next(m for m in week3["matches"] if not m["bye"])
    absent = match["away"]["id"]
    api.post(f"/api/matches/{match['match_id']}/forfeits", key=key, json={
        "team_id": absent, "reason": "no-show", "note": "called on Monday"}, expect=201)
    after = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    shown = next(m for m in after["weeks"][2]["matches"]
                 if m.get("match_id") == match["match_id"])
    assert shown["forfeits"] == [absent] and after["weeks"][2]["status"] == "scheduled"

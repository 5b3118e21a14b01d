"""A league in divisions, on dated league nights: a round robin within each division, every
week's date, a cancelled night moving the rest of the season a week on, teams kept in their
division once the season is scheduled, and standings ranked within each division too."""

from __future__ import annotations

from datetime import date, timedelta

from .client import play_sheet
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

    # Before the first week a team may still change division: the season is drawn again,
    # on the same nights, within the divisions as they are now.
    aces = teams["Aces"]["id"]
    moved = api.patch(f"/api/events/{eid}/teams/{aces}", key=key, json={"division": "Lower"},
                      expect=200).get_json()
    assert moved["division"] == "Lower"
    again = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    assert [w["date"] for w in again["weeks"]] == [w["date"] for w in season["weeks"]]
    division_of[aces] = "Lower"
    for week in again["weeks"]:
        for match in week["matches"]:
            if not match["bye"]:
                assert division_of[match["home"]["id"]] == division_of[match["away"]["id"]]
    assert any(aces in (m["home"]["id"], (m["away"] or {}).get("id"))
               and m["division"] == "Lower" for w in again["weeks"] for m in w["matches"])
    # Once the first week is under way, it is refused with the reason.
    api.seat_round(event, 1)
    refused = api.patch(f"/api/events/{eid}/teams/{aces}", key=key,
                        json={"division": "Upper"}, expect=409).get_json()
    assert refused["code"] == "season-started" and "first week" in refused["detail"]


def test_a_cancelled_night_is_made_up_at_the_end_by_default(api):
    """RULES.md §6 (corrected): every other week keeps its night; the cancelled week is
    made up after the last week."""
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    kept = api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 2, "reason": "Snow storm"}, expect=200).get_json()
    dates = [w["date"] for w in kept["weeks"]]
    assert dates == ["2027-01-05", "2027-02-09", "2027-01-19", "2027-01-26", "2027-02-02"]
    assert kept["weeks"][1]["make_up"] and kept["weeks"][1]["cancelled_date"] == "2027-01-12"
    assert kept["play_order"] == [1, 3, 4, 5, 2]
    change = kept["changes"][0]
    assert change["kind"] == "make-up" and change["reason"] == "Snow storm"
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert log[0]["action"] == "make-up-week"
    # Or on the night the organizer picks; a shift takes no night (nothing stored).
    picked = api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 3, "date": "2027-02-16"}, expect=200).get_json()
    assert picked["weeks"][2]["date"] == "2027-02-16"
    refused = api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 4, "mode": "shift", "date": "2027-02-23"}, expect=422).get_json()
    assert refused["code"] == "shift-no-date"
    api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 4, "mode": "sideways"}, expect=422)
    after = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    assert len(after["changes"]) == 2


def test_a_cancelled_night_moves_the_season_a_week_on(api):
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    moved = api.post(f"/api/events/{eid}/season/postpone", key=key, json={
        "week": 2, "reason": "Snow storm", "mode": "shift"}, expect=200).get_json()
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
            play_sheet(api, key, game["id"], to_target_game("A", 4))
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


def test_a_division_change_is_refused_once_the_schedule_has_changes(api):
    event, key, eid, teams = _league(api)
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    api.post(f"/api/events/{eid}/season/postpone", key=key, json={"week": 2}, expect=200)
    refused = api.patch(f"/api/events/{eid}/teams/{teams['Aces']['id']}", key=key,
                        json={"division": "Lower"}, expect=409).get_json()
    assert refused["code"] == "season-changed" and "cancelled night" in refused["detail"]
    assert api.get(f"/api/events/{eid}/teams").get_json()[0]["division"] == "Upper"


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


def _play_week(api, event, key, round_, winner_of) -> None:
    """Every game of every match to 10; `winner_of(table)` names the side that wins each
    game (best-of playoff matches: two games)."""
    for table in round_["tables"]:
        side = winner_of(table)
        game_id = table["games"][0]["id"]
        state = play_sheet(api, key, game_id, to_target_game(side, 3))
        while not state["match"]["over"]:
            game_id = next(g["id"] for g in state["match"]["games"] if g["winner"] is None)
            state = play_sheet(api, key, game_id, to_target_game(side, 3))
    api.close_round(event, round_["id"])


def _two_division_season(api, division_final: bool):
    """Two divisions of four; the season played (the home side wins every game), then the
    playoffs seated round by round."""
    event = api.create_event("league")
    key, eid = event["organizer_key"], event["id"]
    for division, names in (("Upper", ["Aces", "Bowers", "Clubs", "Diamonds"]),
                            ("Lower", ["Farmers", "Gophers", "Hearts", "Irons"])):
        for name in names:
            api.post(f"/api/events/{eid}/teams", key=key, json={
                "name": name, "players": [f"{name} 1", f"{name} 2"], "division": division},
                expect=201)
    season = api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": "2027-01-05", "start_time": "19:00", "division_final": division_final},
        expect=201).get_json()
    for number in range(1, len(season["weeks"]) + 1):
        _play_week(api, event, key, api.seat_round(event, number), lambda table: "A")
    return event, key, eid, len(season["weeks"])


def test_each_division_has_its_own_playoffs_and_champion(api):
    event, key, eid, weeks = _two_division_season(api, division_final=False)
    preview = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert not preview["drawn"]
    assert [(r["label"], len(r["matches"])) for r in preview["rounds"]] == [
        ("Division semifinals", 4), ("Division finals", 2)]
    assert {m["division"] for m in preview["rounds"][0]["matches"]} == {"Upper", "Lower"}
    for match in preview["rounds"][0]["matches"]:  # teams meet only within their division
        seeds = {s["id"]: s["division"] for s in preview["seeds"]}
        assert seeds[match["a"]["id"]] == seeds[match["b"]["id"]] == match["division"]
    assert preview["rounds"][0]["date"] == (date(2027, 1, 5) + timedelta(
        days=7 * weeks)).isoformat()

    semis = api.seat_round(event, weeks + 1)
    assert semis["label"] == "Division semifinals" and len(semis["tables"]) == 4
    _play_week(api, event, key, semis, lambda table: "A")
    finals = api.seat_round(event, weeks + 2)
    assert finals["label"] == "Division finals" and len(finals["tables"]) == 2
    _play_week(api, event, key, finals, lambda table: "B")
    champions = {t["team_b"]["name"] for t in finals["tables"]}
    over = api.post(f"/api/events/{eid}/rounds", key=key, json={}, expect=409).get_json()
    assert over["code"] == "event-complete"
    assert all(name in over["detail"] for name in champions)
    assert "Upper:" in over["detail"] and "Lower:" in over["detail"]
    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert bracket["drawn"] and [len(r["matches"]) for r in bracket["rounds"]] == [4, 2]
    assert {m["winner"] for m in bracket["rounds"][1]["matches"]} == {
        t["team_b"]["id"] for t in finals["tables"]}


def test_the_division_winners_meet_in_a_final_when_the_organizer_asks(api):
    event, key, eid, weeks = _two_division_season(api, division_final=True)
    preview = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert [r["label"] for r in preview["rounds"]] == [
        "Division semifinals", "Division finals", "Final"]
    for number in (weeks + 1, weeks + 2):
        _play_week(api, event, key, api.seat_round(event, number), lambda table: "A")
    final = api.seat_round(event, weeks + 3)
    assert final["label"] == "Final" and len(final["tables"]) == 1
    table = final["tables"][0]
    divisions = {t["id"]: t["division"] for t in api.get(f"/api/events/{eid}/teams").get_json()}
    assert {divisions[table["team_a"]["id"]], divisions[table["team_b"]["id"]]} == {
        "Upper", "Lower"}
    _play_week(api, event, key, final, lambda t: "B")
    over = api.post(f"/api/events/{eid}/rounds", key=key, json={}, expect=409).get_json()
    assert f"{table['team_b']['name']} won" in over["detail"]
    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert bracket["rounds"][-1]["matches"][0]["winner"] == table["team_b"]["id"]

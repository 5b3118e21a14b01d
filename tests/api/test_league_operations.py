"""A league season run as a business (issue 18): 13 teams in two divisions on dated nights, one
of them registered by its captain through the registration link; a night cancelled and the
season shifted, another made up at the end, one match moved; lateness measured from the
night's start; an advance forfeit the opponent sees; a roster final after its week."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from api.league import captains, forfeits

from .client import play_sheet
from .scripts import to_target_game

UPPER = ["Aces", "Bowers", "Clubs", "Diamonds", "Euchres", "Farmers"]  # + the captain's team
LOWER = ["Gophers", "Hearts", "Irons", "Jacks", "Kings", "Loners"]
NIGHT = "2027-01-05"  # a Tuesday


def _open_registration(api, eid, key, **body):
    return api.put(f"/api/events/{eid}/registration", key=key, json=body,
                   expect=200).get_json()


def _register(api, code, token, name, players, subs=(), expect=201):
    return api.post(f"/api/register/{code}", expect=expect, json={
        "token": token, "name": name, "players": list(players),
        "substitutes": list(subs)})


def _league(api, *, time_zone="America/Toronto", lock_after_week=None):
    """13 teams in two divisions, the 13th registered by its captain; nothing scheduled."""
    event = api.post("/api/events", json={"name": "Tuesday league", "preset": "league",
                                          "time_zone": time_zone}, expect=201).get_json()
    key, eid = event["organizer_key"], event["id"]
    teams = {}
    for division, names in (("Upper", UPPER), ("Lower", LOWER)):
        for name in names:
            teams[name] = api.post(f"/api/events/{eid}/teams", key=key, json={
                "name": name, "players": [f"{name} 1", f"{name} 2"], "division": division},
                expect=201).get_json()
    body = {"closes": "2027-01-04T23:59"}
    if lock_after_week:
        body["lock_after_week"] = lock_after_week
    reg = _open_registration(api, eid, key, **body)
    assert reg["open"] and reg["link"].endswith(f"/register/{event['code']}#t={reg['token']}")
    made = _register(api, event["code"], reg["token"], "Captains",
                     ["Cap Ann", "Cap Bob"], ["Cap Sub"]).get_json()
    team_key = made["key"]
    assert made["team"]["members"][2] == {**made["team"]["members"][2], "role": "substitute"}
    teams["Captains"] = api.patch(f"/api/events/{eid}/teams/{made['team']['id']}", key=key,
                                  json={"division": "Upper"}, expect=200).get_json()
    return event, key, eid, teams, team_key, reg


def _schedule(api, eid, key):
    return api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": NIGHT, "start_time": "19:00"}, expect=201).get_json()


# Who wins games 1-3 at odd and even tables, and the week points that gives each side
# (RULES.md: 2 a game won, +1 for taking the match): 3-0 is 7 and 0, 2-1 is 5 and 2.
SWEEP, CLOSE = (["A", "A", "A"], {"A": 7, "B": 0}), (["A", "B", "A"], {"A": 5, "B": 2})


def _play_week(api, event, key, number):
    """Seat the next week (it must be `number`) and play it out: the home team sweeps at odd
    tables and wins 2-1 at even ones. Returns the week points by team, worked by hand."""
    week = api.seat_round(event)
    assert week["label"] == f"Week {number}", week["label"]
    points = {}
    for table in week["tables"]:
        winners, scored = SWEEP if table["table"] % 2 else CLOSE
        for game in table["games"]:
            play_sheet(api, key, game["id"], to_target_game(winners[game["number"] - 1], 4))
        points[table["team_a"]["id"]] = scored["A"]
        points[table["team_b"]["id"]] = scored["B"]
    api.close_round(event, week["id"])
    return points


def test_a_13_team_season_shifted_made_up_and_a_match_moved(api):
    event, key, eid, teams, _, _ = _league(api)
    season = _schedule(api, eid, key)
    assert season["divisions"] == ["Lower", "Upper"]
    assert len(season["weeks"]) == 7  # the seven Upper teams' round robin
    byes = [m for w in season["weeks"] for m in w["matches"] if m["bye"]]
    assert len(byes) == 7 and {m["division"] for m in byes} == {"Upper"}
    assert all(len([m for m in w["matches"] if not m["bye"]]) == 6 for w in season["weeks"])

    # Snow on week 2: the organizer chooses to shift the whole season a night later.
    shifted = api.post(f"/api/events/{eid}/season/postpone", key=key, expect=200,
                       json={"week": 2, "reason": "Snow storm", "mode": "shift"}).get_json()
    assert [w["date"] for w in shifted["weeks"]] == [
        "2027-01-05", "2027-01-19", "2027-01-26", "2027-02-02", "2027-02-09", "2027-02-16",
        "2027-02-23"]
    # The hall is booked on week 4's night: week 4 alone is made up after the last week.
    made_up = api.post(f"/api/events/{eid}/season/make-up", key=key, expect=200,
                       json={"week": 4, "reason": "Hall booked"}).get_json()
    dates = [w["date"] for w in made_up["weeks"]]
    assert dates == ["2027-01-05", "2027-01-19", "2027-01-26", "2027-03-02", "2027-02-09",
                     "2027-02-16", "2027-02-23"]
    week4 = made_up["weeks"][3]
    assert week4["make_up"] and week4["cancelled_date"] == "2027-02-02"
    assert made_up["play_order"] == [1, 2, 3, 5, 6, 7, 4]
    change = made_up["changes"][-1]
    assert change["kind"] == "make-up" and change["from"] == "2027-02-02"
    assert change["to"] == "2027-03-02" and "Hall booked" in change["text"]
    assert made_up["changes"][0]["kind"] == "shift" and "Snow storm" in \
        made_up["changes"][0]["text"]
    # A make-up on a night another week is played is refused, with the week named.
    taken = api.post(f"/api/events/{eid}/season/make-up", key=key, expect=409,
                     json={"week": 5, "date": "2027-02-16"}).get_json()
    assert "Week 6" in taken["detail"]
    api.post(f"/api/events/{eid}/season/make-up", key=key, expect=422,
             json={"week": 8})

    # One match of week 6 moves to a Thursday; a night one team already plays is refused.
    match = next(m for m in made_up["weeks"][5]["matches"] if not m["bye"])
    clash = api.post(f"/api/events/{eid}/season/move-match", key=key, expect=409, json={
        "match_id": match["match_id"], "date": "2027-02-23"}).get_json()
    assert "week 7" in clash["detail"]
    # An id past any row's (the fuzzer's 2**31) is a 422 naming the field, not a 500.
    huge = api.post(f"/api/events/{eid}/season/move-match", key=key, expect=422, json={
        "match_id": 2**31, "date": "2027-02-18"}).get_json()
    assert "match_id" in str(huge)
    moved = api.post(f"/api/events/{eid}/season/move-match", key=key, expect=200, json={
        "match_id": match["match_id"], "date": "2027-02-18",
        "reason": "Aces at a wedding"}).get_json()
    row = next(m for m in moved["weeks"][5]["matches"] if m.get("match_id") == match["match_id"])
    assert row["date"] == "2027-02-18" and row["moved"] == "Aces at a wedding"
    assert moved["weeks"][5]["date"] == "2027-02-16", "the rest of the week stays"
    assert moved["changes"][-1]["kind"] == "match"
    actions = [e["action"] for e in api.get(f"/api/events/{eid}/audit", key=key,
                                            expect=200).get_json()]
    assert {"postpone-week", "make-up-week", "move-match"} <= set(actions)

    # Weeks are played by night: after week 3 comes week 5; the make-up week 4 waits.
    expected = {}
    for number in (1, 2, 3, 5):
        for team, points in _play_week(api, event, key, number).items():
            expected[team] = expected.get(team, 0) + points
    for week in made_up["weeks"][:3] + made_up["weeks"][4:5]:
        for bye in (m for m in week["matches"] if m["bye"]):
            expected.setdefault(bye["home"]["id"], 0)  # a bye scores nothing
    rows = api.leaderboard(event)["rows"]
    assert {r["entrant_id"]: r["total"] for r in rows} == expected

    # The bracket's rounds have their nights: a week after the last night (the make-up), on.
    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert [r["date"] for r in bracket["rounds"]][:2] == ["2027-03-09", "2027-03-16"]

    # games.csv gives every game its night: its week's, or the moved match's own.
    text = api.get(f"/api/events/{eid}/export/games.csv", key=key, expect=200)
    games = list(csv.DictReader(io.StringIO(text.get_data(as_text=True).lstrip("\ufeff"))))
    nights = {(g["round"], g["night"]) for g in games}
    assert ("1", "2027-01-05") in nights and ("5", "2027-02-09") in nights
    moved_games = [g for g in games if g["round"] == "6" and g["table"] == str(row["table"])]
    assert moved_games and {g["night"] for g in moved_games} == {"2027-02-18"}
    assert {g["night"] for g in games if g["round"] == "6"} == {"2027-02-16", "2027-02-18"}
    for division in ("Upper", "Lower"):
        mine = [r for r in rows if r["division"] == division]
        assert len(mine) == (7 if division == "Upper" else 6)
        assert [r["total"] for r in mine] == sorted((r["total"] for r in mine), reverse=True)
        assert mine[0]["division_place"] == 1


def test_late_without_minutes_is_measured_from_the_nights_start(api, monkeypatch):
    event, key, eid, teams, _, _ = _league(api)
    _schedule(api, eid, key)
    week = api.seat_round(event, 1)
    table = week["tables"][0]
    # 19:00 in Toronto on 2027-01-05 is 00:00 UTC on the 6th; 21 minutes after it.
    monkeypatch.setattr(forfeits, "utcnow", lambda: datetime(2027, 1, 6, 0, 21, tzinfo=UTC))
    late = api.post(f"/api/matches/{table['match_id']}/forfeits", key=key, expect=201,
                    json={"team_id": table["team_b"]["id"], "reason": "late"}).get_json()
    assert late["minutes_late"] == 21 and late["games"] == [1, 2]
    assert "measured from 19:00 on 2027-01-05" in late["message"]
    assert not late["advance"]
    # Before the start nobody is late yet.
    other = week["tables"][1]
    monkeypatch.setattr(forfeits, "utcnow", lambda: datetime(2027, 1, 5, 23, 50, tzinfo=UTC))
    early = api.post(f"/api/matches/{other['match_id']}/forfeits", key=key, expect=409,
                     json={"team_id": other["team_b"]["id"], "reason": "late"}).get_json()
    assert early["code"] == "not-late-yet" and "19:00" in early["detail"]


def test_late_without_minutes_needs_a_start_time(api):
    event, key, _ = api.league()
    table = api.seat_round(event, 1)["tables"][0]
    refused = api.post(f"/api/matches/{table['match_id']}/forfeits", key=key, expect=422,
                       json={"team_id": table["team_b"]["id"], "reason": "late"}).get_json()
    assert refused["code"] == "minutes-needed"


def test_a_captain_announces_an_advance_forfeit_the_opponent_sees(api):
    event, key, eid, teams, team_key, reg = _league(api)
    _schedule(api, eid, key)
    mine = teams["Captains"]["id"]
    schedule = api.get(f"/api/events/{eid}/teams/{mine}/schedule", expect=200).get_json()
    assert schedule["team"]["players"] == ["Cap Ann", "Cap Bob"]
    week = next(w for w in schedule["weeks"] if not w["bye"] and w["week"] >= 2)
    opponent = week["opponent"]["id"]
    assert week["date"] and week["start"] == "19:00" and week["forfeits"] == []

    # Keys that may not: a runner's, another team's, nobody's.
    runner = api.post(f"/api/events/{eid}/keys", key=key, json={}, expect=201).get_json()["key"]
    other = _register(api, event["code"], reg["token"], "Late comers", ["LC 1", "LC 2"],
                      expect=409).get_json()
    assert other["code"] == "registration-closed" and "scheduled" in other["detail"]
    url = f"/api/events/{eid}/teams/{mine}/advance-forfeits"
    body = {"week": week["week"], "note": "Bob's shift"}
    assert api.post(url, json=body, expect=401).get_json()["code"] == "no-key"
    assert api.post(url, key=runner, json=body, expect=403).get_json()["code"] == "team-only"
    assert api.post(f"/api/events/{eid}/teams/{opponent}/advance-forfeits", key=team_key,
                    json=body, expect=403).get_json()["code"] == "wrong-team"

    done = api.post(url, key=team_key, json=body, expect=201).get_json()
    assert done["advance"] and done["games"] == [1, 2, 3] and done["offence"] == 1
    seen = api.get(f"/api/events/{eid}/teams/{opponent}/schedule", expect=200).get_json()
    theirs = next(w for w in seen["weeks"] if w["week"] == week["week"])
    assert theirs["status"] == "scheduled"
    assert theirs["forfeits"] == [{"team_id": mine, "name": "Captains", "reason": "no-show",
                                   "minutes_late": None, "games": [1, 2, 3], "advance": True,
                                   "announced_by": "team", "note": "Bob's shift",
                                   "offence": 1, "counted": False, "offence_message":
                                   f"Week {week['week']} (forfeited ahead) becomes offence "
                                   "1 when it starts: loss of the games."}]
    row = next(m for m in api.get(f"/api/events/{eid}/season", expect=200).get_json()
               ["weeks"][week["week"] - 1]["matches"] if m.get("match_id") == week["match_id"])
    assert row["forfeits"] == [mine] and row["forfeit_details"][0]["advance"]
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert log[0]["action"] == "forfeit" and log[0]["role"] == "team"

    # A bye week has no match; a week under way is for the organizer at the venue.
    bye = next((w for w in schedule["weeks"] if w["bye"]), None)
    if bye:
        api.post(url, key=team_key, json={"week": bye["week"]}, expect=422)
    api.seat_round(event, 1)
    if not schedule["weeks"][0]["bye"]:
        started = api.post(url, key=team_key, json={"week": 1}, expect=409).get_json()
        assert started["code"] == "week-started"


def test_a_team_key_is_refused_everywhere_else(api):
    event, key, eid, teams, team_key, _ = _league(api)
    _schedule(api, eid, key)
    mine = teams["Captains"]["id"]
    week = api.seat_round(event, 1)
    table = week["tables"][0]
    game = table["games"][0]["id"]
    for method, url, body in (
            ("POST", f"/api/events/{eid}/season/postpone", {"week": 2}),
            ("POST", f"/api/events/{eid}/season/make-up", {"week": 2}),
            ("PATCH", f"/api/events/{eid}/teams/{mine}", {"name": "Renamed"}),
            ("POST", f"/api/events/{eid}/teams/{mine}/substitutes", {"name": "Ringer"}),
            ("PUT", f"/api/events/{eid}/registration", {"rotate": True}),
            ("POST", f"/api/matches/{table['match_id']}/forfeits",
             {"team_id": table["team_a"]["id"], "reason": "no-show"}),
            ("POST", f"/api/games/{game}/hands", {"id": "cap-1", "maker": "A", "tricks": 5}),
            ("GET", f"/api/events/{eid}/registration", None),
            ("GET", f"/api/events/{eid}/audit", None)):
        refused = api.request(method, url, key=team_key, json=body, expect=403)
        assert refused.mimetype == "application/problem+json", url
    me = api.get("/api/me", key=team_key, expect=200).get_json()
    assert me["role"] == "team" and me["event_id"] == eid


def test_registration_needs_the_link_and_closes_at_the_deadline(api, monkeypatch):
    event = api.post("/api/events", json={"name": "Wednesday league", "preset": "league",
                                          "time_zone": "America/Toronto"},
                     expect=201).get_json()
    key, eid, code = event["organizer_key"], event["id"], event["code"]
    # Not open yet: no link at all.
    api.get(f"/api/register/{code}?token=whatever", expect=403)
    reg = _open_registration(api, eid, key, closes="2027-01-04T23:59", lock_after_week=3)
    assert reg["closes"] == "2027-01-04 23:59" and reg["lock_after_week"] == 3
    page = api.get(f"/api/register/{code}?token={reg['token']}", expect=200).get_json()
    assert page["open"] and page["event_name"] == "Wednesday league"
    api.get(f"/api/register/{code}?token={reg['token']}&extra=1", expect=422)
    wrong = _register(api, code, "x" * 22, "Sneaky", ["S 1", "S 2"], expect=403).get_json()
    assert wrong["code"] == "wrong-registration-link"
    bad = _register(api, code, reg["token"], "Trio", ["T 1", "T 2", "T 3"],
                    expect=422).get_json()
    assert "exactly 2 players" in bad["detail"]
    assert api.get(f"/api/events/{eid}/teams", expect=200).get_json() == []
    # A new link: the old one stops working.
    new = _open_registration(api, eid, key, rotate=True)
    assert new["token"] != reg["token"]
    _register(api, code, reg["token"], "Old link", ["O 1", "O 2"], expect=403)
    # After the deadline (23:59 in Toronto is 04:59 UTC the next day), refused with the time.
    monkeypatch.setattr(captains, "utcnow", lambda: datetime(2027, 1, 5, 5, 0, tzinfo=UTC))
    late = _register(api, code, new["token"], "Too late", ["L 1", "L 2"],
                     expect=409).get_json()
    assert late["code"] == "registration-closed"
    assert "2027-01-04 23:59" in late["detail"] and "America/Toronto" in late["detail"]
    monkeypatch.setattr(captains, "utcnow", lambda: datetime(2027, 1, 5, 4, 58, tzinfo=UTC))
    _register(api, code, new["token"], "Just in time", ["J 1", "J 2"])


@pytest.mark.parametrize("lock_after_week", [1])
def test_the_roster_is_final_after_its_week_and_then_only_the_organizer_changes_it(
        api, lock_after_week):
    event, key, eid, teams, team_key, _ = _league(api, lock_after_week=lock_after_week)
    mine = teams["Captains"]["id"]
    url = f"/api/events/{eid}/teams/{mine}/roster"
    changed = api.put(url, key=team_key, expect=200, json={
        "substitutes": ["Cap Sub", "Cap Extra"], "players": ["Cap Ann", "Cap Bobby"]}
    ).get_json()
    assert changed["team"]["substitutes"] == ["Cap Sub", "Cap Extra"]
    assert changed["team"]["players"] == ["Cap Ann", "Cap Bobby"]
    assert not changed["roster_locked"]
    taken = api.put(url, key=team_key, json={"substitutes": ["Aces 1"]}, expect=409).get_json()
    assert "already registered" in taken["detail"]
    _schedule(api, eid, key)
    _play_week(api, event, key, 1)

    refused = api.put(url, key=team_key, json={"substitutes": ["Cap Sub"]},
                      expect=409).get_json()
    assert refused["code"] == "roster-locked"
    assert "after week 1" in refused["detail"] and "organizer" in refused["detail"]
    schedule = api.get(f"/api/events/{eid}/teams/{mine}/schedule", expect=200).get_json()
    assert schedule["roster_locked"] and "final" in schedule["roster_message"]
    assert schedule["team"]["substitutes"] == ["Cap Sub", "Cap Extra"], "nothing half-stored"
    by_organizer = api.put(url, key=key, json={"substitutes": ["Cap Sub"]},
                           expect=200).get_json()
    assert by_organizer["team"]["substitutes"] == ["Cap Sub"]
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert log[0]["action"] == "roster" and log[0]["before"]["substitutes"] == [
        "Cap Sub", "Cap Extra"]


def test_a_player_who_has_played_is_replaced_not_renamed(api):
    """Before the lock, a captain swaps in a new player after week 1: the one replaced keeps
    the games played (as a substitute), and the weeks to come seat the new player; a player
    who has not played yet is simply renamed."""
    event, key, eid, teams, team_key, _ = _league(api)
    _schedule(api, eid, key)
    first = _play_week(api, event, key, 1)
    # A team that played week 1 (the organizer makes its captain's key), and the captains'
    # team, which had the bye.
    name = next(n for n, t in teams.items() if t["id"] in first)
    team = teams[name]["id"]
    assert teams["Captains"]["id"] not in first
    captain = api.post(f"/api/events/{eid}/teams/{team}/key", key=key,
                       expect=201).get_json()["key"]
    changed = api.put(f"/api/events/{eid}/teams/{team}/roster", key=captain, expect=200,
                      json={"players": [f"{name} 1", "New Face"]}).get_json()
    assert changed["team"]["players"] == [f"{name} 1", "New Face"]
    assert changed["team"]["substitutes"] == [f"{name} 2"]
    renamed = api.put(f"/api/events/{eid}/teams/{teams['Captains']['id']}/roster",
                      key=team_key, json={"players": ["Cap Ann", "Cap Cy"]},
                      expect=200).get_json()
    assert renamed["team"]["players"] == ["Cap Ann", "Cap Cy"]
    assert renamed["team"]["substitutes"] == ["Cap Sub"], "not played: renamed"

    rounds = {r["number"]: r["id"] for r in api.get(f"/api/events/{eid}/rounds",
                                                   expect=200).get_json()}

    def seated(week):
        tables = api.get(f"/api/rounds/{rounds[week]}", expect=200).get_json()["tables"]
        ours = next(t for t in tables if team in (t["team_a"]["id"], t["team_b"]["id"]))
        return [s["name"] for s in ours["seats"]]

    assert f"{name} 2" in seated(1) and "New Face" not in seated(1), "week 1 keeps who played"
    later = next(w for w in range(2, 8) if any(
        team in (t["team_a"]["id"], t["team_b"]["id"])
        for t in api.get(f"/api/rounds/{rounds[w]}", expect=200).get_json()["tables"]))
    assert "New Face" in seated(later) and f"{name} 2" not in seated(later)


def _dated_league(api, teams=("North", "South", "East", "West"), **overrides):
    event = api.create_event("league", **overrides)
    key = event["organizer_key"]
    for name in teams:
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    api.post(f"/api/events/{event['id']}/season", key=key, expect=201,
             json={"first_night": "2027-01-05", "start_time": "19:00"})
    return event, key


def test_a_change_to_the_seasons_nights_that_cannot_be_made_is_refused_saying_why(api):
    event, key = _dated_league(api)
    other, _ = _dated_league(api)
    url = f"/api/events/{event['id']}/season"
    season = api.get(url, expect=200).get_json()
    before = [w["date"] for w in season["weeks"]]
    first = season["weeks"][0]["matches"][0]["match_id"]
    elsewhere = api.get(f"/api/events/{other['id']}/season", expect=200).get_json()[
        "weeks"][0]["matches"][0]["match_id"]

    api.post(f"{url}/move-match", key=key, expect=404,
             json={"match_id": elsewhere, "date": "2027-01-07", "reason": "Hall"})
    problem = api.post(f"{url}/postpone", key=key, expect=422,
                       json={"week": 9, "mode": "shift", "reason": "Snow"}).get_json()
    assert problem["code"] == "no-such-week" and "the season has 3" in problem["detail"]
    problem = api.put(f"{url}/playoff-nights", key=key, expect=422, json={
        "nights": [{"round": 1, "date": "2027-03-02"}, {"round": 1, "date": "2027-03-09"}],
        "reason": "Hall"}).get_json()
    assert problem["code"] == "duplicate-round"

    round_ = api.seat_round(event, 1)
    api.hand(key, round_["tables"][0]["games"][0]["id"], "A", 3)
    problem = api.post(f"{url}/move-match", key=key, expect=409, json={
        "match_id": round_["tables"][0]["match_id"], "date": "2027-01-07",
        "reason": "Hall"}).get_json()
    assert problem["code"] == "match-started" and "does not move" in problem["detail"]
    assert [w["date"] for w in api.get(url, expect=200).get_json()["weeks"]] == before
    assert first


def test_playoff_nights_need_playoffs_and_a_season(api):
    event, key = _dated_league(api, playoff_games_per_match=0)
    problem = api.put(f"/api/events/{event['id']}/season/playoff-nights", key=key, expect=409,
                      json={"nights": [{"round": 1, "date": "2027-03-02"}],
                            "reason": "Hall"}).get_json()
    assert problem["code"] == "no-playoffs"
    fresh = api.create_event("league")
    problem = api.put(f"/api/events/{fresh['id']}/season/playoff-nights",
                      key=fresh["organizer_key"], expect=409,
                      json={"nights": [{"round": 1, "date": "2027-03-02"}],
                            "reason": "Hall"}).get_json()
    assert problem["code"] == "no-season" and "Schedule the season first" in problem["detail"]

"""A league season in two divisions through its playoffs (issue 26, section 5; RULES.md §6):
places and prizes per division with no overall place (board and standings.csv), playoff rounds
sharing a night or on a date of their own, a playoff match on its own night, every playoff
game's night in games.csv, a team page listing its playoff matches, and captains choosing a
division when the organizer offers them."""

from __future__ import annotations

import csv
import io
import itertools

from .scripts import to_target_game

UPPER = ["Aces", "Bowers", "Clubs"]
LOWER = ["Deuces", "Euchres", "Farmers"]
FIRST = "2027-01-05"  # a Tuesday: three weeks, the last on 2027-01-19
_sheets = itertools.count()


def _sheet(api, key, game_id, winner):
    """A game played from its paper sheet in one request: `winner` takes it 10-4."""
    return api.post(f"/api/games/{game_id}/paper-sheet", key=key, expect=201, json={
        "id": f"sheet-{next(_sheets)}", "hands": to_target_game(winner, 4)}).get_json()


def _league(api, division_final=True):
    event = api.create_event("league")
    key, eid = event["organizer_key"], event["id"]
    teams = {}
    for division, names in (("Upper", UPPER), ("Lower", LOWER)):
        for name in names:
            teams[name] = api.post(f"/api/events/{eid}/teams", key=key, json={
                "name": name, "players": [f"{name} 1", f"{name} 2"], "division": division},
                expect=201).get_json()["id"]
    api.post(f"/api/events/{eid}/season", key=key, json={
        "first_night": FIRST, "start_time": "19:00", "division_final": division_final},
        expect=201)
    return event, key, eid, teams


def _finish(api, event, key, round_, winner="A"):
    """Play every match of a seated round out (side `winner` takes each game; a best-of-3
    match's next game, once one is over, is read from the sheet's answer) and close it."""
    for table in round_["tables"]:
        waiting = [g["id"] for g in table["games"]]
        while waiting:
            match = _sheet(api, key, waiting[0], winner)["match"]
            waiting = [g["id"] for g in match["games"] if not g["over"]]
    api.close_round(event, round_["id"])
    return round_


def _play_round(api, event, key, winner="A"):
    """Seat the next round and play it out."""
    return _finish(api, event, key, api.seat_round(event), winner)


def _season(api, event, key):
    for _ in range(3):
        _play_round(api, event, key)


def _csv(api, eid, key, name):
    text = api.get(f"/api/events/{eid}/export/{name}.csv", key=key, expect=200)
    return list(csv.DictReader(io.StringIO(text.get_data(as_text=True).lstrip("\ufeff"))))


def test_places_and_prizes_are_per_division_with_no_overall_place(api):
    event, key, eid, teams = _league(api)
    _season(api, event, key)
    board = api.leaderboard(event)
    rows = board["rows"]
    for division in ("Upper", "Lower"):
        mine = [r for r in rows if r["division"] == division]
        assert len(mine) == 3
        # Each division is ranked on its own: its places are 1-3, the place shown is the
        # division place, and its first place is a prize place (the league preset's one).
        assert sorted(r["place"] for r in mine) == [1, 2, 3]
        assert all(r["place"] == r["division_place"] for r in mine)
        assert [r["prize"] for r in sorted(mine, key=lambda r: r["place"])] == \
            [True, False, False]
    # The rows come division by division: no overall order runs across them.
    assert [r["division"] for r in rows] == ["Lower"] * 3 + ["Upper"] * 3
    assert max(r["place"] for r in rows) == 3

    standings = _csv(api, eid, key, "standings")
    assert "place" not in standings[0], "no overall place is exported"
    assert list(standings[0])[:2] == ["division", "division_place"]
    by_name = {r["name"]: r for r in standings}
    for row in rows:
        line = by_name[row["name"]]
        assert line["division"] == row["division"]
        assert line["division_place"] == str(row["division_place"])
        assert line["prize"] == ("yes" if row["prize"] else "no")


def test_playoff_rounds_share_a_night_or_take_their_own(api):
    event, key, eid, teams = _league(api)
    _season(api, event, key)
    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    # Three rounds: each division's semifinal and final, then the final between the winners;
    # by default a week apart after the season's last night (2027-01-19).
    assert [r["date"] for r in bracket["rounds"]] == ["2027-01-26", "2027-02-02", "2027-02-09"]

    url = f"/api/events/{eid}/season/playoff-nights"
    # Bad nights are refused with the reason, and nothing is stored.
    early = api.put(url, key=key, json={"nights": [{"round": 1, "date": "2027-01-19"}]},
                    expect=409).get_json()
    assert early["code"] == "night-taken" and "2027-01-19" in early["detail"]
    backwards = api.put(url, key=key, json={"nights": [
        {"round": 1, "date": "2027-02-02"}, {"round": 2, "date": "2027-01-27"}]},
        expect=409).get_json()
    assert "round 1" in backwards["detail"]
    api.put(url, key=key, json={"nights": [{"round": 1, "date": "2027-02-30"}]}, expect=422)
    api.put(url, key=key, json={"nights": [{"round": 1, "date": "2027-01-26"},
                                           {"round": 1, "date": "2027-01-27"}]}, expect=422)
    again = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert [r["date"] for r in again["rounds"]] == ["2027-01-26", "2027-02-02", "2027-02-09"]

    # Both division rounds on one night, the final on a Saturday of its own.
    set_ = api.put(url, key=key, json={"nights": [
        {"round": 1, "date": "2027-01-26"}, {"round": 2, "date": "2027-01-26"},
        {"round": 3, "date": "2027-01-30"}], "reason": "Two rounds a night"},
        expect=200).get_json()
    assert [r["date"] for r in set_["rounds"]] == ["2027-01-26", "2027-01-26", "2027-01-30"]
    assert all(r["chosen"] for r in set_["rounds"])
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert log[0]["action"] == "playoff-nights"

    first = _play_round(api, event, key)
    second = api.seat_round(event)
    # One match of the division finals moves to its own night, between its round's and the
    # final's; a night after the final is refused.
    match = second["tables"][0]["match_id"]
    late = api.post(f"/api/events/{eid}/season/move-match", key=key, expect=409, json={
        "match_id": match, "date": "2027-02-06"}).get_json()
    assert late["code"] == "night-taken"
    moved = api.post(f"/api/events/{eid}/season/move-match", key=key, expect=200, json={
        "match_id": match, "date": "2027-01-28", "reason": "A wedding"}).get_json()
    assert moved["changes"][-1]["to"] == "2027-01-28"
    _finish(api, event, key, second)
    final = _play_round(api, event, key)

    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    moved_row = next(m for r in bracket["rounds"] for m in r["matches"]
                     if m["match_id"] == match)
    assert moved_row["date"] == "2027-01-28"

    # games.csv: every playoff game has its night (none empty).
    games = _csv(api, eid, key, "games")
    playoff = [g for g in games if int(g["round"]) > 3]
    assert playoff and all(g["night"] for g in playoff)
    night_of = {(g["round"], g["table"]): g["night"] for g in playoff}
    assert {night_of[(str(first["number"]), str(t["table"]))]
            for t in first["tables"]} == {"2027-01-26"}
    assert night_of[(str(second["number"]), str(second["tables"][0]["table"]))] == "2027-01-28"
    assert {night_of[(str(final["number"]), str(t["table"]))]
            for t in final["tables"]} == {"2027-01-30"}
    # Regular weeks keep theirs.
    assert {g["night"] for g in games if g["round"] == "1"} == {FIRST}

    # A finalist's team page lists its playoff matches with their nights.
    finalist = final["tables"][0]["team_a"]["id"]
    page = api.get(f"/api/events/{eid}/teams/{finalist}/schedule", expect=200).get_json()
    assert [w["week"] for w in page["weeks"]] == [1, 2, 3]
    nights = [(p["label"], p["date"]) for p in page["playoffs"]]
    assert nights[-1] == ("Final", "2027-01-30")
    assert all(p["opponent"]["name"] and p["games_won"] for p in page["playoffs"])
    assert page["playoffs"][-1]["won"] is True  # side A took every game


def test_a_chosen_playoff_night_stays_after_the_season(api):
    """A playoff night the organizer chose holds the season in: a cancelled week made up on
    or after it is refused, naming the playoff round."""
    event, key, eid, teams = _league(api, division_final=False)
    api.put(f"/api/events/{eid}/season/playoff-nights", key=key, expect=200,
            json={"nights": [{"round": 1, "date": "2027-01-26"}]})
    refused = api.post(f"/api/events/{eid}/season/postpone", key=key, expect=409,
                       json={"week": 2}).get_json()
    assert "Playoff round 1" in refused["detail"]
    season = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    assert season["changes"] == []
    # Back to its default (null): the make-up goes through, the playoffs a week after it.
    api.put(f"/api/events/{eid}/season/playoff-nights", key=key, expect=200,
            json={"nights": [{"round": 1, "date": None}]})
    api.post(f"/api/events/{eid}/season/postpone", key=key, expect=200, json={"week": 2})
    bracket = api.get(f"/api/events/{eid}/bracket", expect=200).get_json()
    assert bracket["rounds"][0]["date"] == "2027-02-02"


def test_captains_choose_a_division_when_the_organizer_offers_them(api):
    event = api.create_event("league")
    key, eid, code = event["organizer_key"], event["id"], event["code"]
    reg = api.put(f"/api/events/{eid}/registration", key=key, expect=200,
                  json={"divisions": ["Upper", "Lower"]}).get_json()
    assert reg["divisions"] == ["Upper", "Lower"]
    page = api.get(f"/api/register/{code}?token={reg['token']}", expect=200).get_json()
    assert page["divisions"] == ["Upper", "Lower"]

    def register(name, **more):
        return api.post(f"/api/register/{code}", json={
            "token": reg["token"], "name": name, "players": [f"{name} 1", f"{name} 2"],
            **more}, expect=None)

    missing = register("Aces")
    assert missing.status_code == 422 and "Upper" in missing.get_json()["detail"]
    wrong = register("Aces", division="Middle")
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "no-such-division"
    assert api.get(f"/api/events/{eid}/teams").get_json() == [], "nothing half-stored"
    made = register("Aces", division="lower")
    assert made.status_code == 201
    assert made.get_json()["team"]["division"] == "Lower"
    team = made.get_json()["team"]["id"]
    schedule = api.get(f"/api/events/{eid}/teams/{team}/schedule", expect=200).get_json()
    assert schedule["team"]["division"] == "Lower" and schedule["playoffs"] == []

    # Without divisions on offer, a captain's division is refused (the organizer places).
    api.put(f"/api/events/{eid}/registration", key=key, expect=200, json={"divisions": []})
    refused = register("Bowers", division="Upper")
    assert refused.status_code == 422 and refused.get_json()["code"] == "no-divisions"
    assert register("Bowers").status_code == 201
    dup = api.put(f"/api/events/{eid}/registration", key=key, expect=422,
                  json={"divisions": ["Upper", "upper"]}).get_json()
    assert dup["code"] == "duplicate-name"

"""People's data (RULES.md section 9): erasing a person leaves their name nowhere and every
total as it was; a person's data as one file; the club's privacy settings."""

from __future__ import annotations

import re
import uuid

import pytest

from .scripts import to_target_game

NAMES = ["Ann Baker", "Will", "Will Smith", "Cy Young", "Dee Long", "Eve Park", "Fay Moss",
         "Gus Hill"]


def _club(api, **settings):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    if settings:
        api.patch(f"/api/clubs/{made['id']}", key=made["club_key"], json=settings, expect=200)
    return made


def _played_night(api, club, names=NAMES):
    key = club["club_key"]
    event = api.post(f"/api/clubs/{club['id']}/events", key=key,
                     json={"name": "January", "preset": "progressive"}, expect=201).get_json()
    for name in names:
        api.post(f"/api/events/{event['id']}/players", key=key,
                 json={"name": name, "checked_in": True, "people": {name: "new"}},
                 expect=201)
    seated = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    games = [g["id"] for t in seated["tables"] for g in t["games"]]
    for game in games:
        for number in range(3):
            api.post(f"/api/games/{game}/hands", key=key,
                     json={"id": uuid.uuid4().hex[:12], "maker": "AB"[number % 2],
                           "tricks": 3 + number % 3,
                           "note": "Ann Baker dealt" if number == 0 else None},
                     expect=201)
    return event, games


def _reads(api, app, club, event, games, series_id) -> dict[str, str]:
    """Every GET the app has whose arguments this club and night can fill, as the club key
    and as the public see them."""
    people = api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                     expect=200).get_json()
    players = api.get(f"/api/events/{event['id']}/players", key=club["club_key"],
                      expect=200).get_json()
    ids = {"event_id": event["id"], "club_id": club["id"], "code": event["code"],
           "slug": club["slug"], "game_id": games[0],
           "person_id": people[0]["id"]}
    ids["player_id"] = players[0]["id"]
    ids["series_id"] = series_id
    seen = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or not rule.rule.startswith("/api/") or \
                rule.rule.startswith(("/api/docs", "/api/openapi")):
            continue
        if not set(rule.arguments) <= set(ids):
            continue
        path = rule.rule
        for name in rule.arguments:
            path = re.sub(rf"<(?:[^:>]+:)?{name}>", str(ids[name]), path)
        for who, key in (("club", club["club_key"]), ("public", None)):
            answer = api.get(path, key=key)
            if answer.status_code == 200:
                seen[f"{who} {path}"] = answer.get_data(as_text=True)
    return seen


def _totals(api, event):
    board = api.get(f"/api/events/{event['id']}/leaderboard", expect=200).get_json()
    rows = board.get("rows") or board.get("standings") or []
    return sorted((r.get("total", r.get("points")), r.get("place")) for r in rows)


def test_an_erased_person_is_named_nowhere_and_every_total_stays(api, app):
    club = _club(api)
    event, games = _played_night(api, club)
    before = _totals(api, event)
    ann = next(p for p in api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                                  expect=200).get_json() if p["name"] == "Ann Baker")
    # Everything that keeps names is made and read once before: series tables, profiles,
    # boards and finishes are kept, and must be read afresh.
    series_id = api.post(f"/api/clubs/{club['id']}/series", key=club["club_key"],
                         json={"name": "Year", "event_ids": [event["id"]]},
                         expect=201).get_json()["id"]
    _reads(api, app, club, event, games, series_id)
    erased = api.post(f"/api/clubs/{club['id']}/people/{ann['id']}/erase",
                      key=club["club_key"], expect=200).get_json()
    assert erased["name"] == "Former player 1" and erased["erased"] is True
    reads = _reads(api, app, club, event, games, series_id)
    assert len(reads) > 15, sorted(reads)
    for where, text in reads.items():
        assert "ann baker" not in text.lower(), where
    assert any("Former player 1" in text for text in reads.values())
    assert _totals(api, event) == before
    # A second erase changes nothing, and the audit entry names no one.
    again = api.post(f"/api/clubs/{club['id']}/people/{ann['id']}/erase",
                     key=club["club_key"], expect=200).get_json()
    assert again["name"] == "Former player 1"
    audit = api.get(f"/api/clubs/{club['id']}/audit", key=club["club_key"],
                    expect=200).get_json()
    assert audit[0]["action"] == "erase"


def test_erasing_a_short_name_leaves_a_longer_name_that_holds_it(api, app):
    club = _club(api)
    event, games = _played_night(api, club)
    will = next(p for p in api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                                   expect=200).get_json() if p["name"] == "Will")
    api.post(f"/api/clubs/{club['id']}/people/{will['id']}/erase", key=club["club_key"],
             expect=200)
    names = {p["name"] for p in api.get(f"/api/events/{event['id']}/players",
                                        expect=200).get_json()}
    assert "Will Smith" in names and "Will" not in names and "Former player 1" in names


def test_only_the_club_erases_or_reads_a_persons_file(api):
    club = _club(api)
    event, _ = _played_night(api, club)
    person = api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                     expect=200).get_json()[0]
    for key in (None, event["organizer_key"]):
        assert api.post(f"/api/clubs/{club['id']}/people/{person['id']}/erase",
                        key=key).status_code in (401, 403)
        assert api.get(f"/api/clubs/{club['id']}/people/{person['id']}/data",
                       key=key).status_code in (401, 403)
    missing = api.post(f"/api/clubs/{club['id']}/people/999999/erase", key=club["club_key"])
    assert missing.status_code == 404
    assert missing.headers["Content-Type"].startswith("application/problem+json")


def test_a_persons_data_file_holds_their_nights_and_every_hand_they_sat_in(api):
    club = _club(api)
    event, games = _played_night(api, club)
    ann = next(p for p in api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                                  expect=200).get_json() if p["name"] == "Ann Baker")
    answer = api.get(f"/api/clubs/{club['id']}/people/{ann['id']}/data", key=club["club_key"],
                     expect=200)
    assert "attachment" in answer.headers["Content-Disposition"]
    data = answer.get_json()
    assert data["format"] == "euchre-person-data" and data["version"] == 1
    assert data["person"]["name"] == "Ann Baker"
    assert [n["event"] for n in data["nights"]] == ["January"]
    assert len(data["hands"]) == 3  # one game of three hands at her table
    for hand in data["hands"]:
        assert hand["points_for_side"] + hand["points_against"] > 0
        assert hand["side"] in "AB"


@pytest.mark.parametrize("private", [True, False])
def test_the_club_chooses_whether_new_people_are_private(api, private):
    club = _club(api, people_private_by_default=private)
    _played_night(api, club)
    people = api.get(f"/api/clubs/{club['id']}/people", key=club["club_key"],
                     expect=200).get_json()
    assert {p["private"] for p in people} == {private}
    public = api.get(f"/api/clubs/{club['id']}/people", expect=200).get_json()
    assert len(public) == (0 if private else len(NAMES))


def _robots(api, path) -> str | None:
    answer = api.get(path, expect=200)
    try:
        return answer.headers.get("X-Robots-Tag")
    finally:
        answer.close()


def test_peoples_pages_are_not_for_search_engines_unless_the_club_opts_in(api):
    club = _club(api)
    _played_night(api, club)
    person = api.get(f"/api/clubs/{club['id']}/people", expect=200).get_json()[0]
    page = f"/c/{club['slug']}/people/{person['id']}"
    profile = f"/api/clubs/{club['id']}/people/{person['id']}"
    assert "noindex" in _robots(api, page)
    assert "noindex" in _robots(api, profile)
    api.patch(f"/api/clubs/{club['id']}", key=club["club_key"], json={"indexable": True},
              expect=200)
    assert _robots(api, page) is None
    assert _robots(api, profile) is None
    assert _robots(api, "/") is None



def test_a_persons_data_file_holds_the_league_protests_about_them_and_their_team(api):
    """A protest about a player's eligibility is the club's record about that person and
    about the team that lodged it: both people's files hold it, saying whom it is about."""
    club = _club(api)
    key = club["club_key"]
    made = api.post(f"/api/clubs/{club['id']}/events", key=key,
                    json={"name": "Winter league", "preset": "league"}, expect=201).get_json()
    event = {**made, "organizer_key": key}
    teams = {name: api.add_team(event, name, [f"{name} One", f"{name} Two"],
                                people={f"{name} One": "new", f"{name} Two": "new"})
             for name in ("North", "South")}
    api.post(f"/api/events/{event['id']}/season", key=key, json={"weeks": 1}, expect=201)
    week = api.seat_round(event)
    for game in (g for t in week["tables"] for g in t["games"]):
        if api.game(game["id"])["end"] is None:
            api.post(f"/api/games/{game['id']}/paper-sheet", key=key, expect=201, json={
                "id": uuid.uuid4().hex[:12], "hands": to_target_game("A", 4)})
    api.close_round(event, week["id"])
    final = api.seat_round(event)["tables"][0]["games"][0]
    south = teams["South"]["members"][0]
    api.post(f"/api/games/{final['id']}/protests", key=key, expect=201,
             json={"player_id": south["id"], "grounds": "Not on South's roster"})
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club['id']}/people", key=key,
                                                  expect=200).get_json()}

    def protests(name):
        return api.get(f"/api/clubs/{club['id']}/people/{people[name]}/data", key=key,
                       expect=200).get_json()["protests"]

    about = protests(south["name"])
    assert [(p["about_player"], p["against_team"], p["lodged_by_team"], p["status"],
             p["about_you"], p["grounds"], p["event"]) for p in about] == [
        (south["name"], "South", "North", "waiting", True, "Not on South's roster",
         "Winter league")]
    assert [(p["about_player"], p["about_you"]) for p in protests("North Two")] == [
        (south["name"], False)]

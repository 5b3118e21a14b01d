"""A portable file that is malformed in each way the import checks for is refused whole: 422
problem+json (`bad-portable-file`) naming the bad path and why, and nothing is stored. And
the ids a night keeps inside its JSON (the recorded order, named awards, door-prize draws)
read back right when the import moves them past the ids already in use."""

from __future__ import annotations

import copy
import json
import uuid

from api.core.db import db
from api.core.models import Club, Event
from api.portable.remap import move_event_json

from .client import play_sheet
from .portable_helpers import night_reads, standings_hash
from .scripts import fixed_hands_game

NAMES = ["Ann Baker", "Bo Diaz", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ito"]


def _night(api, event: dict) -> None:
    """Eight players, round 1 seated, both its games played from their sheets, closed."""
    key = event["organizer_key"]
    api.add_players(event, NAMES)
    round_ = api.seat_round(event, 1)
    for n, table in enumerate(round_["tables"]):
        play_sheet(api, key, table["games"][0]["id"], fixed_hands_game(7 + n, 3, 8))
    api.close_round(event, round_["id"])


def _event_file(api) -> tuple[dict, dict]:
    event = api.create_event("progressive", name="Portable night")
    _night(api, event)
    document = api.get(f"/api/events/{event['id']}/export/portable.json",
                       key=event["organizer_key"], expect=200)
    return event, json.loads(document.get_data(as_text=True))


def _club_file(api) -> dict:
    club = api.post("/api/clubs", json={"name": "Portable club",
                                        "slug": f"pc-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    key = club["club_key"]
    night = api.post(f"/api/clubs/{club['id']}/events", key=key,
                     json={"name": "January", "preset": "progressive"}, expect=201).get_json()
    for name in NAMES[:4]:
        api.post(f"/api/events/{night['id']}/players", key=key, expect=201,
                 json={"name": name, "checked_in": True, "people": {name: "new"}})
    api.post(f"/api/clubs/{club['id']}/series", key=key, expect=201,
             json={"name": "Year", "event_ids": [night["id"]]})
    answer = api.get(f"/api/clubs/{club['id']}/export/portable.json", key=key, expect=200)
    return json.loads(answer.get_data(as_text=True))


def _counts(app) -> tuple[int, int]:
    with app.app_context():
        return db.session.query(Event).count(), db.session.query(Club).count()


def _refused(api, document, path: str, words: str) -> dict:
    problem = api.post("/api/import", json=document)
    assert problem.status_code == 422, (path, problem.get_json())
    assert problem.mimetype == "application/problem+json"
    problem = problem.get_json()
    assert problem["code"] == "bad-portable-file", problem
    assert path in problem["errors"], (path, problem["errors"])
    assert any(words in why for why in problem["errors"][path]), (words, problem["errors"])
    assert path in problem["detail"], problem["detail"]
    return problem


def _changed(document: dict, change) -> dict:
    bad = copy.deepcopy(document)
    change(bad)
    return bad


def _set(*steps_and_value):
    """A change that sets document[step][step]... to the value."""
    *steps, last, value = steps_and_value

    def change(doc):
        for step in steps:
            doc = doc[step]
        doc[last] = value
    return change


def _delete(*steps):
    def change(doc):
        for step in steps[:-1]:
            doc = doc[step]
        del doc[steps[-1]]
    return change


def test_a_malformed_event_file_is_refused_naming_the_fault_and_stores_nothing(api, app):
    _, document = _event_file(api)
    before = _counts(app)
    night = document["nights"][0]
    long_name = "x" * 500
    cases = [
        (_set("version", "1"), "version", "integer"),
        (_set("version", True), "version", "integer"),
        (_set("nights", 0, "event", "created_at", "2026-11-27T18:00:00"),
         "nights[0].event[0].created_at", "with its offset"),
        (_set("nights", 0, "event", "night_date", "2026-13-45"),
         "nights[0].event[0].night_date", "a date (YYYY-MM-DD)"),
        (_set("nights", 0, "players", 0, "name", "Ann\x00Baker"),
         "nights[0].players[0].name", "NUL"),
        (_set("nights", 0, "players", 0, "name", long_name),
         "nights[0].players[0].name", "characters"),
        (_set("nights", 0, "players", 0, "name", 42), "nights[0].players[0].name",
         "must be text"),
        (_set("nights", 0, "players", 0, "name", None), "nights[0].players[0].name",
         "must not be null"),
        (_delete("nights", 0, "players", 0, "name"), "nights[0].players[0].name",
         "is missing"),
        (_set("nights", 0, "players", 0, "nickname", "Annie"),
         "nights[0].players[0].nickname", "not a field"),
        (_set("nights", 0, "players", "everyone"), "nights[0].players", "must be a list"),
        (_set("nights", 0, "players", 0, "Ann Baker"), "nights[0].players[0]",
         "must be an object"),
        (_set("nights", 0, "seats", 1, "seat", night["seats"][0]["seat"]),
         "nights[0].seats[1].seat", "used twice (match_id, seat)"),
        (_set("nights", 0, "hands", 1, "number", night["hands"][0]["number"]),
         "nights[0].hands[1].number", "used twice (game_id, number)"),
        (_set("nights", "one night"), "nights", "must be a list of one night"),
        (_set("nights", []), "nights", "must be a list of one night"),
        (_set("nights", [night, night]), "nights", "an event's file holds one night"),
        (_set("nights", [7]), "nights[0]", "must be an object"),
        (_set("nights", 0, "event", ["settings"]), "nights[0].event", "must be an object"),
        # An entrant the results name is none of the night's: checked as the rows are stored.
        (_set("nights", 0, "results", 0, "entrant_id", 999_999), "nights[0].results",
         "entrant_id 999999"),
        (_set("nights", 0, "event", "parameters", {"target_points": "many"}),
         "nights[0].event.parameters", "not a readable format"),
        # Ids inside the event's JSON columns, and their shapes.
        (_set("nights", 0, "event", "manual_order", ["Ann"]),
         "nights[0].event.manual_order", "bad shape"),
        (_set("nights", 0, "event", "manual_order", {"first": 1}),
         "nights[0].event.manual_order.first", "bad shape"),
        (_set("nights", 0, "event", "finishes", {"rows": "all"}),
         "nights[0].event.finishes", "bad shape"),
        (_set("nights", 0, "event", "finishes", {"rows": [[1, 2]]}),
         "nights[0].event.finishes.rows[0]", "bad shape"),
        (_set("nights", 0, "event", "named_awards", {"name": "Best"}),
         "nights[0].event.named_awards", "bad shape"),
        (_set("nights", 0, "event", "named_awards", [{"name": "Best", "winners": 3}]),
         "nights[0].event.named_awards[0].winners", "bad shape"),
        (_set("nights", 0, "event", "draws", [3]), "nights[0].event.draws", "bad shape"),
        (_set("nights", 0, "event", "draws", [{"winners": [True]}]),
         "nights[0].event.draws[0].winners[0]", "bad shape"),
        (_set("nights", 0, "event", "schedule", [1, 2]), "nights[0].event.schedule",
         "bad shape"),
        (_set("nights", 0, "event", "schedule", {"season": 5}),
         "nights[0].event.schedule.season", "bad shape"),
        (_set("nights", 0, "event", "schedule", {"brackets": [1]}),
         "nights[0].event.schedule.brackets", "bad shape"),
        (_set("nights", 0, "event", "schedule", {"moves": {}}),
         "nights[0].event.schedule.moves", "bad shape"),
        (_set("nights", 0, "event", "schedule", {"moves": ["week 2"]}),
         "nights[0].event.schedule.moves[0]", "bad shape"),
        (_set("nights", 0, "event", "schedule", {"moves": [{"match_id": 999_999}]}),
         "nights[0].event.schedule.moves[0].match_id", "bad shape"),
    ]
    for change, path, words in cases:
        _refused(api, _changed(document, change), path, words)

    # Many faults: the first is named in the sentence, twenty in `errors`.
    many = _changed(document, lambda doc: [h.update(tricks="five", maker="C")
                                           for h in doc["nights"][0]["hands"]])
    assert 2 * len(night["hands"]) > 20
    problem = _refused(api, many, "nights[0].hands[0].maker", "one of A, B")
    assert len(problem["errors"]) == 20 and "(and 19 more)" in problem["detail"]

    # Two players in one place of the night's order: the database's own rule, still a 422
    # that says the file contradicts itself.
    twice = _changed(document, _set("nights", 0, "players", 1, "position",
                                    night["players"][0]["position"]))
    problem = api.post("/api/import", json=twice, expect=422).get_json()
    assert problem["code"] == "bad-portable-file" and "contradicts itself" in problem["detail"]
    assert _counts(app) == before, "nothing half-stored"


def test_a_malformed_club_file_is_refused_and_a_good_one_keeps_the_address_asked(api, app):
    document = _club_file(api)
    before = _counts(app)
    cases = [
        (_set("club", None), "club", "must be an object in a club's file"),
        (_set("nights", {"January": 1}), "nights", "must be a list"),
        (_set("series", 0, "nights", [999_999]), "series[0].nights", "ids of nights"),
        (_set("series", 0, "nights", "all"), "series[0].nights", "ids of nights"),
        (_set("people", 1, "id", document["people"][0]["id"]), "people[1].id", "used twice"),
        (_set("nights", 0, "players", 0, "person_id", 999_999),
         "nights[0].players[0].person_id", "names no row of 'people'"),
    ]
    for change, path, words in cases:
        _refused(api, _changed(document, change), path, words)
    assert _counts(app) == before, "nothing half-stored"

    slug = f"moved-{uuid.uuid4().hex[:8]}"
    made = api.post(f"/api/import?slug={slug}", json=document, expect=201).get_json()
    assert made["slug"] == slug
    assert api.get(f"/api/clubs/{made['club_id']}", expect=200).get_json()["name"] == \
        "Portable club"
    taken = api.post(f"/api/import?slug={slug}", json=document, expect=201).get_json()
    assert taken["slug"] != slug, "an address in use is not taken from its club"


def _recorded_names(api, event_id: int) -> list[str]:
    board = api.get(f"/api/events/{event_id}/leaderboard", expect=200).get_json()
    names = {r["entrant_id"]: r["name"] for r in board["rows"]}
    return [names[e] for e in board["recorded_order"]]


def test_the_order_awards_and_draws_of_a_night_read_the_same_after_the_ids_move(api):
    event, _ = _event_file(api)
    key, url = event["organizer_key"], f"/api/events/{event['id']}"
    players = {p["name"]: p["id"] for p in api.get(f"{url}/players", expect=200).get_json()}
    api.put(f"{url}/named-awards", key=key, expect=200, json={"awards": [
        {"name": "Farthest Traveler", "winners": [players["Eve Park"]], "note": "Ohio"},
        {"name": "Sportsmanship", "winners": [players["Bo Diaz"], players["Hal Ito"]]}]})
    api.post(f"{url}/draws", key=key, json={"count": 2}, expect=201)
    board = api.leaderboard(event)["rows"]
    level = [r["entrant_id"] for r in board if r["total"] == board[-1]["total"]]
    api.put(f"{url}/tiebreak", key=key, json={"order": list(reversed(level))}, expect=200)
    before = night_reads(api, event["id"], key)
    document = json.loads(api.get(f"{url}/export/portable.json", key=key, expect=200)
                          .get_data(as_text=True))
    assert document["nights"][0]["event"]["manual_order"]

    made = api.post("/api/import", json=document, expect=201).get_json()
    assert made["event_id"] != event["id"]
    after = night_reads(api, made["event_id"], made["key"])
    names = [_recorded_names(api, e) for e in (event["id"], made["event_id"])]
    assert names[0] == names[1] and len(names[0]) == len(level)
    for reads in (before, after):
        reads["leaderboard"][1].pop("recorded_order")  # the entrants' ids, moved
    from .test_portable import _differences
    assert standings_hash(after) == standings_hash(before), _differences(before, after)
    winners = api.get(f"/api/events/{made['event_id']}/named-awards", expect=200).get_json()
    assert [[w["name"] for w in a["winners"]] for a in winners] == [
        ["Eve Park"], ["Bo Diaz", "Hal Ito"]]


def test_a_schedules_ids_move_with_their_rows_and_a_bye_stays_a_bye():
    """A league in divisions (each division's bracket), a WEC night's fixed games (players)
    and a moved match: every id moved by its own table's offset, nulls (a bye) kept."""
    teams, players, matches = (lambda n: n + 100), (lambda n: n + 200), (lambda n: n + 300)
    event = {"schedule": {
        "brackets": {"East": [[[1, 2], [3, None]]], "West": [[[4, 5]]]},
        "games": [[[1, 2], [3, 4]]],
        "moves": [{"match_id": 7, "from_week": 2, "to_week": 3}, {"note": "rain"}],
        "weeks": 3}}
    move_event_json(event, players, teams, players, matches, "nights[0].event")
    schedule = event["schedule"]
    assert schedule["brackets"] == {"East": [[[101, 102], [103, None]]], "West": [[[104, 105]]]}
    assert schedule["games"] == [[[201, 202], [203, 204]]]
    assert schedule["moves"] == [{"match_id": 307, "from_week": 2, "to_week": 3},
                                 {"note": "rain"}]
    assert schedule["weeks"] == 3

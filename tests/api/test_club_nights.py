"""A club's year, night by night (issue 26.6, RULES.md §5): one meaning of "loner made"
everywhere, a night's own date (a past month entered late sits in its month), a private
person's cells in the public CSV masked rather than blank, and a night made by mistake
deleted while nothing was scored in it, archived otherwise."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date, timedelta

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]


def _club(api):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def _night(api, club, key, name, names=NAMES):
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": name, "preset": "progressive"}, expect=201).get_json()
    for n in names:
        api.post(f"/api/events/{event['id']}/players", key=key,
                 json={"name": n, "checked_in": True}, expect=201)
    return event


def _hand(api, key, game, maker, tricks, alone=False, loner_seat=None):
    body = {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": tricks, "alone": alone}
    if loner_seat:
        body["loner_seat"] = loner_seat
    api.post(f"/api/games/{game}/hands", key=key, json=body, expect=201)


def _play(api, key, event, hands):
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    for table in round_["tables"]:
        for hand in hands:
            _hand(api, key, table["games"][0]["id"], *hand)
    return round_


def _person_at(api, event, round_, seat):
    player = next(s["player_id"] for s in round_["tables"][0]["seats"] if s["seat"] == seat)
    return next(p["person_id"] for p in api.get(f"/api/events/{event['id']}/players")
                .get_json() if p["id"] == player)


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def test_a_lone_march_is_a_loner_made_in_the_profile_as_in_the_award(api):
    club, key = _club(api)
    night = _night(api, club, key, "Jan")
    # Seat 1 goes alone twice: marches once, makes 3 once; one euchred loner.
    round_ = _play(api, key, night, [("A", 5, True, 1), ("A", 3, True, 1), ("A", 1, True, 1)])
    person = _person_at(api, night, round_, 1)
    stats = api.get(f"/api/clubs/{club}/people/{person}", expect=200).get_json()["stats"]
    assert stats["loners"] == 3 and stats["loners_made"] == 2 and stats["loners_marched"] == 1
    assert stats["loners_euchred"] == 1
    api.patch(f"/api/events/{night['id']}", key=key, json={"hand_awards": ["most-loners"]},
              expect=200)
    award = api.get(f"/api/events/{night['id']}/awards").get_json()["hands"][0]
    assert award["award"] == "most-loners" and award["value"] == stats["loners_made"]


def test_a_night_entered_late_sits_on_the_day_it_was_played(api):
    club, key = _club(api)
    # Typed in today, in this order, but played in January, March and February.
    jan, mar, feb = (_night(api, club, key, n) for n in ("Jan", "Mar", "Feb"))
    today = api.get(f"/api/clubs/{club}/events").get_json()[0]["date"]
    assert date.fromisoformat(today) in {date.today() + timedelta(days=d) for d in (-1, 0, 1)}
    for event, day in ((jan, "2026-01-09"), (mar, "2026-03-13"), (feb, "2026-02-13")):
        changed = api.patch(f"/api/clubs/{club}/events/{event['id']}", key=key,
                            json={"date": day}, expect=200).get_json()
        assert changed["date"] == day and changed["archived"] is False
        _play(api, key, event, [("A", 3), ("B", 3)])
    series = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "2026", "event_ids": [jan["id"], mar["id"], feb["id"]]},
        expect=201).get_json()
    table = api.get(f"/api/clubs/{club}/series/{series['id']}", expect=200)
    events = table.get_json()["events"]
    assert [(e["name"], e["date"]) for e in events] == [
        ("Jan", "2026-01-09"), ("Feb", "2026-02-13"), ("Mar", "2026-03-13")]
    header = _csv(api.get(f"/api/clubs/{club}/series/{series['id']}/standings.csv"))[0]
    assert header[5:] == ["Jan", "Feb", "Mar"]
    person = api.get(f"/api/clubs/{club}/people").get_json()[0]["id"]
    profile = api.get(f"/api/clubs/{club}/people/{person}", expect=200).get_json()
    assert [(e["name"], e["date"]) for e in profile["events"]] == [
        ("Jan", "2026-01-09"), ("Feb", "2026-02-13"), ("Mar", "2026-03-13")]
    assert [e["name"] for e in api.get(f"/api/clubs/{club}").get_json()["events"]] == \
        ["Mar", "Feb", "Jan"], "the club's page: the latest night first"
    # Moving a night moves it everywhere, at once (the series' ETag changes).
    tag = table.headers["ETag"]
    api.patch(f"/api/clubs/{club}/events/{jan['id']}", key=key, json={"date": "2026-04-10"},
              expect=200)
    moved = api.get(f"/api/clubs/{club}/series/{series['id']}",
                    headers={"If-None-Match": tag}, expect=200).get_json()
    assert [e["name"] for e in moved["events"]] == ["Feb", "Mar", "Jan"]
    profile = api.get(f"/api/clubs/{club}/people/{person}", expect=200).get_json()
    assert [e["name"] for e in profile["events"]] == ["Feb", "Mar", "Jan"]
    audit = api.get(f"/api/clubs/{club}/audit", key=key).get_json()[0]
    assert audit["action"] == "update-night"
    assert (audit["before"]["date"], audit["after"]["date"]) == ("2026-01-09", "2026-04-10")


def test_a_bad_night_date_is_refused_and_changes_nothing(api):
    club, key = _club(api)
    night = _night(api, club, key, "Jan", [])
    path = f"/api/clubs/{club}/events/{night['id']}"
    for day, status in (("2026-13-01", 422), ("yesterday", 422), ("1999-12-31", 422),
                        ((date.today() + timedelta(days=400)).isoformat(), 422)):
        refused = api.patch(path, key=key, json={"date": day}, expect=status)
        assert refused.content_type == "application/problem+json"
    assert api.patch(path, key=key, json={"date": "1999-12-31"}).get_json()["code"] == \
        "bad-night-date"
    api.patch(path, key=key, json={"archived": "yes"}, expect=422)
    api.patch(path, key=key, json={"date": "2026-01-09", "colour": "red"}, expect=422)
    assert api.get(f"/api/clubs/{club}/events").get_json()[0]["date"] == \
        api.get(f"/api/clubs/{club}").get_json()["events"][0]["date"] != "2026-01-09"
    # Another club's night, or an event of no club, is not this club's to date.
    other, other_key = _club(api)
    theirs = _night(api, other, other_key, "Theirs", [])
    api.patch(f"/api/clubs/{club}/events/{theirs['id']}", key=key,
              json={"date": "2026-01-09"}, expect=404)
    lone = api.create_event("progressive")
    api.delete(f"/api/clubs/{club}/events/{lone['id']}", key=key, expect=404)
    api.get(f"/api/events/{lone['id']}", expect=200)


def test_a_private_persons_nights_read_private_in_the_public_csv_not_blank(api):
    club, key = _club(api)
    jan = _night(api, club, key, "Jan")
    feb = _night(api, club, key, "Feb", NAMES[:4] + ["Ivy Lane", "Jo King", "Kim Ray", "Lu Chan"])
    _play(api, key, jan, [("A", 3)])
    _play(api, key, feb, [("A", 3)])
    series = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "Year", "event_ids": [jan["id"], feb["id"]]}, expect=201).get_json()
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    api.patch(f"/api/clubs/{club}/people/{people['Ann Baker']}", key=key,
              json={"private": True}, expect=200)
    path = f"/api/clubs/{club}/series/{series['id']}/standings.csv"
    public = {row[1]: row for row in _csv(api.get(path, expect=200))[1:]}
    assert public["Ann Baker"][5:] == ["private", "private"]
    # Someone public who missed February still reads blank there: not played.
    assert public["Eve Park"][5] != "" and public["Eve Park"][6] == ""
    club_view = {row[1]: row for row in _csv(api.get(path, key=key, expect=200))[1:]}
    assert "private" not in club_view["Ann Baker"][5:] and all(club_view["Ann Baker"][5:])


def test_a_night_made_by_mistake_is_deleted_while_nothing_was_scored(api, app):
    club, key = _club(api)
    kept = _night(api, club, key, "Jan")
    mistake = _night(api, club, key, "Jan (again)")
    # Seated, with keys and a series: still nothing scored.
    api.post(f"/api/events/{mistake['id']}/rounds", key=key, json={"number": 1}, expect=201)
    api.post(f"/api/events/{mistake['id']}/keys", key=key, json={"table": None}, expect=201)
    series = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "Year", "event_ids": [kept["id"], mistake["id"]]}, expect=201).get_json()
    api.delete(f"/api/clubs/{club}/events/{mistake['id']}", key=key, expect=204)
    api.get(f"/api/events/{mistake['id']}", expect=404)
    assert [e["id"] for e in api.get(f"/api/clubs/{club}/events").get_json()] == [kept["id"]]
    assert api.get(f"/api/clubs/{club}/series/{series['id']}").get_json()["event_ids"] == \
        [kept["id"]]
    people = api.get(f"/api/clubs/{club}/people").get_json()
    assert {p["events"] for p in people} == {1}, "the people keep only the night they played"
    entry = api.get(f"/api/clubs/{club}/audit", key=key).get_json()[0]
    assert entry["action"] == "delete-event" and entry["before"]["name"] == "Jan (again)"
    api.delete(f"/api/clubs/{club}/events/{mistake['id']}", key=key, expect=404)


def test_a_night_with_results_is_archived_not_deleted(api):
    club, key = _club(api)
    jan, feb = _night(api, club, key, "Jan"), _night(api, club, key, "Feb (mistake)")
    _play(api, key, jan, [("A", 3)])
    round_ = _play(api, key, feb, [("A", 5, True, 1)])
    series = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "Year", "event_ids": [jan["id"], feb["id"]]}, expect=201).get_json()
    refused = api.delete(f"/api/clubs/{club}/events/{feb['id']}", key=key, expect=409)
    problem = refused.get_json()
    assert refused.content_type == "application/problem+json"
    assert problem["code"] == "night-has-results" and "archive" in problem["detail"]
    api.get(f"/api/events/{feb['id']}", expect=200)
    person = _person_at(api, feb, round_, 1)
    before = api.get(f"/api/clubs/{club}/people/{person}").get_json()
    assert len(before["events"]) == 2 and before["stats"]["loners_made"] == 1

    archived = api.patch(f"/api/clubs/{club}/events/{feb['id']}", key=key,
                         json={"archived": True}, expect=200).get_json()
    assert archived["archived"] is True
    # Out of the club's lists, its series and its people's profiles...
    assert [e["name"] for e in api.get(f"/api/clubs/{club}").get_json()["events"]] == ["Jan"]
    assert [e["name"] for e in api.get(f"/api/clubs/{club}/events").get_json()] == ["Jan"]
    table = api.get(f"/api/clubs/{club}/series/{series['id']}").get_json()
    assert [e["name"] for e in table["events"]] == ["Jan"] and table["event_ids"] == [jan["id"]]
    assert all(r["events_played"] == 1 for r in table["rows"])
    after = api.get(f"/api/clubs/{club}/people/{person}").get_json()
    assert [e["name"] for e in after["events"]] == ["Jan"]
    assert after["stats"]["loners"] == 0
    # ... shown to the club key, flagged, to bring back; the night itself stays readable.
    mine = api.get(f"/api/clubs/{club}", key=key).get_json()["events"]
    assert {e["name"]: e["archived"] for e in mine} == {"Jan": False, "Feb (mistake)": True}
    api.get(f"/api/events/{feb['id']}/leaderboard", expect=200)
    api.delete(f"/api/clubs/{club}/events/{feb['id']}", key=key, expect=409)
    api.patch(f"/api/clubs/{club}/events/{feb['id']}", key=key, json={"archived": False},
              expect=200)
    back = api.get(f"/api/clubs/{club}/series/{series['id']}").get_json()
    assert [e["name"] for e in back["events"]] == ["Jan", "Feb (mistake)"]
    assert api.get(f"/api/clubs/{club}/people/{person}").get_json()["stats"] == before["stats"]

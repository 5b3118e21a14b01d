"""A CSV import checks its rows and matches its names before its write begins (so the write
holds SQLite's lock for its inserts alone). Whatever another request stores between that read
and the write is seen by the write: no name registered twice, no event filled past its size, no
club person made twice or linked by an old name."""

from __future__ import annotations

import uuid

import pytest

from api.night import entrant_import

from .client import ApiClient


@pytest.fixture
def between(app, monkeypatch):
    """Runs `then` (given a second client, as another worker would be) once, after the
    import's read and before its write."""
    other = ApiClient(app.test_client())
    todo = []
    prepare = entrant_import._prepare

    def prepared_then(*args, **kwargs):
        made = prepare(*args, **kwargs)
        while todo:
            todo.pop(0)(other)
        return made

    monkeypatch.setattr(entrant_import, "_prepare", prepared_then)
    return todo.append


def _import(api, event, key, text, expect, people=None):
    body = {"csv": text} | ({"people": people} if people else {})
    return api.post(f"/api/events/{event['id']}/import", key=key, json=body,
                    expect=expect).get_json()


def _names(api, event):
    return [p["name"] for p in api.get(f"/api/events/{event['id']}/players").get_json()]


def test_a_name_registered_after_the_read_is_refused_on_its_line(api, between):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    between(lambda other: other.post(f"/api/events/{event['id']}/players", key=key,
                                     json={"name": "Ann Baker"}, expect=201))
    problem = _import(api, event, key, "name\nCy Dunn\nann baker\nEve Fox\n", 422)
    assert problem["code"] == "bad-rows"
    assert list(problem["errors"]) == ["line 3"]
    assert "'ann baker' is already registered" in problem["errors"]["line 3"][0]
    assert _names(api, event) == ["Ann Baker"]  # the import stored nothing


def test_players_registered_after_the_read_count_against_the_events_size(app, api, between):
    app.config["EVENT_PLAYERS"] = 4
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob"])
    between(lambda other: other.post(f"/api/events/{event['id']}/players", key=key,
                                     json={"name": "Cy"}, expect=201))
    problem = _import(api, event, key, "name\nDee\nEve\n", 409)
    assert problem["code"] == "too-many-players"
    assert "this one has 3" in problem["detail"]
    assert _names(api, event) == ["Ann", "Bob", "Cy"]


def _club(api):
    made = api.post("/api/clubs", json={"name": "Race club",
                                        "slug": f"race-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def _night(api, club, key, name):
    return api.post(f"/api/clubs/{club}/events", key=key,
                    json={"name": name, "preset": "progressive"}, expect=201).get_json()


def _people(api, club):
    return {p["name"]: p for p in api.get(f"/api/clubs/{club}/people").get_json()}


def test_a_person_the_club_gains_after_the_read_is_linked_not_made_again(api, between):
    club, key = _club(api)
    first, second = _night(api, club, key, "January"), _night(api, club, key, "February")
    # Another night registers Zed Quinn (a new person of the club) while the file is read.
    between(lambda other: other.post(f"/api/events/{first['id']}/players", key=key,
                                     json={"name": "Zed Quinn"}, expect=201))
    assert _import(api, second, key, "name\nZed Quinn\nAmy Wong\n", 201)["players"] == 2
    people = _people(api, club)
    assert sorted(people) == ["Amy Wong", "Zed Quinn"]
    assert people["Zed Quinn"]["events"] == 2  # one person, at both nights


def test_a_person_renamed_after_the_read_is_linked_by_their_new_name(api, between):
    club, key = _club(api)
    first, second = _night(api, club, key, "January"), _night(api, club, key, "February")
    api.post(f"/api/events/{first['id']}/players", key=key, json={"name": "Bob Stone"},
             expect=201)
    bob = _people(api, club)["Bob Stone"]["id"]
    # The organizer renames Bob to the name the file gives him while the file is read.
    between(lambda other: other.patch(f"/api/clubs/{club}/people/{bob}", key=key,
                                      json={"name": "Robert Stone"}, expect=200))
    assert _import(api, second, key, "name\nRobert Stone\n", 201)["players"] == 1
    people = _people(api, club)
    assert list(people) == ["Robert Stone"]
    assert people["Robert Stone"]["id"] == bob and people["Robert Stone"]["events"] == 2


def test_a_near_name_the_club_gains_after_the_read_is_asked_about(api, between):
    club, key = _club(api)
    first, second = _night(api, club, key, "January"), _night(api, club, key, "February")
    between(lambda other: other.post(f"/api/events/{first['id']}/players", key=key,
                                     json={"name": "Ann Baker"}, expect=201))
    problem = _import(api, second, key, "name\nAnn B.\nCy Dunn\n", 409)
    assert problem["code"] == "people-to-decide"
    assert [d["name"] for d in problem["decisions"]] == ["Ann B."]
    assert [c["name"] for c in problem["decisions"][0]["candidates"]] == ["Ann Baker"]
    assert _names(api, second) == []

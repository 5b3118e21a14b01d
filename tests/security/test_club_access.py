"""The club routes against every bad credential: no key, malformed and unknown keys, a revoked
club key, another club's key, and the club's own events' organizer and runner keys (an event
key reaches its event only, never the club). Each refusal is a 401 or 403 problem+json and
changes no row; the club key itself then succeeds, so the URL and body were real. And a club
key never reaches another club's events, nor events of no club."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .conftest import (
    Saved,
    assert_changed,
    assert_unchanged,
    backend_of,
    put_back,
    save_state,
    snapshot,
)
from .test_access_matrix import CLUB, READ_ROUTES, WRITE_ROUTES, assert_refused


@dataclass
class Club:
    id: int
    key: str
    revoked: str
    event: dict
    runner: str
    person: int
    other_person: int
    player: int
    series: int
    spare_event: int


def _club(api, name: str) -> Club:
    made = api.post("/api/clubs", json={"name": name}, expect=201).get_json()
    cid, key = made["id"], made["club_key"]
    revoked = api.post(f"/api/clubs/{cid}/keys", key=key, json={"label": "old"},
                       expect=201).get_json()
    api.delete(f"/api/clubs/{cid}/keys/{revoked['id']}", key=key, expect=200)
    event = api.post(f"/api/clubs/{cid}/events", key=key,
                     json={"name": f"{name} night", "preset": "progressive"},
                     expect=201).get_json()
    players = [api.post(f"/api/events/{event['id']}/players", key=key,
                        json={"name": n, "checked_in": True}, expect=201).get_json()
               for n in (f"{name} Ann", f"{name} Bob", f"{name} Cy", f"{name} Dee")]
    runner = api.post(f"/api/events/{event['id']}/keys", key=event["organizer_key"],
                      json={"table": None}, expect=201).get_json()["key"]
    spare = api.post(f"/api/clubs/{cid}/events", key=key,
                     json={"name": f"{name} spare", "preset": "progressive"},
                     expect=201).get_json()["id"]
    # Someone who played only the spare night: a record the merge may take.
    elsewhere = api.post(f"/api/events/{spare}/players", key=key,
                         json={"name": f"{name} Eve"}, expect=201).get_json()
    series = api.post(f"/api/clubs/{cid}/series", key=key,
                      json={"name": "Year", "event_ids": [event["id"]]},
                      expect=201).get_json()["id"]
    return Club(cid, key, revoked["key"], event, runner, players[0]["person_id"],
                elsewhere["person_id"], players[0]["id"], series, spare)


# backend -> two clubs made on the seeded world (North and South), and that state to put back.
_CLUBS: dict[str, tuple[Club, Club, Saved]] = {}


@pytest.fixture
def clubs(request, app) -> tuple[Club, Club]:
    """Two clubs, each with a revoked club key, a night with players and a runner key, a
    spare night and a series, on the seeded world: made over HTTP by the first test per
    backend, put back for each test after it."""
    backend = backend_of(app)
    if backend not in _CLUBS:
        request.getfixturevalue("world")  # the world as seeded, the clubs on it
        api = request.getfixturevalue("api")
        _CLUBS[backend] = (_club(api, "North"), _club(api, "South"), save_state(app, "clubs"))
    else:
        put_back(app, _CLUBS[backend][2])
    return _CLUBS[backend][:2]


# What each club write sends: a body that would change something.
BODIES = {
    ("PATCH", "/api/clubs/<int:club_id>"): lambda c: {"name": "Hijacked"},
    ("POST", "/api/clubs/<int:club_id>/webhooks"): lambda c: {
        "url": "https://hooks.example.org/stolen"},
    ("POST", "/api/clubs/<int:club_id>/keys"): lambda c: {"label": "intruder"},
    ("DELETE", "/api/clubs/<int:club_id>/keys/<int:key_id>"): None,
    ("POST", "/api/clubs/<int:club_id>/events"): lambda c: {"name": "Mine",
                                                           "preset": "progressive"},
    # A night's date (the spare night), and deleting a night with nothing scored (the first).
    ("PATCH", "/api/clubs/<int:club_id>/events/<int:event_id>"): lambda c: {
        "date": "2026-01-09"},
    ("DELETE", "/api/clubs/<int:club_id>/events/<int:event_id>"): None,
    ("PATCH", "/api/clubs/<int:club_id>/people/<int:person_id>"): lambda c: {"private": True},
    ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/merge"): None,
    ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/split"): None,
    ("POST", "/api/clubs/<int:club_id>/people/<int:person_id>/erase"): None,
    ("POST", "/api/clubs/<int:club_id>/series"): lambda c: {"name": "Stolen"},
    ("PATCH", "/api/clubs/<int:club_id>/series/<int:series_id>"): lambda c: {"name": "x"},
    ("PUT", "/api/clubs/<int:club_id>/series/<int:series_id>/events/<int:event_id>"): None,
    ("DELETE", "/api/clubs/<int:club_id>/series/<int:series_id>/events/<int:event_id>"): None,
    ("POST", "/api/clubs/<int:club_id>/history"): lambda c: {
        "csv": "night,name,place,points\n2025-03-05,Someone New,1,30\n"},
}
CLUB_WRITES = sorted(k for k, r in WRITE_ROUTES.items() if r.access == CLUB)
CLUB_READS = sorted(r for r, a in READ_ROUTES.items() if a == CLUB)


def _url(rule: str, club: Club, method: str) -> str:
    # The key to revoke is another club key; merge/split take bodies naming the club's own.
    values = {"club_id": club.id, "person_id": club.person, "series_id": club.series,
              "event_id": club.event["id"] if method == "DELETE" else club.spare_event}
    url = rule
    for name, value in values.items():
        url = url.replace(f"<int:{name}>", str(value))
    return url


def _body(method: str, rule: str, club: Club, api):
    if rule.endswith("/merge"):
        return {"merge": club.other_person}
    if rule.endswith("/split"):
        # Ann's entry was someone else's: it goes to Eve (who did not play that night).
        return {"player_id": club.player, "to": club.other_person}
    make = BODIES[(method, rule)]
    return make(club) if make else None


def _bad_credentials(club: Club, other: Club):
    yield "no key", None, 401
    yield "not a key", "Bearer not-a-key", 401
    yield "unknown well-formed key", "Bearer euk_" + "A" * 43, 401
    yield "revoked club key", f"Bearer {club.revoked}", 401
    yield "another club's key", f"Bearer {other.key}", 403
    yield "the club event's organizer key", f"Bearer {club.event['organizer_key']}", 403
    yield "the club event's runner key", f"Bearer {club.runner}", 403


def test_every_club_write_is_covered_here():
    assert set(CLUB_WRITES) == set(BODIES)


@pytest.mark.parametrize("method, rule", CLUB_WRITES, ids=[f"{m} {r}" for m, r in CLUB_WRITES])
def test_a_club_write_refuses_every_bad_credential_and_changes_nothing(app, api, clubs, method,
                                                                       rule):
    club, other = clubs
    url = _url(rule, club, method)
    if rule.endswith("/keys/<int:key_id>"):
        spare = api.post(f"/api/clubs/{club.id}/keys", key=club.key, json={},
                         expect=201).get_json()["id"]
        url = url.replace("<int:key_id>", str(spare))
    body = _body(method, rule, club, api)
    before = snapshot(app)
    problems = []
    for label, auth, status in _bad_credentials(club, other):
        headers = {"Authorization": auth} if auth else {}
        response = api.request(method, url, json=body, headers=headers)
        problems += assert_refused(response, status, label)
    assert problems == []
    assert_unchanged(app, before, "a refused request changed a row")
    allowed = api.request(method, url, json=body, headers={"Authorization": f"Bearer {club.key}"})
    assert 200 <= allowed.status_code < 300, allowed.get_data(as_text=True)[:300]
    assert_changed(app, before, "the club key's call changed nothing")


@pytest.mark.parametrize("rule", CLUB_READS)
def test_a_club_read_refuses_every_bad_credential(app, api, clubs, rule):
    club, other = clubs
    url = _url(rule, club, "GET")
    problems = []
    for label, auth, status in _bad_credentials(club, other):
        headers = {"Authorization": auth} if auth else {}
        problems += assert_refused(api.request("GET", url, headers=headers), status, label)
    assert problems == []
    api.get(url, key=club.key, expect=200)


def test_a_club_key_reaches_no_other_club_and_no_lone_event(app, api, clubs):
    club, other = clubs
    lone = api.create_event("progressive")
    before = snapshot(app)
    for event_id in (other.event["id"], lone["id"]):
        for method, path, body in (
                ("PATCH", f"/api/events/{event_id}", {"name": "Taken"}),
                ("POST", f"/api/events/{event_id}/players", {"name": "Intruder"}),
                ("POST", f"/api/events/{event_id}/keys", {"table": None})):
            response = api.request(method, path, json=body,
                                   headers={"Authorization": f"Bearer {club.key}"})
            assert response.status_code == 403, (path, response.get_data(as_text=True))
        api.get(f"/api/events/{event_id}/audit", key=club.key, expect=403)
    # Series and merges never take another club's records.
    api.patch(f"/api/clubs/{club.id}/series/{club.series}", key=club.key,
              json={"event_ids": [other.event["id"]]}, expect=422)
    api.post(f"/api/clubs/{club.id}/people/{club.person}/merge", key=club.key,
             json={"merge": other.person}, expect=404)
    api.patch(f"/api/clubs/{club.id}/people/{other.person}", key=club.key,
              json={"name": "Taken"}, expect=404)
    assert_unchanged(app, before, "a club key changed another's rows")

"""Self check-in at the door: the door QR's page lists the names still to check in; a player
checks in (a team: either player checks the team in) inside the window with the current door
code; someone not registered asks to be added and the organizer accepts or declines. Wrong or
old codes are refused with what to do, the door is limited per address, and every change bumps
the event's revision so the organizer's Players screen sees it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from api.night import door

from .test_bad_input import assert_problem
from .test_check_in_window import _night as registered

OPEN = {"opens": "2000-01-01T00:00", "closes": "2100-01-01T00:00"}
PHONE = {"REMOTE_ADDR": "198.51.100.20"}


def _night(api, preset="progressive", names=("Ann", "Bob", "Cy", "Dee"), window=OPEN):
    event, key, entrants = registered(api, preset, names)
    if window:
        api.put(f"/api/events/{event['id']}/check-in-window", key=key, json=window, expect=200)
    token = api.post(f"/api/events/{event['id']}/door-token", key=key,
                     expect=200).get_json()["token"]
    return {"event": event, "key": key, "id": event["id"], "code": event["code"],
            "token": token, "entrants": entrants}


def _door(api, night, token=None, **query):
    params = {"token": night["token"] if token is None else token, **query}
    return api.get(f"/api/door/{night['code']}", query_string=params)


def _check_in(api, night, player_id, token=None, address=PHONE):
    return api.post(f"/api/door/{night['code']}/check-in", environ_base=address,
                    json={"token": night["token"] if token is None else token,
                          "player_id": player_id})


def _ask(api, night, name, token=None, address=PHONE):
    return api.post(f"/api/door/{night['code']}/requests", environ_base=address,
                    json={"token": night["token"] if token is None else token, "name": name})


def _revision(api, night):
    return api.get(f"/api/events/{night['id']}", expect=200).get_json()["revision"]


def _players(api, night):
    return {p["name"]: p for p in api.get(f"/api/events/{night['id']}/players").get_json()}


def test_a_player_finds_their_name_and_checks_in_from_the_door_page(api):
    night = _night(api)
    ann = night["entrants"][0]
    page = _door(api, night).get_json()
    assert page["event_name"] == "Loner Seekers" and page["window"]["state"] == "open"
    assert [n["name"] for n in page["names"]] == ["Ann", "Bob", "Cy", "Dee"]
    assert page["requests"] is True and page["request"] is None
    before = _revision(api, night)
    done = _check_in(api, night, ann["id"])
    assert done.status_code == 200, done.get_data(as_text=True)
    body = done.get_json()
    at = datetime.fromisoformat(body["checked_in_at"]).astimezone(door.ZoneInfo(
        "America/Detroit"))
    assert body["time"] == f"{at.hour % 12 or 12}:{at.minute:02d} {'am' if at.hour < 12 else 'pm'}"
    assert body["message"] == f"You're checked in, Ann, at {body['time']}."
    assert _players(api, night)["Ann"]["checked_in"] is True
    assert _revision(api, night) > before, "the organizer's Players screen sees the change"
    assert "Ann" not in [n["name"] for n in _door(api, night).get_json()["names"]]
    # A second tap (or a reload that sends it again) answers the same, changing nothing.
    again = _check_in(api, night, ann["id"]).get_json()
    assert again["message"] == f"You were already checked in, Ann, at {body['time']}."
    log = api.get(f"/api/events/{night['id']}/audit", key=night["key"]).get_json()
    made = [e for e in log if e["action"] == "update-player" and
            e["entity_id"] == str(ann["id"])]
    assert [e["role"] for e in made] == ["door"] and made[0]["changed"] == ["checked_in"]


def test_outside_the_window_the_door_says_when(api, monkeypatch):
    window = {"opens": "2026-12-07T18:30", "closes": "2026-12-07T18:50"}
    night = _night(api, window=window)
    ann = night["entrants"][0]
    monkeypatch.setattr(door, "utcnow", lambda: datetime(2026, 12, 7, 23, 0, tzinfo=UTC))
    assert _door(api, night).get_json()["window"]["message"] == "Check-in opens at 6:30 pm."
    assert_problem(_check_in(api, night, ann["id"]), 409, "Check-in opens at 6:30 pm.")
    monkeypatch.setattr(door, "utcnow", lambda: datetime(2026, 12, 7, 23, 51, tzinfo=UTC))
    late = assert_problem(_check_in(api, night, ann["id"]), 409,
                          "Check-in closed at 6:50 pm. See the organizer at the desk.")
    assert late["code"] == "check-in-closed"
    assert_problem(_ask(api, night, "Newcomer"), 409, "Check-in closed at 6:50 pm.")
    assert _players(api, night)["Ann"]["checked_in"] is False
    monkeypatch.setattr(door, "utcnow", lambda: datetime(2026, 12, 7, 23, 40, tzinfo=UTC))
    assert _check_in(api, night, ann["id"]).status_code == 200


def test_without_a_window_the_door_sends_people_to_the_desk(api):
    night = _night(api, window=None)
    assert _door(api, night).get_json()["window"]["state"] == "not-set"
    assert_problem(_check_in(api, night, night["entrants"][0]["id"]), 409,
                   "not open: see the organizer at the desk")


def test_a_wrong_or_old_door_code_is_refused_with_what_to_do(api):
    night = _night(api)
    ann = night["entrants"][0]
    for token in ("x" * 22, night["token"][:-1]):
        problem = assert_problem(_check_in(api, night, ann["id"], token=token), 403,
                                 "scan the QR code at the door again")
        assert problem["code"] == "wrong-door-code"
        assert_problem(_door(api, night, token=token), 403, "scan the QR code at the door again")
        assert_problem(_ask(api, night, "Newcomer", token=token), 403)
    # Rotated: the old code stops working at once, the new one works.
    old = night["token"]
    night["token"] = api.post(f"/api/events/{night['id']}/door-token", key=night["key"],
                              expect=200).get_json()["token"]
    assert night["token"] != old
    assert_problem(_check_in(api, night, ann["id"], token=old), 403, "old or incomplete")
    assert_problem(_door(api, night, token=old), 403)
    assert _check_in(api, night, ann["id"]).status_code == 200
    # Another event's code does not open this door.
    other = _night(api, names=("Zed",))
    assert_problem(_check_in(api, night, ann["id"], token=other["token"]), 403)
    # Nobody was checked in by the refused calls.
    assert [n for n, p in _players(api, night).items() if p["checked_in"]] == ["Ann"]


def test_the_door_code_is_the_organizers_to_read_and_rotate(api):
    night = _night(api)
    shown = api.get(f"/api/events/{night['id']}/door-token", key=night["key"],
                    expect=200).get_json()
    assert shown["token"] == night["token"]
    assert shown["link"] == f"http://euchre.test/door/{night['code']}#t={night['token']}"
    assert_problem(api.get(f"/api/events/{night['id']}/door-token"), 401)
    runner = api.post(f"/api/events/{night['id']}/keys", key=night["key"], json={"table": 1},
                      expect=201).get_json()["key"]
    assert_problem(api.get(f"/api/events/{night['id']}/door-token", key=runner), 403)
    assert_problem(api.post(f"/api/events/{night['id']}/door-token", key=runner), 403)
    # The code never goes into the audit log.
    log = api.get(f"/api/events/{night['id']}/audit", key=night["key"]).get_json()
    assert night["token"] not in str(log)
    assert {"make-door-code"} <= {e["action"] for e in log}
    # No code made yet: the door is closed to everyone.
    fresh = api.create_event("progressive")
    api.add_players(fresh, ["Solo"], checked_in=False)
    assert api.get(f"/api/events/{fresh['id']}/door-token", key=fresh["organizer_key"]
                   ).get_json() == {"token": None, "link": None}
    assert_problem(api.get(f"/api/door/{fresh['code']}", query_string={"token": "x"}), 403)


def test_bad_door_input_is_refused_clearly(api):
    night = _night(api)
    other = _night(api, names=("Zed",))
    assert_problem(api.get(f"/api/door/{night['code']}"), 422, "token")
    assert_problem(_door(api, night, extra="1"), 422, "extra")
    assert_problem(api.get("/api/door/NOPE99", query_string={"token": night["token"]}), 404,
                   "No event has the code 'NOPE99'")
    assert_problem(_check_in(api, night, other["entrants"][0]["id"]), 404,
                   "not on this event's list")
    assert_problem(_check_in(api, night, 2**31 - 1), 404)
    for body in ({"token": night["token"]}, {"token": night["token"], "player_id": "1"},
                 {"token": night["token"], "player_id": 1.5},
                 {"token": night["token"], "player_id": 0},
                 {"token": night["token"], "player_id": 1, "checked_in": True}):
        assert_problem(api.post(f"/api/door/{night['code']}/check-in", json=body), 422)
    for name in ("", "   ", "x" * 121):
        assert_problem(_ask(api, night, name), 422, "name")
    # A withdrawn player cannot check in at the door.
    bob = night["entrants"][1]
    api.patch(f"/api/events/{night['id']}/players/{bob['id']}", key=night["key"],
              json={"withdrawn": True}, expect=200)
    assert "Bob" not in [n["name"] for n in _door(api, night).get_json()["names"]]
    assert_problem(_check_in(api, night, bob["id"]), 409, "withdrawn")
    assert not any(p["checked_in"] for p in _players(api, night).values())


def test_the_door_is_limited_per_address_at_the_event_with_retry_after(app, api):
    app.config["DOOR_LIMIT"] = 2
    night = _night(api, names=("Ann", "Bob", "Cy", "Dee", "Eve"))
    other = _night(api, names=("Fay", "Gus"))
    ids = [p["id"] for p in night["entrants"]]
    assert _check_in(api, night, ids[0]).status_code == 200
    # A wrong code, a second tap and a refusal write nothing and are not counted.
    assert _check_in(api, night, ids[1], token="x" * 22).status_code == 403
    assert _check_in(api, night, ids[0]).status_code == 200
    assert _check_in(api, night, 999_999).status_code == 404
    assert _check_in(api, night, ids[1]).status_code == 200
    slowed = _check_in(api, night, ids[2])
    problem = assert_problem(slowed, 429, "see the organizer at the desk", "Try again in")
    assert problem["code"] == "too-many-attempts"
    assert 0 < int(slowed.headers["Retry-After"]) <= 600
    assert _players(api, night)["Cy"]["checked_in"] is False
    # Another address is not slowed by this one, nor this address at another event.
    assert _check_in(api, night, ids[2], address={"REMOTE_ADDR": "203.0.113.9"}) \
        .status_code == 200
    assert _check_in(api, other, other["entrants"][0]["id"]).status_code == 200
    # Nor is a second tap, which changes nothing.
    assert _check_in(api, night, ids[0]).status_code == 200


def test_requests_waiting_from_one_address_are_capped(app, api):
    app.config["DOOR_REQUEST_LIMIT"] = 2
    night = _night(api)
    assert _ask(api, night, "New One").status_code == 201
    assert _ask(api, night, "New Two").status_code == 201
    assert _ask(api, night, "New Two").status_code == 201, "asked twice: the same request"
    refused = _ask(api, night, "New Three")
    assert_problem(refused, 429, "2 requests to be added from this network are waiting")
    assert int(refused.headers["Retry-After"]) > 0
    assert _ask(api, night, "New Three", address={"REMOTE_ADDR": "203.0.113.9"}) \
        .status_code == 201
    # Once the organizer answers one, the address may ask again.
    waiting = api.get(f"/api/events/{night['id']}/door-requests", key=night["key"]).get_json()
    assert [r["same_network"] for r in waiting] == [2, 2, 1]
    api.post(f"/api/events/{night['id']}/door-requests/{waiting[0]['id']}", key=night["key"],
             json={"accept": False}, expect=200)
    assert _ask(api, night, "New Three").status_code == 201


def test_a_request_accepted_adds_the_player_checked_in_and_the_phone_sees_it(api):
    night = _night(api)
    eid, key = night["id"], night["key"]
    before = _revision(api, night)
    made = _ask(api, night, "  Newcomer  Nell ")
    assert made.status_code == 201, made.get_data(as_text=True)
    req = made.get_json()
    assert req["name"] == "Newcomer Nell" and req["status"] == "waiting"
    assert _revision(api, night) > before, "the Players screen sees the request"
    # Asking twice is one request.
    assert _ask(api, night, "newcomer nell").get_json()["id"] == req["id"]
    listed = api.get(f"/api/events/{eid}/door-requests", key=key, expect=200)
    assert [(r["name"], r["status"]) for r in listed.get_json()] == [("Newcomer Nell",
                                                                     "waiting")]
    # Polled with the ETag: unchanged is a 304.
    tag = listed.headers["ETag"]
    assert api.get(f"/api/events/{eid}/door-requests", key=key,
                   headers={"If-None-Match": tag}).status_code == 304
    accepted = api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key,
                        json={"accept": True}, expect=200).get_json()
    assert accepted["status"] == "accepted" and accepted["time"]
    nell = _players(api, night)["Newcomer Nell"]
    assert nell["checked_in"] is True and accepted["player_id"] == nell["id"]
    assert api.get(f"/api/events/{eid}/door-requests", key=key,
                   headers={"If-None-Match": tag}).status_code == 200
    # The phone that asked sees it on the door page.
    seen = _door(api, night, request=req["id"]).get_json()["request"]
    assert seen["status"] == "accepted" and seen["time"] == accepted["time"]
    # Accepting again (a retry) changes nothing; declining now is refused.
    api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key, json={"accept": True},
             expect=200)
    assert_problem(api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key,
                            json={"accept": False}), 409, "accepted already")
    assert list(_players(api, night)).count("Newcomer Nell") == 1
    actions = [e["action"] for e in api.get(f"/api/events/{eid}/audit", key=key).get_json()]
    assert {"door-request", "accept-door-request", "add-player"} <= set(actions)


def test_a_request_declined_adds_nobody(api):
    night = _night(api)
    eid, key = night["id"], night["key"]
    req = _ask(api, night, "Stranger").get_json()
    declined = api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key,
                        json={"accept": False}, expect=200).get_json()
    assert declined["status"] == "declined" and declined["player_id"] is None
    assert "Stranger" not in _players(api, night)
    assert _door(api, night, request=req["id"]).get_json()["request"]["status"] == "declined"
    assert_problem(api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key,
                            json={"accept": True}), 409, "declined already")


def test_a_request_accepted_under_a_corrected_name_or_refused_for_a_taken_one(api):
    night = _night(api)
    eid, key = night["id"], night["key"]
    req = _ask(api, night, "Jon").get_json()
    # The organizer adds them as "Jon B." (there may be another Jon next week).
    api.post(f"/api/events/{eid}/door-requests/{req['id']}", key=key,
             json={"accept": True, "name": "Jon B."}, expect=200)
    assert _players(api, night)["Jon B."]["checked_in"] is True
    # Someone already registered is sent to the list.
    assert_problem(_ask(api, night, "ann"), 409, "'Ann' is already registered")
    # A name taken since the request: refused, the request still waits.
    late = _ask(api, night, "Kit").get_json()
    api.post(f"/api/events/{eid}/players", key=key, json={"name": "Kit"}, expect=201)
    assert_problem(api.post(f"/api/events/{eid}/door-requests/{late['id']}", key=key,
                            json={"accept": True}), 422, "already registered")
    waiting = api.get(f"/api/events/{eid}/door-requests", key=key).get_json()
    assert [r["name"] for r in waiting if r["status"] == "waiting"] == ["Kit"]
    assert_problem(api.post(f"/api/events/{eid}/door-requests/999999", key=key,
                            json={"accept": True}), 404)
    other = _night(api, names=("Zed",))
    assert_problem(api.post(f"/api/events/{other['id']}/door-requests/{late['id']}",
                            key=other["key"], json={"accept": True}), 404)


def test_in_a_team_event_either_player_checks_the_team_in(api):
    night = _night(api, "teams", names=("Aces", "Kings"))
    aces = night["entrants"][0]
    page = _door(api, night).get_json()
    assert page["team_entry"] is True and page["requests"] is False
    assert [(n["name"], n["team"]) for n in page["names"]] == [
        ("Aces 1", "Team Aces"), ("Aces 2", "Team Aces"), ("Kings 1", "Team Kings"),
        ("Kings 2", "Team Kings")]
    second = aces["members"][1]
    body = _check_in(api, night, second["id"]).get_json()
    assert body["team"] == "Team Aces"
    assert body["message"].endswith("Your team, Team Aces, is checked in.")
    team = next(t for t in api.get(f"/api/events/{night['id']}/teams").get_json()
                if t["id"] == aces["id"])
    assert all(m["checked_in"] for m in team["members"])
    names = [n["name"] for n in _door(api, night).get_json()["names"]]
    assert names == ["Kings 1", "Kings 2"], "the team's both players are off the list"
    # The partner's tap says they are in already.
    partner = _check_in(api, night, aces["members"][0]["id"]).get_json()
    assert partner["message"].startswith("You were already checked in, Aces 1")
    # Not on the list in a team event: the desk adds the team.
    assert_problem(_ask(api, night, "Queens 1"), 409, "teams of two", "desk")


@pytest.mark.parametrize("preset", ["progressive", "teams"])
def test_a_seated_player_is_told_their_table(api, preset):
    names = ("A", "B", "C", "D", "E") if preset == "teams" else tuple("ABCDEFGHI")
    night = _night(api, preset, names=names)
    key, eid = night["key"], night["id"]
    ids = [m["id"] for e in night["entrants"] for m in (e.get("members") or [e])]
    late_id = ids[-1]
    for pid in ids[:-1]:
        assert _check_in(api, night, pid).status_code == 200
    if preset == "teams":
        # The last team arrives after round 1 is seated: seated from the next round on.
        api.patch(f"/api/events/{eid}/teams/{night['entrants'][-1]['id']}", key=key,
                  json={"checked_in": False}, expect=200)
    round_ = api.post(f"/api/events/{eid}/rounds", key=key, json={"number": 1}, expect=201)
    seated = {s["player_id"]: t["table"] for t in round_.get_json()["tables"]
              for s in t["seats"] if s["player_id"]}
    first = ids[0]
    body = _check_in(api, night, first).get_json()
    assert body["table"] == seated[first] and f"Your table: {seated[first]}." in body["message"]
    late = _check_in(api, night, late_id).get_json()
    assert late["late"] is True and late["table"] is None

"""The check-in window (RULES.md §4; Loner Seekers: 6:30-6:50 pm, "no check-in allowed after
6:50"): set in the event's time zone, read back in local time; after it closes the organizer's
check-in is refused with the time it closed, unless overridden for that one person, audited."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from api.night import door

from .test_bad_input import assert_problem

# Monday 7 December 2026 in Detroit (UTC-5): 6:55 pm, after a 6:30-6:50 window.
AFTER = datetime(2026, 12, 7, 23, 55, tzinfo=UTC)
BEFORE = datetime(2026, 12, 7, 23, 0, tzinfo=UTC)  # 6:00 pm
DURING = datetime(2026, 12, 7, 23, 40, tzinfo=UTC)  # 6:40 pm
WINDOW = {"opens": "2026-12-07T18:30", "closes": "2026-12-07T18:50"}


@pytest.fixture
def clock(monkeypatch):
    """The window's clock, set by the test: clock(moment)."""
    def set_now(moment):
        monkeypatch.setattr(door, "utcnow", lambda: moment)
    return set_now


def _night(api, preset="progressive", names=("Ann", "Bob", "Cy", "Dee")):
    event = api.post("/api/events", json={"name": "Loner Seekers", "preset": preset,
                                          "time_zone": "America/Detroit"},
                     expect=201).get_json()
    key = event["organizer_key"]
    if preset == "teams":
        entrants = [api.add_team(event, f"Team {n}", [f"{n} 1", f"{n} 2"], checked_in=False)
                    for n in names]
    else:
        entrants = api.add_players(event, list(names), checked_in=False)
    return event, key, entrants


def _window(api, event, key, body=WINDOW, expect=200):
    return api.put(f"/api/events/{event['id']}/check-in-window", key=key, json=body,
                   expect=expect)


def test_the_organizer_sets_the_window_in_local_time_and_everyone_reads_it(api, clock):
    clock(BEFORE)
    event, key, _ = _night(api)
    shown = _window(api, event, key).get_json()
    assert shown["opens"] == "2026-12-07T18:30" and shown["closes"] == "2026-12-07T18:50"
    assert shown["opens_at"].startswith("2026-12-07T23:30") and \
        shown["closes_at"].startswith("2026-12-07T23:50")
    assert shown["time_zone"] == "America/Detroit"
    assert shown["state"] == "not-yet" and shown["message"] == "Check-in opens at 6:30 pm."
    public = api.get(f"/api/events/{event['id']}/check-in-window", expect=200).get_json()
    assert public == shown
    clock(DURING)
    assert api.get(f"/api/events/{event['id']}/check-in-window").get_json()["message"] == \
        "Check-in is open until 6:50 pm."
    clock(AFTER)
    assert api.get(f"/api/events/{event['id']}/check-in-window").get_json()["state"] == "closed"
    # The audit log has the change in local time.
    entry = api.get(f"/api/events/{event['id']}/audit", key=key).get_json()[0]
    assert entry["action"] == "check-in-window" and \
        entry["after"] == {"opens": "2026-12-07T18:30", "closes": "2026-12-07T18:50"}
    # Cleared: no window, anyone checks in at the desk.
    cleared = _window(api, event, key, {"opens": None, "closes": None}).get_json()
    assert cleared["state"] == "not-set" and cleared["opens"] is None


def test_times_of_day_alone_are_tonight_and_a_close_past_midnight_is_the_next_day(api, clock):
    clock(BEFORE)  # 6:00 pm on 7 December in Detroit
    event, key, _ = _night(api)
    shown = _window(api, event, key, {"opens": "23:30", "closes": "0:15"}).get_json()
    assert shown["opens"] == "2026-12-07T23:30" and shown["closes"] == "2026-12-08T00:15"
    assert shown["closes_words"] == "12:15 am on Tuesday 8 December"
    only_close = _window(api, event, key, {"opens": None, "closes": "18:50"}).get_json()
    assert only_close["state"] == "open" and only_close["opens"] is None
    assert only_close["message"] == "Check-in is open until 6:50 pm."


def test_after_the_window_the_organizer_is_told_when_it_closed_and_can_override_for_one(
        api, clock):
    clock(BEFORE)
    event, key, (ann, bob, *_) = _night(api)
    _window(api, event, key)
    # Before it opens, the organizer checks people in as always.
    api.patch(f"/api/events/{event['id']}/players/{bob['id']}", key=key,
              json={"checked_in": True}, expect=200)
    clock(AFTER)
    late = api.patch(f"/api/events/{event['id']}/players/{ann['id']}", key=key,
                     json={"checked_in": True})
    problem = assert_problem(late, 409, "Check-in closed at 6:50 pm")
    assert problem["code"] == "check-in-closed"
    # The sentence is the organizer's (no API field name in it); a program reads retry_with.
    assert problem["detail"].endswith("confirm it as an exception for them: Check in anyway.")
    assert "after_window" not in problem["detail"]
    assert problem["retry_with"] == {"after_window": True}
    players = {p["name"]: p for p in api.get(f"/api/events/{event['id']}/players").get_json()}
    assert players["Ann"]["checked_in"] is False, "nothing half-stored"
    # The organizer's exception for this one person.
    done = api.patch(f"/api/events/{event['id']}/players/{ann['id']}", key=key,
                     json={"checked_in": True, "after_window": True}, expect=200).get_json()
    assert done["checked_in"] is True
    log = api.get(f"/api/events/{event['id']}/audit", key=key).get_json()
    override = [e for e in log if e["action"] == "check-in-after-window"]
    assert len(override) == 1 and override[0]["entity_id"] == str(ann["id"])
    assert override[0]["after"] == {"name": "Ann", "window_closed": "2026-12-07T18:50"}
    # Undoing a check-in, and changes other than checking in, need no exception.
    api.patch(f"/api/events/{event['id']}/players/{bob['id']}", key=key,
              json={"checked_in": False}, expect=200)
    api.patch(f"/api/events/{event['id']}/players/{bob['id']}", key=key,
              json={"paid": True}, expect=200)
    # Someone already here is not refused again (the same PATCH repeated by a retry).
    api.patch(f"/api/events/{event['id']}/players/{ann['id']}", key=key,
              json={"checked_in": True}, expect=200)


def test_a_team_after_the_window_is_refused_and_can_be_overridden(api, clock):
    clock(AFTER)
    event, key, (aces, *_) = _night(api, "teams")
    _window(api, event, key)
    refused = api.patch(f"/api/events/{event['id']}/teams/{aces['id']}", key=key,
                        json={"checked_in": True})
    assert_problem(refused, 409, "Check-in closed at 6:50 pm. To check Team Ann in anyway")
    done = api.patch(f"/api/events/{event['id']}/teams/{aces['id']}", key=key,
                     json={"checked_in": True, "after_window": True}, expect=200).get_json()
    assert all(m["checked_in"] for m in done["members"])


def test_a_window_on_another_day_says_its_day(api, clock):
    clock(datetime(2026, 12, 8, 18, 0, tzinfo=UTC))  # the next day, 1 pm in Detroit
    event, key, (ann, *_) = _night(api)
    shown = _window(api, event, key).get_json()
    assert shown["message"] == "Check-in closed at 6:50 pm on Monday 7 December."
    assert_problem(api.patch(f"/api/events/{event['id']}/players/{ann['id']}", key=key,
                             json={"checked_in": True}), 409,
                   "Check-in closed at 6:50 pm on Monday 7 December.")


@pytest.mark.parametrize("body, words", [
    ({"opens": "2026-12-07T18:50", "closes": "2026-12-07T18:30"}, "must close after it opens"),
    ({"opens": "25:00", "closes": None}, "Give a time such as '18:30'"),
    ({"opens": "2026-12-07", "closes": None}, "Give a time such as '18:30'"),
    ({"opens": "soon", "closes": None}, "Give a time such as '18:30'"),
    ({"opens": 1830, "closes": None}, "Give a time such as '18:30'"),
    ({"opens": "9999-12-31T23:59", "closes": None}, "between the years 2000 and 2100"),
    # 2:30 am on 8 March 2026 does not happen in Detroit: the clocks go from 2:00 to 3:00.
    ({"opens": "2026-03-08T02:30", "closes": None}, "does not exist in America/Detroit"),
    ({"opens": "18:30"}, "closes"),
    ({"opens": "18:30", "closes": "18:50", "at": "door"}, "at"),
])
def test_bad_windows_are_refused_with_what_to_do_and_nothing_stored(api, clock, body, words):
    clock(BEFORE)
    event, key, _ = _night(api)
    _window(api, event, key)
    assert_problem(_window(api, event, key, body, expect=None), 422, words)
    kept = api.get(f"/api/events/{event['id']}/check-in-window").get_json()
    assert (kept["opens"], kept["closes"]) == ("2026-12-07T18:30", "2026-12-07T18:50")


def test_only_the_organizer_sets_the_window(api):
    event, key, _ = _night(api)
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": None},
                      expect=201).get_json()["key"]
    assert_problem(api.put(f"/api/events/{event['id']}/check-in-window", json=WINDOW), 401)
    assert_problem(api.put(f"/api/events/{event['id']}/check-in-window", key=runner,
                           json=WINDOW), 403)
    assert api.get(f"/api/events/{event['id']}/check-in-window").get_json()["state"] == \
        "not-set"


def test_registering_someone_as_here_after_the_window_is_a_check_in_too(api, clock):
    clock(AFTER)
    event, key, _ = _night(api)
    _window(api, event, key)
    url = f"/api/events/{event['id']}/players"
    refused = api.post(url, key=key, json={"name": "Walk-in", "checked_in": True}, expect=409)
    assert "Check-in closed at 6:50 pm" in refused.get_json()["detail"]
    assert "Walk-in" not in {p["name"] for p in api.get(url).get_json()}, "nothing stored"
    api.post(url, key=key, json={"name": "Walk-in"}, expect=201)  # registered, not here
    made = api.post(url, key=key, json={"name": "Excused", "checked_in": True,
                                        "after_window": True}, expect=201).get_json()
    assert made["checked_in"]
    audit = api.get(f"/api/events/{event['id']}/audit", key=key).get_json()
    assert any(e["action"] == "check-in-after-window" and e["after"]["name"] == "Excused"
               for e in audit)

    problem = api.post(f"/api/events/{event['id']}/import", key=key,
                       json={"csv": "name,checked_in\nLate One,yes\nLate Two,\n"},
                       expect=422).get_json()
    assert "Line 2: checked_in is yes, but check-in closed at 6:50 pm" in problem["detail"]
    assert "Late Two" not in {p["name"] for p in api.get(url).get_json()}


def test_a_team_registered_as_here_after_the_window_needs_the_exception(api, clock):
    clock(AFTER)
    event, key, _ = _night(api, preset="teams")
    _window(api, event, key)
    url = f"/api/events/{event['id']}/teams"
    api.post(url, key=key, json={"name": "Late Pair", "players": ["L 1", "L 2"],
                                 "checked_in": True}, expect=409)
    api.post(url, key=key, json={"name": "Late Pair", "players": ["L 1", "L 2"],
                                 "checked_in": True, "after_window": True}, expect=201)

"""Audit findings at the door: an unrecognised checked_in value in an import is an error on its
line, and a PIN lockout says which limit was hit and when to try again."""

from __future__ import annotations

import pytest


def _import(api, event, text, expect):
    return api.post(f"/api/events/{event['id']}/import", key=event["organizer_key"],
                    json={"csv": text}, expect=expect).get_json()


# --- checked_in in an import -----------------------------------------------------------------

def test_an_unrecognised_checked_in_value_is_an_error_on_its_line_and_nothing_is_stored(api):
    event = api.create_event("progressive")
    text = "name,checked_in\nAnn,yes\nBob,maybe\nCarol,no\n,yes\nDave,soon\n"
    problem = _import(api, event, text, 422)
    assert problem["code"] == "bad-rows"
    assert set(problem["errors"]) == {"line 3", "line 5", "line 6"}
    bob = problem["errors"]["line 3"]
    assert len(bob) == 1 and "'maybe'" in bob[0]
    for accepted in ("yes", "no", "true", "false", "1", "0", "x", "empty"):
        assert accepted in bob[0], accepted
    assert problem["detail"].startswith("Line 3:") and "nothing was stored" in problem["detail"]
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []


def test_a_bad_name_and_a_bad_checked_in_on_one_line_are_both_reported(api):
    event = api.create_event("progressive")
    problem = _import(api, event, "name,checked_in\nAnn,yes\nAnn,perhaps\n", 422)
    assert len(problem["errors"]["line 3"]) == 2
    assert any("already registered" in e for e in problem["errors"]["line 3"])
    assert any("'perhaps'" in e for e in problem["errors"]["line 3"])


def test_a_team_import_with_an_unrecognised_checked_in_value_is_refused(api):
    event = api.create_event("teams")
    text = "team,player1,player2,checked_in\nAces,Ann,Bob,yes\nBowers,Cy,Di,later\n"
    problem = _import(api, event, text, 422)
    assert set(problem["errors"]) == {"line 3"}
    assert "'later'" in problem["errors"]["line 3"][0]
    assert api.get(f"/api/events/{event['id']}/teams", expect=200).get_json() == []


@pytest.mark.parametrize("value, here", [
    ("yes", True), ("YES", True), ("y", True), ("true", True), ("True", True), ("1", True),
    ("x", True), (" X ", True), ("no", False), ("n", False), ("false", False), ("0", False),
    ("", False), ("  ", False),
])
def test_the_accepted_checked_in_values_still_work(api, value, here):
    event = api.create_event("progressive")
    assert _import(api, event, f"name,checked_in\nAnn,{value}\n", 201)["players"] == 1
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    assert [p["checked_in"] for p in players] == [here]


def test_an_import_without_a_checked_in_column_registers_players_not_checked_in(api):
    event = api.create_event("progressive")
    assert _import(api, event, "name\nAnn\nBob\n", 201)["players"] == 2
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    assert [p["checked_in"] for p in players] == [False, False]


# --- the join PIN lockout --------------------------------------------------------------------

def _join(api, access, pin, table=None):
    return api.post("/api/join", json={"code": access["code"], "pin": pin, "table": table})


def _access(api):
    event = api.create_event("progressive")
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    access["wrong"] = f"{(int(access['join_pin']) + 1) % 10**6:06d}"
    return access


def test_a_table_locked_by_wrong_pins_says_it_is_this_table_and_when_to_try_again(app, api):
    access = _access(api)
    for _ in range(app.config["PIN_ATTEMPTS"]):
        assert _join(api, access, access["wrong"], table=4).status_code == 403
    locked = _join(api, access, access["join_pin"], table=4)
    assert locked.status_code == 429
    body = locked.get_json()
    assert body["code"] == "too-many-attempts"
    assert "table 4" in body["detail"]
    assert "this event" not in body["detail"], "the event as a whole is not locked"
    assert "other tables" in body["detail"]
    window = app.config["PIN_WINDOW_SECONDS"]
    retry = int(locked.headers["Retry-After"])
    assert 0 < retry <= window
    assert f"{-(-retry // 60)} minute" in body["detail"]
    # ...and indeed another table still joins.
    assert _join(api, access, access["join_pin"], table=5).status_code == 201


def test_an_event_locked_by_wrong_pins_says_it_is_every_table(app, api):
    app.config["PIN_EVENT_ATTEMPTS"] = 4
    access = _access(api)
    for table in range(1, 5):  # one wrong PIN at each of four tables: no table is locked
        assert _join(api, access, access["wrong"], table=table).status_code == 403
    locked = _join(api, access, access["join_pin"], table=9)
    assert locked.status_code == 429
    body = locked.get_json()
    assert "this event" in body["detail"] and "every table" in body["detail"]
    assert "table 9" not in body["detail"]
    assert 0 < int(locked.headers["Retry-After"]) <= app.config["PIN_WINDOW_SECONDS"]


def test_a_lockout_without_a_table_names_the_all_tables_key(app, api):
    access = _access(api)
    for _ in range(app.config["PIN_ATTEMPTS"]):
        assert _join(api, access, access["wrong"]).status_code == 403
    body = _join(api, access, access["join_pin"]).get_json()
    assert body["status"] == 429 and "without a table" in body["detail"]
    assert _join(api, access, access["join_pin"], table=2).status_code == 201

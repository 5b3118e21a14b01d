"""Registering players and teams from a CSV import: the checked_in column takes yes/no words,
and an unrecognised value is an error on its line that stores nothing."""

from __future__ import annotations

import pytest


def _import(api, event, text, expect):
    return api.post(f"/api/events/{event['id']}/import", key=event["organizer_key"],
                    json={"csv": text}, expect=expect).get_json()


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
def test_each_accepted_checked_in_value_registers_the_player_here_or_not(api, value, here):
    event = api.create_event("progressive")
    assert _import(api, event, f"name,checked_in\nAnn,{value}\n", 201)["players"] == 1
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    assert [p["checked_in"] for p in players] == [here]


def test_an_import_without_a_checked_in_column_registers_players_not_checked_in(api):
    event = api.create_event("progressive")
    assert _import(api, event, "name\nAnn\nBob\n", 201)["players"] == 2
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    assert [p["checked_in"] for p in players] == [False, False]




def test_a_file_that_is_not_a_field_is_refused_saying_what_to_fix(api, app, monkeypatch):
    event = api.create_event("progressive")
    huge = "x" * 140_000  # past the CSV reader's largest cell
    cases = {
        "player1,player2\nAnn,Bob\n": "missing: name",
        "name,checked_in\n\n": "a header but no rows",
        "name\nAnn\nBob,yes\n": "Line 3 has more cells than the header",
        f"name\nAnn\n{huge}\n": "Line 3:",
        f"{huge}\nAnn\n": "not valid CSV",
    }
    for text, words in cases.items():
        problem = _import(api, event, text, 422)
        assert problem["code"] == "bad-csv" and words in problem["detail"], problem["detail"]
    monkeypatch.setitem(app.config, "IMPORT_ROWS", 3)
    problem = _import(api, event, "name\nA\nB\nC\nD\n", 422)
    assert problem["code"] == "too-many-rows" and "at most 3" in problem["detail"]
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []

    # A spreadsheet's byte-order mark and blank lines are no part of the field.
    _import(api, event, "\ufeffName,checked_in\nAnn,yes\n,\nBob,no\n", 201)
    players = api.get(f"/api/events/{event['id']}/players", expect=200).get_json()
    assert [(p["name"], p["checked_in"]) for p in players] == [("Ann", True), ("Bob", False)]


def test_a_finished_night_takes_no_import(api):
    event = api.create_event("progressive")
    api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
              json={"status": "finished"}, expect=200)
    problem = _import(api, event, "name\nAnn\n", 409)
    assert "finished" in problem["detail"]


def test_a_team_file_names_each_bad_team_on_its_line(api):
    event = api.create_event("teams")
    api.add_team(event, "Aces", ["Ann", "Bob"])
    text = ("team,player1,player2,substitutes\n"
            "ACES,Cy,Di,\n"
            "\u200b,Ed,Flo,\n"
            "Bowers,Gus,Hal,Ivy;Jo\n")
    problem = _import(api, event, text, 422)
    assert "There is already a team called 'ACES'." in problem["errors"]["line 2"]
    assert any("team name" in e for e in problem["errors"]["line 3"])
    assert "Substitutes are only kept for league teams." in problem["errors"]["line 4"]
    teams = api.get(f"/api/events/{event['id']}/teams", expect=200).get_json()
    assert [t["name"] for t in teams] == ["Aces"]

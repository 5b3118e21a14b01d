"""The OpenAPI document describes what the API really answers: which bodies may be left out, and
every member a problem can carry (the schemathesis fuzzer, tests/security/test_fuzz.py, checks
answers against it)."""

from __future__ import annotations

import ast
from pathlib import Path

from .test_bad_input import assert_problem


def test_the_document_says_which_bodies_may_be_left_out(api):
    # Bodies whose every field has a default were documented as required, yet a request
    # without one was (rightly) served; the CSV import needs one, as JSON or as text/csv.
    paths = api.get("/api/openapi.json", expect=200).get_json()["paths"]
    optional = {("post", "/api/events/{event_id}/keys"), ("post", "/api/events/{event_id}/rounds"),
                ("post", "/api/rounds/{round_id}/clock"), ("post", "/api/events/{event_id}/season"),
                ("patch", "/api/events/{event_id}"),
                ("patch", "/api/events/{event_id}/players/{player_id}"),
                ("patch", "/api/events/{event_id}/teams/{team_id}"),
                ("patch", "/api/clubs/{club_id}"), ("post", "/api/clubs/{club_id}/keys"),
                ("patch", "/api/clubs/{club_id}/people/{person_id}"),
                ("patch", "/api/clubs/{club_id}/series/{series_id}"),
                ("patch", "/api/clubs/{club_id}/events/{event_id}"),
                ("post", "/api/events/{event_id}/draws"),
                ("put", "/api/events/{event_id}/registration"),
                ("put", "/api/events/{event_id}/teams/{team_id}/roster"),
                ("post", "/api/events/{event_id}/door-requests/decline"),
                ("post", "/api/events/{event_id}/registration/remove-teams")}
    for path, operations in paths.items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert operation["requestBody"].get("required", False) == (
                    (method, path) not in optional), (method, path)
    body = paths["/api/events/{event_id}/import"]["post"]["requestBody"]
    assert set(body["content"]) == {"application/json", "text/csv"}
    event = api.create_event("progressive")
    key = api.post(f"/api/events/{event['id']}/keys", key=event["organizer_key"],
                   expect=201).get_json()
    assert key["table"] is None and key["role"] == "runner"


def test_a_stale_edit_is_a_412_whose_body_the_document_describes(api):
    # The 412 carries current_version, which the documented problem schema did not allow.
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    hand = api.hand(key, game, "A", 3)["hands"][0]["id"]
    stale = api.delete(f"/api/games/{game}/hands/{hand}", key=key, headers={"If-Match": '"0"'})
    problem = assert_problem(stale, 412, "another phone")
    documented = api.get("/api/openapi.json").get_json()["components"]["schemas"]["Problem"]
    assert set(problem) <= set(documented["properties"])
    assert problem["current_version"] == api.game(game)["version"]
    parameters = api.get("/api/openapi.json").get_json()["paths"][
        "/api/games/{game_id}/hands/{hand_id}"]["delete"]["parameters"]
    assert {"in": "header", "name": "If-Match", "required": True}.items() <= parameters[0].items()


def test_every_member_a_problem_can_carry_is_in_the_documented_problem_schema(api):
    # A 409 for a round seated twice carried round_id, which the document did not allow
    # (found by the fuzzer, as current_version on a 412 was): read every Problem(...) in api/.
    # Services raise domain errors (api/core/errors.py), answered as problems too.
    documented = set(api.get("/api/openapi.json").get_json()["components"]["schemas"][
        "Problem"]["properties"])
    api_folder = Path(__file__).resolve().parents[2].joinpath("api")
    problems = {"Problem"} | {
        node.name for node in ast.parse(api_folder.joinpath("core", "errors.py").read_text())
        .body if isinstance(node, ast.ClassDef)}
    extras = set()
    for path in api_folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in problems:
                extras |= {k.arg for k in node.keywords
                           if k.arg not in (None, "code", "errors", "headers", "retry_after")}
    assert extras and extras <= documented, extras - documented
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    seated = api.seat_round(event, 1)
    again = api.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                     json={"number": 1})
    problem = assert_problem(again, 409)
    assert problem["round_id"] == seated["id"] and set(problem) <= documented

"""Bugs the schemathesis fuzzer (tests/security/test_fuzz.py) found, each pinned by the
smallest request that showed it."""

from __future__ import annotations

import ast
from pathlib import Path

from .test_bad_input import assert_problem


def test_get_on_a_post_only_resource_is_a_405_that_allows_only_post(api):
    # The PWA's catch-all GET route used to match /api/qr: a 404, and GET in the Allow header.
    response = api.get("/api/qr")
    assert_problem(response, 405)
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    options = api.request("OPTIONS", "/api/events/1/pin")
    assert set(options.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_unknown_api_addresses_are_404_problems_not_the_app_shell(api):
    for path in ("/api", "/api/", "/api/nothing-here", "/api/events/1/nothing"):
        assert_problem(api.get(path), 404)


def test_a_json_import_without_its_csv_is_a_422_naming_the_field(api):
    event = api.create_event("progressive")
    url, key = f"/api/events/{event['id']}/import", event["organizer_key"]
    for body in ({}, {"csv": None}):
        problem = assert_problem(api.post(url, key=key, json=body), 422, "csv")
        assert "csv" in problem["errors"]
    assert_problem(api.post(url, key=key, data="name\nAnn\n",
                            headers={"Content-Type": "text/plain"}), 415)


def test_a_boolean_field_takes_only_true_or_false(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    player = api.add_players(event, ["Ann"])[0]
    url = f"/api/events/{event['id']}/players/{player['id']}"
    for value in (0, 1, "yes", "true", None):
        # 0 and 1 used to pass as false and true: 1 == True, so 1 was in truthy={True}.
        assert_problem(api.patch(url, key=key, json={"withdrawn": value}), 422, "withdrawn")
    assert api.patch(url, key=key, json={"withdrawn": True}, expect=200).get_json()["withdrawn"]


def test_the_document_says_which_bodies_may_be_left_out(api):
    # Bodies whose every field has a default were documented as required, yet a request
    # without one was (rightly) served; the CSV import needs one, as JSON or as text/csv.
    paths = api.get("/api/openapi.json", expect=200).get_json()["paths"]
    optional = {("post", "/api/events/{event_id}/keys"), ("post", "/api/events/{event_id}/rounds"),
                ("post", "/api/rounds/{round_id}/clock"), ("post", "/api/events/{event_id}/season"),
                ("patch", "/api/events/{event_id}"),
                ("patch", "/api/events/{event_id}/players/{player_id}"),
                ("patch", "/api/events/{event_id}/teams/{team_id}")}
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


def test_text_with_a_nul_character_is_refused_not_a_server_error(api):
    # PostgreSQL cannot store or even compare text holding NUL: POST /api/join with code
    # "\x00" was a 500 there (found by the fuzzer); a file name with one was a 500 anywhere.
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    refused = [
        api.post("/api/join", json={"code": "\x00", "pin": "0"}),
        api.post("/api/join", json={"code": event["code"], "pin": "1\x002"}),
        api.post(f"/api/games/{game}/hands", key=key,
                 json={"id": "nul-note", "maker": "A", "tricks": 3, "note": "a\x00b"}),
        api.post(f"/api/events/{event['id']}/keys", key=key, json={"label": "\x00"}),
        api.post(f"/api/events/{event['id']}/import", key=key, json={"csv": "name\nA\x00n\n"}),
        api.post("/api/events", json={"name": "x", "preset": "league",
                                      "overrides": {"\x00": 1}}),
    ]
    for response in refused:
        assert_problem(response, 422, "NUL")
    for path in ("/api/events/by-code/%00", f"/api/games/{game}/hands/%00", "/%00",
                 "/js/%00.js", "/e/%00/board"):
        assert_problem(api.get(path), 404)
    assert api.game(game)["hands_played"] == 0


def test_every_member_a_problem_can_carry_is_in_the_documented_problem_schema(api):
    # A 409 for a round seated twice carried round_id, which the document did not allow
    # (found by the fuzzer, as current_version on a 412 was): read every Problem(...) in api/.
    documented = set(api.get("/api/openapi.json").get_json()["components"]["schemas"][
        "Problem"]["properties"])
    extras = set()
    for path in Path(__file__).resolve().parents[2].joinpath("api").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                extras |= {k.arg for k in node.keywords
                           if k.arg not in (None, "code", "errors", "headers")}
    assert extras and extras <= documented, extras - documented
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    seated = api.seat_round(event, 1)
    again = api.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                     json={"number": 1})
    problem = assert_problem(again, 409)
    assert problem["round_id"] == seated["id"] and set(problem) <= documented

"""Bugs the schemathesis fuzzer (tests/security/test_fuzz.py) found, each pinned by the
smallest request that showed it."""

from __future__ import annotations

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

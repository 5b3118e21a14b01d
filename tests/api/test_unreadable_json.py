"""JSON the parser cannot read for reasons other than its syntax, and ids too long to be ids,
are a 4xx that says so, with no key needed and nothing stored: never a 500."""

from __future__ import annotations

import pytest

LONG_NUMBER = "1" * 5000  # Python reads at most 4,300 digits as an int


def _raw(api, method, path, body: bytes, key=None, content_type="application/json"):
    headers = {"Content-Type": content_type}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return api.client.open(path, method=method, data=body, headers=headers)


def test_a_number_of_thousands_of_digits_is_a_422_anywhere_in_a_body(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    cases = [
        ("POST", "/api/events", '{"name": "Night", "preset": "progressive", "overrides": '
                                f'{{"rounds": {LONG_NUMBER}}}}}', None),
        ("POST", "/api/join", f'{{"code": "{event["code"]}", "pin": {LONG_NUMBER}}}', None),
        ("POST", f"/api/events/{event['id']}/players",
         f'{{"name": "Ann", "checked_in": true, "x": [-{LONG_NUMBER}]}}', key),
        ("PATCH", f"/api/events/{event['id']}", f'{{"name": {LONG_NUMBER}}}', key),
    ]
    for method, path, body, with_key in cases:
        answer = _raw(api, method, path, body.encode(), key=with_key)
        assert answer.status_code == 422, (path, answer.get_data(as_text=True)[:300])
        assert answer.mimetype == "application/problem+json"
        assert answer.get_json()["code"] == "number-too-long"
        assert "4,300 digits" in answer.get_json()["detail"]
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []
    assert api.get(f"/api/events/{event['id']}", expect=200).get_json()["name"] == "Test night"


def test_a_long_number_inside_a_string_is_only_text(api):
    # The check reads numbers, not digits in text: a name of digits is a name (too long here).
    answer = _raw(api, "POST", "/api/events",
                  f'{{"name": "{LONG_NUMBER}", "preset": "progressive"}}'.encode())
    assert answer.status_code == 422
    assert "name" in answer.get_json()["errors"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_json_in_another_encoding_is_a_400_however_deep_it_hides_its_nesting(api, encoding):
    # In UTF-16 an escaped quote can hide nesting from a byte-wise count; the body is not
    # UTF-8, so it is refused whole before any nesting is parsed.
    body = '["\\"", ' + "[" * 3000 + "]" * 3000 + ', "x"]'
    answer = _raw(api, "POST", "/api/events", body.encode(encoding))
    assert answer.status_code == 400
    assert answer.mimetype == "application/problem+json"


@pytest.mark.parametrize("path", [
    "/api/events/" + "9" * 5000,
    "/api/events/" + "9" * 11 + "/players",
    "/api/games/" + "0" * 4400 + "1",
    "/api/rounds/" + "1" * 5000 + "/close",
])
def test_an_id_of_thousands_of_digits_is_not_found_not_a_500(api, path):
    for method in ("GET", "POST"):
        answer = api.client.open(path, method=method)
        # 405 where another route of that shape takes other methods: no id, either way.
        assert answer.status_code in (404, 405), (method, path[:40], answer.status_code)
        assert answer.mimetype == "application/problem+json"


def test_a_huge_list_is_refused_before_its_items_are_read_and_nothing_is_stored(api):
    event = api.create_event("league")
    key = event["organizer_key"]
    names = [f"Sub {i}" for i in range(100_000)]
    for body in ({"name": "North", "players": names},
                 {"name": "North", "players": ["Ann", "Bob"], "substitutes": names}):
        answer = api.post(f"/api/events/{event['id']}/teams", key=key, json=body)
        assert answer.status_code == 422, answer.get_data(as_text=True)[:300]
        assert "Longer than" in answer.get_json()["detail"]
    assert api.get(f"/api/events/{event['id']}/teams", expect=200).get_json() == []

"""The problem+json answers for what the routes do not catch themselves: a database error
that is not a busy one, an unexpected error once tests stop asking for the traceback, a
refusal of a kind without its own status, and nested input errors summed up in one line."""

from __future__ import annotations

from sqlalchemy.exc import OperationalError

from api import problems
from api.core import errors as domain


def _problem(response) -> tuple[int, dict]:
    assert response.mimetype == "application/problem+json"
    return response.status_code, response.get_json()


def test_a_database_error_that_is_not_busy_is_a_plain_500_logged(app, monkeypatch, caplog):
    monkeypatch.setitem(app.config, "RAISE_UNEXPECTED", False)
    broken = OperationalError("SELECT 1", {}, Exception("disk I/O error"))
    with app.test_request_context("/api/events"):
        status, body = _problem(problems.handle_database_error(broken))
    assert status == 500 and body["code"] == "server-error"
    assert "disk I/O error" not in body["detail"], "the server's insides stay inside"
    assert any("unexpected error" in r.message for r in caplog.records)


def test_a_refusal_of_no_particular_kind_is_a_422_with_its_sentence(app):
    with app.test_request_context("/api/events"):
        status, body = _problem(problems.handle_service_error(
            domain.ServiceError("Pick a night first.", code="no-night")))
    assert (status, body["detail"], body["code"]) == (422, "Pick a night first.", "no-night")


def test_nested_input_errors_read_as_one_line_naming_each_field():
    errors = {"json": {"hands": [{"tricks": ["Must be 0 to 5."]}, {}],
                       "players": {"0": {"name": ["Missing data."]}}}}
    assert problems._summarise(errors) == \
        "hands.0.tricks: Must be 0 to 5.; players.0.name: Missing data."
    assert problems._summarise({"json": ["Not an object."]}) == "Not an object."
    assert problems._summarise({}) == "The request is not valid."

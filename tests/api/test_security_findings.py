"""Bugs the hardening tests (tests/security/test_hardening.py) found, each pinned small."""

from __future__ import annotations

import io

from .test_bad_input import assert_problem


def test_a_chunked_body_past_the_limit_is_a_413_not_a_shorter_file(api, app):
    # Without a Content-Length, werkzeug read the body up to the limit and stopped as if it
    # had ended: the CSV import stored the first 2 MB of players and a cut-off name.
    event = api.create_event("progressive")
    rows = "name\n" + "".join(f"Player {i:07d}\n" for i in range(
        app.config["MAX_CONTENT_LENGTH"] // 15 + 10))
    response = api.client.post(
        f"/api/events/{event['id']}/import", input_stream=io.BytesIO(rows.encode()),
        headers={"Authorization": f"Bearer {event['organizer_key']}",
                 "Content-Type": "text/csv", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True})  # as gunicorn sets it
    assert_problem(response, 413)
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []


def test_an_export_of_an_event_named_in_any_script_has_a_latin1_file_name(api):
    # gunicorn refuses a header that is not Latin-1: "Łódź Турнир" made every export a 500.
    event = api.create_event("progressive", name="Łódź Турнир 東京 night")
    response = api.get(f"/api/events/{event['id']}/export/standings.csv",
                       key=event["organizer_key"], expect=200)
    response.get_data()
    disposition = response.headers["Content-Disposition"]
    disposition.encode("latin-1")
    assert disposition == 'attachment; filename="lodz-night-standings.csv"'


def test_wrong_pins_spread_over_tables_meet_an_event_wide_limit(api, app):
    # Per event and table only, naming each of the 1,000 tables in turn bought 1,000 times
    # the guesses: ten thousand tries at a six-digit PIN every five minutes.
    event = api.create_event("progressive")
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    wrong = "000000" if access["join_pin"] != "000000" else "111111"
    for attempt in range(app.config["PIN_EVENT_ATTEMPTS"]):
        assert_problem(api.post("/api/join", json={"code": access["code"], "pin": wrong,
                                                   "table": attempt + 1}), 403)
    assert_problem(api.post("/api/join", json={"code": access["code"],
                                               "pin": access["join_pin"], "table": 999}), 429)

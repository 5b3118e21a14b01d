"""Leaderboard polls answered before Flask (api/polls.py): the same answers Flask gives, with
the same headers, and never a stale one."""

from __future__ import annotations

from api.polls import LeaderboardPolls

from .client import ApiClient


def _flask_calls(app) -> list[str]:
    """Wrap the app behind the poll layer so the test sees which requests reached Flask."""
    polls = app.wsgi_app
    assert isinstance(polls, LeaderboardPolls)
    inner = polls.wsgi_app
    calls: list[str] = []

    def counting(environ, start_response):
        calls.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    polls.wsgi_app = counting
    return calls


def _headers(response) -> dict:
    return {k: v for k, v in response.headers.items() if k != "Date"}


def test_polls_skip_flask_with_flasks_own_answer_and_headers(app):
    api = ApiClient(app.test_client())
    calls = _flask_calls(app)
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    url = f"/api/events/{event['id']}/leaderboard"

    calls.clear()
    by_flask = api.get(url, expect=200)
    tag = by_flask.headers["ETag"]
    flask_304 = api.get(url, headers={"If-None-Match": tag}, expect=304)
    assert len(calls) == 2, "until Flask has answered each kind once, Flask answers"

    calls.clear()
    fast = api.get(url, expect=200)
    fast_304 = api.get(url, headers={"If-None-Match": tag}, expect=304)
    assert calls == [], "a known revision is answered without Flask"
    assert fast.data == by_flask.data
    assert _headers(fast) == _headers(by_flask)
    assert _headers(fast_304) == _headers(flask_304)

    # A hand changes the revision: the old tag no longer matches and the new board is built
    # (by Flask, once), never an old body served.
    api.hand(event["organizer_key"], game, "A", 3)
    calls.clear()
    changed = api.get(url, headers={"If-None-Match": tag}, expect=200)
    assert changed.headers["ETag"] != tag and calls == [url]
    assert changed.get_json()["rows"][0]["total"] == 1
    calls.clear()
    again = api.get(url, headers={"If-None-Match": changed.headers["ETag"]}, expect=304)
    assert calls == [] and again.headers["ETag"] == changed.headers["ETag"]


def test_anything_else_goes_to_flask(app):
    api = ApiClient(app.test_client())
    calls = _flask_calls(app)
    event = api.create_event("progressive")
    url = f"/api/events/{event['id']}/leaderboard"
    tag = api.get(url, expect=200).headers["ETag"]
    api.get(url, headers={"If-None-Match": tag}, expect=304)
    calls.clear()
    api.get("/api/events/999/leaderboard", headers={"If-None-Match": tag}, expect=404)
    api.get(url + "?x=1", headers={"If-None-Match": tag}, expect=304)
    api.request("HEAD", url, expect=200)
    assert len(calls) == 3


def test_cors_headers_are_learned_per_origin(database_url):
    from api import create_app
    from api.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "CORS_ORIGINS": "https://club.example"})
    try:
        api = ApiClient(app.test_client())
        calls = _flask_calls(app)
        event = api.create_event("progressive")
        url = f"/api/events/{event['id']}/leaderboard"
        allowed = {"Origin": "https://club.example"}
        other = {"Origin": "https://elsewhere.example"}
        first = {name: api.get(url, headers=h, expect=200) for name, h in
                 (("allowed", allowed), ("other", other), ("none", {}))}
        calls.clear()
        for name, h in (("allowed", allowed), ("other", other), ("none", {})):
            again = api.get(url, headers=h, expect=200)
            assert _headers(again) == _headers(first[name]), name
        assert calls == []
        assert first["allowed"].headers["Access-Control-Allow-Origin"] == "https://club.example"
        assert "Access-Control-Allow-Origin" not in first["other"].headers
    finally:
        with app.app_context():
            db.engine.dispose()


def test_gzip_for_clients_that_take_it_before_flask_too(app):
    import gzip

    from api.routes.reading import accepts_gzip

    assert accepts_gzip("gzip, deflate, br") and accepts_gzip("*")
    assert not accepts_gzip("gzip;q=0") and not accepts_gzip("br") and not accepts_gzip(None)
    assert not accepts_gzip("*, gzip;q=0")
    api = ApiClient(app.test_client())
    calls = _flask_calls(app)
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    api.seat_round(event, 1)
    url = f"/api/events/{event['id']}/leaderboard"
    gz = {"Accept-Encoding": "gzip, deflate, br"}
    plain = api.get(url, expect=200)
    by_flask = api.get(url, headers=gz, expect=200)
    calls.clear()
    fast = api.get(url, headers=gz, expect=200)
    assert calls == []
    assert by_flask.headers["Content-Encoding"] == "gzip" == fast.headers["Content-Encoding"]
    assert "Content-Encoding" not in plain.headers
    for answer in (plain, by_flask, fast):
        assert "Accept-Encoding" in answer.headers["Vary"]
    assert gzip.decompress(fast.data) == gzip.decompress(by_flask.data) == plain.data
    assert _headers(fast) == _headers(by_flask)
    unchanged = api.get(url, headers={**gz, "If-None-Match": plain.headers["ETag"]}, expect=304)
    assert "Accept-Encoding" in unchanged.headers["Vary"]

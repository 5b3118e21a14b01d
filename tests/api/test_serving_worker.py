"""What gunicorn.conf.py does to each worker (api/serving/worker.py), in this process: the
collector and allocator settings, the warm-up before the first request, and gunicorn's own
error answers as problem+json. tests/security/test_gunicorn_edges.py sees the error answers
from a real gunicorn; this file checks each piece where a failure can be read."""

from __future__ import annotations

import gc
import json
from types import SimpleNamespace

import pytest

from api.serving import worker


class Recorder:
    def __init__(self):
        self.calls = []

    def warm(self, **kwargs):
        self.calls.append(kwargs)


@pytest.fixture
def collector():
    """The collector's settings put back after the test, whatever it set."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _worker_with(extensions: dict):
    return SimpleNamespace(wsgi=SimpleNamespace(extensions=extensions))


def test_a_worker_is_tuned_and_warmed_before_its_first_request(collector, monkeypatch):
    monkeypatch.delenv("SERVING_OFF", raising=False)
    gc.unfreeze()
    polls, hands = Recorder(), Recorder()
    worker.tune_worker(_worker_with({"leaderboard_polls": polls, "hand_posts": hands}))
    assert gc.get_threshold() == worker.GC_THRESHOLD
    assert gc.get_freeze_count() > 0, "the app built so far is kept out of full passes"
    assert polls.calls == [{"wait": worker.WARM_SECONDS}], "the boards in play are built first"
    assert hands.calls == [{}], "and the hand's SQL"


def test_tricks_switched_off_are_left_alone_and_the_warm_up_still_runs(collector, monkeypatch):
    monkeypatch.setenv("SERVING_OFF", "gc_freeze,gc_threshold,mallopt")
    gc.unfreeze()
    before = gc.get_threshold()
    polls = Recorder()
    worker.tune_worker(_worker_with({"leaderboard_polls": polls}))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert polls.calls == [{"wait": worker.WARM_SECONDS}]


def test_an_unknown_trick_stops_the_worker_instead_of_being_ignored(monkeypatch):
    monkeypatch.setenv("SERVING_OFF", "gc_freez")
    with pytest.raises(ValueError, match="gc_freez"):
        worker.tune_worker(_worker_with({}))


def test_gunicorns_own_errors_are_problem_json_with_the_apps_security_headers():
    written = []
    util = SimpleNamespace(write_nonblock=lambda sock, data: written.append((sock, data)))
    worker.answer_errors_as_problems(util)
    util.write_error("the socket", 414, "Request-URI Too Long", "line of 9000 bytes\r\nX: y")
    (sock, data), = written
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    assert sock == "the socket" and lines[0] == "HTTP/1.1 414 Request-URI Too Long"
    assert "Content-Type: application/problem+json" in lines
    assert f"Content-Length: {len(body)}" in lines
    for header in ("X-Content-Type-Options: nosniff", "X-Frame-Options: DENY",
                   "Cache-Control: no-store"):
        assert header in lines
    problem = json.loads(body)
    assert problem["status"] == 414 and problem["title"] == "Request-URI Too Long"
    assert problem["detail"].startswith("Request-URI Too Long: line of 9000 bytes")
    util.write_error("s", 400, "Bad Request", "")
    assert json.loads(written[-1][1].partition(b"\r\n\r\n")[2])["detail"] == "Bad Request"


def test_with_both_layers_switched_off_flask_answers_hands_and_polls_alike(
        database_url, monkeypatch):
    """SERVING_OFF=polls,hand_posts (what the benchmark prices) leaves the app answering as
    before, through Flask alone."""
    from api import create_app
    from api.core.db import db

    from .client import ApiClient
    from .conftest import APP_CONFIG

    monkeypatch.setenv("SERVING_OFF", "polls,hand_posts")
    app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url})
    try:
        assert "leaderboard_polls" not in app.extensions
        assert "hand_posts" not in app.extensions
        api = ApiClient(app.test_client())
        event = api.create_event("progressive")
        api.add_players(event, [f"P{i}" for i in range(8)])
        game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
        url = f"/api/events/{event['id']}/leaderboard"
        tag = api.get(url, expect=200).headers["ETag"]
        api.get(url, headers={"If-None-Match": tag}, expect=304)
        api.hand(event["organizer_key"], game, "A", 3)
        board = api.get(url, headers={"If-None-Match": tag}, expect=200).get_json()
        assert max(row["total"] for row in board["rows"]) == 1
    finally:
        with app.app_context():
            db.engine.dispose()

"""Leaderboard polls answered before Flask (api/serving/polls.py): the same answers Flask
gives, with the same headers, and never a stale one."""

from __future__ import annotations

import threading
import time

import pytest

from api.serving.polls import LeaderboardPolls

from .client import ApiClient


@pytest.fixture
def app(fresh_app):
    """Every test here looks into the polls layer, or changes it: an app of its own."""
    return fresh_app


def _flask_calls(app) -> list[str]:
    """Wrap the app behind the poll layer so the test sees which requests reached Flask."""
    polls = app.extensions["leaderboard_polls"]
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
    from api.core.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None,
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

    from api.leaderboard.body import accepts_gzip

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


def _night_in_play(api: ApiClient) -> tuple[dict, str, int, str]:
    """Eight players, round 1 seated: the event, its organizer key, a game and the board."""
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    return event, event["organizer_key"], game, f"/api/events/{event['id']}/leaderboard"


def _worker(database_url):
    """Another app on the same database: what a second gunicorn worker is."""
    from api import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                       "POLL_BUILD_BEHIND_MS": None})


def _revision_reads(app) -> list[int]:
    polls = app.extensions["leaderboard_polls"]
    reads: list[int] = []
    read = polls._revision

    def counting(event_id):
        reads.append(event_id)
        return read(event_id)

    polls._revision = counting
    return reads


def test_polls_in_quick_succession_share_one_revision_read(app):
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    url = f"/api/events/{event['id']}/leaderboard"
    tag = api.get(url, expect=200).headers["ETag"]
    app.extensions["leaderboard_polls"].fresh_for = 60  # a window no slow test machine outlasts
    reads = _revision_reads(app)
    for _ in range(20):
        api.get(url, headers={"If-None-Match": tag}, expect=304)
    assert reads == []


def test_a_write_in_the_worker_shows_on_its_next_poll_at_once(app):
    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    tag = api.get(url, expect=200).headers["ETag"]
    api.get(url, headers={"If-None-Match": tag}, expect=304)
    api.hand(key, game, "A", 5)
    fresh = api.get(url, headers={"If-None-Match": tag}, expect=200)
    assert sorted(r["total"] for r in fresh.get_json()["rows"])[-1] == 2


def test_a_poller_never_goes_back_to_an_older_board_than_it_has_seen(database_url):
    """Worker 1 has just read revision r; worker 2 stores a hand (r + 1) and a phone gets the
    new board there. Polling worker 1 next, with the new ETag, it must not get the old board
    back: worker 1 reads the revision again and answers 304."""
    from api.core.db import db

    one, two = _worker(database_url), _worker(database_url)
    try:
        api1, api2 = ApiClient(one.test_client()), ApiClient(two.test_client())
        event, key, game, url = _night_in_play(api2)
        old_tag = api1.get(url, expect=200).headers["ETag"]
        api2.hand(key, game, "B", 5)
        new = api2.get(url, expect=200)
        assert new.headers["ETag"] != old_tag
        again = api1.get(url, headers={"If-None-Match": new.headers["ETag"]})
        assert again.status_code == 304 and again.headers["ETag"] == new.headers["ETag"]
        # A phone still on the old board may hear "unchanged" for at most POLL_FRESH_SECONDS
        # from worker 1; once that has passed, it gets the new board.
        one.extensions["leaderboard_polls"].fresh_for = 0
        later = api1.get(url, headers={"If-None-Match": old_tag}, expect=200)
        assert later.headers["ETag"] == new.headers["ETag"]
        assert later.get_json() == new.get_json()
    finally:
        for app in (one, two):
            with app.app_context():
                db.engine.dispose()


def test_the_revision_a_poller_has_seen_is_read_from_its_etag():
    from api.leaderboard.body import etag_for
    from api.serving.polls import newest_seen

    assert newest_seen(7, None) is None and newest_seen(7, "") is None
    assert newest_seen(7, etag_for("board", 7, 41)) == 41
    assert newest_seen(7, f'{etag_for("board", 7, 3)}, {etag_for("board", 7, 9)}') == 9
    for other in ("*", etag_for("board", 8, 41), '"static-1"', etag_for("standings", 7, 4)):
        assert newest_seen(7, other) is None, other


def test_a_poller_behind_gets_the_newest_board_the_worker_has_read(app):
    """Polls whose ETag is older than the revision just read share that read too."""
    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    old_tag = api.get(url, expect=200).headers["ETag"]
    api.hand(key, game, "A", 5)
    app.extensions["leaderboard_polls"].fresh_for = 60  # a window no slow test machine outlasts
    new = api.get(url, expect=200)
    reads = _revision_reads(app)
    for _ in range(5):
        behind = api.get(url, headers={"If-None-Match": old_tag}, expect=200)
        assert behind.headers["ETag"] == new.headers["ETag"]
        assert behind.get_json() == new.get_json()
    assert reads == []


def test_while_a_board_is_being_built_pollers_get_the_newest_built_one(app):
    """Pollers do not queue behind another thread's build of a new board: they get the
    newest board already built (or a 304 if they have it), never one older than they saw.
    (A read naming no board waits for the new one: see the test above.)"""
    from api.leaderboard import cache
    from api.leaderboard.body import BOARD_BODY

    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    built = api.get(url, expect=200)
    api.get(url, headers={"If-None-Match": built.headers["ETag"]}, expect=304)
    api.hand(key, game, "A", 5)
    with app.app_context():
        from api.core.db import db
        from api.core.models import Event

        row = db.session.get(Event, event["id"])
        new_revision, code = row.revision, row.code
    building = cache.cache_key(event["id"], code, new_revision, BOARD_BODY)
    calls = _flask_calls(app)
    # As if another thread were building it:
    cache.BOARDS._building[(building, None)] = threading.Lock()
    try:
        same = api.get(url, headers={"If-None-Match": built.headers["ETag"]}, expect=304)
        assert same.headers["ETag"] == built.headers["ETag"] and calls == []
    finally:
        cache.BOARDS._building.pop((building, None), None)
    fresh = api.get(url, headers={"If-None-Match": built.headers["ETag"]}, expect=200)
    assert fresh.headers["ETag"] != built.headers["ETag"]
    assert max(r["total"] for r in fresh.get_json()["rows"]) == 2


def _builder_done(polls, deadline):
    """Wait until the builder thread has published its board and given its connection back
    (it takes the event off its queue last): the app's engine is disposed after the test."""
    while polls.queued:
        assert time.monotonic() < deadline, "the builder thread kept the event queued"
        time.sleep(0.01)
    assert polls.builder is not None


def test_a_board_slow_to_build_is_rebuilt_behind_the_polls_after_a_change(app):
    """A board whose last build took POLL_BUILD_BEHIND_MS or more (a 2,000-player event's) is
    rebuilt by the worker's builder thread after a change: no poller waits for it; each gets
    the board it has (304) or the newest built, then the new one once it is ready."""
    polls = app.extensions["leaderboard_polls"]
    polls.build_behind = 0.0  # every board counts as slow here
    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    built = api.get(url, expect=200)
    api.get(url, headers={"If-None-Match": built.headers["ETag"]}, expect=304)
    calls = _flask_calls(app)
    api.hand(key, game, "A", 5)
    calls.clear()
    same = api.get(url, headers={"If-None-Match": built.headers["ETag"]})
    assert calls == [], "the poll did not wait for a build in Flask"
    assert same.status_code in (200, 304)  # 200 only if the builder was already done
    deadline = time.monotonic() + 10
    while True:
        fresh = api.get(url, headers={"If-None-Match": built.headers["ETag"]})
        if fresh.status_code == 200:
            break
        assert time.monotonic() < deadline, "the builder thread never built the new board"
        time.sleep(0.02)
    assert fresh.headers["ETag"] != built.headers["ETag"] and calls == []
    assert max(r["total"] for r in fresh.get_json()["rows"]) == 2
    _builder_done(polls, deadline)


def test_a_build_behind_the_polls_waits_for_a_burst_of_hands_to_end(app, monkeypatch):
    """Hands sent back to back (here or in another worker) each change the revision; the
    builder builds once the revision has stood still for a quiet moment."""
    from api.core.writes_first import QUIET
    from api.serving import polls as module

    polls = app.extensions["leaderboard_polls"]
    revisions = iter([7, 8, 9, 9, 9])
    read = []
    monkeypatch.setattr(module, "SETTLE_AT_MOST", 60)
    monkeypatch.setattr(polls, "_revision", lambda event_id: read.append(event_id) or
                        (next(revisions), "code"))
    start = time.monotonic()
    polls._settle(5)
    assert read == [5, 5, 5, 5]  # 7, then 8 and 9 (changed), then 9 again: settled
    assert time.monotonic() - start >= 3 * QUIET


def test_the_builder_thread_lets_the_writes_settle_before_each_build(app, monkeypatch):
    polls = app.extensions["leaderboard_polls"]
    steps = []
    monkeypatch.setattr(polls, "_settle", lambda event_id: steps.append(("settle", event_id)))
    monkeypatch.setattr(polls, "build", lambda event_id: steps.append(("build", event_id)))
    polls._queue(3)
    _builder_done(polls, time.monotonic() + 10)
    assert steps == [("settle", 3), ("build", 3)]


def test_a_build_behind_the_polls_waits_for_writes_to_settle_for_a_while_at_most(
        app, monkeypatch):
    from api.serving import polls as module

    polls = app.extensions["leaderboard_polls"]
    read = []
    monkeypatch.setattr(module, "SETTLE_AT_MOST", 0.1)
    monkeypatch.setattr(polls, "_revision", lambda event_id: (read.append(1) or len(read), "c"))
    settler = threading.Thread(target=polls._settle, args=(5,))
    settler.start()
    settler.join(10)
    assert not settler.is_alive(), "the builder kept waiting while the event kept changing"
    assert len(read) >= 2


def test_a_read_without_an_etag_gets_the_newest_board_even_while_it_is_built_behind(app):
    """The organizer records a change and the console reads the board again, naming no board
    it has: it must see its change, not the board from before it (which a poller with an ETag
    may be given while the builder thread works)."""
    polls = app.extensions["leaderboard_polls"]
    polls.build_behind = 0.0  # every board counts as slow here
    polls.fresh_for = 60  # and one revision read would serve every poll
    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    before = api.get(url, expect=200)
    api.get(url, headers={"If-None-Match": before.headers["ETag"]}, expect=304)
    api.hand(key, game, "A", 5)
    after = api.get(url, expect=200)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert max(r["total"] for r in after.get_json()["rows"]) == 2


def test_a_starting_worker_builds_the_boards_of_the_events_in_play_in_the_background(app):
    from api.leaderboard import cache
    from api.leaderboard.body import BOARD_BODY

    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    idle = api.create_event("progressive", name="Not started")
    polls = app.extensions["leaderboard_polls"]
    polls.warm()
    deadline = time.monotonic() + 10
    with app.app_context():
        from api.core.db import db
        from api.core.models import Event

        row = db.session.get(Event, event["id"])
        key_now = cache.cache_key(row.id, row.code, row.revision, BOARD_BODY)
        other = db.session.get(Event, idle["id"])
        idle_key = cache.cache_key(other.id, other.code, other.revision,
                                       BOARD_BODY)
    while cache.peek(key_now) is None:
        assert time.monotonic() < deadline, "the board of the event in play was not built"
        time.sleep(0.02)
    assert cache.peek(idle_key) is None, "an event with no round in play is left alone"
    _builder_done(polls, deadline)


def test_a_starting_worker_waits_for_the_boards_before_it_takes_requests(app):
    """With a wait, warm() returns only once the board of the event in play is built, so the
    worker's first poll finds it ready."""
    from api.leaderboard import cache
    from api.leaderboard.body import BOARD_BODY

    api = ApiClient(app.test_client())
    event, key, game, url = _night_in_play(api)
    polls = app.extensions["leaderboard_polls"]
    polls.warm(wait=10)
    with app.app_context():
        from api.core.db import db
        from api.core.models import Event

        row = db.session.get(Event, event["id"])
        built = cache.peek(cache.cache_key(row.id, row.code, row.revision, BOARD_BODY))
        db.session.remove()
    assert built is not None, "warm(wait=...) returned before the board was built"
    _builder_done(polls, time.monotonic() + 10)


def test_a_poll_whose_revision_cannot_be_read_goes_to_flask(app, monkeypatch):
    api = ApiClient(app.test_client())
    calls = _flask_calls(app)
    event = api.create_event("progressive")
    url = f"/api/events/{event['id']}/leaderboard"
    tag = api.get(url, expect=200).headers["ETag"]
    api.get(url, headers={"If-None-Match": tag}, expect=304)
    polls = app.extensions["leaderboard_polls"]

    def away(event_id):
        raise OSError("the database is away a moment")

    monkeypatch.setattr(polls, "_revision", away)
    polls.recent.clear()
    calls.clear()
    api.get(url, headers={"If-None-Match": tag}, expect=304)
    assert calls == [url], "Flask answers (and reads the revision itself)"


def test_a_worker_starts_even_when_the_events_in_play_cannot_be_read(app, monkeypatch):
    import contextlib

    from api.serving import polls as module

    @contextlib.contextmanager
    def away():
        raise OSError("the database is away a moment")
        yield

    monkeypatch.setattr(module, "reading_only", away)
    polls = app.extensions["leaderboard_polls"]
    polls.warm(wait=5)
    assert not polls.queued, "nothing queued: polls build their boards as usual"

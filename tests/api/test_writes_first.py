"""Writes before reads (the gate in api/core/writes_first.py, the layer in api/serving/writes.py):
a board build that starts while a hand is being stored waits for it, a poll does not; a builder
never waits longer than it is allowed to, a write never waits for itself, and a build behind
the polls waits for writes to settle."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from api.core import writes_first
from api.routes import games
from api.serving import hands as hand_posts
from api.serving.writes import WritesFirst

from .client import ApiClient

WAIT = 10  # seconds: a bound no test machine reaches, never a guess at how long work takes


@contextmanager
def _a_hand_held(app, monkeypatch, answers: dict):
    """A hand sent from another thread, held on its way until the block ends (a write in
    flight all along); its answer goes to answers["hand"]."""
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    url = f"/api/events/{event['id']}/leaderboard"
    answers["before"] = api.get(url, expect=200).headers["ETag"]
    api.get(url, headers={"If-None-Match": answers["before"]}, expect=304)  # both learned
    started, release = threading.Event(), threading.Event()

    def held(enter):
        def entering(*args, **kwargs):
            started.set()
            assert release.wait(WAIT)
            return enter(*args, **kwargs)
        return entering

    monkeypatch.setattr(games, "enter_hand", held(games.enter_hand))  # Flask's way
    monkeypatch.setattr(hand_posts, "enter_ordinary_hand",  # the way before Flask
                        held(hand_posts.enter_ordinary_hand))
    monkeypatch.setattr(writes_first, "PATIENCE", 60)

    def post_hand():
        answers["hand"] = ApiClient(app.test_client()).hand(event["organizer_key"], game, "A", 3)

    runner = threading.Thread(target=post_hand)
    runner.start()
    try:
        assert started.wait(WAIT)
        yield url
    finally:
        release.set()
        runner.join(WAIT)
    assert answers["hand"]["points"]["A"] == 1


@contextmanager
def _a_write_in_flight():
    """Another thread answering a write until the block ends."""
    inside, done = threading.Event(), threading.Event()

    def write():
        with writes_first.writing():
            inside.set()
            done.wait(WAIT)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert inside.wait(WAIT)
        yield
    finally:
        done.set()
        writer.join(WAIT)


def test_a_poll_during_a_hand_is_answered_at_once(app, monkeypatch):
    """A poll holds one of the worker's few request threads: parked while a hand is stored,
    it kept the next hand waiting for a thread. It is answered with the board it has."""
    answers: dict = {}
    with _a_hand_held(app, monkeypatch, answers) as url:
        etag = {"If-None-Match": answers["before"]}
        viewer = threading.Thread(
            target=lambda: answers.update(poll=app.test_client().get(url, headers=etag)))
        viewer.start()
        viewer.join(WAIT)  # well short of the patience a wait would have (60 s)
        assert not viewer.is_alive(), "the poll waited for the hand"
        assert answers["poll"].status_code == 304 and "hand" not in answers
    after = app.test_client().get(url, headers=etag)
    assert after.status_code == 200 and after.get_json()["rows"][0]["total"] == 1


def test_a_board_build_during_a_hand_waits_for_it(app, monkeypatch):
    from api.leaderboard import cache

    answers: dict = {}
    with _a_hand_held(app, monkeypatch, answers) as url:
        cache.clear()  # the next read builds the board
        viewer = threading.Thread(target=lambda: answers.update(board=app.test_client().get(url)))
        viewer.start()
        viewer.join(0.2)
        assert viewer.is_alive(), "the board was built while the hand was being stored"
    viewer.join(WAIT)
    assert not viewer.is_alive() and answers["board"].status_code == 200
    assert answers["board"].headers["ETag"] != answers["before"]
    assert answers["board"].get_json()["rows"][0]["total"] == 1  # the hand it waited for


def test_settling_waits_for_the_write_in_flight_then_a_quiet_moment():
    settled = []

    def settle():
        writes_first.settle(time.monotonic() + WAIT, quiet=0.05)
        settled.append(time.monotonic())

    with _a_write_in_flight():
        settler = threading.Thread(target=settle)
        settler.start()
        settler.join(0.1)
        assert settler.is_alive(), "settled while a write was in flight"
    settler.join(WAIT)
    assert settled and settled[0] >= writes_first._last_ended + 0.05


def test_settling_stops_at_its_deadline_and_costs_nothing_when_all_is_quiet(monkeypatch):
    with _a_write_in_flight():
        settler = threading.Thread(target=writes_first.settle,
                                   args=(time.monotonic() + 0.05,))
        settler.start()
        settler.join(WAIT)
        assert not settler.is_alive(), "settling went on past its deadline"
    monkeypatch.setattr(writes_first, "_last_ended", 0.0)  # no write for ages
    start = time.monotonic()
    writes_first.settle(start + WAIT)
    assert time.monotonic() - start < WAIT / 2


def test_a_reader_waits_no_longer_than_its_patience():
    with _a_write_in_flight():
        reader = threading.Thread(target=writes_first.yield_to_writes, args=(0.05,))
        reader.start()
        reader.join(WAIT)
        assert not reader.is_alive(), "a reader waited past its patience"


def test_a_write_that_reads_does_not_wait_for_itself():
    waited = threading.Event()
    with writes_first.writing():
        reader = threading.Thread(target=lambda: (writes_first.yield_to_writes(0.05),
                                                  waited.set()))
        # In the writing thread itself: back at once, even with an hour's patience.
        writes_first.yield_to_writes(3600)
        reader.start()
        reader.join(WAIT)
    assert waited.is_set()


@pytest.mark.parametrize("method, counted", [("POST", 1), ("PUT", 1), ("PATCH", 1),
                                             ("DELETE", 1), ("GET", 0), ("HEAD", 0),
                                             ("OPTIONS", 0)])
def test_the_layer_counts_writes_while_they_are_answered(method, counted):
    seen = []

    def inner(environ, start_response):
        seen.append(writes_first._writing)
        start_response("204 NO CONTENT", [])
        return [b""]

    layer = WritesFirst(inner)
    layer({"REQUEST_METHOD": method}, lambda *a: None)
    assert seen == [counted] and writes_first._writing == 0

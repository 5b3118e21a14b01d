"""The hand path: a new hand in a game in play is a handful of statements, and a retried hand
is answered without the write lock (so a phone's retry never waits behind other tables)."""

from __future__ import annotations

import sqlite3
import uuid

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine.interfaces import CacheStats

from api.core.db import db
from api.games import hand_entry

from .client import ApiClient

# The write lock is SQLite's: these run on SQLite only (never a skip on PostgreSQL).
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)

BOOKKEEPING = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def _night(app):
    api = ApiClient(app.test_client())
    event_ = api.create_event("progressive")
    api.add_players(event_, [f"P{i}" for i in range(8)])
    game = api.seat_round(event_, 1)["tables"][0]["games"][0]["id"]
    return api, event_["organizer_key"], game


def test_an_ordinary_hand_is_six_statements_or_fewer_the_games_first_too(app):
    api, key, game = _night(app)
    api.game(game)
    statements, webhook_reads = [], []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor, statement, parameters, context, executemany):
        if "FROM webhooks" in statement:
            # Whether the event has webhooks (api/webhooks/outbox.py): read at most once a
            # SUBSCRIPTION_SECONDS per event and worker, not by every hand; counted apart.
            webhook_reads.append(statement)
        elif not statement.lstrip().upper().startswith(BOOKKEEPING):
            statements.append(statement.split()[0])

    event.listen(engine, "before_cursor_execute", count)
    try:
        # The first hand writes the game's result rows (an INSERT where later hands UPDATE).
        for maker, tricks in (("A", 3), ("B", 5), ("B", 1), ("B", 4)):
            statements.clear()
            answer = api.post(f"/api/games/{game}/hands", key=key, json={
                "id": uuid.uuid4().hex, "maker": maker, "tricks": tricks}, expect=201)
            assert len(statements) <= 6, statements
            assert not any(s.upper() == "DELETE" for s in statements), statements
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert answer.get_json()["hands_played"] == 4
    assert len(webhook_reads) < 4, "the event's webhooks are read once, then kept"
    assert api.game(game)["points"] == {"A": 1 + 2, "B": 2 + 1}  # B euchred once
    # The standings read the result rows the first hand wrote and the later ones updated.
    event_id = api.game(game)["event_id"]
    board = api.get(f"/api/events/{event_id}/leaderboard").get_json()["rows"]
    assert sorted(r["total"] for r in board) == [0, 0, 0, 0, 3, 3, 3, 3]


def test_a_new_hand_takes_one_connection_and_on_postgresql_one_transaction(app):
    """The key check and the hand's read share a transaction (no check-out of a connection
    just for the key, with its ping); on PostgreSQL the write goes on in it too, on SQLite the
    write takes the lock in a transaction of its own."""
    api, key, game = _night(app)
    api.hand(key, game, "A", 3)
    checkouts, transactions = [], []
    with app.app_context():
        engine = db.engine
    postgres = engine.dialect.name == "postgresql"

    def on_checkout(*args):
        checkouts.append(1)

    def on_begin(conn):
        transactions.append(1)

    event.listen(engine, "checkout", on_checkout)
    event.listen(engine, "begin", on_begin)
    try:
        for tricks in (4, 5):
            checkouts.clear()
            transactions.clear()
            api.post(f"/api/games/{game}/hands", key=key, json={
                "id": uuid.uuid4().hex, "maker": "A", "tricks": tricks}, expect=201)
            assert len(checkouts) == len(transactions) == (1 if postgres else 2), \
                (checkouts, transactions)
    finally:
        event.remove(engine, "checkout", on_checkout)
        event.remove(engine, "begin", on_begin)


@SQLITE_ONLY
def test_a_retried_hand_is_answered_while_another_writer_holds_the_lock(app):
    api, key, game = _night(app)
    body = {"id": "retry-me", "maker": "A", "tricks": 5}
    first = api.post(f"/api/games/{game}/hands", key=key, json=body, expect=201).get_json()
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    # Which requests the layer before Flask hands on: a retry it answers itself, from a read.
    # (Its key's read once took the write lock there: the retry waited out the busy timeout,
    # 10 s, and Flask answered it.)
    layer = app.extensions["hand_posts"]
    inner, to_flask = layer.wsgi_app, []

    def counting(environ, start_response):
        to_flask.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    writer = sqlite3.connect(path, isolation_level=None, timeout=0)
    layer.wsgi_app = counting
    try:
        writer.execute("BEGIN IMMEDIATE")  # another request's write, in progress
        again = api.post(f"/api/games/{game}/hands", key=key, json=body, expect=200)
        assert again.get_json()["hands"] == first["hands"]
        assert to_flask == [], "the retry waited for the write lock and went to Flask"
    finally:
        layer.wsgi_app = inner
        writer.execute("ROLLBACK")
        writer.close()


def test_the_hand_path_answers_the_same_game_a_fresh_read_shows(api):
    event_ = api.create_event("progressive")
    key = event_["organizer_key"]
    api.add_players(event_, [f"P{i}" for i in range(8)])
    game = api.seat_round(event_, 1)["tables"][0]["games"][0]["id"]
    played = [("A", 3), ("B", 0), ("A", 5), ("B", 4), ("A", 2), ("B", 5), ("A", 3), ("B", 3)]
    for number, (maker, tricks) in enumerate(played, start=1):
        answer = api.hand(key, game, maker, tricks, dealer=number % 4 + 1)
        fresh = api.game(game)
        assert answer == fresh
    assert fresh["over"] and fresh["hands_played"] == 8 and fresh["dealer"] is None


def test_a_first_game_sheet_is_six_statements_or_fewer(app):
    api = ApiClient(app.test_client())
    event_ = api.create_event("wec-singles")
    api.add_players(event_, [f"W{i:02d}" for i in range(12)])
    key = event_["organizer_key"]
    games = [t["games"][0]["id"] for t in api.seat_round(event_, 1)["tables"]]
    statements = []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor, statement, parameters, context, executemany):
        if not statement.lstrip().upper().startswith(BOOKKEEPING):
            statements.append(statement.split()[0])

    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = api.put(f"/api/games/{games[0]}/sheet", key=key,
                         json={"points": {"A": 10, "B": 6}, "bumps": {"2": 1}})
        assert len(statements) <= 6, statements
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert answer.get_json()["over"] and answer.get_json()["winner"] == "A"
    # What the short way wrote is what a fresh read and the standings show.
    assert api.game(games[0]) == answer.get_json()
    second = api.put(f"/api/games/{games[1]}/sheet", key=key,
                     json={"points": {"A": 3, "B": 11}}).get_json()
    assert api.game(games[1]) == second
    rows = {r["name"]: r for r in api.get(
        f"/api/events/{event_['id']}/leaderboard").get_json()["rows"]}
    totals = sorted(r["total"] for r in rows.values())
    assert totals == [0, 0, 0, 0, 3, 3, 6, 6, 10, 10, 11, 11]


def test_a_first_wec_doubles_sheet_writes_each_teams_result_row(api):
    """A team format's first sheet goes the short way too: its result rows are the teams'
    (it once failed there with a 500, the rows' team ids missing from the read)."""
    event_ = api.create_event("wec-doubles")
    for n in range(4):
        api.add_team(event_, f"Team {n}", [f"A{n}", f"B{n}"])
    games = [t["games"][0]["id"] for t in api.seat_round(event_, 1)["tables"]]
    key = event_["organizer_key"]
    answer = api.put(f"/api/games/{games[0]}/sheet", key=key,
                     json={"points": {"A": 10, "B": 6}}, expect=200).get_json()
    assert answer["winner"] == "A" and api.game(games[0]) == answer
    rows = api.get(f"/api/events/{event_['id']}/leaderboard").get_json()["rows"]
    assert sorted(r["total"] for r in rows) == [0, 0, 6, 10]


def test_a_worker_builds_a_hands_sql_before_its_first_hand(fresh_app):
    app = fresh_app
    """gunicorn.conf.py warms the hand path as a worker starts: the first hands it takes then
    build no SQL but their inserts' (which cannot run against no row)."""
    api, key, game = _night(app)
    app.extensions["hand_posts"].warm()
    built = []
    with app.app_context():
        engine = db.engine

    def note(conn, cursor, statement, parameters, context, executemany):
        if context.cache_hit is CacheStats.CACHE_MISS:
            built.append(statement.split()[0].upper())

    event.listen(engine, "after_cursor_execute", note)
    try:
        api.hand(key, game, "A", 3)  # the game's first (by Flask: the layer learns)
        api.hand(key, game, "B", 3)  # the next, before Flask
    finally:
        event.remove(engine, "after_cursor_execute", note)
    assert built and set(built) == {"INSERT"}, built


def test_a_hand_raced_by_another_change_to_the_event_is_stored_the_short_way(app, monkeypatch):
    """A hand at another table (here: any change to the event) committed between a hand's
    read and its lock: the hand is read again and stored the short way, not the long way."""
    api, key, game = _night(app)
    api.hand(key, game, "A", 3)
    reads, raced, long_way = [], [], []
    entry_of, ordinary = hand_entry.entry_of, hand_entry.ordinary

    def counting(*args, **kwargs):
        reads.append(args)
        return entry_of(*args, **kwargs)

    def overtaken(entry):
        if not raced:  # another request changes the event first, on a connection of its own
            raced.append(entry.revision)
            with app.app_context(), db.engine.begin() as other:
                other.execute(text("UPDATE events SET revision = revision + 1 WHERE id = :e"),
                              {"e": entry.event_id})
        return ordinary(entry)

    monkeypatch.setattr(hand_entry, "entry_of", counting)
    monkeypatch.setattr(hand_entry, "ordinary", overtaken)
    monkeypatch.setattr(hand_entry, "_record_the_long_way",
                        lambda *args: long_way.append(args))
    answer = api.post(f"/api/games/{game}/hands", key=key, expect=201,
                      json={"id": f"raced-{uuid.uuid4().hex[:6]}", "maker": "B",
                            "tricks": 5, "alone": False})
    assert raced and len(reads) == 2 and not long_way
    assert answer.get_json()["points"] == {"A": 1, "B": 2}

"""`python -m bench profile`: where one request's time goes, in-process, to name the cause of a
missed target. The same event as the load (a progressive tournament, 4 players a table, round
1 seated, some hands in) is built in a fresh database through the app's test client, then each
request kind is timed (the app's WSGI call and the reading of its answer, as a server calls
it; see `AppCalls`), its SQL statements counted, and profiled with cProfile.

    python -m bench profile --db sqlite --tables 200
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import random
import time
import uuid

from . import servers
from .load import random_hand

KINDS = ("hand POST", "hand POST retried", "sheet PUT (WEC)", "leaderboard 200 (cached)",
         "leaderboard 200 after a hand", "leaderboard 304", "game GET")
# The writes measured against the bare one-row commit (issue: a hand within 10x of it).
AGAINST_THE_BARE_COMMIT = ("hand POST", "hand POST retried", "sheet PUT (WEC)")


class BareCommit:
    """The cheapest durable write the database allows: one row inserted and committed on a
    connection of its own, with the app's settings (SQLite: WAL, synchronous=FULL, BEGIN
    IMMEDIATE; PostgreSQL: the same server and database). `once()` times one."""

    def __init__(self, database: servers.Database):
        self.sqlite = database.kind == "sqlite"
        if self.sqlite:
            import sqlite3

            self.conn = sqlite3.connect(database.sqlite_path, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("CREATE TABLE IF NOT EXISTS bench_bare "
                              "(id INTEGER PRIMARY KEY, v TEXT)")
        else:
            import psycopg

            self.conn = psycopg.connect(database.url.replace("postgresql+psycopg",
                                                             "postgresql"))
            self.conn.execute("CREATE TABLE IF NOT EXISTS bench_bare "
                              "(id SERIAL PRIMARY KEY, v TEXT)")
            self.conn.commit()

    def once(self) -> float:
        start = time.perf_counter()
        if self.sqlite:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO bench_bare (v) VALUES (?)", ("x",))
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("INSERT INTO bench_bare (v) VALUES (%s)", ("x",))
            self.conn.commit()
        return time.perf_counter() - start

    def close(self) -> None:
        self.conn.close()


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def build_sheets(client, games_wanted: int) -> dict:
    """A WEC singles event with a game for every sheet to enter (a sheet goes in once)."""
    event = client.post("/api/events", json={"name": "Profile desk",
                                             "preset": "wec-singles"}).get_json()
    auth = {"Authorization": f"Bearer {event['organizer_key']}"}
    players = 4 * games_wanted
    csv = "name,checked_in\n" + "".join(f"Desk {i:04d},yes\n" for i in range(players))
    client.post(f"/api/events/{event['id']}/import", data=csv,
                headers={**auth, "Content-Type": "text/csv"})
    round_ = client.post(f"/api/events/{event['id']}/rounds", json={"number": 1},
                         headers=auth).get_json()
    return {"auth": auth, "games": [t["games"][0]["id"] for t in round_["tables"]]}


def _app(database: servers.Database):
    from api import create_app
    from api.config import normalise_database_url

    return create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(database.url)})


def build(client, tables: int, hands: int) -> dict:
    """The load's event: 4 x tables players, round 1 seated, `hands` hands at every table."""
    event = client.post("/api/events", json={"name": "Profile night", "preset": "progressive",
                                             "overrides": {"rounds": 60}}).get_json()
    auth = {"Authorization": f"Bearer {event['organizer_key']}"}
    csv = "name,checked_in\n" + "".join(f"Player {i:04d},yes\n" for i in range(4 * tables))
    client.post(f"/api/events/{event['id']}/import", data=csv,
                headers={**auth, "Content-Type": "text/csv"})
    round_ = client.post(f"/api/events/{event['id']}/rounds", json={"number": 1},
                         headers=auth).get_json()
    games = [t["games"][0]["id"] for t in round_["tables"]]
    rng = random.Random(3)
    for game in games:
        for _ in range(hands):
            client.post(f"/api/games/{game}/hands", headers={**auth, "Content-Type":
                        "application/json"},
                        data=random_hand(rng, f"p-{uuid.uuid4().hex[:12]}"))
    return {"event": event, "auth": auth, "games": games}


class AppCalls:
    """Requests made to the app the way a WSGI server makes them: the request's environ is
    built first (the server's parsing, not the app's work: werkzeug's test client spends about
    0.1 ms on it), then only the app's call and the reading of its answer are timed, adding
    up in `seconds`."""

    def __init__(self, app):
        self.app = app
        self.seconds = 0.0

    def open(self, method: str, path: str, headers: dict | None = None,
             data: bytes | None = None) -> tuple[int, bytes]:
        from werkzeug.test import EnvironBuilder

        builder = EnvironBuilder(path=path, method=method, headers=headers, data=data)
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        status = []

        def start_response(line, _headers, _exc_info=None):
            status.append(line)

        start = time.perf_counter()
        answer = self.app(environ, start_response)
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        self.seconds += time.perf_counter() - start
        return int(status[0][:3]), body


class QueryCounter:
    def __init__(self, engine):
        from sqlalchemy import event

        self.count = 0
        self.seconds = 0.0
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _before(self, conn, cursor, statement, parameters, context, executemany):
        conn.info["bench_start"] = time.perf_counter()
        if not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            self.count += 1  # transaction bookkeeping is not a statement of the request's

    def _after(self, conn, cursor, statement, parameters, context, executemany):
        self.seconds += time.perf_counter() - conn.info.pop("bench_start", time.perf_counter())


def profile(db: str, tables: int, repeats: int, top: int, postgres_url: str | None) -> str:
    database = servers.create_database(db, postgres_url)
    out = io.StringIO()
    try:
        servers.migrate(database)
        app = _app(database)
        client = app.test_client()
        setup = build(client, tables, hands=4)
        event, auth, games = setup["event"], setup["auth"], setup["games"]
        board = f"/api/events/{event['id']}/leaderboard"
        from api.core.db import db as sqla

        with app.app_context():
            counter = QueryCounter(sqla.engine)
        rng = random.Random(5)
        etag = client.get(board).headers["ETag"]
        size = len(client.get(board).data)
        hand_headers = {**auth, "Content-Type": "application/json"}
        game_iter = iter(range(10 ** 9))

        calls = AppCalls(app)

        def hand_post():
            game = games[next(game_iter) % len(games)]
            status, body = calls.open("POST", f"/api/games/{game}/hands", hand_headers,
                                      random_hand(rng, f"p-{uuid.uuid4().hex[:12]}"))
            assert status == 201, body

        def after_hand():
            hand_post()
            calls.open("GET", board)

        retried = f"p-{uuid.uuid4().hex[:12]}"
        retried_body = random_hand(rng, retried)
        client.post(f"/api/games/{games[-1]}/hands", headers=hand_headers, data=retried_body)

        def hand_retried():
            status, body = calls.open("POST", f"/api/games/{games[-1]}/hands", hand_headers,
                                      retried_body)
            assert status == 200, body

        desk = build_sheets(client, 3 * repeats + 2)
        sheet_games = iter(desk["games"])
        sheet = json.dumps({"points": {"A": 9, "B": 7}, "hands_played": 12}).encode()

        def sheet_put():
            status, body = calls.open(
                "PUT", f"/api/games/{next(sheet_games)}/sheet",
                {**desk["auth"], "Content-Type": "application/json"}, sheet)
            assert status == 200, body

        actions = {
            "hand POST": hand_post,
            "hand POST retried": hand_retried,
            "sheet PUT (WEC)": sheet_put,
            "leaderboard 200 (cached)": lambda: calls.open("GET", board),
            "leaderboard 200 after a hand": after_hand,
            "leaderboard 304": lambda: calls.open("GET", board,
                                                  {"If-None-Match": etag}),
            "game GET": lambda: calls.open("GET", f"/api/games/{games[0]}"),
        }
        bare = BareCommit(database)
        print(f"{db}: {4 * tables} players, {tables} tables, leaderboard {size} bytes; "
              f"{repeats} requests each (in-process, one thread)", file=out)
        walls: dict[str, tuple[float, float, float, float]] = {}
        for kind, action in actions.items():
            if kind == "leaderboard 200 (cached)":
                client.get(board)  # fill the cache for this revision
            etag = client.get(board).headers["ETag"]
            counter.count, counter.seconds = 0, 0.0
            # A write is timed one request at a time, each next to a bare commit, so that both
            # meet the same disk and the same machine (a commit's time varies 0.1-1 ms here
            # with what else is writing).
            times, bares = [], []
            for _ in range(repeats):
                if kind in AGAINST_THE_BARE_COMMIT:
                    bares.append(bare.once())
                began = calls.seconds
                action()
                times.append(calls.seconds - began)
            wall = sum(times) / repeats
            queries, sql = counter.count / repeats, counter.seconds / repeats
            note = " (includes the hand POST)" if kind.endswith("after a hand") else ""
            print(f"\n== {kind}: {1000 * wall:.2f} ms per request{note}, {queries:.1f} SQL "
                  f"statements, {1000 * sql:.2f} ms in the database driver", file=out)
            if kind in AGAINST_THE_BARE_COMMIT:
                walls[kind] = (1000 * _median(times), 1000 * _median(bares), 1000 * wall,
                               queries)
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(repeats):
                action()
            profiler.disable()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("tottime").print_stats(top)
        bare.close()
        print("\n== against the bare one-row INSERT + COMMIT (same database and settings, a "
              "bare commit timed before each request; medians); statements counted without "
              "BEGIN/COMMIT bookkeeping:", file=out)
        for kind, (ms, bare_ms, mean, queries) in walls.items():
            print(f"   {kind}: {ms:.2f} ms (mean {mean:.2f}) against {bare_ms:.2f} ms = "
                  f"{ms / bare_ms:.1f}x the bare commit, {queries:.1f} statements", file=out)
        with app.app_context():
            sqla.engine.dispose()
    finally:
        database.drop()
    return _trim(out.getvalue())


def _trim(text: str) -> str:
    """Shorter paths in pstats' listing."""
    root = str(servers.ROOT) + os.sep
    venv = os.path.join(str(servers.ROOT), ".venv", "lib")
    lines = []
    for line in text.splitlines():
        line = line.replace(root, "")
        if venv in line:
            line = line.replace(line[line.index(venv):line.index("site-packages") + 14], "")
        lines.append(line)
    return "\n".join(lines)


def profile_big(db: str, players: int, rounds: int, top: int,
                postgres_url: str | None) -> str:
    """The big event's leaderboard read right after a hand (what every poll after a change
    costs), profiled: cumulative and own time."""
    from . import big

    database = servers.create_database(db, postgres_url)
    out = io.StringIO()
    try:
        servers.migrate(database)
        app = _app(database)
        client = app.test_client()
        event = client.post("/api/events", json={
            "name": "Big", "preset": "progressive",
            "overrides": {"rounds": rounds + 1}}).get_json()
        auth = {"Authorization": f"Bearer {event['organizer_key']}"}
        csv = "name,checked_in\n" + "".join(f"P {i:05d},yes\n" for i in range(players))
        client.post(f"/api/events/{event['id']}/import", data=csv,
                    headers={**auth, "Content-Type": "text/csv"})
        seeded = big.seed(database.url, event["id"], rounds, 8)
        board = f"/api/events/{event['id']}/leaderboard"
        from api.core.db import db as sqla

        with app.app_context():
            counter = QueryCounter(sqla.engine)
        game = seeded["playing_games"][0]
        rng = random.Random(9)
        client.post(f"/api/games/{game}/hands", headers={**auth, "Content-Type":
                    "application/json"}, data=random_hand(rng, "warm-1"))
        start = time.perf_counter()
        size = len(client.get(board).data)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        client.get(board)
        warm = time.perf_counter() - start
        print(f"{db}: {players} players, {seeded['hands']} hands; leaderboard {size} bytes; "
              f"cold {1000 * cold:.0f} ms, warm (cached) {1000 * warm:.0f} ms", file=out)
        client.post(f"/api/games/{game}/hands", headers={**auth, "Content-Type":
                    "application/json"}, data=random_hand(rng, "warm-2"))
        counter.count, counter.seconds = 0, 0.0
        profiler = cProfile.Profile()
        profiler.enable()
        client.get(board)
        profiler.disable()
        print(f"cold read under cProfile: {counter.count} SQL statements, "
              f"{1000 * counter.seconds:.0f} ms in the database driver", file=out)
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(top * 2)
        stats.sort_stats("tottime").print_stats(top)
        with app.app_context():
            sqla.engine.dispose()
    finally:
        database.drop()
    return _trim(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = servers.bench_parser("python -m bench profile", __doc__)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--top", type=int, default=14)
    parser.add_argument("--big", action="store_true",
                        help="the big event's leaderboard read after a hand instead")
    parser.add_argument("--big-players", type=int, default=2000)
    parser.add_argument("--big-rounds", type=int, default=50)
    args = parser.parse_args(argv)
    if args.big:
        print(profile_big(args.db, args.big_players, args.big_rounds, args.top,
                          args.postgres_url))
    else:
        print(profile(args.db, args.tables, args.repeats, args.top, args.postgres_url))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())


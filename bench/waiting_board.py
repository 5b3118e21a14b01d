"""What saying "hands waiting to be agreed" costs the big event's leaderboard (issue 29).

`python -m bench.waiting_board [--db sqlite|postgres] [--players 2000] [--rounds 50]`

The big event (bench/big.py: 2,000 players, 50 rounds of 8 hands, one more round in play)
checking scores by double entry: every stored hand has both sides' agreed entries (400,000
rows in `hand_entries`), and in the round in play half the tables have one side's entry of
a hand waiting and ten tables a mismatch. Then the board is built in this process, as a poll
after a change builds it (the kept totals up to date, every row ranked and written out), with
the waiting read (`leaderboard.waiting.tables_waiting`) and without it (the board before
this change), alternately, and the medians compared; the waiting read is timed alone too,
with its query plan.
"""

from __future__ import annotations

import gc
import statistics
import time
import uuid
from unittest import mock

from . import big, servers
from .profile import _app


def _seed_entries(app, event_id: int, playing_games: list[int]) -> dict:
    from sqlalchemy import insert, select, update

    from api.core.db import db
    from api.core.models import Event, Hand, HandEntry

    started = time.monotonic()
    agreed = 0
    with app.app_context():
        rows = []
        for hand_id, game_id, number in db.session.execute(
                select(Hand.id, Hand.game_id, Hand.number).where(Hand.event_id == event_id)):
            for side in "AB":
                rows.append({"event_id": event_id, "id": f"{hand_id}-{side}",
                             "game_id": game_id, "number": number, "count": 1, "kind": "hand",
                             "side": side, "body": {}, "fingerprint": "f" * 64,
                             "content": "c" * 64, "state": "agreed", "hand_id": hand_id,
                             "decided_by": "both sides"})
            if len(rows) >= 10_000:
                db.session.execute(insert(HandEntry), rows)
                agreed += len(rows)
                rows = []
        waiting = []
        for n, game_id in enumerate(playing_games[: len(playing_games) // 2]):
            body = {"maker": "A", "tricks": 3}
            waiting.append({"event_id": event_id, "id": f"w-{uuid.uuid4().hex}",
                            "game_id": game_id, "number": 1, "count": 1, "kind": "hand",
                            "side": "A", "body": body, "fingerprint": "f" * 64,
                            "content": "c" * 64, "state": "mismatch" if n < 10 else "pending"})
            if n < 10:
                waiting.append({**waiting[-1], "id": f"w-{uuid.uuid4().hex}", "side": "B",
                                "content": "d" * 64})
        db.session.execute(insert(HandEntry), rows + waiting)
        agreed += len(rows)
        db.session.execute(update(Event).where(Event.id == event_id)
                           .values(revision=Event.revision + 1))
        db.session.commit()
        if db.engine.dialect.name == "postgresql":  # as autovacuum would after such a load
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("ANALYZE")
    return {"agreed_entries": agreed, "waiting_entries": len(waiting),
            "seed_seconds": round(time.monotonic() - started, 1)}


def _plan(app, event_id: int) -> str:
    from sqlalchemy import text

    from api.core.common import get_event
    from api.core.db import db

    with app.app_context():
        event = get_event(event_id)
        ids = [r.id for r in event.rounds if r.status == "playing"]
        sql = ("SELECT count(*) FROM hand_entries JOIN games ON games.id = hand_entries.game_id "
               "JOIN matches ON matches.id = games.match_id WHERE matches.round_id IN "
               f"({', '.join(map(str, ids))}) AND hand_entries.state IN ('pending', 'mismatch')")
        explain = "EXPLAIN QUERY PLAN " if db.engine.dialect.name == "sqlite" else "EXPLAIN "
        lines = [" ".join(str(c) for c in row) for row in db.session.execute(text(explain + sql))]
        db.session.rollback()
    return "\n".join(lines)


def measure(app, event_id: int, repeats: int) -> dict:
    from api.core.common import get_event, preset_of
    from api.core.db import db
    from api.leaderboard import board as board_module
    from api.leaderboard.body import board_body
    from api.leaderboard.waiting import tables_waiting
    from api.serving.worker import GC_THRESHOLD

    def build() -> tuple[float, dict]:
        start = time.perf_counter()
        with app.test_request_context():
            board = board_module.build_leaderboard(get_event(event_id))
            board_body(board)
        seconds = time.perf_counter() - start
        db.session.rollback()
        return seconds, board

    with app.app_context():
        build()  # the kept totals read once, as the first poll of a worker reads them
        # The collector as a serving worker sets it (api/serving/worker.py): otherwise a full
        # pass, which any allocation may set off, lands in one build or the other at random.
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
        _seconds, board = build()
        shown = (len(board["waiting"]), sum(1 for r in board["rows"] if r["waiting"]))
        # In blocks, each after a build of its own kind: a row's JSON is kept between builds
        # while its values stay the same (body.py), as they do from one poll to the next;
        # builds alternating one by one would write every noted row afresh each time.
        with_read, without = [], []
        for _ in range(3):
            for _ in range(repeats + 1):
                with_read.append(build()[0])
            with_read.pop(-repeats - 1)
            with mock.patch.object(board_module, "tables_waiting", lambda *a: []):
                for _ in range(repeats + 1):
                    without.append(build()[0])
                without.pop(-repeats - 1)
        alone = []
        event = get_event(event_id)
        preset = preset_of(event)
        ids = [r.id for r in event.rounds if r.status == "playing"]
        for _ in range(repeats):
            start = time.perf_counter()
            tables_waiting(event, preset, ids)
            alone.append(time.perf_counter() - start)
        db.session.rollback()
    ms = lambda values: round(1000 * statistics.median(values), 2)  # noqa: E731
    least = lambda values: round(1000 * min(values), 2)  # noqa: E731
    # Medians, and the fastest of each (on a machine other work shares, the least disturbed).
    return {"tables_waiting_shown": shown[0], "rows_with_a_note": shown[1],
            "board_with_waiting_ms": ms(with_read), "board_without_ms": ms(without),
            "ratio": round(statistics.median(with_read) / statistics.median(without), 3),
            "board_with_waiting_fastest_ms": least(with_read),
            "board_without_fastest_ms": least(without),
            "ratio_of_fastest": round(min(with_read) / min(without), 3),
            "waiting_read_alone_ms": ms(alone), "waiting_read_alone_fastest_ms": least(alone)}


def main(argv: list[str] | None = None) -> int:
    parser = servers.bench_parser("python -m bench.waiting_board", __doc__)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    database = servers.create_database(args.db, args.postgres_url)
    try:
        servers.migrate(database)
        app = _app(database)
        client = app.test_client()
        event = client.post("/api/events", json={
            "name": "Big", "preset": "progressive",
            "overrides": {"rounds": args.rounds + 1, "verification": "double_entry"}}).get_json()
        auth = {"Authorization": f"Bearer {event['organizer_key']}"}
        csv = "name,checked_in\n" + "".join(f"P {i:05d},yes\n" for i in range(args.players))
        client.post(f"/api/events/{event['id']}/import", data=csv,
                    headers={**auth, "Content-Type": "text/csv"})
        seeded = big.seed(database.url, event["id"], args.rounds, 8)
        entries = _seed_entries(app, event["id"], seeded["playing_games"])
        print(f"{args.db}: {args.players} players, {seeded['hands']} hands "
              f"({seeded['seed_seconds']} s), {entries['agreed_entries']} agreed entries and "
              f"{entries['waiting_entries']} waiting ({entries['seed_seconds']} s)")
        print("the waiting read's plan:\n" + _plan(app, event["id"]))
        for name, value in measure(app, event["id"], args.repeats).items():
            print(f"  {name}: {value}")
        from api.core.db import db as sqla

        with app.app_context():
            sqla.engine.dispose()
    finally:
        database.drop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

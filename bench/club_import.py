"""The club import bench: a night's CSV of 400 names imported into an event of a club of
20,000 people, while a runner in another event keeps entering hands.

    .venv/bin/python -m bench.club_import --db sqlite
    .venv/bin/python -m bench.club_import --db both      # PostgreSQL too (a database of its own)
    .venv/bin/python -m bench.club_import --quick        # tiny numbers: the harness keeps working

Each name of the file is linked to the club's person of that name, or compared with the
people whose names could be near it (people/name_match.py). The baseline, measured in the
same run, is the same file imported into an event of no club (no people to compare with).
The names are made of common syllables, so near names really occur: the first import is
refused with the names to decide, as the organizer would see it, and the second carries the
decisions ("new" for each) and stores the field. Meanwhile another process (as another
gunicorn worker would be) enters a hand every 20 ms in an event of no club; its hands are
reported per phase (idle first: the baseline), and its slowest hand while the club's file is
imported is the figure the import must keep near the baseline. In this process, each import's
write (and then one walk-in's, registered at the club's night) is timed from its first write
(SQLite: its BEGIN IMMEDIATE, the lock every event shares) to its commit or rollback, in wall
time and in this thread's CPU time (which the other helpers sharing a machine change less).
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import sys
import time
import uuid

from . import servers

FIRST = ["Ann", "Anne", "Bob", "Rob", "Carl", "Cathy", "Kathy", "Dee", "Eve", "Fran", "Gus",
         "Hal", "Ivy", "Jon", "John", "Kim", "Lou", "Max", "Ned", "Olga", "Pam", "Ray", "Sue",
         "Tom", "Una", "Vic", "Walt", "Yves", "Zoe", "Mia", "Leo", "Ada", "Ben", "Cleo"]
SYLLABLES = ["bar", "ker", "son", "ley", "man", "ton", "wood", "field", "ridge", "stone", "mor",
             "lan", "dal", "vin", "rey", "cas", "tel", "bro", "quist", "berg", "ham", "well"]


def _surname(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _names(rng: random.Random, count: int, taken: set[str]) -> list[str]:
    made = []
    while len(made) < count:
        name = f"{rng.choice(FIRST)} {_surname(rng)}"
        if name not in taken:
            taken.add(name)
            made.append(name)
    return made


def _seed_club(app, people: int, rng: random.Random) -> tuple[int, list[str]]:
    from sqlalchemy import insert

    from api.core.db import db
    from api.core.models import Club, Person
    from api.people.name_match import name_key

    with app.app_context():
        club = Club(name="Import bench club", slug=f"import-{uuid.uuid4().hex[:8]}")
        db.session.add(club)
        db.session.flush()
        names = _names(rng, people, set())
        db.session.execute(insert(Person), [
            {"club_id": club.id, "name": n, "name_key": name_key(n), "private": False}
            for n in names])
        db.session.commit()
        return club.id, names


def _enter_hands(url: str, every: float, stop, out) -> None:
    """In a process of its own (as another gunicorn worker would be): a hand every `every`
    seconds in an event of no club, each with its start time and duration, until `stop`."""
    from api import create_app
    from api.config import normalise_database_url
    from api.core.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url),
                      "EVENT_CREATE_LIMIT": 10_000})
    client = app.test_client()

    def game() -> tuple[int, str]:
        made = client.post("/api/events", json={"name": "Runner", "preset": "progressive"}
                           ).get_json()
        key = {"Authorization": f"Bearer {made['organizer_key']}"}
        for n in range(8):
            client.post(f"/api/events/{made['id']}/players",
                        json={"name": f"Runner player {n}", "checked_in": True}, headers=key)
        seated = client.post(f"/api/events/{made['id']}/rounds", json={"number": 1},
                             headers=key).get_json()
        return seated["tables"][0]["games"][0]["id"], made["organizer_key"]

    games = [game() for _ in range(40)]  # made before the clock starts: only hands are timed
    out.put("ready")
    hands, failures, played = [], [], 0
    while not stop.is_set() and played < 8 * len(games):
        game_id, key = games[played // 8]
        started = time.time()
        t0 = time.perf_counter()
        answer = client.post(f"/api/games/{game_id}/hands",
                             json={"id": uuid.uuid4().hex[:12], "maker": "AB"[played % 2],
                                   "tricks": 3}, headers={"Authorization": f"Bearer {key}"})
        hands.append((started, (time.perf_counter() - t0) * 1000))
        if answer.status_code != 201:
            failures.append(f"{answer.status_code} {answer.get_data(as_text=True)[:200]}")
        played += 1
        stop.wait(every)
    with app.app_context():
        db.engine.dispose()
    out.put((hands, failures))


class WriteWatch:
    """How long this process's writes hold the lock: from a transaction's first write having
    run (SQLite: its BEGIN IMMEDIATE has the lock) to its commit or rollback, wall and CPU
    milliseconds each, and when (`taken()` gives those since the last call)."""

    WRITES = ("BEGIN IMMEDIATE", "UPDATE", "INSERT", "DELETE")

    def __init__(self, engine):
        from sqlalchemy import event

        self._open: dict[int, tuple[float, float, float]] = {}
        self._held: list[tuple[float, float, float, float]] = []
        self.windows: list[tuple[float, float]] = []  # every write's (start, end), epoch
        event.listen(engine, "after_cursor_execute", self._statement)
        event.listen(engine, "commit", self._end)
        event.listen(engine, "rollback", self._end)

    def _statement(self, connection, _cursor, statement, *_args) -> None:
        if id(connection) not in self._open and \
                statement.lstrip().upper().startswith(self.WRITES):
            self._open[id(connection)] = (time.time(), time.perf_counter(), time.thread_time())

    def _end(self, connection) -> None:
        begun = self._open.pop(id(connection), None)
        if begun is not None:
            self.windows.append((begun[0], time.time()))
            self._held.append(((time.perf_counter() - begun[1]) * 1000,
                               (time.thread_time() - begun[2]) * 1000))

    def taken(self) -> dict:
        """The longest write since the last call (none: zeros), and how many there were."""
        held, self._held = self._held, []
        wall, cpu = max(held, default=(0.0, 0.0))
        return {"writes": len(held), "wall_ms": round(wall, 1), "cpu_ms": round(cpu, 1)}


def _overlapping(hands, windows) -> dict:
    """The hands that began while one of the imports' writes held the lock, or waited for
    it: how many, and the slowest; and the slowest of the others."""
    during, apart = [], []
    for started, ms in hands:
        ended = started + ms / 1000
        (during if any(s < ended and started < e for s, e in windows) else apart).append(ms)
    return {"hands_meeting_a_write": len(during),
            "their_slowest_ms": round(max(during), 1) if during else None,
            "others_slowest_ms": round(max(apart), 1) if apart else None}


def _import(client, path: str, key: str, csv_text: str) -> tuple[float, int, dict]:
    t0 = time.perf_counter()
    answer = client.post(path, json={"csv": csv_text}, headers={"Authorization": f"Bearer {key}"})
    return (time.perf_counter() - t0) * 1000, answer.status_code, answer.get_json()


def run(kind: str, people: int, rows: int, postgres_url: str | None = None, log=print) -> dict:
    from api import create_app
    from api.config import normalise_database_url
    from api.core.db import db
    from api.core.keys import issue_club_key

    rng = random.Random(5)
    database = servers.create_database(kind, postgres_url)
    try:
        servers.migrate(database)
        app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(database.url),
                          "EVENT_CREATE_LIMIT": 10_000})
        client = app.test_client()
        club_id, club_names = _seed_club(app, people, rng)
        with app.app_context():
            _, club_secret = issue_club_key(club_id, label="bench")
            db.session.commit()
            watch = WriteWatch(db.engine)
        returning = rng.sample(club_names, rows * 5 // 8)
        fresh = _names(rng, rows - len(returning), set(club_names))
        field = returning + fresh
        rng.shuffle(field)
        csv_text = "name\n" + "\n".join(field) + "\n"
        log(f"{kind}: a club of {people:,} people; {rows} names, {len(returning)} of them known")

        context = multiprocessing.get_context("spawn")
        stop, out = context.Event(), context.Queue()
        runner = context.Process(target=_enter_hands, args=(database.url, 0.02, stop, out))
        runner.start()
        try:
            assert out.get(timeout=120) == "ready"
            phases = [("idle", time.time())]
            time.sleep(1.0)  # the runner's hands with nothing else going on: the baseline
            # The same file into an event of no club.
            lone = client.post("/api/events", json={"name": "No club", "preset": "progressive"}
                               ).get_json()
            phases.append(("import, no club", time.time()))
            watch.taken()
            base_ms, status, _ = _import(client, f"/api/events/{lone['id']}/import",
                                         lone["organizer_key"], csv_text)
            assert status == 201, status
            held = {"no club": watch.taken()}
            made = client.post(f"/api/clubs/{club_id}/events",
                               json={"name": "Club night", "preset": "progressive"},
                               headers={"Authorization": f"Bearer {club_secret}"}).get_json()
            path = f"/api/events/{made['id']}/import"
            phases.append(("import into the club", time.time()))
            watch.taken()
            asked_ms, status, asked = _import(client, path, made["organizer_key"], csv_text)
            held["club, asked"] = watch.taken()
            decisions = {}
            if status == 409:
                decisions = {d["name"]: "new" for d in asked.get("decisions", [])}
            t0 = time.perf_counter()
            answer = client.post(path, json={"csv": csv_text, "people": decisions},
                                 headers={"Authorization": f"Bearer {made['organizer_key']}"})
            stored_ms = (time.perf_counter() - t0) * 1000
            held["club, stored"] = watch.taken()
            assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
            phases.append(("after", time.time()))
            # One walk-in registered at the club's night: its write, on its own.
            walk_in = client.post(f"/api/events/{made['id']}/players",
                                  json={"name": "Walk In Late", "people": {
                                      "Walk In Late": "new"}},
                                  headers={"Authorization": f"Bearer {made['organizer_key']}"})
            assert walk_in.status_code == 201, walk_in.get_data(as_text=True)[:300]
            held["club, one walk-in"] = watch.taken()
            time.sleep(0.2)
        finally:
            stop.set()
            hands, failures = out.get(timeout=60)
            runner.join(timeout=30)
        during = {}
        for (name, begun), (_, ended) in zip(phases, phases[1:], strict=False):
            times = [ms for at, ms in hands if begun <= at < ended]
            during[name] = {"hands": len(times),
                            "median_ms": round(statistics.median(times), 1) if times else None,
                            "max_ms": round(max(times), 1) if times else None}
        club_hands = [(at, ms) for at, ms in hands
                      if phases[2][1] <= at < phases[3][1]]
        met = _overlapping(club_hands, watch.windows)
        figures = {
            "db": kind, "people": people, "rows": rows, "near_names": len(decisions),
            "no_club_import_ms": round(base_ms, 1),
            "club_import_refused_ms": round(asked_ms, 1),
            "club_import_stored_ms": round(stored_ms, 1),
            "ratio_stored_to_no_club": round(stored_ms / base_ms, 2),
            "write_held": held, "club_import_hands_and_writes": met,
            "another_events_hands": during, "runner_failures": failures[:5],
        }
        log(f"  import into no club {figures['no_club_import_ms']} ms; into the club: asked "
            f"about {len(decisions)} near names in {figures['club_import_refused_ms']} ms, "
            f"stored in {figures['club_import_stored_ms']} ms "
            f"({figures['ratio_stored_to_no_club']}x no club)")
        for name, seen in held.items():
            log(f"  write held, import {name}: {seen['wall_ms']} ms ({seen['cpu_ms']} ms of "
                f"CPU; {seen['writes']} writes)")
        for name, seen in during.items():
            log(f"  another event's hands, {name}: {seen['hands']}, median {seen['median_ms']}"
                f" ms, slowest {seen['max_ms']} ms")
        log(f"  during the club's imports, hands that met one of its writes: "
            f"{met['hands_meeting_a_write']}, slowest {met['their_slowest_ms']} ms; slowest of "
            f"the others {met['others_slowest_ms']} ms")
        log(f"  failures: {len(failures)}")
        with app.app_context():
            db.engine.dispose()
        return figures
    finally:
        database.drop()


def main(argv: list[str] | None = None) -> int:
    parser = servers.bench_parser("python -m bench.club_import", __doc__,
                                  kinds=("sqlite", "postgres", "both"), quick=True)
    parser.add_argument("--people", type=int, default=20_000)
    parser.add_argument("--rows", type=int, default=400)
    args = parser.parse_args(argv)
    people, rows = (500, 40) if args.quick else (args.people, args.rows)
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [run(kind, people, rows, args.postgres_url) for kind in kinds]
    servers.save_figures(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The club import bench: a night's CSV of 400 names imported into an event of a club of
20,000 people, while a runner in another event keeps entering hands.

    .venv/bin/python -m bench.club_import --db sqlite
    .venv/bin/python -m bench.club_import --db both      # PostgreSQL too (a database of its own)
    .venv/bin/python -m bench.club_import --quick        # tiny numbers: the harness keeps working

Each name of the file is linked to the club's person of that name, or compared with the
people whose names could be near it (services/name_match.py). The baseline, measured in the
same run, is the same file imported into an event of no club (no people to compare with).
The names are made of common syllables, so near names really occur: the first import is
refused with the names to decide, as the organizer would see it, and the second carries the
decisions ("new" for each) and stores the field. Meanwhile a thread enters a hand every 20 ms
in an event of no club through an app of its own (its own connections); its slowest hand
during the imports is the figure the import must keep under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
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

    from api.db import db
    from api.models import Club, Person
    from api.services.name_match import name_key

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


class Runner(threading.Thread):
    """A hand every `every` seconds in an event of no club, timed, until stopped."""

    def __init__(self, url: str, every: float = 0.02):
        super().__init__(daemon=True)
        from api import create_app
        from api.config import normalise_database_url

        self.app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url),
                               "EVENT_CREATE_LIMIT": 10_000})
        self.client = self.app.test_client()
        self.every = every
        self.stop = threading.Event()
        self.times: list[float] = []
        self.failures: list[str] = []
        self.game, self.key = self._game()

    def _game(self) -> tuple[int, str]:
        made = self.client.post("/api/events", json={"name": "Runner", "preset": "progressive"}
                                ).get_json()
        key = {"Authorization": f"Bearer {made['organizer_key']}"}
        for n in range(8):
            self.client.post(f"/api/events/{made['id']}/players",
                             json={"name": f"Runner player {n}", "checked_in": True},
                             headers=key)
        seated = self.client.post(f"/api/events/{made['id']}/rounds", json={"number": 1},
                                  headers=key).get_json()
        return seated["tables"][0]["games"][0]["id"], made["organizer_key"]

    def run(self) -> None:
        hands = 0
        while not self.stop.is_set():
            if hands == 8:
                self.game, self.key = self._game()
                hands = 0
            t0 = time.perf_counter()
            answer = self.client.post(
                f"/api/games/{self.game}/hands",
                json={"id": uuid.uuid4().hex[:12], "maker": "AB"[hands % 2], "tricks": 3},
                headers={"Authorization": f"Bearer {self.key}"})
            self.times.append((time.perf_counter() - t0) * 1000)
            if answer.status_code != 201:
                self.failures.append(f"{answer.status_code} {answer.get_data(as_text=True)[:200]}")
            hands += 1
            self.stop.wait(self.every)

    def close(self) -> None:
        from api.db import db

        self.stop.set()
        self.join(timeout=30)
        with self.app.app_context():
            db.engine.dispose()


def _import(client, path: str, key: str, csv_text: str) -> tuple[float, int, dict]:
    t0 = time.perf_counter()
    answer = client.post(path, json={"csv": csv_text}, headers={"Authorization": f"Bearer {key}"})
    return (time.perf_counter() - t0) * 1000, answer.status_code, answer.get_json()


def run(kind: str, people: int, rows: int, postgres_url: str | None = None, log=print) -> dict:
    from api import create_app
    from api.auth import issue_club_key
    from api.config import normalise_database_url
    from api.db import db

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
        returning = rng.sample(club_names, rows * 5 // 8)
        fresh = _names(rng, rows - len(returning), set(club_names))
        field = returning + fresh
        rng.shuffle(field)
        csv_text = "name\n" + "\n".join(field) + "\n"
        log(f"{kind}: a club of {people:,} people; {rows} names, {len(returning)} of them known")

        runner = Runner(database.url)
        runner.start()
        try:
            # The baseline: the same file into an event of no club.
            lone = client.post("/api/events", json={"name": "No club", "preset": "progressive"}
                               ).get_json()
            base_ms, status, _ = _import(client, f"/api/events/{lone['id']}/import",
                                         lone["organizer_key"], csv_text)
            assert status == 201, status
            made = client.post(f"/api/clubs/{club_id}/events",
                               json={"name": "Club night", "preset": "progressive"},
                               headers={"Authorization": f"Bearer {club_secret}"}).get_json()
            path = f"/api/events/{made['id']}/import"
            asked_ms, status, asked = _import(client, path, made["organizer_key"], csv_text)
            decisions = {}
            if status == 409:
                decisions = {d["name"]: "new" for d in asked.get("decisions", [])}
            t0 = time.perf_counter()
            answer = client.post(path, json={"csv": csv_text, "people": decisions},
                                 headers={"Authorization": f"Bearer {made['organizer_key']}"})
            stored_ms = (time.perf_counter() - t0) * 1000
            assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
        finally:
            runner.close()
        hands = sorted(runner.times)
        figures = {
            "db": kind, "people": people, "rows": rows, "near_names": len(decisions),
            "no_club_import_ms": round(base_ms, 1),
            "club_import_refused_ms": round(asked_ms, 1),
            "club_import_stored_ms": round(stored_ms, 1),
            "ratio_stored_to_no_club": round(stored_ms / base_ms, 2),
            "runner_hands": len(hands),
            "runner_hand_median_ms": round(statistics.median(hands), 1) if hands else None,
            "runner_hand_max_ms": round(hands[-1], 1) if hands else None,
            "runner_failures": runner.failures[:5],
        }
        log(f"  import into no club {figures['no_club_import_ms']} ms; into the club: asked "
            f"about {len(decisions)} near names in {figures['club_import_refused_ms']} ms, "
            f"stored in {figures['club_import_stored_ms']} ms "
            f"({figures['ratio_stored_to_no_club']}x no club)")
        log(f"  another event's hands meanwhile: {len(hands)}, median "
            f"{figures['runner_hand_median_ms']} ms, slowest {figures['runner_hand_max_ms']} ms,"
            f" failures {len(runner.failures)}")
        with app.app_context():
            db.engine.dispose()
        return figures
    finally:
        database.drop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.club_import", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--quick", action="store_true", help="tiny numbers, a few seconds")
    parser.add_argument("--people", type=int, default=20_000)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--postgres-url", default=None)
    parser.add_argument("--json", default=None, help="also save the figures here")
    args = parser.parse_args(argv)
    people, rows = (500, 40) if args.quick else (args.people, args.rows)
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [run(kind, people, rows, args.postgres_url) for kind in kinds]
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

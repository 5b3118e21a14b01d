"""The club bench: a club of 20,000 people, 200 finished nights and 2,000,000 hands, then a
profile and a series standings read cold and warm, and what the club layer adds to a hand.

    .venv/bin/python -m bench.club --db sqlite          # about 5 minutes on 2 cores
    .venv/bin/python -m bench.club --db postgres        # a database of its own, dropped after
    .venv/bin/python -m bench.club --quick              # tiny numbers: the harness keeps working

Seeding goes through the app's models with bulk inserts, as the big-event bench does: every
night is a progressive event of the club (500 of its people, 10 rounds of 125 tables, 8 hands
a game), each hand scored by the app's own rules, the night marked finished with its finishes
kept as marking it finished keeps them. One person (the club's most faithful) plays every
night, the others about one night in eight.

Reads go through the app in-process (Flask's test client: no network, the same code as a
request): "cold" is the first read of a freshly made app (new connections, nothing kept in
the process), "warm" the median of the reads after it. The hand figure is a hand POST in a
club's event against one in an event of no club, in the same run.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import servers


@dataclass
class Size:
    people: int = 20_000
    events: int = 200
    players: int = 500  # a night's field
    rounds: int = 10
    hands: int = 8  # a game

    @property
    def total_hands(self) -> int:
        return self.events * self.rounds * (self.players // 4) * self.hands


QUICK = Size(people=400, events=6, players=40, rounds=3, hands=8)


def _templates(preset):
    """Every hand shape a night uses, scored once by the app's rules."""
    from api.rules.hands import Hand, score_hand

    shapes = []
    for maker in "AB":
        for tricks in range(6):
            for alone in (False, True):
                if alone and tricks < 3 and maker == "B":
                    continue
                seat = (1 if maker == "A" else 2) if alone else None
                score = score_hand(Hand(maker=maker, tricks=tricks, alone=alone,
                                        loner_seat=seat), preset)
                shapes.append((maker, tricks, alone, seat, score))
    weights = [(8 if not alone else 1) * (3 if t in (3, 4) else 2 if t == 5 else 1)
               for _, t, alone, _, _ in shapes]
    return shapes, weights


def seed(url: str, size: Size, rng_seed: int = 11, log=print) -> dict:
    from sqlalchemy import insert

    from api import create_app
    from api.config import normalise_database_url
    from api.core.db import db
    from api.core.models import Club, Event, Game, Hand, Match, Person, Player, Round, Seat
    from api.people.people import name_key
    from api.rules import games as rgames
    from api.rules.presets import build_preset

    rng = random.Random(rng_seed)
    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url)})
    started = time.monotonic()
    preset = build_preset("progressive", {"rounds": size.rounds})
    shapes, weights = _templates(preset)
    fmt = rgames.GameFormat(target_points=None, hands_per_game=size.hands)
    with app.app_context():
        club = Club(name="Bench Club", slug=f"bench-{rng.randrange(10**6)}")
        db.session.add(club)
        db.session.flush()
        club_id = club.id
        names = [f"Person {i:05d}" for i in range(size.people)]
        db.session.execute(insert(Person), [
            {"club_id": club_id, "name": n, "name_key": name_key(n), "private": False}
            for n in names])
        people = [p for (p,) in db.session.execute(
            db.select(Person.id).where(Person.club_id == club_id).order_by(Person.id))]
        faithful = people[0]
        name_of = dict(zip(people, names, strict=True))
        db.session.commit()
        base = datetime.now(UTC) - timedelta(days=30 * size.events)
        hands_made = 0
        for number in range(size.events):
            at = base + timedelta(days=30 * number)
            field = [faithful] + rng.sample(people[1:], size.players - 1)
            event = Event(code=f"B{number:05d}", name=f"Night {number + 1}",
                          preset_key="progressive", parameters=preset.parameters(), seed=1,
                          join_pin="000000", manual_order={}, status="finished",
                          revision=1, club_id=club_id, created_at=at)
            db.session.add(event)
            db.session.flush()
            db.session.execute(insert(Player), [
                {"event_id": event.id, "name": name_of[p], "position": i + 1, "role": "player",
                 "checked_in": True, "person_id": p} for i, p in enumerate(field)])
            players = dict(db.session.execute(db.select(Player.person_id, Player.id)
                                              .where(Player.event_id == event.id)).all())
            totals = dict.fromkeys(players.values(), 0)
            hand_rows, seat_rows = [], []
            for r in range(1, size.rounds + 1):
                round_id = db.session.scalars(insert(Round).returning(Round.id), [{
                    "event_id": event.id, "number": r, "stage": rgames.REGULAR,
                    "label": f"Round {r}", "status": "closed", "minutes": 25,
                    "clock_started_at": at, "closed_at": at}]).one()
                order = [players[p] for p in field]
                rng.shuffle(order)
                tables = [order[i:i + 4] for i in range(0, len(order), 4)]
                match_ids = db.session.scalars(insert(Match).returning(Match.id), [
                    {"event_id": event.id, "round_id": round_id, "table": t + 1,
                     "status": "over"} for t in range(len(tables))]).all()
                played = []
                for match_id, seats in zip(match_ids, tables, strict=True):
                    picks = rng.choices(range(len(shapes)), weights, k=size.hands)
                    state = rgames.play_game(fmt, [shapes[i][4] for i in picks])
                    tie = "A" if state.level else None
                    if tie:
                        state = rgames.play_game(fmt, [shapes[i][4] for i in picks],
                                                 tie_winner=tie)
                    played.append({"event_id": event.id, "match_id": match_id, "number": 1,
                                   "hands_per_game": size.hands, "points_a": state.points_a,
                                   "points_b": state.points_b, "hands_played": size.hands,
                                   "entries": size.hands, "end": state.end,
                                   "winner": state.winner, "level": state.level,
                                   "tie_method": "card-draw" if tie else None,
                                   "tie_winner": tie})
                    for seat, player in enumerate(seats, start=1):
                        seat_rows.append({"match_id": match_id, "seat": seat,
                                          "player_id": player})
                        totals[player] += state.points_a if seat % 2 else state.points_b
                    played[-1]["picks"] = picks
                game_ids = db.session.scalars(insert(Game).returning(Game.id), [
                    {k: v for k, v in g.items() if k != "picks"} for g in played]).all()
                for game_id, game in zip(game_ids, played, strict=True):
                    for n, i in enumerate(game["picks"], start=1):
                        maker, tricks, alone, seat, score = shapes[i]
                        hand_rows.append({
                            "id": f"{game_id}-{n}", "event_id": event.id, "game_id": game_id,
                            "number": n, "kind": "play", "maker": maker, "alone": alone,
                            "loner_seat": seat, "tricks": tricks, "points_a": score.points_a,
                            "points_b": score.points_b, "result": score.result,
                            "outcome": score.outcome, "fingerprint": "bench",
                            "created_at": at})
            for chunk in range(0, len(seat_rows), 20_000):
                db.session.execute(insert(Seat), seat_rows[chunk:chunk + 20_000])
            for chunk in range(0, len(hand_rows), 20_000):
                db.session.execute(insert(Hand), hand_rows[chunk:chunk + 20_000])
            hands_made += len(hand_rows)
            ranked = sorted(totals.items(), key=lambda kv: -kv[1])
            rows, place = [], 0
            for index, (player, total) in enumerate(ranked):
                if index == 0 or total != ranked[index - 1][1]:
                    place = index + 1
                rows.append([player, place, total])
            event.finishes = {"entry": "player", "rows": rows}
            db.session.commit()
            if (number + 1) % max(1, size.events // 10) == 0:
                log(f"  {number + 1} nights, {hands_made:,} hands, "
                    f"{time.monotonic() - started:.0f} s")
    series = _make_series(app, club_id, size)
    typical = _typical_person(app, club_id, faithful)
    if url.startswith("postgresql"):
        # What autovacuum would have done by the next day: without statistics on two million
        # freshly inserted hands the planner reads them all for one person's profile.
        with app.app_context(), db.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
    return {"club_id": club_id, "series_id": series, "faithful": faithful, "typical": typical,
            "hands": hands_made, "seconds": round(time.monotonic() - started, 1)}


def _make_series(app, club_id: int, size: Size) -> int:
    from api.core.db import db
    from api.core.models import Event, Series, SeriesEvent

    with app.app_context():
        series = Series(club_id=club_id, name="Every night", revision=1,
                        scoring={"method": "places", "points": [25, 18, 15, 12, 10, 8, 6, 4,
                                                                2, 1]}, best_of=size.events // 2)
        db.session.add(series)
        db.session.flush()
        ids = db.session.execute(db.select(Event.id).where(Event.club_id == club_id)).scalars()
        db.session.add_all(SeriesEvent(series_id=series.id, event_id=i) for i in ids)
        db.session.commit()
        return series.id


def _typical_person(app, club_id: int, faithful: int) -> int:
    """A person with the median number of nights."""
    from sqlalchemy import func

    from api.core.db import db
    from api.core.models import Player

    with app.app_context():
        counts = db.session.execute(
            db.select(Player.person_id, func.count()).where(Player.person_id != faithful)
            .group_by(Player.person_id).order_by(func.count(), Player.person_id)).all()
        return counts[len(counts) // 2][0]


def _read(url: str, path: str, warm: int) -> dict:
    """The first read of a fresh app (cold), then `warm` more (their median and max)."""
    from api import create_app
    from api.config import normalise_database_url
    from api.core.caching import forget_everything
    from api.core.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url)})
    client = app.test_client()
    # A fresh worker has kept nothing: every table kept per process is emptied too (they
    # outlive an app, and the seeded codes repeat from one database to the next).
    forget_everything()
    try:
        t0 = time.perf_counter()
        first = client.get(path)
        cold = (time.perf_counter() - t0) * 1000
        assert first.status_code == 200, first.get_data(as_text=True)[:300]
        times = []
        for _ in range(warm):
            t0 = time.perf_counter()
            answer = client.get(path)
            times.append((time.perf_counter() - t0) * 1000)
            assert answer.status_code == 200
        return {"cold_ms": round(cold, 1), "warm_ms": round(statistics.median(times), 1),
                "warm_max_ms": round(max(times), 1), "bytes": len(first.data)}
    finally:
        with app.app_context():
            db.engine.dispose()


def _hand_costs(url: str, club_id: int, rounds: int = 60) -> dict:
    """A hand POST in a club's event and in an event of no club, interleaved."""
    import uuid

    from api import create_app
    from api.config import normalise_database_url
    from api.core.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url),
                      "EVENT_CREATE_LIMIT": 10_000})
    client = app.test_client()

    def game_of(path: str, headers: dict) -> tuple[int, str]:
        made = client.post(path, json={"name": "Hand bench", "preset": "progressive"},
                           headers=headers).get_json()
        key = {"Authorization": f"Bearer {made['organizer_key']}"}
        for _ in range(8):
            client.post(f"/api/events/{made['id']}/players",
                        json={"name": f"Bench player {uuid.uuid4().hex[:8]}",
                              "checked_in": True}, headers=key)
        seated = client.post(f"/api/events/{made['id']}/rounds", json={"number": 1},
                             headers=key).get_json()
        return seated["tables"][0]["games"][0]["id"], made["organizer_key"]

    try:
        with app.app_context():
            from api.core.keys import issue_club_key

            _, club_secret = issue_club_key(club_id, label="bench")
            db.session.commit()
        club_game = game_of(f"/api/clubs/{club_id}/events",
                            {"Authorization": f"Bearer {club_secret}"})
        lone_game = game_of("/api/events", {})
        times = {"club": [], "none": []}
        for n in range(rounds):
            for kind, (game, key) in (("club", club_game), ("none", lone_game)):
                if n % 8 == 0 and n:
                    # A new game every 8 hands: the same path each time (a game in play).
                    game, key = game_of(f"/api/clubs/{club_id}/events",
                                        {"Authorization": f"Bearer {club_secret}"}) \
                        if kind == "club" else game_of("/api/events", {})
                    if kind == "club":
                        club_game = (game, key)
                    else:
                        lone_game = (game, key)
                body = {"id": uuid.uuid4().hex[:12], "maker": "AB"[n % 2], "tricks": 3}
                t0 = time.perf_counter()
                answer = client.post(f"/api/games/{game}/hands", json=body,
                                     headers={"Authorization": f"Bearer {key}"})
                times[kind].append((time.perf_counter() - t0) * 1000)
                assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
        club, none = statistics.median(times["club"]), statistics.median(times["none"])
        return {"club_event_ms": round(club, 2), "no_club_ms": round(none, 2),
                "ratio": round(club / none, 3)}
    finally:
        with app.app_context():
            db.engine.dispose()


def _keep_at_finish(url: str, series_id: int) -> float:
    """What marking the year's last night finished adds to that request: the series' table
    computed from every night and kept (ms)."""
    from api import create_app
    from api.club import finishes, series
    from api.config import normalise_database_url
    from api.core.db import db
    from api.core.models import SeriesEvent

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url)})
    series.forget_tables()
    finishes.forget()
    try:
        with app.app_context():
            last = db.session.execute(db.select(db.func.max(SeriesEvent.event_id)).where(
                SeriesEvent.series_id == series_id)).scalar()
            t0 = time.perf_counter()
            series.keep_after_finish(last)
            return round((time.perf_counter() - t0) * 1000, 1)
    finally:
        with app.app_context():
            db.engine.dispose()


def run(kind: str, size: Size, postgres_url: str | None = None, log=print) -> dict:
    database = servers.create_database(kind, postgres_url)
    try:
        servers.migrate(database)
        log(f"{kind}: seeding {size.people:,} people, {size.events} nights, "
            f"{size.total_hands:,} hands")
        seeded = seed(database.url, size, log=log)
        log(f"  seeded in {seeded['seconds']} s")
        club, series = seeded["club_id"], seeded["series_id"]
        series_path = f"/api/clubs/{club}/series/{series}"
        # Marking the year's last night finished computes the table from every night's
        # finishes and keeps it as rows; every worker then reads a page of those.
        kept_ms = _keep_at_finish(database.url, series)
        log(f"  series kept at the last night's finish: {kept_ms:.1f} ms (once, in that request)")
        reads = {"series standings": _read(database.url, series_path, 20)}
        # Profiles the same way: the first read after their last night computes and keeps.
        for name, person in (("typical", seeded["typical"]), ("every night", seeded["faithful"])):
            path = f"/api/clubs/{club}/people/{person}"
            reads[f"profile ({name}, first)"] = _read(database.url, path, 5)
            reads[f"profile ({name})"] = _read(database.url, path, 20)
        for name, figures in reads.items():
            log(f"  {name:28} cold {figures['cold_ms']:8.1f} ms   warm {figures['warm_ms']:7.1f}"
                f" ms (max {figures['warm_max_ms']:.1f})   {figures['bytes']:,} bytes")
        hand = _hand_costs(database.url, club)
        log(f"  hand POST: club event {hand['club_event_ms']} ms, no club "
            f"{hand['no_club_ms']} ms: ratio {hand['ratio']}")
        return {"db": kind, "size": size.__dict__, "seed": seeded, "reads": reads, "hand": hand,
                "series_kept_at_finish_ms": kept_ms}
    finally:
        database.drop()


def main(argv: list[str] | None = None) -> int:
    parser = servers.bench_parser("python -m bench.club", __doc__,
                                  kinds=("sqlite", "postgres", "both"), quick=True)
    args = parser.parse_args(argv)
    size = QUICK if args.quick else Size()
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [run(kind, size, args.postgres_url) for kind in kinds]
    servers.save_figures(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

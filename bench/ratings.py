"""The ratings bench (issue 30): does the rating predict, and how fast is it?

    .venv/bin/python -m bench.ratings                   # simulated club, pure re-rate, DB (sqlite)
    .venv/bin/python -m bench.ratings --db postgres     # the DB part on a database of its own
    .venv/bin/python -m bench.ratings --quick           # tiny numbers: the harness keeps working

1. Does it predict? A simulated club with known skills (api/rules/rating_check.py: 60
   people, 30 progressive nights, partners drawn anew every round, each hand won with a
   logistic chance on the sides' summed skills), 20 seeds, and the same with a narrower
   and a wider spread of skills and with games to 10 points: Spearman of the ratings
   against the true skills after 20 nights, and the backtest's accuracy, Brier score and
   log loss against the season's points per hand and a coin.
2. Re-rating 2,000,000 hands, pure: 250,000 games of 8 hands among 20,000 people rated by
   api/rules/ratings.py; the baseline in the same run is the openskill package's
   ThurstoneMostellerFull (the same settings) on the first 10,000 of the same games (per
   game, scaled).
3. Through the database: the club bench's club (bench/club.py's seeding: 200 nights of 500
   people, 2,000,000 hands, seeded straight to the tables by bench/ratings_seed.py) rated
   from scratch (250,000 games read and rated, 100,000 rows a person a night written), a
   night marked finished (its revision bumped, its games unchanged), a night's game
   corrected (its 1,250 games re-rated), a game corrected in the middle of the year (half
   the year re-rated), and reads of the ratings table (its first page, a page deep in it,
   1,000 rows, the whole table as CSV) and a person's rating against the profile read (the
   baseline) in the same run: the first read of a fresh worker (cold) and the median of
   the reads after it (warm).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from . import servers
from .club import QUICK, Size, _read, seed
from .ratings_seed import seed_direct


def _club_figures(club, nights_for_rank=20) -> dict:
    from api.rules import rating_check as rc
    from api.rules import ratings as rr

    first = [g for night in club.nights[:nights_for_rank] for g in night]
    after, _ = rr.rate(rr.RatedGame(g.order, None, g.side_a, g.side_b, g.winner,
                                    points=(g.points_a, g.points_b)) for g in first)
    ranked = [p for p in club.skills if p in after]
    rho = rc.spearman([club.skills[p] for p in ranked], [rr.display(after[p]) for p in ranked])
    result = rc.backtest(club.games)
    result.pop("final")
    return {"games": len(club.games), "spearman_after_20": round(rho, 3), **result}


# The issue's simulated club (8-hand progressive games, skills' sd 1), then the same club
# with a narrower and a wider spread of skills, and with games played to 10 points.
VARIANTS = {"issue's club": {}, "narrow spread (sd 0.5)": {"spread": 0.5},
            "wide spread (sd 2)": {"spread": 2.0}, "games to 10 points": {"to_points": 10}}


def predicts(seeds=tuple(range(1, 21)), people=60, nights=30, variants=VARIANTS,
             log=print) -> dict:
    """Per variant, each seed's figures and a summary: on how many seeds the ratings' Brier
    score beats each baseline's, by how much at least, and the lowest Spearman."""
    from api.rules import rating_check as rc

    found = {}
    for name, options in variants.items():
        rows = []
        for s in seeds:
            club = rc.simulate_club(people=people, nights=nights, seed=s, **options)
            rows.append({"seed": s, **_club_figures(club)})
        margins = {base: [r[base]["brier"] - r["ratings"]["brier"] for r in rows]
                   for base in ("points_per_hand", "coin")}
        summary = {"seeds": len(rows),
                   "beats_points_per_hand": sum(m > 0 for m in margins["points_per_hand"]),
                   "beats_coin": sum(m > 0 for m in margins["coin"]),
                   "least_margin_over_points_per_hand": round(min(margins["points_per_hand"]),
                                                              4),
                   "mean_margin_over_points_per_hand": round(
                       statistics.mean(margins["points_per_hand"]), 4),
                   "lowest_spearman": min(r["spearman_after_20"] for r in rows)}
        for key in ("ratings", "points_per_hand", "coin"):
            for figure in ("accuracy", "brier", "log_loss"):
                summary[f"{key}_{figure}"] = round(statistics.mean(r[key][figure]
                                                                   for r in rows), 4)
        found[name] = {"summary": summary, "seeds": rows}
        log(f"  {name}: ratings beat points per hand on Brier in "
            f"{summary['beats_points_per_hand']}/{len(rows)} seeds (mean margin "
            f"{summary['mean_margin_over_points_per_hand']:+.4f}, least "
            f"{summary['least_margin_over_points_per_hand']:+.4f}), the coin in "
            f"{summary['beats_coin']}/{len(rows)}; Spearman after 20 nights "
            f">= {summary['lowest_spearman']:.3f}")
        for key in ("ratings", "points_per_hand", "coin"):
            log(f"    {key:16} accuracy {summary[key + '_accuracy']:.3f}  Brier "
                f"{summary[key + '_brier']:.4f}  log loss {summary[key + '_log_loss']:.4f}")
        if name == "issue's club":
            for r in rows:
                log(f"    seed {r['seed']:2}: Spearman {r['spearman_after_20']:.3f}  "
                    + "  ".join(f"{k} {r[k]['accuracy']:.3f}/{r[k]['brier']:.4f}/"
                                f"{r[k]['log_loss']:.4f}"
                                for k in ("ratings", "points_per_hand")))
    return found


def pure(games=250_000, people=20_000, baseline_games=10_000, log=print) -> dict:
    from openskill.models import ThurstoneMostellerFull

    from api.rules import ratings as rr

    rng = random.Random(3)
    made = []
    for order in range(games):
        four = rng.sample(range(people), 4)
        winner, lost = rng.choice("AB"), rng.randint(0, 9)
        won = rng.randint(max(lost, 6), 12)  # a level game won on its playoff hand too
        made.append(rr.RatedGame(order, order, (four[0], four[1]), (four[2], four[3]), winner,
                                 order // 1250,  # nights of 1,250 games
                                 (won, lost) if winner == "A" else (lost, won)))
    t0 = time.perf_counter()
    _, rows = rr.rate_nights(made)
    ours = time.perf_counter() - t0
    model = ThurstoneMostellerFull(beta=rr.BETA, tau=rr.TAU, epsilon=0.0,
                                   gamma=lambda *_: 1.0)
    now: dict = {}
    t0 = time.perf_counter()
    for game in made[:baseline_games]:
        won, lost = (game.side_a, game.side_b) if game.winner == "A" else \
            (game.side_b, game.side_a)
        teams = [[now.get(p) or model.rating() for p in won],
                 [now.get(p) or model.rating() for p in lost]]
        for team, rated in zip((won, lost), model.rate(teams), strict=True):
            for p, r in zip(team, rated, strict=True):
                now[p] = r
    theirs = (time.perf_counter() - t0) / baseline_games * games
    log(f"  pure re-rate of {games:,} games ({games * 8:,} hands, {len(rows):,} rows a person "
        f"a night): {ours:.2f} s; openskill "
        f"package, same games scaled from {baseline_games:,}: {theirs:.1f} s "
        f"(ratio {theirs / ours:.1f})")
    return {"games": games, "rows": len(rows), "seconds": round(ours, 2),
            "openskill_seconds_scaled": round(theirs, 1), "ratio": round(theirs / ours, 1)}


def empty_loop() -> float:
    """10,000,000 turns of an empty loop: how busy the machine is (about 0.2 s quiet)."""
    t0 = time.perf_counter()
    for _ in range(10_000_000):
        pass
    return round(time.perf_counter() - t0, 2)


def _timed(app, work) -> float:
    from api.core.db import db

    with app.app_context():
        t0 = time.perf_counter()
        work()
        took = time.perf_counter() - t0
        db.session.remove()
    return took


def _typical_person(url: str, faithful: int) -> int:
    """A person with the median number of nights."""
    from sqlalchemy import create_engine, text

    from api.config import normalise_database_url

    engine = create_engine(normalise_database_url(url))
    with engine.connect() as connection:
        counts = connection.execute(text(
            "SELECT person_id, COUNT(*) FROM players WHERE person_id != :f "
            "GROUP BY person_id ORDER BY COUNT(*), person_id"), {"f": faithful}).all()
    engine.dispose()
    return counts[len(counts) // 2][0]


def through_db(kind: str, size: Size, postgres_url: str | None = None, direct: bool = True,
               log=print) -> dict:
    from sqlalchemy import case, func, select, update

    from api import create_app
    from api.config import normalise_database_url
    from api.core.db import db
    from api.core.models import Event, Game, RatingNight
    from api.ratings.rerate import rerate_all, sync

    database = servers.create_database(kind, postgres_url)
    try:
        servers.migrate(database)
        log(f"{kind}: seeding {size.events} nights, {size.total_hands:,} hands")
        if direct:
            seeded = seed_direct(normalise_database_url(database.url), nights=size.events,
                                 people=size.people, players=size.players,
                                 rounds=size.rounds, hands_per_game=size.hands,
                                 log=lambda *_: None)
            seeded["typical"] = _typical_person(database.url, seeded["faithful"])
        else:
            seeded = seed(database.url, size, log=lambda *_: None)
        log(f"  seeded in {seeded['seconds']} s")
        club = seeded["club_id"]
        app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(database.url)})
        loop = empty_loop()
        log(f"  the machine now: the empty loop in {loop} s")
        full = _timed(app, lambda: rerate_all(club))
        if kind == "postgres":  # statistics on the fresh rows, as autovacuum would gather
            with app.app_context(), db.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
        with app.app_context():
            rows = db.session.scalar(select(func.count()).select_from(RatingNight))
            nights = db.session.scalars(select(Event.id).where(Event.club_id == club)
                                        .order_by(Event.id)).all()
        log(f"  rated from scratch: {full:.2f} s ({rows:,} rows, a person a night)")

        def bump(event_id, flip=False):
            """A write to the night: its revision bumped (a night marked finished), and with
            `flip` one of its games' winner turned (a correction: the night re-rated)."""
            def work():
                if flip:
                    game_id = db.session.scalar(select(Game.id).where(
                        Game.event_id == event_id, Game.winner.is_not(None),
                        Game.tie_method.is_(None)).order_by(Game.id).limit(1))
                    db.session.execute(update(Game).where(Game.id == game_id).values(
                        winner=case((Game.winner == "A", "B"), else_="A")))
                db.session.execute(update(Event).where(Event.id == event_id)
                                   .values(revision=Event.revision + 1))
                db.session.commit()
            _timed(app, work)

        finished, corrected = [], []
        for _ in range(5):
            bump(nights[-1])
            finished.append(_timed(app, lambda: sync(club)) * 1000)
            bump(nights[-1], flip=True)
            corrected.append(_timed(app, lambda: sync(club)) * 1000)
        last_night = corrected
        bump(nights[len(nights) // 2], flip=True)
        middle = _timed(app, lambda: sync(club))
        unchanged = [_timed(app, lambda: sync(club)) * 1000 for _ in range(20)]
        log(f"  a night marked finished: median {statistics.median(finished):.0f} ms (max "
            f"{max(finished):.0f}); a night's game corrected (its games re-rated): median "
            f"{statistics.median(corrected):.0f} ms (max {max(corrected):.0f}); a game "
            f"corrected in the middle of the year: {middle:.2f} s; nothing changed: "
            f"{statistics.median(unchanged):.1f} ms")
        person = seeded["typical"]
        reads = {
            "profile (baseline)": _read(database.url, f"/api/clubs/{club}/people/{person}", 20),
            "person's rating": _read(database.url,
                                     f"/api/clubs/{club}/people/{person}/rating", 20),
            "faithful's rating": _read(database.url,
                                       f"/api/clubs/{club}/people/{seeded['faithful']}/rating",
                                       20),
            # A page of the table (100 rows unless asked), deep in it, the most a read
            # answers, and the whole table as the CSV (before the table paged, every one of
            # these answered the whole table).
            "ratings table": _read(database.url, f"/api/clubs/{club}/ratings", 20),
            "ratings, rows 10,001-10,100": _read(
                database.url, f"/api/clubs/{club}/ratings?offset=10000", 20),
            "ratings, 1,000 rows": _read(database.url,
                                         f"/api/clubs/{club}/ratings?limit=1000", 20),
            "ratings CSV (whole)": _read(database.url, f"/api/clubs/{club}/ratings.csv", 5)}
        base = reads["profile (baseline)"]["warm_ms"]
        for name, f in reads.items():
            log(f"  {name:28} cold {f['cold_ms']:8.1f} ms  warm {f['warm_ms']:7.1f} ms "
                f"(x{f['warm_ms'] / base:.2f} the profile)  {f['bytes']:,} bytes")
        with app.app_context():
            db.engine.dispose()
        return {"db": kind, "empty_loop_seconds": loop, "hands": seeded["hands"], "rows": rows,
                "full_seconds": round(full, 2),
                "night_finished_ms": round(statistics.median(finished), 1),
                "night_update_ms": round(statistics.median(last_night), 1),
                "night_update_max_ms": round(max(last_night), 1),
                "middle_seconds": round(middle, 2),
                "unchanged_ms": round(statistics.median(unchanged), 1), "reads": reads}
    finally:
        database.drop()


def main(argv: list[str] | None = None) -> int:
    parser = servers.bench_parser("python -m bench.ratings", __doc__,
                                  kinds=("sqlite", "postgres", "both", "none"), quick=True)
    parser.add_argument("--nights", type=int, default=200, help="the DB club's nights "
                        "(10,000 hands each; 200 is the club bench's 2,000,000)")
    parser.add_argument("--db-only", action="store_true", help="only the database part")
    parser.add_argument("--seed-through-app", action="store_true",
                        help="seed the club as bench/club.py does (minutes for 200 nights)")
    parser.add_argument("--seeds", type=int, default=20, help="simulated clubs per variant")
    args = parser.parse_args(argv)
    results: dict = {"empty_loop_seconds": empty_loop()}
    print(f"This machine now: 10,000,000 turns of an empty loop in "
          f"{results['empty_loop_seconds']} s (a quiet 2-core machine: about 0.2 s)")
    if not args.db_only:
        print("Does it predict? (simulated club)")
        results["predicts"] = predicts(
            seeds=(1,) if args.quick else tuple(range(1, args.seeds + 1)),
            nights=20 if args.quick else 30,
            variants={"issue's club": {}} if args.quick else VARIANTS)
        print("Speed")
        results["pure"] = pure(games=5_000 if args.quick else 250_000,
                               baseline_games=500 if args.quick else 10_000)
    kinds = {"both": ["sqlite", "postgres"], "none": []}.get(args.db, [args.db])
    size = QUICK if args.quick else Size(events=args.nights)
    results["db"] = [through_db(kind, size, args.postgres_url, direct=not args.seed_through_app)
                     for kind in kinds]
    servers.save_figures(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

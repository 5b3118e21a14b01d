"""A big club for the ratings bench, written straight to the tables (bench/club.py's seeding
through the models takes minutes for 2,000,000 hands; this takes under half a minute on
SQLite and one to two on PostgreSQL).

The same club as the club bench's: 20,000 people, nights of 500 of them (the most faithful
at every one), 10 progressive rounds of 125 tables, one game of 8 hands a table, each hand a
shape scored by the app's own rules, a level game settled by a card draw (not rated). Nights
are a week apart, each with its own date. Every row the ratings read is there (nights,
players, rounds, tables, seats, games) and every hand too, so the database is the size a
real club's is (`hands=False` leaves the hands out). Ids are given here rather than
returned one insert at a time; PostgreSQL's sequences are moved past them at the end.

On SQLite the rows go through the driver's executemany, on PostgreSQL through COPY.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, date, datetime, timedelta


def _writer(connection, dialect):
    """write(table, columns, rows): the rows (tuples, already in the database's types) in
    one go."""
    if dialect.name == "postgresql":
        raw = connection.connection.driver_connection

        def write(table, columns, rows):
            with raw.cursor() as cursor, cursor.copy(
                    f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
    else:
        def write(table, columns, rows):
            marks = ", ".join("?" * len(columns))
            connection.exec_driver_sql(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", list(rows))
    return write


def _next_ids(connection, tables) -> dict[str, int]:
    from sqlalchemy import text

    return {t: (connection.execute(text(f"SELECT MAX(id) FROM {t}")).scalar() or 0) + 1
            for t in tables}


def seed_direct(url: str, nights: int = 200, people: int = 20_000, players: int = 500,
                rounds: int = 10, hands_per_game: int = 8, hands: bool = True,
                rng_seed: int = 11, log=print) -> dict:
    from sqlalchemy import create_engine, text

    from api.core.models import Event, Hand
    from api.people.people import name_key
    from api.rules import games as rgames
    from api.rules.presets import build_preset

    from .club import _templates

    rng = random.Random(rng_seed)
    started = time.monotonic()
    engine = create_engine(url)
    dialect = engine.dialect
    preset = build_preset("progressive", {"rounds": rounds})
    shapes, weights = _templates(preset)
    fmt = rgames.GameFormat(target_points=None, hands_per_game=hands_per_game)

    def kind(table, column):
        processor = table.c[column].type.dialect_impl(dialect).bind_processor(dialect)
        return processor or (lambda v: v)

    when = kind(Event.__table__, "created_at")
    as_json = kind(Hand.__table__, "bumps")
    as_day = kind(Event.__table__, "night_date")
    no_bumps, nothing_surrendered = as_json({}), as_json([])
    parameters = kind(Event.__table__, "parameters")(preset.parameters())
    manual = kind(Event.__table__, "manual_order")({})
    with engine.begin() as connection:
        write = _writer(connection, dialect)
        club_id = connection.execute(text(
            "INSERT INTO clubs (name, slug, revision, people_private_by_default, indexable, "
            "erased_count, created_at) VALUES ('Ratings Bench Club', :slug, 1, :f, :f, 0, "
            ":now) RETURNING id"), {"slug": f"rb-{rng.randrange(10**6)}", "f": False,
                                    "now": when(datetime.now(UTC))}).scalar()
        ids = _next_ids(connection, ["people", "events", "players", "rounds", "matches",
                                     "games"])
        person_ids = list(range(ids["people"], ids["people"] + people))
        now = when(datetime.now(UTC))
        write("people", ["id", "club_id", "name", "name_key", "private", "created_at"],
              ((p, club_id, f"Person {i:05d}", name_key(f"Person {i:05d}"), False, now)
               for i, p in enumerate(person_ids)))
        faithful = person_ids[0]
        first_day = date(2022, 1, 5)
        event_id, player_id, round_id, match_id, game_id = (
            ids["events"], ids["players"], ids["rounds"], ids["matches"], ids["games"])
        made = 0
        for number in range(nights):
            day = first_day + timedelta(days=7 * number)
            at = when(datetime(day.year, day.month, day.day, 23, tzinfo=UTC))
            write("events", ["id", "code", "name", "preset_key", "parameters", "seed",
                             "join_pin", "manual_order", "status", "revision", "time_zone",
                             "club_id", "created_at", "night_date", "calendar_private"],
                  [(event_id, f"R{number:05d}", f"Night {number + 1}", "progressive",
                    parameters, 1, "000000", manual, "finished", 1, "UTC", club_id, at,
                    as_day(day), False)])
            field = [faithful] + rng.sample(person_ids[1:], players - 1)
            player_of = {p: player_id + i for i, p in enumerate(field)}
            write("players", ["id", "event_id", "name", "position", "role", "checked_in",
                              "late", "withdrawn", "person_id", "paid", "created_at"],
                  ((player_of[p], event_id, f"Person {p}", i + 1, "player", True, False,
                    False, p, False, at) for i, p in enumerate(field)))
            player_id += players
            round_rows, match_rows, seat_rows, game_rows, hand_rows = [], [], [], [], []
            for r in range(1, rounds + 1):
                round_rows.append((round_id, event_id, r, rgames.REGULAR, f"Round {r}",
                                   "closed", 25, at, at, at))
                order = [player_of[p] for p in field]
                rng.shuffle(order)
                for t in range(0, len(order), 4):
                    match_rows.append((match_id, event_id, round_id, t // 4 + 1, 1, False,
                                       "over"))
                    for seat, player in enumerate(order[t:t + 4], start=1):
                        seat_rows.append((match_id, seat, player))
                    picks = rng.choices(range(len(shapes)), weights, k=hands_per_game)
                    state = rgames.play_game(fmt, [shapes[i][4] for i in picks])
                    tie = "A" if state.level else None
                    if tie:
                        state = rgames.play_game(fmt, [shapes[i][4] for i in picks],
                                                 tie_winner=tie)
                    game_rows.append((
                        game_id, event_id, match_id, 1, rgames.REGULAR, hands_per_game,
                        state.points_a, state.points_b, hands_per_game, hands_per_game,
                        state.end, state.winner, state.level,
                        "card-draw" if tie else None, tie, False, no_bumps, 0, 0, False, 1,
                        at))
                    if hands:
                        for n, i in enumerate(picks, start=1):
                            maker, tricks, alone, loner, score = shapes[i]
                            hand_rows.append((
                                f"{game_id}-{n}", event_id, game_id, n, "play", maker, alone,
                                loner, tricks, nothing_surrendered, score.points_a,
                                score.points_b, score.result, score.outcome, no_bumps,
                                "bench", at))
                    match_id += 1
                    game_id += 1
                round_id += 1
            write("rounds", ["id", "event_id", "number", "stage", "label", "status", "minutes",
                             "clock_started_at", "closed_at", "created_at"], round_rows)
            write("matches", ["id", "event_id", "round_id", "\"table\"", "games_planned",
                              "best_of", "status"], match_rows)
            write("seats", ["match_id", "seat", "player_id"], seat_rows)
            write("games", ["id", "event_id", "match_id", "number", "stage", "hands_per_game",
                            "points_a", "points_b", "hands_played", "entries", "\"end\"",
                            "winner", "level", "tie_method", "tie_winner", "from_sheet",
                            "bumps", "adjust_a", "adjust_b", "ruled", "version",
                            "last_entry_at"], game_rows)
            if hand_rows:
                write("hands", ["id", "event_id", "game_id", "number", "kind", "maker", "alone",
                                "loner_seat", "tricks", "surrendered", "points_a", "points_b",
                                "result", "outcome", "bumps", "fingerprint", "created_at"],
                      hand_rows)
            made += len(hand_rows) if hands else len(game_rows) * hands_per_game
            event_id += 1
            if (number + 1) % max(1, nights // 10) == 0:
                log(f"  {number + 1} nights, {made:,} hands, "
                    f"{time.monotonic() - started:.0f} s")
        if dialect.name == "postgresql":
            for table in ("people", "events", "players", "rounds", "matches", "games"):
                connection.execute(text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT MAX(id) FROM {table}))"))
    if dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "ANALYZE")
    engine.dispose()
    return {"club_id": club_id, "faithful": faithful, "hands": made,
            "seconds": round(time.monotonic() - started, 1)}

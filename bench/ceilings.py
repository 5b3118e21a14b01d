"""The write ceiling: a plain loop of one-row INSERT + COMMIT on the same database with the
same settings as the app, from as many processes and threads as the app's gunicorn uses.

SQLite: the same file, journal_mode=WAL, synchronous=FULL, foreign_keys=ON, the same busy
timeout, and BEGIN IMMEDIATE per transaction (as api/db.py does for writes).
PostgreSQL: the same server and database, read committed, synchronous_commit as configured.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
import time

TABLE = "bench_write_ceiling"
SQLITE_BUSY_TIMEOUT_MS = 10_000  # api/db.py's value


def prepare(url: str) -> None:
    """Create the ceiling's table (outside the app's schema, dropped with the database)."""
    if url.startswith("sqlite"):
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY, "
                     "thread INTEGER NOT NULL, at REAL NOT NULL, note TEXT)")
        conn.close()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id SERIAL PRIMARY KEY, "
                         "thread INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, note TEXT)")


def _sqlite_loop(path: str, thread: int, until: float, out: list) -> None:
    import sqlite3

    conn = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                   f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}"):
        conn.execute(f"PRAGMA {pragma}")
    latencies = []
    while (start := time.monotonic()) < until:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"INSERT INTO {TABLE} (thread, at, note) VALUES (?, ?, ?)",
                     (thread, time.time(), "ceiling"))
        conn.execute("COMMIT")
        latencies.append(time.monotonic() - start)
    conn.close()
    out.append(latencies)


def _postgres_loop(url: str, thread: int, until: float, out: list) -> None:
    import psycopg

    conn = psycopg.connect(url)
    latencies = []
    while (start := time.monotonic()) < until:
        conn.execute(f"INSERT INTO {TABLE} (thread, at, note) VALUES (%s, %s, %s)",
                     (thread, time.time(), "ceiling"))
        conn.commit()
        latencies.append(time.monotonic() - start)
    conn.close()
    out.append(latencies)


def _process(url: str, threads: int, seconds: float, first_thread: int,
             start_at: float) -> list[float]:
    """One process of `threads` writer threads; returns every commit's latency."""
    time.sleep(max(0.0, start_at - time.time()))
    until = time.monotonic() + seconds
    loop, target = ((_sqlite_loop, url.removeprefix("sqlite:///")) if url.startswith("sqlite")
                    else (_postgres_loop, url.replace("postgresql+psycopg://", "postgresql://")))
    out: list[list[float]] = []
    workers = [threading.Thread(target=loop, args=(target, first_thread + i, until, out))
               for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return [x for part in out for x in part]


def write_ceiling(url: str, processes: int, threads: int, seconds: float) -> dict:
    """Commits per second (and commit latency) of the plain INSERT + COMMIT loop."""
    prepare(url)
    context = multiprocessing.get_context("spawn")
    start_at = time.time() + 1.5  # every process starts its clock together
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        parts = list(pool.map(_process, [url] * processes, [threads] * processes,
                              [seconds] * processes,
                              [i * threads for i in range(processes)],
                              [start_at] * processes))
    latencies = sorted(x for part in parts for x in part)
    from .http import percentile

    return {
        "processes": processes, "threads_per_process": threads, "seconds": seconds,
        "commits": len(latencies),
        "per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(1000 * (percentile(latencies, 50) or 0), 2),
        "p99_ms": round(1000 * (percentile(latencies, 99) or 0), 2),
    }

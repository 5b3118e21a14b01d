"""`python -m bench run|all`: stand everything up, run the phases, print and save the figures.

    python -m bench run --db sqlite --processes 1 --runners 200 --viewers 1000 --seconds 45
    python -m bench run --quick            # a few seconds, tiny numbers (the test suite's)
    python -m bench all --seconds 45       # SQLite x1, PostgreSQL x1, PostgreSQL x2 + big event
    python -m bench profile --db sqlite    # where one request's time goes (cProfile, SQL)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from . import big, load, servers
from .ceilings import write_ceiling
from .http import Recorder
from .report import print_run, print_summary, targets

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Options:
    db: str = "sqlite"
    processes: int = 1
    runners: int = 200
    viewers: int = 1000
    seconds: float = 45.0  # the live event phase
    sat_seconds: float = 10.0  # each closed-loop phase (ceilings and the app's capacity)
    sat_connections: int = 64  # clients in the closed-loop read phases
    probes: int = 20  # viewers that also time when each new hand shows
    think: tuple[float, float] = (2.0, 5.0)  # runner's seconds between hands
    poll: tuple[float, float] = (1.0, 2.0)  # viewer's seconds between polls
    big: bool = False  # also the 2,000-player, 200,000-hand event
    big_players: int = 2000
    big_rounds: int = 50  # 8 hands a game: players / 4 * rounds * 8 hands
    big_repeats: int = 20
    postgres_url: str | None = None
    seed: int = 1
    quick: bool = False

    @classmethod
    def quick_mode(cls, **changes) -> Options:
        base = dict(runners=4, viewers=12, seconds=2.0, sat_seconds=0.8, sat_connections=8,
                    probes=3, think=(0.15, 0.4), poll=(0.3, 0.6), big=True, big_players=40,
                    big_rounds=3, big_repeats=3, quick=True)
        base.update(changes)
        return cls(**base)


def run(opts: Options, log=print) -> dict:
    """One configuration, start to finish; returns every figure (and prints as it goes)."""
    threads = int(os.environ.get("GUNICORN_THREADS", "8"))
    result: dict = {"options": asdict(opts), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                    "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                "kernel": platform.release(),
                                "load_average_at_start": os.getloadavg()},
                    "gunicorn": {"masters": opts.processes, "workers_per_master": 1,
                                 "threads": threads, "worker_class": "gthread"}}
    database = servers.create_database(opts.db, opts.postgres_url)
    log(f"[{opts.db} x{opts.processes}] database {database.name or database.url}")
    started: list[servers.Gunicorn] = []
    postgres = opts.db == "postgres"
    try:
        servers.migrate(database)
        env = {"DATABASE_URL": database.url}
        apps = [servers.start_gunicorn("api:create_app()", env,
                                       database.workdir / f"app-{i}.log",
                                       ready_path="/api/presets")
                for i in range(opts.processes)]
        started += apps
        target = load.Target([a.port for a in apps])
        workers = [pid for a in apps for pid in a.workers]
        result["workers"] = workers

        setup = Recorder()
        state = asyncio.run(load.setup_event(target, opts.runners, setup))
        result["setup"] = setup.summary()
        log(f"  event {state.event_id}: {4 * opts.runners} players, {len(state.tables)} tables")

        log(f"  live event: {opts.runners} runners, {opts.viewers} viewers, "
            f"{opts.seconds:.0f} s")
        meter = servers.CpuMeter(workers, postgres)
        pace = load.Pace(think=opts.think)
        live = asyncio.run(load.live_phase(state, target, opts.runners, opts.viewers,
                                           opts.seconds, pace, opts.poll, opts.probes,
                                           opts.seed))
        live["cpu"] = meter.read()
        live["round_transitions"] = list(state.transitions)
        result["live"] = live
        live["drain_seconds"] = asyncio.run(load.drain(target))
        if live["drain_seconds"] > 1:
            log(f"  (the app took {live['drain_seconds']} s to work off its queue)")

        board = asyncio.run(load.fetch(target, state.board_path))
        board_file = database.workdir / "leaderboard.json"
        board_file.write_bytes(board.body)
        result["leaderboard_bytes"] = len(board.body)

        log("  read ceiling: static JSON under the same gunicorn")
        statics = [servers.start_gunicorn("bench.static_app:app",
                                          {"BENCH_STATIC_FILE": str(board_file)},
                                          database.workdir / f"static-{i}.log")
                   for i in range(opts.processes)]
        started += statics
        static_target = load.Target([s.port for s in statics])
        static_workers = [pid for s in statics for pid in s.workers]
        result["read_ceiling"] = {
            "200": _closed_read(static_target, "/", None, opts, "static 200", 200,
                                static_workers, postgres=False),
            "304": _closed_read(static_target, "/", {"If-None-Match": '"static-1"'}, opts,
                                "static 304", 304, static_workers, postgres=False),
        }
        for s in statics:
            s.stop()

        log("  leaderboard capacity (closed loop)")
        etag = asyncio.run(load.fetch(target, state.board_path)).headers.get("etag")
        result["read_app"] = {
            "200": _closed_read(target, state.board_path, None, opts, "leaderboard 200", 200,
                                workers, postgres),
            "304": _closed_read(target, state.board_path, {"If-None-Match": etag}, opts,
                                "leaderboard 304", 304, workers, postgres),
        }

        log("  write ceiling: INSERT + COMMIT loop")
        result["write_ceiling"] = write_ceiling(database.url, opts.processes, threads,
                                                opts.sat_seconds)
        log("  hand entry capacity (closed loop)")
        meter = servers.CpuMeter(workers, postgres)
        writes = asyncio.run(load.write_phase(state, target, opts.runners, opts.sat_seconds,
                                              opts.seed + 1))
        writes["cpu"] = meter.read()
        result["write_app"] = writes
        result["memory_after_load"] = {str(p): servers.memory(p) for p in workers}

        if opts.big:
            result["big"] = big_event(opts, database, target, apps[0].workers[0], log)
        result["memory_peak_mb"] = max((servers.memory(p)["peak_mb"] or 0) for p in workers)
        result["memory_end"] = {str(p): servers.memory(p) for p in workers}
        result["server_errors"] = _server_errors(apps)
    except Exception as exc:  # keep what was measured, and why the rest was not
        import traceback

        result["failed"] = "".join(traceback.format_exception(exc))[-3000:]
        result["server_log_tail"] = {str(s.log.name): s.log.read_text(errors="replace")[-3000:]
                                     for s in started}
        log(f"  FAILED: {exc!r}")
    finally:
        for server in started:
            server.stop()
        database.drop()
    result["targets"] = targets(result)
    return result


def _closed_read(target, path, headers, opts, kind, status, workers, postgres) -> dict:
    meter = servers.CpuMeter(workers, postgres)
    figures = asyncio.run(load.read_phase(target, path, headers, opts.sat_connections,
                                          opts.sat_seconds, kind, status))
    figures["cpu"] = meter.read()
    return figures


def big_event(opts: Options, database: servers.Database, target: load.Target,
              worker_pid: int, log) -> dict:
    log(f"  big event: {opts.big_players} players, {opts.big_rounds} rounds "
        f"({opts.big_players // 4 * opts.big_rounds * 8} hands): seeding")
    recorder = Recorder()

    async def create():
        conn = target.conn(0)
        body = json.dumps({"name": "Big event", "preset": "progressive",
                           "overrides": {"rounds": opts.big_rounds + 1}}).encode()
        event = (await load.timed(conn, recorder, "create", "POST", "/api/events",
                                  expect=(201,), headers=load.JSON, body=body)).json()
        csv = "name,checked_in\n" + "".join(f"Big Player {i:05d},yes\n"
                                             for i in range(1, opts.big_players + 1))
        await load.timed(conn, recorder, "import", "POST",
                         f"/api/events/{event['id']}/import", expect=(201,),
                         headers={"Authorization": f"Bearer {event['organizer_key']}",
                                  "Content-Type": "text/csv"}, body=csv.encode())
        conn.close()
        return event

    event = asyncio.run(create())
    seeded = big.seed(database.url, event["id"], opts.big_rounds, 8)
    log(f"  big event: seeded {seeded['hands']} hands in {seeded['seed_seconds']} s; reading")
    figures = asyncio.run(big.measure(target, event["id"], event["organizer_key"],
                                      seeded.pop("playing_games"), worker_pid,
                                      opts.big_repeats))
    figures["seeded"] = seeded
    figures["setup_errors"] = sum(k["errors"] for k in recorder.summary().values())
    return figures


def _server_errors(apps) -> list[str]:
    """Tracebacks and worker timeouts in the gunicorn logs (the client counts statuses)."""
    lines = []
    for app in apps:
        for line in app.log.read_text(errors="replace").splitlines():
            if any(word in line for word in ("Traceback", "WORKER TIMEOUT", "Error", "[ERROR]")):
                lines.append(line[:300])
    return lines[:20]


def save(results: dict, name: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}.json"
    path.write_text(json.dumps(results, indent=2, default=str))
    return path


# --- the command line -----------------------------------------------------------------------

def _pair(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    return float(low), float(high or low)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "all"):
        p = sub.add_parser(name, help="one configuration" if name == "run" else
                           "SQLite x1, PostgreSQL x1 and PostgreSQL x2, then a summary")
        if name == "run":
            p.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
            p.add_argument("--processes", type=int, default=1,
                           help="app processes: gunicorn masters of one worker each")
            p.add_argument("--big", action="store_true",
                           help="also seed and read the 2,000-player, 200,000-hand event")
        else:
            p.add_argument("--no-big", action="store_true", help="skip the big event")
        p.add_argument("--runners", type=int, default=200)
        p.add_argument("--viewers", type=int, default=1000)
        p.add_argument("--seconds", type=float, default=45.0, help="the live event phase")
        p.add_argument("--sat-seconds", type=float, default=10.0,
                       help="each closed-loop phase")
        p.add_argument("--sat-connections", type=int, default=64)
        p.add_argument("--probes", type=int, default=20)
        p.add_argument("--think", type=_pair, default=(2.0, 5.0),
                       help="runner's seconds between hands, 'low,high'")
        p.add_argument("--poll", type=_pair, default=(1.0, 2.0),
                       help="viewer's seconds between polls, 'low,high'")
        p.add_argument("--big-players", type=int, default=2000)
        p.add_argument("--big-rounds", type=int, default=50)
        p.add_argument("--postgres-url", default=None,
                       help=f"server for new databases (default {servers.DEFAULT_POSTGRES} "
                       "or BENCH_POSTGRES_URL)")
        p.add_argument("--quick", action="store_true",
                       help="a few seconds with tiny numbers, to check the harness works")
        p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return parser


def _options(args, **fixed) -> Options:
    common = dict(postgres_url=args.postgres_url, **fixed)
    if args.quick:
        return Options.quick_mode(**common)
    return Options(runners=args.runners, viewers=args.viewers, seconds=args.seconds,
                   sat_seconds=args.sat_seconds, sat_connections=args.sat_connections,
                   probes=args.probes, think=args.think, poll=args.poll,
                   big_players=args.big_players, big_rounds=args.big_rounds, **common)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["profile"]:
        from .profile import main as profile_main

        return profile_main(argv[1:])
    args = _parser().parse_args(argv)
    command = " ".join(["python -m bench", *argv])
    if args.command == "run":
        opts = _options(args, db=args.db, processes=args.processes,
                        **({} if args.quick else {"big": args.big}))
        results = {"command": command, "runs": [run(opts)]}
        print_run(results["runs"][0])
    else:
        configs = [("sqlite", 1, True), ("postgres", 1, True), ("postgres", 2, False)]
        runs = []
        for db, processes, with_big in configs:
            opts = _options(args, db=db, processes=processes,
                            **({} if args.quick else {"big": with_big and not args.no_big}))
            runs.append(run(opts))
            print_run(runs[-1])
        results = {"command": command, "runs": runs}
        print_summary(runs)
    path = save(results, args.command + ("-quick" if args.quick else ""))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    print(f"\nfigures saved to {path}")
    errors = sum(r["targets"]["errors"] for r in results["runs"])
    failed = any("failed" in r for r in results["runs"])
    return 1 if errors or failed else 0

"""`python -m bench`: stand everything up, run the phases, print and save the figures.

Full run (what BENCHMARKS.md reports; about 20 minutes on 2 cores; needs PostgreSQL):

    python -m bench all                    # SQLite x1, PostgreSQL x1, PostgreSQL x2, big event

Quick mode (a few seconds, tiny numbers; the test suite runs it to keep the harness working):

    python -m bench run --quick

One configuration, and where one request's time goes:

    python -m bench run --db postgres --processes 2 --runners 200 --viewers 1000
    python -m bench profile --db sqlite            # cProfile and SQL counts per request kind
    python -m bench profile --db sqlite --big      # the big event's leaderboard after a hand
    python -m bench tricks                         # what removing each speed trick costs

PostgreSQL: new databases are made (and dropped) on --postgres-url, by default
postgresql://postgres@127.0.0.1:5432/test or BENCH_POSTGRES_URL. Every phase is bounded in
time; the figures go to bench/results/ (git-ignored) and to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from . import big, load, servers
from .ceilings import write_ceiling
from .http import Recorder, run_measured
from .report import print_run, print_summary, targets

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Options:
    db: str = "sqlite"
    processes: int = 1
    runners: int = 200
    viewers: int = 1000
    seconds: float = 90.0  # the live event at table pace
    # Table pace: the progressive preset plays 8 hands in a 25-minute round, a hand about
    # every 3 minutes; a quick table manages one a minute.
    think: tuple[float, float] = (60.0, 180.0)  # runner's seconds between hands
    stress_seconds: float = 45.0  # the same event about 40 times faster (0: skip)
    stress_think: tuple[float, float] = (2.0, 5.0)
    sat_seconds: float = 10.0  # each closed-loop phase (ceilings and the app's capacity)
    sat_slices: int = 5  # closed-loop reads: app and ceiling alternate in this many slices
    sat_connections: int = 64  # clients in the closed-loop read phases
    probes: int = 20  # viewers that also time when each new hand shows
    probe_poll: tuple[float, float] = (0.2, 0.4)  # their seconds between polls
    warmup: float = 5.0  # live phases: everyone arrives within it; its requests are not timed
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
        # Viewers poll several times between two hands, so some polls find the board unchanged
        # (a 304) even on a loaded machine: with hands every 0.15-0.4 s and polls every
        # 0.3-0.6 s, a busy CI run saw no 304 at all and its table had no figure.
        base = dict(runners=4, viewers=12, seconds=2.0, stress_seconds=0.8, sat_seconds=0.8,
                    sat_slices=2, sat_connections=8, probes=3, think=(0.4, 0.8),
                    stress_think=(0.05, 0.1), probe_poll=(0.1, 0.2), poll=(0.04, 0.08),
                    big=True, big_players=40, big_rounds=3, big_repeats=3, quick=True)
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

        phases = [("live", opts.seconds, opts.think, "at table pace")]
        if opts.stress_seconds > 0:
            phases.append(("stress", opts.stress_seconds, opts.stress_think, "accelerated"))
        for name, seconds, think, how in phases:
            log(f"  live event {how} (a hand every {think[0]:g}-{think[1]:g} s a table): "
                f"{opts.runners} runners, {opts.viewers} viewers, {seconds:.0f} s")
            meter = servers.CpuMeter(workers, postgres)
            before = len(state.transitions)
            live = run_measured(load.live_phase(state, target, opts.runners, opts.viewers,
                                                seconds, load.Pace(think=think), opts.poll,
                                                opts.probes, opts.seed,
                                                probe_interval=opts.probe_poll,
                                                warmup=min(opts.warmup, seconds / 4)))
            live["cpu"] = meter.read(client_elsewhere=live["viewers_cpu_seconds"])
            live["round_transitions"] = list(state.transitions[before:])
            live["think_seconds"] = list(think)
            live["memory"] = {str(p): servers.memory(p) for p in workers}
            result[name] = live
            live["drain_seconds"] = asyncio.run(load.drain(target))
            if live["drain_seconds"] > 1:
                log(f"  (the app took {live['drain_seconds']} s to work off its queue)")

        board = asyncio.run(load.fetch(target, state.board_path))
        board_file = database.workdir / "leaderboard.json"
        board_file.write_bytes(board.body)
        gzipped = gzip.compress(board.body, 1, mtime=0)  # as the app gzips it
        board_file.with_name(board_file.name + ".gz").write_bytes(gzipped)
        result["leaderboard_bytes"] = len(board.body)
        result["leaderboard_gzip_bytes"] = len(gzipped)

        log("  read ceiling (static JSON under the same gunicorn) and leaderboard capacity, "
            f"closed loop, alternating in {opts.sat_slices} slices")
        statics = [servers.start_gunicorn("bench.static_app:app",
                                          {"BENCH_STATIC_FILE": str(board_file)},
                                          database.workdir / f"static-{i}.log")
                   for i in range(opts.processes)]
        started += statics
        static_target = load.Target([s.port for s in statics])
        static_workers = [pid for s in statics for pid in s.workers]
        gz = load.GZIP
        # Read with gzip, as the phases do, so that the board they poll is built in both
        # encodings first: otherwise the first 200 polls found its gzip being built and were
        # answered, by design, with a 304 for the board they had (counted as errors here).
        etag = asyncio.run(load.fetch(target, state.board_path, gz)).headers.get("etag")
        # A 200 poll is a phone whose board is older than the event's (a hand came in): it
        # sends the ETag of the board it has. A first read (no ETag: a phone opening the
        # board, the console reading after a change) is measured on its own: it always reads
        # the revision afresh, so that nobody is shown the board from before their change.
        older = _older_board_tag(etag)
        reads = _interleaved_reads([
            ("read_ceiling", "200", static_target, "/", {**gz, "If-None-Match": '"static-0"'},
             static_workers, False),
            ("read_app", "200", target, state.board_path, {**gz, "If-None-Match": older},
             workers, postgres),
            ("read_app", "200 first", target, state.board_path, gz, workers, postgres),
            ("read_ceiling", "304", static_target, "/", {**gz, "If-None-Match": '"static-1"'},
             static_workers, False),
            ("read_app", "304", target, state.board_path, {**gz, "If-None-Match": etag},
             workers, postgres),
        ], opts)
        result["read_ceiling"], result["read_app"] = reads["read_ceiling"], reads["read_app"]
        for s in statics:
            s.stop()

        log("  write ceiling: INSERT + COMMIT loop")
        result["write_ceiling"] = write_ceiling(database.url, opts.processes, threads,
                                                opts.sat_seconds)
        log("  hand entry capacity (closed loop)")
        meter = servers.CpuMeter(workers, postgres)
        writes = run_measured(load.write_phase(state, target, opts.runners, opts.sat_seconds,
                                               opts.seed + 1))
        writes["cpu"] = meter.read()
        result["write_app"] = writes
        result["memory_after_load"] = {str(p): servers.memory(p) for p in workers}

        peak = max((servers.memory(p)["peak_mb"] or 0) for p in workers)
        if opts.big:
            result["big"] = big_event(opts, database, target, apps[0], log)
            workers = [p for app in apps for p in app.workers]  # the big event restarts them
        result["memory_peak_mb"] = max([peak] + [servers.memory(p)["peak_mb"] or 0
                                                 for p in workers])
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


def _older_board_tag(etag: str) -> str:
    """The ETag of the board one revision before `etag` (W/"board-<event>-<revision>")."""
    head, revision = etag.rstrip('"').rsplit("-", 1)
    return f'{head}-{int(revision) - 1}"'


def _interleaved_reads(phases, opts) -> dict:
    """The closed-loop read phases, each `sat_seconds` in all, run in turns of
    sat_seconds / sat_slices each (ceiling, app, ceiling, app, ...): whatever else the machine
    does meanwhile falls on the ceiling and the app alike, which keeps their ratio steady."""
    recorders = {(group, status): Recorder() for group, status, *_ in phases}
    cpu: dict[tuple, list] = {key: [] for key in recorders}
    part = opts.sat_seconds / opts.sat_slices
    for _ in range(opts.sat_slices):
        for group, status, target, path, headers, workers, postgres in phases:
            kind = f"{'static' if group == 'read_ceiling' else 'leaderboard'} {status}"
            meter = servers.CpuMeter(workers, postgres)
            run_measured(load.read_phase(target, path, headers, opts.sat_connections, part, kind,
                                         int(status.split()[0]),
                                         recorder=recorders[(group, status)]))
            cpu[(group, status)].append(meter.read())
    out: dict[str, dict] = {}
    for (group, status), recorder in recorders.items():
        (figures,) = recorder.summary(opts.sat_seconds).values()
        samples = cpu[(group, status)]
        figures["cpu"] = {name: (round(sum(c[name] for c in samples) / len(samples))
                                 if not isinstance(samples[0][name], list) else
                                 [round(sum(c[name][i] for c in samples) / len(samples))
                                  for i in range(len(samples[0][name]))])
                          for name in samples[0]}
        out.setdefault(group, {})[status] = figures
    return out


def big_event(opts: Options, database: servers.Database, target: load.Target,
              app: servers.Gunicorn, log) -> dict:
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
    def restart():
        return app.restart_workers(), app.workers[0]

    figures = asyncio.run(big.measure(target, event["id"], event["organizer_key"],
                                      seeded.pop("playing_games"), app.workers[0],
                                      opts.big_repeats, restart=restart))
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
    sub.add_parser("profile", help="where one request's time goes (see: python -m bench "
                   "profile --help)", add_help=False)
    sub.add_parser("markdown", help="a saved run's figures as BENCHMARKS.md's tables: "
                   "python -m bench markdown bench/results/<run>.json", add_help=False)
    for name in ("run", "all"):
        p = sub.add_parser(name, help="one configuration (--quick: a few seconds)" if name == "run"
                           else "the full run: SQLite x1, PostgreSQL x1 and PostgreSQL x2, "
                           "then a summary", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "run":
            servers.add_database_options(p)
            p.add_argument("--processes", type=int, default=1,
                           help="app processes: gunicorn masters of one worker each")
            p.add_argument("--big", action="store_true",
                           help="also seed and read the 2,000-player, 200,000-hand event")
        else:
            p.add_argument("--no-big", action="store_true", help="skip the big event")
            servers.add_postgres_url(p)
        d = Options()
        p.add_argument("--runners", type=int, default=d.runners)
        p.add_argument("--viewers", type=int, default=d.viewers)
        p.add_argument("--seconds", type=float, default=d.seconds,
                       help="the live event at table pace")
        p.add_argument("--think", type=_pair, default=d.think,
                       help="runner's seconds between hands at table pace, 'low,high'")
        p.add_argument("--stress-seconds", type=float, default=d.stress_seconds,
                       help="the live event accelerated (0: skip it)")
        p.add_argument("--stress-think", type=_pair, default=d.stress_think,
                       help="runner's seconds between hands when accelerated, 'low,high'")
        p.add_argument("--sat-seconds", type=float, default=d.sat_seconds,
                       help="each closed-loop phase")
        p.add_argument("--sat-slices", type=int, default=d.sat_slices,
                       help="closed-loop reads alternate app and ceiling in this many turns")
        p.add_argument("--sat-connections", type=int, default=d.sat_connections)
        p.add_argument("--probes", type=int, default=d.probes)
        p.add_argument("--probe-poll", type=_pair, default=d.probe_poll,
                       help="probe viewers' seconds between polls, 'low,high'")
        p.add_argument("--poll", type=_pair, default=d.poll,
                       help="viewer's seconds between polls, 'low,high'")
        p.add_argument("--big-players", type=int, default=2000)
        p.add_argument("--big-rounds", type=int, default=50)
        p.add_argument("--quick", action="store_true",
                       help="a few seconds with tiny numbers, to check the harness works")
        p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return parser


def _options(args, **fixed) -> Options:
    common = dict(postgres_url=args.postgres_url, **fixed)
    if args.quick:
        return Options.quick_mode(**common)
    return Options(runners=args.runners, viewers=args.viewers, seconds=args.seconds,
                   think=args.think, stress_seconds=args.stress_seconds,
                   stress_think=args.stress_think, sat_seconds=args.sat_seconds,
                   sat_slices=args.sat_slices, sat_connections=args.sat_connections,
                   probes=args.probes, probe_poll=args.probe_poll, poll=args.poll,
                   big_players=args.big_players, big_rounds=args.big_rounds, **common)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["profile"]:
        from .profile import main as profile_main

        return profile_main(argv[1:])
    if argv[:1] == ["tricks"]:
        from .tricks import main as tricks_main

        return tricks_main(argv[1:])
    if argv[:1] == ["markdown"]:
        from .report import markdown

        if len(argv) != 2:
            print("usage: python -m bench markdown bench/results/<run>.json", file=sys.stderr)
            return 2
        print(markdown(json.loads(Path(argv[1]).read_text())), end="")
        return 0
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

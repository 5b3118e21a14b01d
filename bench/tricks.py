"""`python -m bench tricks`: what removing each speed trick (api/serving) costs, in one run.

One database and one event (800 players, 200 tables, set up over HTTP as `bench run` does);
then, for each configuration in turn, a fresh gunicorn with the project's gunicorn.conf.py and
SERVING_OFF naming the trick switched off, and a short live phase (runners entering hands,
1,000 viewers polling the board with If-None-Match, the organizer moving rounds on). The
all-on baseline runs first and last, so a drift of the shared machine shows as the two
baselines disagreeing. Each figure is reported as a ratio against the mean of the baselines
of the same run.

    python -m bench tricks                  # SQLite, about 11 minutes
    python -m bench tricks --only gc_freeze,mallopt --repeat 2
    python -m bench tricks --only writes_first+switch_interval   # both off at once
    python -m bench tricks --db postgres --seconds 30 --think 20 60
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from api.serving.switches import TRICKS

from . import load, servers
from .http import Recorder, run_measured

RESULTS = Path(__file__).resolve().parent / "results"
BASELINE = "all on"


def _figures(live: dict, cpu: dict, memory: dict) -> dict:
    requests = live["requests"]
    hands = requests.get("hand POST", {})
    polls = requests.get("leaderboard 304", {})
    boards = requests.get("leaderboard 200", {})
    return {
        "hands": hands.get("count", 0),
        "hand_p50_ms": hands.get("p50_ms"), "hand_p90_ms": hands.get("p90_ms"),
        "hand_max_ms": hands.get("max_ms"),
        "poll304_p50_ms": polls.get("p50_ms"), "poll304_p90_ms": polls.get("p90_ms"),
        "poll200_p90_ms": boards.get("p90_ms"),
        "polls_per_second": round(sum(k.get("per_second") or 0 for name, k in requests.items()
                                      if name.startswith("leaderboard")), 1),
        "visible_p50_ms": live["visibility"].get("p50_ms"),
        "worker_cpu_pct": sum(cpu["workers"]), "others_cpu_pct": cpu["others"],
        "worker_peak_mb": max((m.get("peak_mb") or 0) for m in memory.values()),
        "errors": sum(k.get("errors", 0) for k in requests.values()),
    }


def configurations(only: tuple[str, ...] = TRICKS, repeat: int = 1) -> list[str]:
    """The baseline first and last and between rounds: each round switches off each trick of
    `only` in turn (a repeat measures each again, interleaved, against a shared machine's
    drift)."""
    configs = [BASELINE]
    for _ in range(repeat):
        configs += [*only, BASELINE]
    return configs


def run(db: str, seconds: float, think: tuple[float, float], viewers: int, runners: int,
        postgres_url: str | None, configs: list[str], log=print) -> dict:
    database = servers.create_database(db, postgres_url)
    result = {"db": db, "seconds": seconds, "think": list(think), "viewers": viewers,
              "runners": runners, "started": time.strftime("%Y-%m-%d %H:%M:%S"),
              "load_average_at_start": os.getloadavg(), "runs": []}
    app = None
    try:
        servers.migrate(database)
        env = {"DATABASE_URL": database.url}
        app = servers.start_gunicorn("api:create_app()", env, database.workdir / "setup.log",
                                     ready_path="/api/presets")
        state = asyncio.run(load.setup_event(load.Target([app.port]), runners, Recorder()))
        app.stop()
        for i, name in enumerate(configs):
            off = "" if name == BASELINE else name.replace("+", ",")
            app = servers.start_gunicorn("api:create_app()", {**env, "SERVING_OFF": off},
                                         database.workdir / f"app-{i}.log",
                                         ready_path="/api/presets")
            target = load.Target([app.port])
            meter = servers.CpuMeter(app.workers, db == "postgres")
            live = run_measured(load.live_phase(state, target, runners, viewers, seconds,
                                                load.Pace(think=think), (1.0, 2.0), 20, i,
                                                probe_interval=(0.2, 0.4),
                                                warmup=min(5.0, seconds / 4)))
            cpu = meter.read(client_elsewhere=live["viewers_cpu_seconds"])
            figures = _figures(live, cpu, {p: servers.memory(p) for p in app.workers})
            asyncio.run(load.drain(target))
            app.stop()
            app = None
            result["runs"].append({"off": name, **figures})
            log(f"  {name:16} {json.dumps(figures)}")
    finally:
        if app is not None:
            app.stop()
        database.drop()
    result["ratios"] = ratios(result["runs"])
    return result


RATIO_KEYS = ("hand_p50_ms", "hand_p90_ms", "hand_max_ms", "poll304_p50_ms", "poll304_p90_ms",
              "poll200_p90_ms", "visible_p50_ms", "worker_cpu_pct", "worker_peak_mb")


def ratios(runs: list[dict]) -> dict:
    """Each trick's figures (the mean of its runs) over the mean of the baselines' (1.00: no
    cost)."""
    def mean(values):
        values = [v for v in values if v]
        return sum(values) / len(values) if values else None

    base = {key: mean(b.get(key) for b in runs if b["off"] == BASELINE) for key in RATIO_KEYS}
    out = {}
    for name in dict.fromkeys(r["off"] for r in runs if r["off"] != BASELINE):
        out[name] = {}
        for key in RATIO_KEYS:
            value = mean(r.get(key) for r in runs if r["off"] == name)
            if base[key] and value is not None:
                out[name][key] = round(value / base[key], 2)
    return out


def markdown(result: dict) -> str:
    head = ("| switched off | hands | hand p50 | hand p90 | hand max | 304 p50 | 304 p90 | "
            "200 p90 | shown p50 | worker CPU % | peak MB |\n|" + "---|" * 11 + "\n")
    lines = []
    for r in result["runs"]:
        lines.append(f"| {r['off']} | {r['hands']} | {r['hand_p50_ms']} | {r['hand_p90_ms']} | "
                     f"{r['hand_max_ms']} | {r['poll304_p50_ms']} | {r['poll304_p90_ms']} | "
                     f"{r['poll200_p90_ms']} | {r['visible_p50_ms']} | {r['worker_cpu_pct']} | "
                     f"{r['worker_peak_mb']} |")
    ratio_head = ("\n| switched off | " + " | ".join(RATIO_KEYS) + " |\n|"
                  + "---|" * (len(RATIO_KEYS) + 1) + "\n")
    ratio_lines = [f"| {name} | " + " | ".join(f"{v.get(k, '')}" for k in RATIO_KEYS) + " |"
                   for name, v in result["ratios"].items()]
    return head + "\n".join(lines) + "\n" + ratio_head + "\n".join(ratio_lines) + "\n"


def main(argv: list[str]) -> int:
    parser = servers.bench_parser("python -m bench tricks", __doc__)
    parser.add_argument("--seconds", type=float, default=35.0)
    parser.add_argument("--think", type=float, nargs=2, default=(20.0, 60.0),
                        help="a runner's seconds between hands (table pace: 60 180)")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--runners", type=int, default=200)
    parser.add_argument("--only", default=",".join(TRICKS),
                        help="the tricks to switch off in turn, comma-separated (default: "
                             "all); a+b switches a and b off together")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of them, a baseline between rounds")
    args = parser.parse_args(argv)
    only = tuple(n.strip() for n in args.only.split(",") if n.strip())
    unknown = {t for n in only for t in n.split("+")} - set(TRICKS)
    if unknown:
        parser.error(f"no such trick: {', '.join(sorted(unknown))}")
    result = run(args.db, args.seconds, tuple(args.think), args.viewers, args.runners,
                 args.postgres_url, configurations(only, args.repeat))
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"tricks-{args.db}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(result, indent=2))
    print(markdown(result))
    print(f"figures saved to {path}")
    return 0

"""The figures as tables on stdout, and each of issue 7's targets as met or missed."""

from __future__ import annotations


def _get(d: dict, *path, default=None):
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return default
        d = d[key]
    return d


def _ratio(a, b) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def _errors(result: dict) -> int:
    total = 0
    for phase in ("setup",):
        total += sum(k["errors"] for k in result.get(phase, {}).values())
    # The accelerated phase overloads the server on purpose: its timeouts are counted apart.
    total += sum(k["errors"] for k in _get(result, "live", "requests", default={}).values())
    total += sum(k["errors"] for k in _get(result, "write_app", "requests", default={}).values())
    for group in ("read_ceiling", "read_app"):
        total += sum(v.get("errors", 0) for v in result.get(group, {}).values())
    total += sum(k["errors"] for k in _get(result, "big", "requests", default={}).values())
    total += _get(result, "big", "setup_errors", default=0)
    return total


def _first_reads(r: dict) -> str:
    """A first read (no ETag) reads the revision afresh: its rate, and its share of the
    static file's 200s."""
    first = r["read_app"].get("200 first")
    if first is None:
        return "–"
    ceiling = r["read_ceiling"]["200"]["per_second"]
    return f"{first['per_second']:.0f} ({_pct(first['per_second'], ceiling)})"


def targets(result: dict) -> dict:
    """Each target of issue 7 with what was measured and whether it was met."""
    live = _get(result, "live", "requests", default={})
    checks = []

    def check(name: str, measured, goal: str, met: bool | None) -> None:
        checks.append({"target": name, "measured": measured, "goal": goal, "met": met})

    for status in ("200", "304"):
        app = _get(result, "read_app", status, "per_second")
        ceiling = _get(result, "read_ceiling", status, "per_second")
        ratio = _ratio(app, ceiling)
        check(f"leaderboard {status}s vs read ceiling",
              f"{app}/s vs {ceiling}/s = {ratio}", ">= 0.70", None if ratio is None
              else ratio >= 0.7)
    hands = _get(result, "write_app", "hands_per_second")
    ceiling = _get(result, "write_ceiling", "per_second")
    ratio = _ratio(hands, ceiling)
    check("hand entry vs write ceiling", f"{hands}/s vs {ceiling}/s = {ratio}", ">= 0.50",
          None if ratio is None else ratio >= 0.5)
    for kind in ("hand POST", "leaderboard 200", "leaderboard 304"):
        p99 = _get(live, kind, "p99_ms")
        check(f"live p99 (table pace): {kind}", p99, "< 50 ms",
              None if p99 is None else p99 < 50)
    vis = _get(result, "live", "visibility", default={})
    check("new hand visible to a polling viewer (p99 / max)",
          f"{vis.get('p99_ms')} / {vis.get('max_ms')} ms, never seen: "
          f"{vis.get('never_seen_after_3s')}", "< 2000 ms",
          None if vis.get("p99_ms") is None else
          (vis["p99_ms"] < 2000 and not vis.get("never_seen_after_3s")))
    big = result.get("big")
    if big:
        req = big.get("requests", {})
        value = _get(req, "leaderboard first read after a worker start", "max_ms")
        check("big event: first read after a worker starts (max)", value, "< 100 ms",
              None if value is None else value < 100)
        for kind, stat in (("leaderboard cold (first read)", "max_ms"),
                           ("leaderboard warm 200", "p99_ms"),
                           ("leaderboard after a hand", "p99_ms"),
                           ("leaderboard 304", "p99_ms")):
            value = _get(req, kind, stat)
            check(f"big event: {kind} ({stat[:-3]})", value, "< 50 ms",
                  None if value is None else value < 50)
        shown = big.get("new_board_ms", {})
        check("big event: the new board after a hand, polled every 10 ms (p50 / max)",
              f"{shown.get('p50')} / {shown.get('max')} ms", "< 2000 ms",
              None if shown.get("max") is None else shown["max"] < 2000)
        export = big.get("export", {})
        growth, size = export.get("peak_growth_mb"), export.get("mb")
        check("big event: hands.csv streamed (worker peak growth vs file size)",
              f"+{growth} MB for {size} MB in {export.get('seconds')} s",
              "growth well under the file size (< 25%)",
              None if growth is None or not size else growth < 0.25 * size)
    peak = result.get("memory_peak_mb")
    check("peak memory per worker", peak, "< 150 MB", None if peak is None else peak < 150)
    stress = sum(k["errors"] for k in _get(result, "stress", "requests", default={}).values())
    return {"errors": _errors(result), "stress_errors": stress, "checks": checks}


def _fmt(value, width: int) -> str:
    text = "-" if value is None else (f"{value:.1f}" if isinstance(value, float) else str(value))
    return text.rjust(width)


def _rows(title: str, kinds: dict) -> list[str]:
    lines = [f"  {title}"]
    for name, k in kinds.items():
        lines.append(f"    {name:<32}{_fmt(k['count'], 8)}{_fmt(k['per_second'], 9)}"
                     f"{_fmt(k['p50_ms'], 9)}{_fmt(k['p99_ms'], 9)}{_fmt(k['max_ms'], 9)}"
                     f"{_fmt(k['errors'], 7)}")
    return lines


HEADER = (f"    {'request':<32}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}{'errors':>7}")


def print_run(result: dict) -> None:
    o = result["options"]
    print(f"\n=== {o['db']}, {o['processes']} app process(es) x "
          f"{result['gunicorn']['threads']} threads: {o['runners']} runners, "
          f"{o['viewers']} viewers ===")
    print(HEADER)
    lines = []
    for phase, how in (("live", "at table pace"), ("stress", "accelerated")):
        live = result.get(phase)
        if not live:
            continue
        think = live.get("think_seconds") or ["?", "?"]
        lines += _rows(f"live event {how} (a hand every {think[0]}-{think[1]} s a table: "
                       f"{live.get('hands_per_second')} hands/s; cpu % of a core "
                       f"{live.get('cpu')})", live.get("requests", {}))
        hands = live.get("requests", {}).get("hand POST", {})
        if hands.get("slowest_ms"):
            lines.append(f"    hand POST p90 {hands.get('p90_ms')} ms; the slowest: "
                         f"{', '.join(str(v) for v in hands['slowest_ms'])} ms")
        for who, key in (("runners'", "client_loop_lag"), ("viewers'", "viewers_loop_lag")):
            if lag := live.get(key):
                lines.append(f"    the load generator's own stalls ({who} event loop late): "
                             f"p99 {lag.get('p99_ms')} ms, p99.9 {lag.get('p999_ms')} ms, "
                             f"max {lag.get('max_ms')} ms")
        vis = live.get("visibility", {})
        lines.append(f"    visibility of a new hand (probes polling every "
                     f"{vis.get('probe_poll_seconds')} s): p50 {vis.get('p50_ms')} ms, p99 "
                     f"{vis.get('p99_ms')} ms, max {vis.get('max_ms')} ms "
                     f"({vis.get('samples')} samples, never seen "
                     f"{vis.get('never_seen_after_3s')}); queue drained in "
                     f"{live.get('drain_seconds')} s")
    for group, title in (("read_ceiling", "read ceiling (static file)"),
                         ("read_app", "leaderboard, closed loop")):
        for status, k in result.get(group, {}).items():
            lines += _rows(f"{title} {status} (cpu {k.get('cpu')})", {f"{status}": k})
    wc = result.get("write_ceiling", {})
    lines.append(f"  write ceiling: {wc.get('per_second')} commits/s (p50 {wc.get('p50_ms')} ms,"
                 f" p99 {wc.get('p99_ms')} ms; {wc.get('processes')} x "
                 f"{wc.get('threads_per_process')} threads)")
    wa = result.get("write_app", {})
    lines += _rows(f"hand entry, closed loop (cpu {wa.get('cpu')})", wa.get("requests", {}))
    lines.append(f"    {wa.get('hands_per_second')} hands/s "
                 f"({wa.get('hands_per_second_excluding_transitions')} excluding "
                 f"{wa.get('round_transitions')} round transitions)")
    big = result.get("big")
    if big:
        lines += _rows(f"big event ({big['seeded']['players']} players, "
                       f"{big['seeded']['hands']} hands; leaderboard "
                       f"{big.get('leaderboard_bytes')} bytes, "
                       f"{big.get('leaderboard_gzip_bytes')} gzipped)", big.get("requests", {}))
        lines.append(f"    export: {big.get('export')}")
    lines.append(f"  memory per worker: {result.get('memory_end')}")
    if result.get("server_errors"):
        lines.append(f"  server log errors: {result['server_errors'][:5]}")
    print("\n".join(lines))
    print("  targets:")
    for c in result["targets"]["checks"]:
        mark = {True: "met", False: "MISSED", None: "n/a"}[c["met"]]
        print(f"    [{mark:>6}] {c['target']}: {c['measured']} (goal {c['goal']})")
    print(f"  errors: {result['targets']['errors']} (accelerated phase, overloaded on purpose: "
          f"{result['targets'].get('stress_errors')})")
    if "failed" in result:
        print(f"  FAILED:\n{result['failed']}")


def print_summary(runs: list[dict]) -> None:
    print("\n=== summary ===")
    names = [f"{r['options']['db']} x{r['options']['processes']}" for r in runs]
    print(f"  {'target':<64}" + "".join(f"{n:>22}" for n in names))
    rows: dict[str, list] = {}
    for i, r in enumerate(runs):
        for c in r["targets"]["checks"]:
            rows.setdefault(c["target"], [None] * len(runs))[i] = c
    for target, cells in rows.items():
        text = []
        for c in cells:
            if c is None:
                text.append("-")
            else:
                mark = {True: "ok", False: "MISS", None: "n/a"}[c["met"]]
                measured = str(c["measured"])
                text.append(f"{mark} {measured[:16]}")
        print(f"  {target[:63]:<64}" + "".join(f"{t:>22}" for t in text))


# --- Markdown, for BENCHMARKS.md ------------------------------------------------------------

def _md_table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join("–" if v is None else str(v) for v in row) + " |" for row in rows]
    return out


def _lat(kind: dict | None) -> str:
    if not kind or not kind.get("count"):
        return "–"
    return f"{kind['p50_ms']:.1f} / {kind['p99_ms']:.1f}"


def _pct(a, b) -> str:
    r = _ratio(a, b)
    return "–" if r is None else f"{100 * r:.0f}%"


def markdown(results: dict) -> str:
    """The figures of one saved run (`python -m bench all`) as the tables of BENCHMARKS.md."""
    runs = results["runs"]
    names = [f"{r['options']['db'].replace('postgres', 'PostgreSQL').replace('sqlite', 'SQLite')}"
             f" ×{r['options']['processes']}" for r in runs]
    lines = [f"Command: `{results.get('command')}`; started {runs[0].get('started')}; "
             f"machine: {runs[0]['machine']['cpus']} cores, Python "
             f"{runs[0]['machine']['python']}, kernel {runs[0]['machine']['kernel']}.", ""]

    def row(label, fn):
        values = []
        for r in runs:
            try:
                values.append(fn(r))
            except (KeyError, TypeError, ZeroDivisionError):
                values.append(None)
        return [label, *values]

    def req(r, phase, kind):
        return _get(r, phase, "requests", kind, default={})

    live = [
        row("load average at start", lambda r: " ".join(
            f"{x:.1f}" for x in r["machine"]["load_average_at_start"])),
        row("hands entered per second", lambda r: r["live"]["hands_per_second"]),
        row("hand POST p50 / p99 ms", lambda r: _lat(req(r, "live", "hand POST"))),
        row("leaderboard 200s per second", lambda r: req(r, "live", "leaderboard 200")
            ["per_second"]),
        row("leaderboard 200 p50 / p99 ms", lambda r: _lat(req(r, "live", "leaderboard 200"))),
        row("leaderboard 304s per second", lambda r: req(r, "live", "leaderboard 304")
            ["per_second"]),
        row("leaderboard 304 p50 / p99 ms", lambda r: _lat(req(r, "live", "leaderboard 304"))),
        row("errors", lambda r: sum(k["errors"] for k in r["live"]["requests"].values())),
        row("new hand visible: p50 / p99 / max ms", lambda r: (
            f"{r['live']['visibility']['p50_ms']:.0f} / {r['live']['visibility']['p99_ms']:.0f}"
            f" / {r['live']['visibility']['max_ms']:.0f}")),
        row("CPU % of a core: app / client / DB / rest of machine", lambda r: (
            f"{'+'.join(str(w) for w in r['live']['cpu']['workers'])} / "
            f"{r['live']['cpu']['client']} / {r['live']['cpu'].get('postgres', '–')} / "
            f"{r['live']['cpu']['others']}")),
    ]
    stress = [
        row("hands entered per second", lambda r: r["stress"]["hands_per_second"]),
        row("hand POST p50 / p99 ms", lambda r: _lat(req(r, "stress", "hand POST"))),
        row("leaderboard 200 p50 / p99 ms", lambda r: _lat(req(r, "stress", "leaderboard 200"))),
        row("timeouts and errors", lambda r: r["targets"].get("stress_errors")),
        row("new hand visible: p50 / p99 ms", lambda r: (
            f"{r['stress']['visibility']['p50_ms']:.0f} / "
            f"{r['stress']['visibility']['p99_ms']:.0f}")),
    ]
    capacity = [
        row("read ceiling, static 200 / 304 per second", lambda r: (
            f"{r['read_ceiling']['200']['per_second']:.0f} / "
            f"{r['read_ceiling']['304']['per_second']:.0f}")),
        row("leaderboard 200 / 304 polls per second", lambda r: (
            f"{r['read_app']['200']['per_second']:.0f} / "
            f"{r['read_app']['304']['per_second']:.0f}")),
        row("**ratio 200 / 304** (target ≥ 70%)", lambda r: (
            f"**{_pct(r['read_app']['200']['per_second'], r['read_ceiling']['200']['per_second'])}"
            f" / {_pct(r['read_app']['304']['per_second'], r['read_ceiling']['304']['per_second'])}"
            "**")),
        row("leaderboard 200 / 304 p50 ms (64 clients)", lambda r: (
            f"{r['read_app']['200']['p50_ms']:.1f} / {r['read_app']['304']['p50_ms']:.1f}")),
        row("first reads (no ETag) per second, and vs the static 200s", _first_reads),
        row("write ceiling, INSERT + COMMIT per second", lambda r: r["write_ceiling"]
            ["per_second"]),
        row("hands per second (200 runners, no pause)", lambda r: r["write_app"]
            ["hands_per_second"]),
        row("**ratio** (target ≥ 50%)", lambda r: (
            f"**{_pct(r['write_app']['hands_per_second'], r['write_ceiling']['per_second'])}**")),
        row("hand POST p50 / p99 ms at that rate", lambda r: _lat(req(r, "write_app",
                                                                        "hand POST"))),
        row("peak memory per worker, MB (target < 150)", lambda r: r["memory_peak_mb"]),
    ]
    lines += ["### Live event at table pace", ""] + _md_table(["", *names], live)
    lines += ["", "### The same event accelerated (overload on purpose)", ""]
    lines += _md_table(["", *names], stress)
    lines += ["", "### Capacity against the ceilings (closed loop)", ""]
    lines += _md_table(["", *names], capacity)
    bigs = [(n, r["big"]) for n, r in zip(names, runs, strict=True) if r.get("big")]
    if bigs:
        def big_row(label, fn):
            out = [label]
            for _, b in bigs:
                try:
                    out.append(fn(b))
                except (KeyError, TypeError):
                    out.append(None)
            return out

        def blat(b, kind, stat="p99_ms"):
            k = b["requests"].get(kind, {})
            return f"{k['p50_ms']:.1f} / {k[stat]:.1f}" if k.get("count") else "–"

        table = [
            big_row("players / hands", lambda b: f"{b['seeded']['players']} / "
                                                 f"{b['seeded']['hands']}"),
            big_row("leaderboard bytes (gzipped)", lambda b: f"{b['leaderboard_bytes']} "
                                                             f"({b['leaderboard_gzip_bytes']})"),
            big_row("first read in a worker that never built it ms", lambda b: _get(
                b, "requests", "leaderboard cold (first read)", "max_ms")),
            big_row("first read after a worker starts ms (the start, s)", lambda b: (
                f"{_get(b, 'requests', 'leaderboard first read after a worker start', 'max_ms')}"
                f" ({b.get('worker_restart_s')})")),
            big_row("poll right after a hand p50 / p99 ms",
                    lambda b: blat(b, "leaderboard after a hand")),
            big_row("the new board shows after (p50 / max) ms",
                    lambda b: f"{b['new_board_ms']['p50']} / {b['new_board_ms']['max']}"),
            big_row("read, unchanged, 200 p50 / p99 ms",
                    lambda b: blat(b, "leaderboard warm 200")),
            big_row("poll, unchanged, 304 p50 / p99 ms", lambda b: blat(b, "leaderboard 304")),
            big_row("hand POST p50 / p99 ms", lambda b: blat(b, "hand POST (big event)")),
            big_row("hands.csv: MB, seconds", lambda b: f"{b['export']['mb']} MB in "
                                                        f"{b['export']['seconds']} s"),
            big_row("worker memory during the export, MB", lambda b: (
                f"{b['export']['worker_rss_before_mb']} before, peak "
                f"{b['export']['worker_peak_during_mb']} (+{b['export']['peak_growth_mb']})")),
        ]
        lines += ["", "### The big event", ""] + _md_table(["", *(n for n, _ in bigs)], table)
    checks: dict[str, list] = {}
    for i, r in enumerate(runs):
        for c in r["targets"]["checks"]:
            checks.setdefault(c["target"], [None] * len(runs))[i] = (
                {True: "met", False: "**missed**", None: "n/a"}[c["met"]] + f" ({c['measured']})")
    lines += ["", "### Targets, as the harness checks them", ""]
    lines += _md_table(["target", *names], [[t, *v] for t, v in checks.items()])
    return "\n".join(lines) + "\n"

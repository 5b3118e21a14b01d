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
        for kind, stat in (("leaderboard cold (first read)", "max_ms"),
                           ("leaderboard warm 200", "p99_ms"),
                           ("leaderboard after a hand", "p99_ms"),
                           ("leaderboard 304", "p99_ms")):
            value = _get(req, kind, stat)
            check(f"big event: {kind} ({stat[:-3]})", value, "< 50 ms",
                  None if value is None else value < 50)
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

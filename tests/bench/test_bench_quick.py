"""The benchmark harness (bench/, BENCHMARKS.md) in its quick mode: a few seconds of every
phase on SQLite with tiny numbers, so the harness keeps working as the app changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _error_samples(value, where="run") -> list[str]:
    """Every failed request's sample message in a saved run, with where it happened."""
    found = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "error_samples" and inner:
                found += [f"{where}: {message}" for message in inner]
            else:
                found += _error_samples(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for inner in value:
            found += _error_samples(inner, where)
    return found


# 25 s of load on both cores: CI's (and --run-slow's) to run, not every `make test`.
@pytest.mark.slow
def test_quick_mode_measures_every_phase_without_errors(tmp_path):
    out = tmp_path / "quick.json"
    done = subprocess.run([sys.executable, "-m", "bench", "run", "--quick", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    run = json.loads(out.read_text())["runs"][0]
    assert "failed" not in run, run["failed"]
    assert run["targets"]["errors"] == 0, (_error_samples(run), done.stdout[-2000:])
    live = run["live"]["requests"]
    assert live["hand POST"]["count"] > 0
    assert live["leaderboard 200"]["count"] > 0
    assert run["live"]["visibility"]["samples"] > 0
    assert run["stress"]["requests"]["hand POST"]["count"] > 0, "the accelerated phase ran"
    for group in ("read_ceiling", "read_app"):
        for status in ("200", "304"):
            assert run[group][status]["per_second"] > 0, (group, status)
    assert run["write_ceiling"]["commits"] > 0
    assert run["write_app"]["hands"] > 0
    big = run["big"]["requests"]
    assert big["leaderboard cold (first read)"]["count"] == 1
    assert run["big"]["export"]["mb"] is not None
    assert run["memory_peak_mb"] > 0
    assert {c["target"] for c in run["targets"]["checks"]} >= {
        "hand entry vs write ceiling", "peak memory per worker"}
    assert done.returncode == 0, done.stderr[-3000:]

    # BENCHMARKS.md's tables come from a saved run: every row has a figure for this one.
    tables = subprocess.run([sys.executable, "-m", "bench", "markdown", str(out)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, check=True).stdout
    for heading in ("### Live event at table pace", "### Capacity against the ceilings",
                    "### The big event", "### Targets, as the harness checks them"):
        assert heading in tables
    for line in tables.splitlines():
        if line.startswith("| ") and "---" not in line:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            assert "–" not in cells[1:], f"a figure is missing: {line}"

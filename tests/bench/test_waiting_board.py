"""bench/waiting_board.py (what the leaderboard's notes of hands waiting to be agreed cost a
big event's board) runs to the end on a tiny event, so its figures can be taken again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_waiting_board_bench_runs_on_a_tiny_event():
    done = subprocess.run([sys.executable, "-m", "bench.waiting_board", "--players", "40",
                           "--rounds", "2", "--repeats", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = dict(line.strip().split(": ", 1) for line in done.stdout.splitlines()
                   if line.startswith("  "))
    assert int(figures["tables_waiting_shown"]) == 5  # half of the 10 tables in play
    assert int(figures["rows_with_a_note"]) == 20
    assert float(figures["ratio"]) > 0

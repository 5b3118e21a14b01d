"""The switches the tricks benchmark turns (api/serving/switches.py) and its ratios."""

from __future__ import annotations

import pytest

from api.serving.switches import TRICKS, on, switched_off
from bench.tricks import BASELINE, ratios


def test_every_trick_is_on_unless_serving_off_names_it():
    assert switched_off({}) == frozenset()
    assert all(on(t, {}) for t in TRICKS)
    environ = {"SERVING_OFF": " polls, gc_freeze "}
    assert switched_off(environ) == {"polls", "gc_freeze"}
    assert not on("polls", environ) and on("hand_posts", environ)


def test_a_name_that_is_no_trick_is_refused_rather_than_ignored():
    with pytest.raises(ValueError, match="no such trick: polss"):
        switched_off({"SERVING_OFF": "polss"})


def test_each_run_is_priced_against_the_mean_of_the_baselines():
    runs = [{"off": BASELINE, "hand_p90_ms": 10.0, "worker_cpu_pct": 40},
            {"off": "polls", "hand_p90_ms": 15.0, "worker_cpu_pct": 90},
            {"off": BASELINE, "hand_p90_ms": 20.0, "worker_cpu_pct": 50}]
    assert ratios(runs) == {"polls": {"hand_p90_ms": 1.0, "worker_cpu_pct": 2.0}}


def test_repeated_runs_are_interleaved_with_baselines_and_averaged():
    from bench.tricks import configurations

    assert configurations(("a", "b"), 2) == [BASELINE, "a", "b", BASELINE, "a", "b", BASELINE]
    runs = [{"off": BASELINE, "hand_p90_ms": 10.0}, {"off": "a", "hand_p90_ms": 10.0},
            {"off": BASELINE, "hand_p90_ms": 10.0}, {"off": "a", "hand_p90_ms": 30.0}]
    assert ratios(runs) == {"a": {"hand_p90_ms": 2.0}}

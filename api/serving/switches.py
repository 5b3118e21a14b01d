"""Which speed tricks are on: all of them, unless SERVING_OFF names some.

SERVING_OFF is a comma-separated list of trick names (below), read here and nowhere else. It
exists for the benchmark that prices each trick (`python -m bench tricks`): a deployment has
no reason to set it. A name that is not a trick stops the worker at start, so a typo cannot
quietly leave a trick on in a measurement that believes it off.
"""

from __future__ import annotations

import os

# The tricks, in the order BENCHMARKS.md prices them.
TRICKS = (
    "writes_first",  # writes counted, board builds give way to them (writes.py)
    "polls",  # leaderboard polls answered before Flask (polls.py)
    "hand_posts",  # a new hand and a first sheet answered before Flask (hands.py)
    "switch_interval",  # the interpreter handed over every 0.2 ms, not 5 ms (worker.py)
    "gc_freeze",  # the built app kept out of the collector's full passes (worker.py)
    "gc_threshold",  # the youngest generation collected every 20,000 objects (worker.py)
    "mallopt",  # big buffers given back to the system at once (worker.py)
)


def switched_off(environ=None) -> frozenset[str]:
    """The tricks SERVING_OFF names; ValueError for a name that is not one."""
    text = (os.environ if environ is None else environ).get("SERVING_OFF", "")
    names = frozenset(n.strip() for n in text.split(",") if n.strip())
    unknown = sorted(names - set(TRICKS))
    if unknown:
        raise ValueError(f"SERVING_OFF names no such trick: {', '.join(unknown)} "
                         f"(the tricks: {', '.join(TRICKS)})")
    return names


def on(trick: str, environ=None) -> bool:
    if trick not in TRICKS:
        raise ValueError(f"no such trick: {trick}")
    return trick not in switched_off(environ)

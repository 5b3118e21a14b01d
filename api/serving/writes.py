"""The outermost WSGI layer: writes counted while they are answered, so that the board builds
of the same worker give way to them (the gate itself, which the builders call, is
api/core/writes_first.py).

Measured need: a hand that takes 1.5-7 ms alone took 50-120 ms while another thread of its
worker built an 800-player board; the builds now wait for it, up to PATIENCE (20 ms) at each
stage. Benchmark: `python -m bench tricks`, hand POST p90 and max with `writes_first` off.
"""

from __future__ import annotations

from ..core.writes_first import writing

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class WritesFirst:
    """A request with a writing method counts as a write in flight while the app makes its
    answer (the answer of a write is a few hundred bytes, sent once the app has returned
    it)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") not in WRITES:
            return self.wsgi_app(environ, start_response)
        with writing():
            return self.wsgi_app(environ, start_response)

"""The read ceiling: a minimal WSGI app that answers a static JSON file (a real leaderboard's
bytes, written by the benchmark, gzipped for clients that take it, as the app does) with an
ETag and 304 for a matching If-None-Match.

It runs under the same gunicorn, the same gunicorn.conf.py and the same worker count as the
app, so the difference between the two is what the app does per request.
"""

from __future__ import annotations

import os
from pathlib import Path

_FILE = Path(os.environ.get("BENCH_STATIC_FILE", "/dev/null"))
_BODY = _FILE.read_bytes()
_GZIP_FILE = _FILE.with_name(_FILE.name + ".gz")
_GZIP = _GZIP_FILE.read_bytes() if _GZIP_FILE.is_file() else None  # the same board, gzipped
_TAG = '"static-1"'
_HEADERS_200 = [("Content-Type", "application/json"), ("Content-Length", str(len(_BODY))),
                ("ETag", _TAG)]
_HEADERS_GZIP = [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                 ("Content-Length", str(len(_GZIP or b""))), ("ETag", _TAG)]
_HEADERS_304 = [("ETag", _TAG)]


def app(environ, start_response):
    if environ.get("HTTP_IF_NONE_MATCH") == _TAG:
        start_response("304 Not Modified", _HEADERS_304)
        return [b""]
    if _GZIP is not None and "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""):
        start_response("200 OK", _HEADERS_GZIP)
        return [_GZIP]
    start_response("200 OK", _HEADERS_200)
    return [_BODY]

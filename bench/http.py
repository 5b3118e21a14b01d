"""A small HTTP/1.1 client on asyncio streams, and the recorder of what each request cost.

Standard library only, and deliberately lean: on a 2-core machine the load generator shares
the CPU with the server, so every microsecond the client spends parsing is one the server
does not get. It sends prebuilt headers, keeps one connection per simulated phone (keep-alive,
as a browser does), reads bodies by Content-Length or chunked encoding, and never parses JSON
unless the caller asks.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import json
import math
import time
from collections import defaultdict
from dataclasses import dataclass, field

REQUEST_TIMEOUT = 15.0


def run_measured(phase):
    """asyncio.run(phase) with the load generator's own collector kept short. Its full passes
    walked every object the client holds (a thousand phones' connections and tasks, the
    recorded samples) and stopped its event loop for 15-54 ms each, 74 times in a 90 s live
    phase: every request in flight then, a runner's hand among them, was timed that much
    slower for the client's sake. Frozen, the objects made before the phase are left out."""
    gc.collect()
    gc.freeze()
    try:
        return asyncio.run(phase)
    finally:
        gc.unfreeze()


class LoopLag:
    """How late the load generator's event loop wakes a task that asked to sleep TICK seconds:
    its own stalls, which the times it records include. Reported beside the live phase's
    figures so that a reader can tell the client's share of a slow request."""

    TICK = 0.002

    def __init__(self):
        self.lags: list[float] = []

    async def watch(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            start = time.perf_counter()
            await asyncio.sleep(self.TICK)
            self.lags.append(max(0.0, time.perf_counter() - start - self.TICK))

    def summary(self) -> dict:
        lags = sorted(self.lags)
        return {"p99_ms": _ms(percentile(lags, 99)), "p999_ms": _ms(percentile(lags, 99.9)),
                "max_ms": _ms(lags[-1] if lags else None)}


class HttpError(Exception):
    """The connection failed or the answer was not HTTP."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    size: int  # bytes of body received (also when the body was discarded)

    def json(self):
        return json.loads(self.text_body())

    def text_body(self) -> bytes:
        """The body, ungzipped when it came gzipped."""
        if self.headers.get("content-encoding") == "gzip":
            return gzip.decompress(self.body)
        return self.body


class Connection:
    """One keep-alive connection, like one phone's browser; reconnects when the server closed
    it (gunicorn drops idle keep-alive connections after `keepalive` seconds)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.host_header = f"Host: {host}:{port}\r\n".encode()
        self.connects = 0  # connections opened (the first one and every reconnect)

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port,
                                                                 limit=1 << 20)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes | None = None, *, discard_body: bool = False,
                      timeout: float = REQUEST_TIMEOUT) -> Response:
        """Send one request and read the whole answer. Every request the benchmark makes is
        safe to repeat (hands carry their own id), so a request that met a connection the
        server had just closed is sent once more on a new one."""
        try:
            return await asyncio.wait_for(self._request(method, path, headers, body,
                                                        discard_body), timeout)
        except TimeoutError:
            self.close()
            raise HttpError(f"no answer within {timeout:.0f} s") from None

    async def _request(self, method, path, headers, body, discard_body) -> Response:
        parts = [f"{method} {path} HTTP/1.1\r\n".encode(), self.host_header]
        if headers:
            parts.append("".join(f"{k}: {v}\r\n" for k, v in headers.items()).encode())
        if body is not None:
            parts.append(b"Content-Length: %d\r\n" % len(body))
        parts.append(b"\r\n")
        if body is not None:
            parts.append(body)
        data = b"".join(parts)
        for attempt in (1, 2):
            fresh = self.writer is None or self.reader.at_eof()
            if fresh:
                self.close()
                try:
                    await self._connect()
                except OSError as exc:
                    raise HttpError(f"connect: {exc}") from None
                self.connects += 1
            try:
                self.writer.write(data)
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError) as exc:
                self.close()
                if attempt == 1 and not fresh:
                    continue  # the server closed an idle keep-alive connection: once more
                raise HttpError(f"read: {exc!r}") from None
            except asyncio.LimitOverrunError as exc:
                self.close()
                raise HttpError("response head too long") from exc
            return await self._read_rest(head, method, discard_body)
        raise HttpError("unreachable")  # pragma: no cover

    async def _read_rest(self, head: bytes, method: str, discard_body: bool) -> Response:
        lines = head.decode("latin-1").split("\r\n")
        try:
            status = int(lines[0][9:12])
        except ValueError:
            self.close()
            raise HttpError(f"bad status line {lines[0]!r}") from None
        headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        reader = self.reader
        body = b""
        size = 0
        try:
            if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
                pass
            elif headers.get("transfer-encoding", "").lower() == "chunked":
                chunks = []
                while True:
                    size_line = await reader.readuntil(b"\r\n")
                    length = int(size_line.split(b";")[0].strip(), 16)
                    if length == 0:
                        await reader.readuntil(b"\r\n")  # no trailers are sent
                        break
                    left = length
                    while left:
                        piece = await reader.read(min(left, 1 << 16))
                        if not piece:
                            raise asyncio.IncompleteReadError(b"", left)
                        left -= len(piece)
                        size += len(piece)
                        if not discard_body:
                            chunks.append(piece)
                    await reader.readexactly(2)
                body = b"".join(chunks)
            elif "content-length" in headers:
                length = int(headers["content-length"])
                if discard_body:
                    left = length
                    while left:
                        piece = await reader.read(min(left, 1 << 16))
                        if not piece:
                            raise asyncio.IncompleteReadError(b"", left)
                        left -= len(piece)
                    size = length
                else:
                    body = await reader.readexactly(length)
                    size = length
            else:  # the body runs to the end of the connection
                body = await reader.read()
                size = len(body)
                self.close()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            self.close()
            raise HttpError(f"body: {exc!r}") from None
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Response(status, headers, body, size)


# --- recording ------------------------------------------------------------------------------

def percentile(sorted_values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100) by the nearest-rank method; None for no values."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass
class Kind:
    """Everything recorded for one kind of request in one phase."""

    latencies: list[float] = field(default_factory=list)  # seconds, answered requests only
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    errors: int = 0  # unexpected status or no answer
    error_samples: list[str] = field(default_factory=list)
    bytes: int = 0


class Recorder:
    """Latency, status and error counts per kind of request for one phase."""

    def __init__(self, warmup: float = 0.0):
        """`warmup`: requests that start within this many seconds are not timed or counted
        (the phase's first seconds, while everyone arrives at once); errors always count."""
        self.kinds: dict[str, Kind] = defaultdict(Kind)
        self.started = time.perf_counter()
        self.timed_from = self.started + warmup
        self.ended: float | None = None

    def ok(self, kind: str, seconds: float, status: int, size: int = 0) -> None:
        if time.perf_counter() - seconds < self.timed_from:
            return
        k = self.kinds[kind]
        k.latencies.append(seconds)
        k.statuses[status] += 1
        k.bytes += size

    def error(self, kind: str, message: str, status: int | None = None,
              seconds: float | None = None) -> None:
        k = self.kinds[kind]
        k.errors += 1
        if status is not None:
            k.statuses[status] += 1
        if seconds is not None and time.perf_counter() - seconds >= self.timed_from:
            k.latencies.append(seconds)
        if len(k.error_samples) < 5:
            k.error_samples.append(message[:300])

    def stop(self) -> None:
        self.ended = time.perf_counter()

    @property
    def seconds(self) -> float:
        return (self.ended or time.perf_counter()) - self.timed_from

    def summary(self, seconds: float | None = None) -> dict:
        """Per kind: count, throughput (per second of the phase), p50/p99/max in ms, errors."""
        seconds = seconds or self.seconds
        out = {}
        for name, k in sorted(self.kinds.items()):
            values = sorted(k.latencies)
            out[name] = {
                "count": len(values), "errors": k.errors,
                "per_second": round(len(values) / seconds, 1) if seconds else None,
                "p50_ms": _ms(percentile(values, 50)), "p90_ms": _ms(percentile(values, 90)),
                "p99_ms": _ms(percentile(values, 99)),
                "max_ms": _ms(values[-1] if values else None),
                # where a p99 of few samples comes from
                "slowest_ms": [_ms(v) for v in values[-5:][::-1]],
                "statuses": {str(s): n for s, n in sorted(k.statuses.items())},
                "mb": round(k.bytes / 1e6, 1),
                "error_samples": k.error_samples,
            }
        return out


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


async def timed(conn: Connection, recorder: Recorder, kind: str, method: str, path: str,
                *, expect: tuple[int, ...] = (200,), headers: dict | None = None,
                body: bytes | None = None, discard_body: bool = False,
                timeout: float = REQUEST_TIMEOUT) -> Response | None:
    """Make one request and record it under `kind`; None when it failed or answered a status
    outside `expect` (counted as an error)."""
    start = time.perf_counter()
    try:
        response = await conn.request(method, path, headers, body, discard_body=discard_body,
                                      timeout=timeout)
    except HttpError as exc:
        recorder.error(kind, f"{method} {path}: {exc}")
        return None
    seconds = time.perf_counter() - start
    if response.status not in expect:
        recorder.error(kind, f"{method} {path} -> {response.status}: "
                       f"{response.body[:200].decode('utf-8', 'replace')}",
                       status=response.status, seconds=seconds)
        return None
    recorder.ok(kind, seconds, response.status, response.size)
    return response

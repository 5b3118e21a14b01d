"""A real server for the tests that need a socket: gunicorn on 127.0.0.1 over a database.

The browser tests, the crash test and the hardening tests all start it here, so there is one way
to start gunicorn, wait for it, find and kill its workers, and stop it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# A worker boots in ~1.5 s of CPU; a 2-core machine under CI load needs headroom (30 s ran
# out once at a load of 14).
START_SECONDS = 90
STOP_SECONDS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    """Poll `condition` until it is true (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def unverified():
    """A TLS context that accepts the test's own self-signed certificate."""
    import ssl

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class LiveServer:
    """gunicorn (gthread) serving the app at `url`; its workers can be found and killed (the
    master respawns them).

    - `database_url`: a migrated database to serve; without one, a fresh SQLite file in
      `folder`, migrated when the server starts.
    - `workers`, `threads`: gunicorn's.
    - `log`: a file for gunicorn's output (its logs and the app's); none: discarded.
    - `project_config`: start with the project's gunicorn.conf.py (when its settings, such as
      the log format, are under test); otherwise gunicorn's defaults and the options here.
    - `env`: extra environment for the server, over the test process's own.

    Use it as a context manager, or call start() and stop().
    """

    def __init__(self, database_url: str | None = None, *, folder: Path | None = None,
                 workers: int = 1, threads: int = 4, log: Path | None = None,
                 project_config: bool = False, env: dict | None = None):
        if database_url is None and folder is None:
            raise ValueError("a database URL, or a folder for a fresh SQLite file")
        self.fresh = database_url is None
        self.database_url = database_url or f"sqlite:///{folder / 'live.db'}"
        self.port = free_port()
        # With TLS_CERT in `env` (and project_config), gunicorn serves https.
        self.tls = bool((env or {}).get("TLS_CERT"))
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"
        self.workers = workers
        self.threads = threads
        self.log = log
        self.project_config = project_config
        # Every test's events come from this one address: the per-address limit on making
        # events (a guard against scripts) would stop a whole browser run.
        self.env = {**os.environ, "DATABASE_URL": self.database_url, "PUBLIC_URL": self.url,
                    "PYTHONPATH": str(ROOT), "EVENT_CREATE_LIMIT": "100000", **(env or {})}
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def migrate(self) -> None:
        subprocess.run([str(BIN / "flask"), "--app", "api", "db", "upgrade"], cwd=ROOT,
                       env=self.env, check=True, capture_output=True)

    def start(self) -> LiveServer:
        """Start gunicorn and return once /api/health answers; stopped again if it does not
        within START_SECONDS, or if gunicorn exits first."""
        if self.fresh:
            self.migrate()
        config = ["--config", str(ROOT / "gunicorn.conf.py")] if self.project_config else []
        command = [str(BIN / "gunicorn"), *config, "-k", "gthread",
                   "--workers", str(self.workers), "--threads", str(self.threads),
                   "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "2",
                   "--timeout", "30", "api:create_app()"]
        if self.log:
            with open(self.log, "ab") as output:  # the child keeps its own copy
                self.process = subprocess.Popen(command, cwd=ROOT, env=self.env,
                                                stdout=output, stderr=subprocess.STDOUT)
        else:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env,
                                            stdout=subprocess.DEVNULL,
                                            stderr=subprocess.STDOUT)
        if wait_until(lambda: self.healthy() or self.process.poll() is not None,
                      START_SECONDS) and self.healthy():
            return self
        self.stop()
        tail = self.log.read_text(errors="replace")[-2000:] if self.log else ""
        raise RuntimeError(f"the server did not start:\n{tail}")

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/api/health", timeout=2,
                                        context=unverified() if self.tls else None):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        """Terminate gunicorn (it stops its workers) and wait; kill it if it takes longer
        than STOP_SECONDS."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # --- its workers (the crash test kills them) ------------------------------------------

    def worker_pids(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(p) for p in path.read_text().split()]
        except (FileNotFoundError, ValueError):
            return []

    def kill_a_worker(self, rng) -> bool:
        pids = self.worker_pids()
        if not pids:
            return False
        try:
            os.kill(rng.choice(pids), signal.SIGKILL)
        except ProcessLookupError:
            return False
        return True

    def _open_connections(self) -> set[str]:
        """The socket inodes of clients' connections to the server, accepted and open."""
        inodes = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = Path(table).read_text().splitlines()[1:]
            except FileNotFoundError:
                continue
            for line in lines:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if int(local.rsplit(":", 1)[1], 16) == self.port and state == "01":
                    inodes.add(inode)  # 01: ESTABLISHED, on the server's side
        return inodes

    def busy_workers(self) -> dict[int, int]:
        """{pid: client connections it holds} for the workers serving requests right now."""
        connections = self._open_connections()
        busy = {}
        for pid in self.worker_pids():
            try:
                links = [os.readlink(f"/proc/{pid}/fd/{fd}")
                         for fd in os.listdir(f"/proc/{pid}/fd")]
            except (FileNotFoundError, ProcessLookupError):
                continue
            held = sum(1 for link in links
                       if link.startswith("socket:[") and link[8:-1] in connections)
            if held:
                busy[pid] = held
        return busy

    def kill_a_busy_worker(self, rng) -> int:
        """SIGKILL a worker in the middle of requests (a worker still booting, or idle,
        would lose nothing); returns how many connections the kill cut, 0 if none was busy."""
        busy = self.busy_workers()
        if not busy:
            return 0
        pid = rng.choice(sorted(busy))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return 0
        return busy[pid]


def call(base: str, method: str, path: str, body=None, key: str | None = None,
         timeout: float = 10, raw: bytes | None = None, content_type: str = "application/json"):
    """One HTTP request; returns (status, parsed JSON or None). Network errors raise OSError."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", content_type)
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text) if text else None
        except ValueError:
            return error.code, None

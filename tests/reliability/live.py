"""A real server for fault tests: gunicorn processes on 127.0.0.1 over a fresh database."""

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """gunicorn (gthread) serving the app; its workers can be killed and are respawned."""

    def __init__(self, database_url: str, workers: int = 3, threads: int = 4, *,
                 log: Path | None = None, env: dict | None = None):
        self.database_url = database_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.threads = threads
        self.log = log  # gunicorn's stdout and stderr (its logs), with the project's config
        self.extra_env = env or {}
        self.process: subprocess.Popen | None = None

    def env(self) -> dict:
        return {**os.environ, "DATABASE_URL": self.database_url, "PYTHONPATH": str(ROOT),
                **self.extra_env}

    def migrate(self) -> None:
        subprocess.run([str(BIN / "flask"), "--app", "api", "db", "upgrade"], cwd=ROOT,
                       env=self.env(), check=True, capture_output=True)

    def start(self) -> LiveServer:
        # With a log file, the project's gunicorn.conf.py (its log settings are under test).
        config = ["--config", str(ROOT / "gunicorn.conf.py")] if self.log else []
        output = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), *config, "-k", "gthread", "--workers", str(self.workers),
             "--threads", str(self.threads), "--bind", f"127.0.0.1:{self.port}",
             "--graceful-timeout", "2", "--timeout", "30", "api:create_app()"],
            cwd=ROOT, env=self.env(), stdout=output, stderr=subprocess.STDOUT)
        if self.log:
            output.close()  # the child has its own copy
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

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

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


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

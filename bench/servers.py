"""The things a benchmark run stands up and tears down: a fresh database (a temporary SQLite
file or a new PostgreSQL database), its migrations, and gunicorn masters on free ports with the
project's own gunicorn.conf.py; plus what /proc tells about their processes. And the command
line options that choose that database, which every bench taking one shares."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- the database ---------------------------------------------------------------------------

@dataclass
class Database:
    kind: str  # sqlite | postgres
    url: str  # as the app reads it from DATABASE_URL
    workdir: Path
    admin_url: str | None = None  # PostgreSQL: where CREATE/DROP DATABASE is sent
    name: str | None = None

    @property
    def sqlite_path(self) -> Path:
        return Path(self.url.removeprefix("sqlite:///"))

    def drop(self) -> None:
        if self.kind == "postgres" and self.name:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        shutil.rmtree(self.workdir, ignore_errors=True)


def create_database(kind: str, postgres_url: str | None = None) -> Database:
    """A new, empty database for one run; `drop()` removes it."""
    workdir = Path(tempfile.mkdtemp(prefix="euchre-bench-"))
    if kind == "sqlite":
        return Database("sqlite", f"sqlite:///{workdir / 'euchre.db'}", workdir)
    import psycopg

    admin = postgres_url or os.environ.get("BENCH_POSTGRES_URL") or DEFAULT_POSTGRES
    name = f"euchre_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin.rpartition("/")
    return Database("postgres", f"{base}/{name}", workdir, admin_url=admin, name=name)


def add_database_options(parser: argparse.ArgumentParser,
                         kinds: tuple[str, ...] = ("sqlite", "postgres")) -> None:
    """--db (one of `kinds`; the first unless told) and --postgres-url, the two that
    create_database takes."""
    parser.add_argument("--db", choices=kinds, default=kinds[0])
    add_postgres_url(parser)


def add_postgres_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--postgres-url", default=None,
                        help=f"server for new databases (default {DEFAULT_POSTGRES} "
                        "or BENCH_POSTGRES_URL)")


def bench_parser(prog: str, doc: str | None = None, *,
                 kinds: tuple[str, ...] = ("sqlite", "postgres"),
                 quick: bool = False) -> argparse.ArgumentParser:
    """A bench's command line with the options the benches share: --db and --postgres-url;
    with `quick`, also --quick (tiny numbers) and --json (where to save the figures). The
    bench adds its own options after."""
    parser = argparse.ArgumentParser(prog=prog, description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_database_options(parser, kinds)
    if quick:
        parser.add_argument("--quick", action="store_true", help="tiny numbers, a few seconds")
        parser.add_argument("--json", default=None, help="also save the figures here")
    return parser


def save_figures(path: str | None, results) -> None:
    """What --json asks for: the figures written to `path`, when one was given."""
    if path:
        with open(path, "w") as out:
            json.dump(results, out, indent=1, default=str)


def migrate(database: Database) -> None:
    """`flask --app api db upgrade`, once, as the Procfile's release step does."""
    env = {**os.environ, "DATABASE_URL": database.url}
    done = subprocess.run([str(BIN / "flask"), "--app", "api", "db", "upgrade"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"migrations failed:\n{done.stdout}\n{done.stderr}")


# --- gunicorn -------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Gunicorn:
    """One gunicorn master (with WEB_CONCURRENCY workers) on 127.0.0.1:port."""

    port: int
    process: subprocess.Popen
    log: Path
    workers: list[int] = field(default_factory=list)

    def restart_workers(self, wait: float = 60.0) -> float:
        """Stop every worker (SIGTERM) and let the master start new ones, as a deploy or a
        crash would; returns the seconds until a new worker answers, its start-up included."""
        import signal

        old = set(self.workers)
        start = time.monotonic()
        for pid in old:
            os.kill(pid, signal.SIGTERM)
        deadline = start + wait
        while time.monotonic() < deadline:
            fresh = [p for p in children(self.process.pid) if p not in old]
            if len(fresh) >= len(old):
                try:
                    url = f"http://127.0.0.1:{self.port}/api/health"
                    with urllib.request.urlopen(url, timeout=wait):
                        pass
                    self.workers = fresh
                    return time.monotonic() - start
                except OSError:
                    pass
            time.sleep(0.05)
        raise RuntimeError(f"no new worker answered within {wait:.0f} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def start_gunicorn(app: str, env: dict[str, str], log: Path, *, workers: int = 1,
                   ready_path: str = "/", wait: float = 60.0) -> Gunicorn:
    """gunicorn with the project's gunicorn.conf.py (gthread; threads from GUNICORN_THREADS),
    `workers` workers, on a free port; returns once a request is answered."""
    port = free_port()
    full_env = {**os.environ, **env, "WEB_CONCURRENCY": str(workers)}
    full_env.pop("ACCESS_LOG", None)
    out = open(log, "ab")  # noqa: SIM115 (kept open for the child's lifetime)
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", app],
        cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    out.close()
    server = Gunicorn(port, process, log)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{ready_path}", timeout=5):
                pass
            break
        except OSError:
            time.sleep(0.1)
    else:
        server.stop()
        raise RuntimeError(f"gunicorn did not answer within {wait:.0f} s: "
                           f"{log.read_text()[-2000:]}")
    # Each worker builds the app on its first request at the latest; wait until all are up.
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        server.workers = children(process.pid)
        if len(server.workers) >= workers:
            break
        time.sleep(0.1)
    return server


# --- /proc ----------------------------------------------------------------------------------

def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return sorted(found)


def memory(pid: int) -> dict[str, float]:
    """Resident memory now and its high-water mark, in MB (VmRSS, VmHWM)."""
    values = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, kb = line.split()[:2]
                    values[name[:-1]] = round(int(kb) / 1024, 1)
    except OSError:
        pass
    return {"rss_mb": values.get("VmRSS"), "peak_mb": values.get("VmHWM")}


def reset_peak(pid: int) -> bool:
    """Restart a process's VmHWM from its current RSS (writing 5 to clear_refs)."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except OSError:
        return 0.0


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    return total - idle, total


def postgres_cpu_seconds() -> float:
    """CPU seconds of every process named postgres (the server and its backends)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if f.read().strip() != "postgres":
                    continue
        except OSError:
            continue
        total += cpu_seconds(int(entry))
    return total


class CpuMeter:
    """CPU used during a phase: the whole machine, this client, the workers, PostgreSQL."""

    def __init__(self, workers: list[int], postgres: bool):
        self.workers, self.postgres = workers, postgres
        self.start()

    def _sample(self):
        return (time.monotonic(), machine_busy(), time.process_time(),
                {pid: cpu_seconds(pid) for pid in self.workers},
                postgres_cpu_seconds() if self.postgres else 0.0)

    def start(self) -> None:
        self.first = self._sample()

    def read(self, client_elsewhere: float = 0.0) -> dict:
        """Percent of one core each (the machine has os.cpu_count() cores); `others` is what
        the rest of the machine used meanwhile (other people's tests, the kernel).
        `client_elsewhere`: CPU seconds the load generator spent in processes of its own
        (the viewers'), counted as the client's."""
        (t0, (b0, j0), c0, w0, p0), (t1, (b1, j1), c1, w1, p1) = self.first, self._sample()
        wall = t1 - t0 or 1e-9
        machine = 100 * (os.cpu_count() or 1) * (b1 - b0) / max(j1 - j0, 1)
        client = 100 * (c1 - c0 + client_elsewhere) / wall
        workers = [100 * (w1.get(p, 0) - w0.get(p, 0)) / wall for p in self.workers]
        pg = 100 * (p1 - p0) / wall
        out = {"machine": round(machine), "client": round(client),
               "workers": [round(w) for w in workers]}
        if self.postgres:
            out["postgres"] = round(pg)
        out["others"] = max(0, round(machine - client - sum(workers) - pg))
        return out

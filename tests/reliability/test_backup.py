"""A backup taken while hands are being written restores to a consistent event."""

from __future__ import annotations

import shutil
import subprocess
import threading
import uuid

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api import create_app
from api.core.db import db
from tests.api.client import ApiClient
from tests.conftest import require_or_skip


def _busy_event(api):
    event = api.create_event("wec-singles", hands_per_game=50)
    api.add_players(event, [f"P{i}" for i in range(16)])
    round_ = api.seat_round(event, 1)
    return event, [t["games"][0]["id"] for t in round_["tables"]]


def _write_until(app, key, games, stop: threading.Event, sent: list):
    client = ApiClient(app.test_client())
    n = 0
    while not stop.is_set() and n < 200:
        game = games[n % len(games)]
        answer = client.post(f"/api/games/{game}/hands", key=key,
                             json={"id": uuid.uuid4().hex, "maker": "AB"[n % 2], "tricks": 3})
        assert answer.status_code == 201, answer.get_data(as_text=True)
        sent.append(game)
        n += 1


def _check_restored(url: str, games: list[int]) -> int:
    """Every game in the copy agrees with its own hands; returns the hands found."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    client = ApiClient(app.test_client())
    total = 0
    for game in games:
        state = client.get(f"/api/games/{game}", expect=200).get_json()
        assert [h["number"] for h in state["hands"]] == list(range(1, len(state["hands"]) + 1))
        assert state["points"]["A"] == sum(h["points"]["A"] for h in state["hands"])
        assert state["points"]["B"] == sum(h["points"]["B"] for h in state["hands"])
        total += len(state["hands"])
    with app.app_context():
        db.engine.dispose()
    return total


def _backup_during_writes(app, api, target) -> tuple[list[int], int, int]:
    event, games = _busy_event(api)
    stop, sent = threading.Event(), []
    writers = [threading.Thread(target=_write_until,
                                args=(app, event["organizer_key"], games, stop, sent))
               for _ in range(3)]
    for w in writers:
        w.start()
    while len(sent) < 30:
        threading.Event().wait(0.01)
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    during = len(sent)
    stop.set()
    for w in writers:
        w.join()
    assert result.exit_code == 0, result.output
    assert "Backup written" in result.output
    return games, during, len(sent)


def test_a_backup_taken_during_play_restores_consistently(app, api, tmp_path):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return _postgres_case(app, api, tmp_path)
    target = tmp_path / "backup.db"
    games, during, finished = _backup_during_writes(app, api, target)
    restored = tmp_path / "restored.db"
    shutil.copy(target, restored)
    found = _check_restored(f"sqlite:///{restored}", games)
    assert 0 < found <= finished
    assert found >= 30


def _postgres_case(app, api, tmp_path):
    require_or_skip(shutil.which("pg_restore") is not None, "pg_restore")
    target = tmp_path / "backup.dump"
    games, during, finished = _backup_during_writes(app, api, target)
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    name = f"euchre_restore_{uuid.uuid4().hex[:8]}"
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        plain = url.set(drivername="postgresql", database=name)
        subprocess.run(["pg_restore", "--no-owner", "--dbname",
                        plain.render_as_string(hide_password=False), str(target)], check=True)
        found = _check_restored(url.set(database=name).render_as_string(hide_password=False),
                                games)
        assert 30 <= found <= finished
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_the_postgres_backup_gives_pg_dump_the_password_in_its_environment_not_its_arguments(
        monkeypatch, tmp_path):
    # Anyone on the machine can read a running command's arguments (ps, /proc/<pid>/cmdline).
    import shutil as shell

    from api import cli

    seen = {}
    monkeypatch.setattr(shell, "which", lambda name: "/usr/bin/pg_dump")
    monkeypatch.setattr(cli.subprocess, "run",
                        lambda args, check, env: seen.update(args=args, env=env))
    url = "postgresql+psycopg://euchre:s3cret-pass@db.example:6543/events?sslmode=require"
    cli.postgres_backup(url, tmp_path / "dump")
    assert not any("s3cret-pass" in arg for arg in seen["args"])
    assert seen["env"]["PGPASSWORD"] == "s3cret-pass"
    assert (seen["env"]["PGHOST"], seen["env"]["PGPORT"], seen["env"]["PGUSER"],
            seen["env"]["PGDATABASE"], seen["env"]["PGSSLMODE"]) == (
        "db.example", "6543", "euchre", "events", "require")

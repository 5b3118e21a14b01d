"""`flask backup` on PostgreSQL reaches the database the URL names however the URL names it
(a Unix socket's directory given as ?host=...), with nothing secret on pg_dump's command line."""

from __future__ import annotations

import shutil

from api import cli


def test_a_socket_directory_in_the_url_reaches_pg_dump_through_its_environment(
        monkeypatch, tmp_path):
    seen = {}
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/pg_dump")
    monkeypatch.setattr(cli.subprocess, "run",
                        lambda args, check, env: seen.update(args=args, env=env))
    url = "postgresql+psycopg://euchre:s3cret@/events?host=/run/postgresql&port=5433"
    cli.postgres_backup(url, tmp_path / "dump")
    assert (seen["env"]["PGHOST"], seen["env"]["PGPORT"], seen["env"]["PGDATABASE"]) == (
        "/run/postgresql", "5433", "events")
    assert not any("s3cret" in arg or "/run/postgresql" in arg for arg in seen["args"])

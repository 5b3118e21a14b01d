"""The operators' `flask` commands run in-process (Flask's CLI runner): a club's year written
to stdout and read back, a file that is not JSON refused, the webhooks' deliverer run once
and stopped, and the backup's refusals."""

from __future__ import annotations

import json
import shutil
import signal
import uuid

import pytest

from api import cli


def _club(api) -> dict:
    club = api.post("/api/clubs", json={"name": "Command club",
                                        "slug": f"cc-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    night = api.post(f"/api/clubs/{club['id']}/events", key=club["club_key"],
                     json={"name": "March", "preset": "progressive"}, expect=201).get_json()
    for name in ("Ann Baker", "Bo Diaz"):
        api.post(f"/api/events/{night['id']}/players", key=club["club_key"], expect=201,
                 json={"name": name, "people": {name: "new"}})
    return club


def test_a_clubs_year_goes_to_stdout_and_comes_back_in_as_a_new_club(api, app, tmp_path):
    club = _club(api)
    runner = app.test_cli_runner()
    wrote = runner.invoke(args=["export-club", str(club["id"])])
    assert wrote.exit_code == 0, wrote.output
    document = json.loads(wrote.stdout)
    assert document["scope"] == "club" and document["club"]["name"] == "Command club"
    assert sorted(p["name"] for p in document["people"]) == ["Ann Baker", "Bo Diaz"]

    source = tmp_path / "year.json"
    source.write_text(wrote.stdout, encoding="utf-8")
    done = runner.invoke(args=["import-file", str(source)])
    assert done.exit_code == 0, done.output
    assert "Imported club " in done.output and "(1 night(s))" in done.output
    new_id = int(done.output.split("Imported club ")[1].split()[0])
    key = done.output.split("Key (shown once): ")[1].strip()
    people = api.get(f"/api/clubs/{new_id}/people", key=key, expect=200).get_json()
    assert sorted(p["name"] for p in people) == ["Ann Baker", "Bo Diaz"]

    source.write_text('{"format": "euchre-scorekeeper/portable", ', encoding="utf-8")
    refused = runner.invoke(args=["import-file", str(source)])
    assert refused.exit_code != 0 and "The file is not JSON" in refused.output


def test_the_deliverer_runs_one_round_or_until_stopped(app, monkeypatch):
    from api.webhooks import deliver

    runner = app.test_cli_runner()
    once = runner.invoke(args=["webhooks-deliver", "--once"])
    assert once.exit_code == 0 and "0 deliveries attempted" in once.output

    # SIGTERM stops it: the handler the command installs sets the loop's stop.
    handlers = {}

    def install(number, handler):
        handlers[number] = handler
        handler(number, None)  # as if the signal came at once

    monkeypatch.setattr(signal, "signal", install)
    stopped = runner.invoke(args=["webhooks-deliver", "--idle", "0.01"])
    assert stopped.exit_code == 0, stopped.output
    assert signal.SIGTERM in handlers

    # Ctrl-C while it runs ends the command quietly.
    seen = {}

    def interrupted(app, stop, idle):
        seen["stop"] = stop
        raise KeyboardInterrupt

    monkeypatch.setattr(signal, "signal", lambda number, handler: None)
    monkeypatch.setattr(deliver, "run", interrupted)
    ended = runner.invoke(args=["webhooks-deliver"])
    assert ended.exit_code == 0, ended.output
    assert seen["stop"].is_set()


def test_a_postgres_backup_without_pg_dump_says_where_the_recipe_is(monkeypatch, tmp_path):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(cli.click.ClickException, match="pg_dump is not installed"):
        cli.postgres_backup("postgresql://euchre@db.example/events", tmp_path / "dump")


def test_only_the_connection_settings_libpq_reads_go_to_its_environment():
    found = cli.libpq_environment("postgresql+psycopg://euchre@db.example/events"
                                  "?sslmode=verify-full&options=-c%20search_path%3Dx"
                                  "&application_name=backup")
    assert found == {"PGHOST": "db.example", "PGUSER": "euchre", "PGDATABASE": "events",
                     "PGSSLMODE": "verify-full", "PGAPPNAME": "backup"}


def test_a_copy_that_fails_its_integrity_check_is_not_left_as_the_backup(tmp_path, monkeypatch):
    import sqlite3

    database = tmp_path / "live.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()

    class Damaged(sqlite3.Connection):
        """The copy's connection, answering the integrity check as a damaged file does."""

        def execute(self, sql, *args):
            if "integrity_check" in sql:
                sql = "SELECT '*** in database main ***'"
            return super().execute(sql, *args)

    real_connect = sqlite3.connect

    def connect(path, **kw):
        return real_connect(path, **kw) if kw else real_connect(path, factory=Damaged)

    monkeypatch.setattr(cli.sqlite3, "connect", connect)
    target = tmp_path / "backup.db"
    with pytest.raises(cli.click.ClickException, match="failed its integrity check"):
        cli.sqlite_backup(str(database), target)
    assert not target.exists()


def test_the_deliverer_carries_on_after_a_failed_round_and_runs_as_a_thread_unless_off(
        app, monkeypatch):
    import threading

    from api.webhooks import deliver

    stop, rounds = threading.Event(), []

    def claim(free, lease, rows_each):
        rounds.append(free)
        if len(rounds) == 1:
            raise OSError("the database is away a moment")
        stop.set()
        return None, []

    monkeypatch.setattr(deliver, "claim", claim)
    deliver.run(app, stop, idle=0)
    assert len(rounds) == 2, "a failed round is tried again"

    monkeypatch.setitem(app.config, "WEBHOOKS_DELIVER", "Off")
    assert deliver.start_thread(app) is None
    monkeypatch.setitem(app.config, "WEBHOOKS_DELIVER", "thread")
    monkeypatch.setattr(deliver, "claim", lambda free, lease, rows_each: (None, []))
    thread, stop = deliver.start_thread(app)
    assert thread.daemon and thread.is_alive()
    stop.set()
    deliver.written.set()  # wake its wait
    thread.join(timeout=10)
    assert not thread.is_alive()

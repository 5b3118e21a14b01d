"""`flask` commands for operators: a consistent backup while the event goes on."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import click
from flask import current_app
from flask.cli import ScriptInfo, pass_script_info, with_appcontext
from sqlalchemy.engine import make_url


def register_commands(app) -> None:
    app.cli.add_command(backup)
    app.cli.add_command(webhooks_deliver)


@click.command("webhooks-deliver")
@click.option("--once", is_flag=True, help="One round of what is due, then stop.")
@click.option("--idle", type=float, default=0.5, show_default=True,
              help="Seconds to wait when nothing is due.")
@pass_script_info
def webhooks_deliver(info: ScriptInfo, once: bool, idle: float) -> None:
    """Send the webhooks' deliveries from the outbox until stopped (Ctrl-C, SIGTERM): the
    deliverer as a process of its own, beside or instead of gunicorn's threads (set
    WEBHOOKS_DELIVER=off for none there). Any number may run at once."""
    import signal
    import threading

    from .webhooks.deliver import deliver_due, run

    app = info.load_app()
    if once:
        click.echo(f"{deliver_due(app)} deliveries attempted")
        return
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        run(app, stop, idle)
    except KeyboardInterrupt:
        stop.set()


def sqlite_backup(database: str, target: Path) -> None:
    """Copy a live SQLite database with its online backup API in one step: in WAL mode that
    is a read transaction, so the copy is one consistent snapshot and writers carry on."""
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    partial = target.with_name(target.name + ".partial")
    destination = sqlite3.connect(partial)
    try:
        source.backup(destination)
        destination.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        check = destination.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise click.ClickException(f"The copy failed its integrity check: {check}")
    finally:
        destination.close()
        source.close()
    partial.replace(target)


def libpq_environment(url: str) -> dict[str, str]:
    """The connection as libpq's environment variables: a password on pg_dump's command line
    would be readable by anyone on the machine (ps, /proc) while the dump runs."""
    parts = make_url(url)
    settings = {"PGHOST": parts.host, "PGPORT": parts.port, "PGUSER": parts.username,
                "PGPASSWORD": parts.password, "PGDATABASE": parts.database}
    for name, value in parts.query.items():  # sslmode=require and the like
        if name in LIBPQ_QUERY:
            settings[LIBPQ_QUERY[name]] = value if isinstance(value, str) else value[-1]
    return {name: str(value) for name, value in settings.items() if value is not None}


# Connection settings a URL may carry as query parameters (a Unix socket's directory as
# ?host=..., TLS files, ...), and the environment variable libpq reads each from.
LIBPQ_QUERY = {"host": "PGHOST", "hostaddr": "PGHOSTADDR", "port": "PGPORT",
               "passfile": "PGPASSFILE", "sslmode": "PGSSLMODE", "sslrootcert": "PGSSLROOTCERT",
               "sslcert": "PGSSLCERT", "sslkey": "PGSSLKEY",
               "connect_timeout": "PGCONNECT_TIMEOUT", "application_name": "PGAPPNAME"}


def postgres_backup(url: str, target: Path) -> None:
    """pg_dump in its custom format: a consistent snapshot of a live database."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise click.ClickException("pg_dump is not installed; see the README's PostgreSQL "
                                   "backup recipe.")
    subprocess.run([pg_dump, "--format=custom", "--no-owner", f"--file={target}"],
                   check=True, env={**os.environ, **libpq_environment(url)})


@click.command("backup")
@with_appcontext
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
def backup(target: Path) -> None:
    """Write a consistent copy of the database to TARGET while the app keeps running.

    SQLite: a single database file (open it with sqlite3, or point EUCHRE_DATA_DIR at a copy
    named euchre.db). PostgreSQL: a pg_dump custom-format archive (restore with pg_restore).
    """
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    target.parent.mkdir(parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        sqlite_backup(url.database, target)
    else:
        postgres_backup(str(url.render_as_string(hide_password=False)), target)
    click.echo(f"Backup written to {target} ({target.stat().st_size:,} bytes).")

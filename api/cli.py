"""`flask` commands for operators: a consistent backup while the event goes on."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.engine import make_url


def register_commands(app) -> None:
    app.cli.add_command(backup)


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


def postgres_backup(url: str, target: Path) -> None:
    """pg_dump in its custom format: a consistent snapshot of a live database."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise click.ClickException("pg_dump is not installed; see the README's PostgreSQL "
                                   "backup recipe.")
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    subprocess.run([pg_dump, "--format=custom", "--no-owner", f"--file={target}", plain],
                   check=True)


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

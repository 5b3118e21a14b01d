"""`flask` commands for operators: a consistent backup while the event goes on, and the
ratings' backtest over a club's history."""

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
    app.cli.add_command(ratings_backtest)
    app.cli.add_command(export_club)
    app.cli.add_command(export_event)
    app.cli.add_command(import_file)
    app.cli.add_command(webhooks_deliver)


def _write_document(document: dict, target: str) -> None:
    import json

    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    if target == "-":
        click.echo(text)
    else:
        Path(target).write_text(text, encoding="utf-8")
        click.echo(f"Wrote {target} ({len(text):,} characters, "
                   f"{len(document['nights'])} night(s)).", err=True)


@click.command("export-club")
@with_appcontext
@click.argument("club_id", type=int)
@click.option("-o", "--output", default="-", help="The file to write (default: stdout).")
def export_club(club_id: int, output: str) -> None:
    """Write a club's year (people, series, every night) as one portable JSON file."""
    from .portable.exporting import export_club as build

    _write_document(build(club_id), output)


@click.command("export-event")
@with_appcontext
@click.argument("event_id", type=int)
@click.option("-o", "--output", default="-", help="The file to write (default: stdout).")
def export_event(event_id: int, output: str) -> None:
    """Write an event (a night or a league season) as one portable JSON file."""
    from .portable.exporting import export_event as build

    _write_document(build(event_id), output)


@click.command("import-file")
@with_appcontext
@click.argument("source", type=click.File("r", encoding="utf-8-sig"))
@click.option("--slug", default=None, help="The new club's address (kept if free).")
def import_file(source, slug: str | None) -> None:
    """Import a portable JSON file as a new event or club; prints its id and its new key
    (shown this once)."""
    import json

    from .core.errors import ServiceError
    from .portable.importing import import_document

    try:
        made = import_document(json.load(source), client=None, slug=slug)
    except json.JSONDecodeError as error:
        raise click.ClickException(f"The file is not JSON: {error}") from None
    except ServiceError as error:
        where = "; ".join(f"{path}: {', '.join(why)}" for path, why in (error.errors or {}).items())
        raise click.ClickException(error.detail + (f" [{where}]" if where else "")) from None
    what = f"club {made['club_id']}" if made["scope"] == "club" else f"event {made['event_id']}"
    click.echo(f"Imported {what} ({len(made['event_ids'])} night(s)).")
    click.echo(f"Key (shown once): {made['key']}")


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


@click.command("ratings-backtest")
@with_appcontext
@click.argument("club_id", type=int)
def ratings_backtest(club_id: int) -> None:
    """Does the club's rating predict? Before each rated game of CLUB_ID, in play order, the
    winner is predicted from the four players' ratings, from the season's points per hand so
    far, and by a coin; prints each one's accuracy, Brier score and log loss (lower is better
    for the last two)."""
    from .core.db import db
    from .core.models import Club
    from .ratings.backtest import club_backtest

    club = db.session.get(Club, club_id)
    if club is None:
        raise click.ClickException(f"There is no club {club_id}: the number is the club's id "
                                   "(its page's API address, /api/clubs/<id>), not its slug.")
    found = club_backtest(club_id)
    if not found["ratings"]["games"]:
        click.echo(f"{club.name} has no rated game yet: nothing to predict. A game is rated "
                   "once it is finished with four of the club's people seated (no ghost "
                   "seat, forfeit or card draw) in a night that is not archived.")
        return
    click.echo(f"{'predictor':18} {'games':>7} {'accuracy':>9} {'Brier':>7} {'log loss':>9}")
    for name, key in (("ratings", "ratings"), ("points per hand", "points_per_hand"),
                      ("coin", "coin")):
        f = found[key]
        click.echo(f"{name:18} {f['games']:>7} {f['accuracy']:>9.3f} {f['brier']:>7.4f} "
                   f"{f['log_loss']:>9.4f}")

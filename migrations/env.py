"""Alembic environment: run migrations with the app's own engine and metadata."""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
# Keep the app's loggers alive: tests and the CLI run migrations in-process.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url",
    target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"),
)


def run_migrations_offline():
    """Emit SQL to stdout (alembic upgrade --sql), without a database connection."""
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_db.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Migrate over a real connection; an autogenerate with no changes writes no file."""

    def skip_empty(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", skip_empty)
    with target_db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode rebuilds a SQLite table (copy, drop, rename), and with foreign keys
            # enforced, dropping the old table first deletes every row that refers to it
            # (ON DELETE CASCADE): rebuilding `events` emptied players, games and hands. The
            # pragma is a no-op inside a transaction, so it is set on the driver's connection
            # before the migration's transaction begins, and set back after.
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
        if connection.dialect.name == "postgresql":
            # The app's requests stop after STATEMENT_TIMEOUT; a migration of a big table
            # may rightly take longer.
            connection.exec_driver_sql("SET statement_timeout = 0")
            connection.exec_driver_sql("SET lock_timeout = 0")
            connection.commit()  # the settings stay for the session; the migration begins anew
        context.configure(connection=connection, target_metadata=target_db.metadata,
                          **conf_args)
        try:
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if sqlite:
                connection.rollback()  # nothing is open after the migration's commit
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

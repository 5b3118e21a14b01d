"""club: a night's own date

Each event gets `night_date`, the day it was played (set by the organizer; existing events get
the day they were created, in their own time zone), and `archived_at`, when a club set a night
made by mistake aside. Profiles kept in people's rows are forgotten: their dates and their
"loners made" (lone marches now included) are read afresh.

Revision ID: e26c0c000003
Revises: e26b0e000002
Create Date: 2026-11-27 07:30:00

"""
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'e26c0c000003'
down_revision = 'e26b0e000002'
branch_labels = None
depends_on = None

events = sa.table("events", sa.column("id", sa.Integer),
                  sa.column("created_at", sa.DateTime(timezone=True)),
                  sa.column("time_zone", sa.String), sa.column("night_date", sa.Date))


def _local_day(moment, zone_name):
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        zone = ZoneInfo(zone_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    return moment.astimezone(zone).date()


def upgrade():
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("night_date", sa.Date(), nullable=True))
        batch.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.select(events.c.id, events.c.created_at, events.c.time_zone)).all()
    days = [{"event_id": i, "day": _local_day(at, zone)} for i, at, zone in rows]
    for start in range(0, len(days), 1000):
        bind.execute(events.update().where(events.c.id == sa.bindparam("event_id"))
                     .values(night_date=sa.bindparam("day")), days[start:start + 1000])
    with op.batch_alter_table("events") as batch:
        batch.alter_column("night_date", existing_type=sa.Date(), nullable=False)
    op.execute("UPDATE people SET profile_stamp = NULL")


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("archived_at")
        batch.drop_column("night_date")
    op.execute("UPDATE people SET profile_stamp = NULL")

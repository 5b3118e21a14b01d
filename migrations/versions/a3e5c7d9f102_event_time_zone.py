"""events.time_zone: the event's IANA time zone

Check-in windows, league nights and the times in exports are in the venue's time, not the
server's. Events made before this keep UTC until the organizer sets theirs.

Revision ID: a3e5c7d9f102
Revises: d81f3a6c2b57
Create Date: 2026-11-24 12:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a3e5c7d9f102'
down_revision = 'd81f3a6c2b57'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False,
                                      server_default='UTC'))


def downgrade():
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('time_zone')

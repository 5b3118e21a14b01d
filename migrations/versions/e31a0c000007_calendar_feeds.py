"""calendar feeds: a league's private calendars and each team's secret link

events: `calendar_private` (a league's calendar feeds are read only through each team's
secret link). team_calendars: those links, a token each (the key), revoked when a new one
is made.

Revision ID: e31a0c000007
Revises: e30a0r000007
Create Date: 2026-11-27 18:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e31a0c000007'
down_revision = 'e30a0r000007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('calendar_private', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        'team_calendars',
        sa.Column('token', sa.String(length=32), nullable=False),
        sa.Column('team_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['team_id'], ['teams.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('token'),
    )
    op.create_index('ix_team_calendars_team_id', 'team_calendars', ['team_id'])


def downgrade():
    op.drop_index('ix_team_calendars_team_id', table_name='team_calendars')
    op.drop_table('team_calendars')
    with op.batch_alter_table('events') as batch:
        batch.drop_column('calendar_private')

"""event day: accommodations, money, disqualification, categories, awards, draws, check-in

events: money (entry fee, maintenance fee, payout split), the check-in window, the door token
of self check-in, named awards, categories with prize places, door-prize draws.
players and teams: stays_at (an accommodation: stays at table N; 0 = where seated in round 1),
paid, disqualified (the reason), categories.
door_requests: people at the door asking to be added, for the organizer to accept or decline.
series.standings_stamp and series_rows: the standings kept once all its events are finished;
people: profile_stamp and profile_kept, a profile's figures kept once all their nights are finished.

Everything is empty or false for events made before this, which keep working as they did.

Revision ID: 7d2f4a6c8e10
Revises: 5c1e2a7b9d40
Create Date: 2026-11-24 22:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7d2f4a6c8e10'
down_revision = '5c1e2a7b9d40'
branch_labels = None
depends_on = None

ENTRANT_COLUMNS = (
    ('stays_at', sa.Integer(), {'nullable': True}),
    ('paid', sa.Boolean(), {'nullable': False, 'server_default': sa.false()}),
    ('disqualified', sa.String(length=200), {'nullable': True}),
    ('categories', sa.JSON(), {'nullable': True}),
)


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('money', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('check_in_opens_at', sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column('check_in_closes_at', sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column('door_token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('named_awards', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('categories', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('draws', sa.JSON(), nullable=True))
    for table in ('players', 'teams'):
        with op.batch_alter_table(table) as batch_op:
            for name, type_, options in ENTRANT_COLUMNS:
                batch_op.add_column(sa.Column(name, type_, **options))
    with op.batch_alter_table('series') as batch_op:
        batch_op.add_column(sa.Column('standings_stamp', sa.String(length=64), nullable=True))
    op.create_table('series_rows',
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('place', sa.Integer(), nullable=True),
    sa.Column('events_played', sa.Integer(), nullable=False),
    sa.Column('counted', sa.Integer(), nullable=False),
    sa.Column('total', sa.Float(), nullable=False),
    sa.Column('ranked', sa.Boolean(), nullable=False),
    sa.Column('results', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'],
                            name=op.f('fk_series_rows_series_id_series'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('series_id', 'position', name=op.f('pk_series_rows'))
    )
    with op.batch_alter_table('people') as batch_op:
        batch_op.add_column(sa.Column('profile_stamp', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('profile_kept', sa.JSON(), nullable=True))
    op.create_table('door_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('client', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                            name=op.f('fk_door_requests_event_id_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_door_requests'))
    )
    with op.batch_alter_table('door_requests') as batch_op:
        batch_op.create_index(batch_op.f('ix_door_requests_event_id'), ['event_id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('door_requests') as batch_op:
        batch_op.drop_index(batch_op.f('ix_door_requests_event_id'))
    op.drop_table('door_requests')
    with op.batch_alter_table('people') as batch_op:
        batch_op.drop_column('profile_kept')
        batch_op.drop_column('profile_stamp')
    op.drop_table('series_rows')
    with op.batch_alter_table('series') as batch_op:
        batch_op.drop_column('standings_stamp')
    for table in ('teams', 'players'):
        with op.batch_alter_table(table) as batch_op:
            for name, _, _ in reversed(ENTRANT_COLUMNS):
                batch_op.drop_column(name)
    with op.batch_alter_table('events') as batch_op:
        for name in ('draws', 'categories', 'named_awards', 'door_token',
                     'check_in_closes_at', 'check_in_opens_at', 'money'):
            batch_op.drop_column(name)

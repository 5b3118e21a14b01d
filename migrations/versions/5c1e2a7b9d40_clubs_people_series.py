"""clubs, club keys, people, series, the club audit log; events.club_id, players.person_id

A club holds events, a registry of people who play in them, and series of its events.
events.hand_awards: the awards from the hands an organizer chose for the event (most loners,
most marches, best make %); events.finishes: every entrant's place and total, kept when the
event is marked finished; teams.division: a league team's division (skill level).

Events and players made before this belong to no club and no person, and keep working as
they did.

Revision ID: 5c1e2a7b9d40
Revises: a3e5c7d9f102
Create Date: 2026-11-24 18:13:27.545586

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5c1e2a7b9d40'
down_revision = 'a3e5c7d9f102'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('clubs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('slug', sa.String(length=40), nullable=True),
    sa.Column('revision', sa.Integer(), server_default='1', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_clubs')),
    sa.UniqueConstraint('slug', name=op.f('uq_clubs_slug'))
    )
    op.create_table('club_audit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('key_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('entity', sa.String(length=20), nullable=False),
    sa.Column('entity_id', sa.String(length=64), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_club_audit_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_club_audit'))
    )
    with op.batch_alter_table('club_audit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_audit_club_id'), ['club_id'], unique=False)

    op.create_table('club_keys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=80), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('hint', sa.String(length=8), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_club_keys_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_club_keys')),
    sa.UniqueConstraint('digest', name=op.f('uq_club_keys_digest'))
    )
    with op.batch_alter_table('club_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_keys_club_id'), ['club_id'], unique=False)

    op.create_table('people',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('name_key', sa.String(length=120), nullable=False),
    sa.Column('private', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_people_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_people')),
    sa.UniqueConstraint('club_id', 'name_key', name=op.f('uq_people_club_id'))
    )
    with op.batch_alter_table('people', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_people_club_id'), ['club_id'], unique=False)

    op.create_table('series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('scoring', sa.JSON(), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=True),
    sa.Column('min_events', sa.Integer(), nullable=True),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_series_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series'))
    )
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_club_id'), ['club_id'], unique=False)

    op.create_table('series_events',
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_series_events_event_id_events'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_events_series_id_series'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('series_id', 'event_id', name=op.f('pk_series_events'))
    )
    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_events_event_id'), ['event_id'], unique=False)

    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('club_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('hand_awards', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('finishes', sa.JSON(), nullable=True))
        batch_op.create_index(batch_op.f('ix_events_club_id'), ['club_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_events_club_id_clubs'), 'clubs', ['club_id'], ['id'], ondelete='SET NULL')

    with op.batch_alter_table('teams', schema=None) as batch_op:
        batch_op.add_column(sa.Column('division', sa.String(length=40), nullable=True))

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('person_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_players_person_id'), ['person_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_players_person_id_people'), 'people', ['person_id'], ['id'], ondelete='SET NULL')



def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_players_person_id_people'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_players_person_id'))
        batch_op.drop_column('person_id')

    with op.batch_alter_table('teams', schema=None) as batch_op:
        batch_op.drop_column('division')

    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_events_club_id_clubs'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_events_club_id'))
        batch_op.drop_column('finishes')
        batch_op.drop_column('hand_awards')
        batch_op.drop_column('club_id')

    with op.batch_alter_table('series_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_events_event_id'))

    op.drop_table('series_events')
    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_club_id'))

    op.drop_table('series')
    with op.batch_alter_table('people', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_people_club_id'))

    op.drop_table('people')
    with op.batch_alter_table('club_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_keys_club_id'))

    op.drop_table('club_keys')
    with op.batch_alter_table('club_audit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_audit_club_id'))

    op.drop_table('club_audit')
    op.drop_table('clubs')

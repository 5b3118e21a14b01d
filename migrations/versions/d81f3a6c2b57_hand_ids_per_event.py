"""hand ids unique per event, and the ids of deleted hands

A hand's id is made on the phone. It was unique across the whole database, so one event's
"t1-hand-1" refused another event's; it is now unique within its event (the key is
event_id + id). Deleted hands leave their id in deleted_hands, so a retry of a hand that was
undone meanwhile is refused instead of stored again.

Revision ID: d81f3a6c2b57
Revises: b7c41d2e9a10
Create Date: 2026-11-23 14:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd81f3a6c2b57'
down_revision = 'b7c41d2e9a10'
branch_labels = None
depends_on = None


def upgrade():
    # SQLite rebuilds the table (batch mode); PostgreSQL swaps the constraint in place.
    with op.batch_alter_table('hands', schema=None, recreate='auto') as batch_op:
        batch_op.drop_constraint('pk_hands', type_='primary')
        batch_op.create_primary_key('pk_hands', ['event_id', 'id'])

    op.create_table(
        'deleted_hands',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('id', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('fingerprint', sa.String(length=64), nullable=False),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('deleted_by', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'],
                                name=op.f('fk_deleted_hands_event_id_events'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'],
                                name=op.f('fk_deleted_hands_game_id_games'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('event_id', 'id', name=op.f('pk_deleted_hands')),
    )
    with op.batch_alter_table('deleted_hands', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deleted_hands_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('deleted_hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deleted_hands_game_id'))
    op.drop_table('deleted_hands')
    # Going back needs ids unique across events again: fails if two events share one.
    with op.batch_alter_table('hands', schema=None, recreate='auto') as batch_op:
        batch_op.drop_constraint('pk_hands', type_='primary')
        batch_op.create_primary_key('pk_hands', ['id'])

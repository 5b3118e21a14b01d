"""hand entries: one side's entry of a hand while the event verifies scores

`hand_entries` holds a side's entry of a hand (or of a paper sheet's hands) under the
`confirm_each_hand` and `double_entry` verification modes until both sides agree; then the
hand is stored in `hands` as before and the entry stays, decided, for retries.

Revision ID: e29a0v000005
Revises: e27a0f000004
Create Date: 2026-11-27 15:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e29a0v000005'
down_revision = 'e27a0f000004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'hand_entries',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('id', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=8), nullable=False),
        sa.Column('side', sa.String(length=1), nullable=False),
        sa.Column('body', sa.JSON(), nullable=False),
        sa.Column('fingerprint', sa.String(length=64), nullable=False),
        sa.Column('content', sa.String(length=64), nullable=False),
        sa.Column('state', sa.String(length=12), nullable=False),
        sa.Column('hand_id', sa.String(length=64), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_by', sa.Integer(), nullable=True),
        sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('decided_by', sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('event_id', 'id'),
    )
    op.create_index('ix_hand_entries_game_state', 'hand_entries', ['game_id', 'state'])


def downgrade():
    op.drop_index('ix_hand_entries_game_state', table_name='hand_entries')
    op.drop_table('hand_entries')

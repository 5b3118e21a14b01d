"""results.revision: the event revision each result row was last written at

Lets a leaderboard read only the result rows changed since the totals it holds
(issue 7: totals kept as they change, no full recomputation per read).

Revision ID: b7c41d2e9a10
Revises: 6469f88165e1
Create Date: 2026-11-23 08:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7c41d2e9a10'
down_revision = '6469f88165e1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.Integer(), server_default='0',
                                      nullable=False))
        batch_op.create_index('ix_results_event_revision', ['event_id', 'revision'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.drop_index('ix_results_event_revision')
        batch_op.drop_column('revision')

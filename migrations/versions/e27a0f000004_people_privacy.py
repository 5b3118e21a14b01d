"""people's data: a club's privacy settings and erased people

clubs: `people_private_by_default` (new people start private), `indexable` (the club lets
search engines index its people's pages; off unless the club opts in) and `erased_count` (the
N of the next "Former player N"). people: `erased_at`, when the club erased the person.

Revision ID: e27a0f000004
Revises: e26c0c000003
Create Date: 2026-11-27 07:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e27a0f000004'
down_revision = 'e26c0c000003'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('clubs') as batch:
        batch.add_column(sa.Column('people_private_by_default', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('indexable', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('erased_count', sa.Integer(), nullable=False,
                                   server_default='0'))
    with op.batch_alter_table('people') as batch:
        batch.add_column(sa.Column('erased_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('people') as batch:
        batch.drop_column('erased_at')
    with op.batch_alter_table('clubs') as batch:
        batch.drop_column('erased_count')
        batch.drop_column('indexable')
        batch.drop_column('people_private_by_default')

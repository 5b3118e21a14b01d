"""league: the divisions captains may choose from when they register their team

Playoff rounds' nights and playoff matches' own nights are kept in the event's schedule (JSON)
with the season's other night changes, so they need no column.

Revision ID: e26b0e000002
Revises: 9e4b6d8f0a12
Create Date: 2026-11-27 07:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e26b0e000002'
down_revision = '9e4b6d8f0a12'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("registration_divisions", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("registration_divisions")

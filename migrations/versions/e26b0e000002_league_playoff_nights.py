"""league: playoff rounds sharing a night, dates per round

(Placeholder: filled in by the change that needs it; a no-op until then.)

Revision ID: e26b0e000002
Revises: e26a0d000001
Create Date: 2026-11-27 07:30:00

"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


# revision identifiers, used by Alembic.
revision = 'e26b0e000002'
down_revision = 'e26a0d000001'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass

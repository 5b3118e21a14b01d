"""club: a night's own date

(Placeholder: filled in by the change that needs it; a no-op until then.)

Revision ID: e26c0c000003
Revises: e26b0e000002
Create Date: 2026-11-27 07:30:00

"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


# revision identifiers, used by Alembic.
revision = 'e26c0c000003'
down_revision = 'e26b0e000002'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass

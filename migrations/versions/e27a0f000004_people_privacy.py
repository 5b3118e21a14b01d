"""people: normalised names, erasure, club defaults

(Placeholder: filled in by the change that needs it; a no-op until then.)

Revision ID: e27a0f000004
Revises: e26c0c000003
Create Date: 2026-11-27 07:30:00

"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


# revision identifiers, used by Alembic.
revision = 'e27a0f000004'
down_revision = 'e26c0c000003'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass

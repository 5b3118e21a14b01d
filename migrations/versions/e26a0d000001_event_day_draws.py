"""event day: each door-prize draw keeps its candidates

(Placeholder: filled in by the change that needs it; a no-op until then.)

Revision ID: e26a0d000001
Revises: 9e4b6d8f0a12
Create Date: 2026-11-27 07:30:00

"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


# revision identifiers, used by Alembic.
revision = 'e26a0d000001'
down_revision = '9e4b6d8f0a12'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass

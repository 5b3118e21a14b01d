"""ratings weighted by the score: a game's update now counts for more the more decisively
it was won (api/rules/ratings.py, weight), so every club is rated again

Nothing in the schema changes. The ratings are computed from the games and kept only to be
read fast: both ways empty them and what they were computed from, and the next read of a
club's ratings rates its games again (api/ratings/rerate.py).

Revision ID: e30d0r000009
Revises: e30c0r000008
Create Date: 2026-11-28 20:00:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e30d0r000009'
down_revision = 'e30c0r000008'
branch_labels = None
depends_on = None


def _forget_the_ratings():
    op.execute('DELETE FROM rating_nights')
    op.execute('DELETE FROM rated_nights')
    op.execute('DELETE FROM ratings')


def upgrade():
    _forget_the_ratings()


def downgrade():
    _forget_the_ratings()

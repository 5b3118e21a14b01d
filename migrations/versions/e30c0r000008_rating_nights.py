"""rating_nights: the ratings kept per person and night instead of per person and game
(issue 30's speed: a club's year is about eight times fewer rows, and every reader of the
steps read them per night)

The ratings are computed from the games and kept only to be read fast, so nothing is
converted: both ways empty the ratings and what they were computed from, and the next read
of a club's ratings rates its games again (api/ratings/rerate.py).

Revision ID: e30c0r000008
Revises: e31b0w000007
Create Date: 2026-11-28 15:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e30c0r000008'
down_revision = 'e31b0w000007'
branch_labels = None
depends_on = None


def _forget_the_ratings():
    op.execute('DELETE FROM rated_nights')
    op.execute('DELETE FROM ratings')


def upgrade():
    _forget_the_ratings()
    op.drop_index('ix_rating_steps_club_order', table_name='rating_steps')
    op.drop_index('ix_rating_steps_person_order', table_name='rating_steps')
    op.drop_index('ix_rating_steps_event_id', table_name='rating_steps')
    op.drop_table('rating_steps')
    op.create_table(
        'rating_nights',
        sa.Column('club_id', sa.Integer(), primary_key=True),
        sa.Column('person_id', sa.Integer(), sa.ForeignKey('people.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('night_order', sa.BigInteger(), primary_key=True),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
    )
    op.create_index('ix_rating_nights_club_order', 'rating_nights', ['club_id', 'night_order'])


def downgrade():
    _forget_the_ratings()
    op.drop_index('ix_rating_nights_club_order', table_name='rating_nights')
    op.drop_table('rating_nights')
    op.create_table(
        'rating_steps',
        sa.Column('game_id', sa.Integer(), primary_key=True),
        sa.Column('person_id', sa.Integer(), sa.ForeignKey('people.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('play_order', sa.BigInteger(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
    )
    op.create_index('ix_rating_steps_person_order', 'rating_steps',
                    ['club_id', 'person_id', 'play_order'])
    op.create_index('ix_rating_steps_club_order', 'rating_steps', ['club_id', 'play_order'])

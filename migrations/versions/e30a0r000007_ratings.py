"""ratings: each rated game's step per person, each person's rating now, and what the
ratings were computed from (RULES.md section 8, api/ratings/)

Revision ID: e30a0r000007
Revises: e29b0r000006
Create Date: 2026-11-27 18:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e30a0r000007'
down_revision = 'e29b0r000006'
branch_labels = None
depends_on = None


def upgrade():
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
    op.create_table(
        'ratings',
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('person_id', sa.Integer(), sa.ForeignKey('people.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
    )
    op.create_table(
        'rated_nights',
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('night_date', sa.Date(), nullable=False),
        sa.Column('people', sa.String(64), nullable=False),
        sa.Column('games', sa.String(64), nullable=False),
        sa.Column('club_revision', sa.Integer(), nullable=False),
    )


def downgrade():
    op.drop_table('rated_nights')
    op.drop_table('ratings')
    op.drop_index('ix_rating_steps_club_order', table_name='rating_steps')
    op.drop_index('ix_rating_steps_person_order', table_name='rating_steps')
    op.drop_table('rating_steps')

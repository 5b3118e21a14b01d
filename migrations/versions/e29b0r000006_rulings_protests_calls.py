"""rulings, league protests, calls to the organizer, and a game's late corrections

games: `adjust_a`, `adjust_b` (the points the organizer's standing rulings add to each side),
`ruled` (a ruling stands on the game) and `corrections` (the reasons the organizer gave for
changes after the table's correction window closed). New tables: `rulings` (the organizer's
rulings on a game, withdrawn ones kept), `protests` (a league team's protest about an opposing
player before a playoff game) and `calls` (a table calling the organizer).

Revision ID: e29b0r000006
Revises: e29a0v000005
Create Date: 2026-11-27 15:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e29b0r000006'
down_revision = 'e29a0v000005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('adjust_a', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('adjust_b', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('ruled', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('corrections', sa.JSON(), nullable=True))
    op.create_table(
        'protests',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('team_id', sa.Integer(), sa.ForeignKey('teams.id'), nullable=False),
        sa.Column('against_team_id', sa.Integer(), sa.ForeignKey('teams.id'), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('grounds', sa.String(300), nullable=False),
        sa.Column('lodged_by', sa.String(16), nullable=False),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('lodged_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ruled_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('ruling_reason', sa.String(300), nullable=True),
    )
    op.create_table(
        'rulings',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('kind', sa.String(20), nullable=False),
        sa.Column('side', sa.String(1), nullable=True),
        sa.Column('points', sa.Integer(), nullable=True),
        sa.Column('reason', sa.String(300), nullable=False),
        sa.Column('protest_id', sa.Integer(),
                  sa.ForeignKey('protests.id', ondelete='SET NULL'), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_by', sa.Integer(), nullable=True),
        sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('withdrawn_reason', sa.String(300), nullable=True),
    )
    op.create_table(
        'calls',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  nullable=False, index=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('table', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.Column('key_id', sa.Integer(), nullable=True),
        sa.Column('called_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('answered_by', sa.Integer(), nullable=True),
    )


def downgrade():
    op.drop_table('calls')
    op.drop_table('rulings')
    op.drop_table('protests')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('corrections')
        batch.drop_column('ruled')
        batch.drop_column('adjust_b')
        batch.drop_column('adjust_a')

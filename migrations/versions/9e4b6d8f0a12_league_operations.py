"""league operations: captains' team registration, team keys, advance forfeits

events: the team registration link's token, when registration closes, the week after which
rosters are final. api_keys: team_id, the team a captain's team key belongs to. forfeits:
advance (recorded before the night) and announced_by (organizer or captain).
Make-up weeks and moved matches live in events.schedule (JSON), beside the postponements.

Everything is empty or false for events made before this, which keep working as they did.

Revision ID: 9e4b6d8f0a12
Revises: 7d2f4a6c8e10
Create Date: 2026-11-25 14:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9e4b6d8f0a12'
down_revision = '7d2f4a6c8e10'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.add_column(sa.Column('registration_token', sa.String(length=32),
                                      nullable=True))
        batch_op.add_column(sa.Column('registration_closes_at', sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column('roster_lock_week', sa.Integer(), nullable=True))
    with op.batch_alter_table('api_keys') as batch_op:
        batch_op.add_column(sa.Column('team_id', sa.Integer(), nullable=True))
        batch_op.create_index('ix_api_keys_team_id', ['team_id'])
        batch_op.create_foreign_key('fk_api_keys_team_id_teams', 'teams', ['team_id'], ['id'],
                                    ondelete='CASCADE')
    with op.batch_alter_table('forfeits') as batch_op:
        batch_op.add_column(sa.Column('advance', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('announced_by', sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table('forfeits') as batch_op:
        batch_op.drop_column('announced_by')
        batch_op.drop_column('advance')
    with op.batch_alter_table('api_keys') as batch_op:
        batch_op.drop_constraint('fk_api_keys_team_id_teams', type_='foreignkey')
        batch_op.drop_index('ix_api_keys_team_id')
        batch_op.drop_column('team_id')
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_column('roster_lock_week')
        batch_op.drop_column('registration_closes_at')
        batch_op.drop_column('registration_token')

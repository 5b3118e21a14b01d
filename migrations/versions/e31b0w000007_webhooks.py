"""webhooks and their outbox

New tables: `webhooks` (a URL an organizer registered for an event's news, or a club for its
events', with the kinds it wants and its signing secret; deleting one marks it) and
`webhook_deliveries` (the outbox: one row a message a webhook, written in the transaction of
the change it tells of, sent and retried by the deliverer, which claims rows with a lease).

Revision ID: e31b0w000007
Revises: e31a0c000007
Create Date: 2026-11-27 18:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e31b0w000007'
down_revision = 'e31a0c000007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'webhooks',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id', ondelete='CASCADE'),
                  nullable=True, index=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id', ondelete='CASCADE'),
                  nullable=True, index=True),
        sa.Column('url', sa.String(500), nullable=False),
        sa.Column('kinds', sa.JSON(), nullable=False),
        sa.Column('secret', sa.String(80), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('rotated_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        'webhook_deliveries',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('webhook_id', sa.Integer(),
                  sa.ForeignKey('webhooks.id', ondelete='CASCADE'), nullable=False),
        sa.Column('msg_id', sa.String(40), nullable=False),
        sa.Column('kind', sa.String(32), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('status', sa.String(12), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('lease', sa.String(32), nullable=True),
        sa.Column('last_error', sa.String(300), nullable=True),
        sa.Column('last_status', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('event_id', sa.Integer(), nullable=True),
        sa.UniqueConstraint('webhook_id', 'msg_id', name=op.f('uq_webhook_deliveries_webhook_id')),
    )
    op.create_index('ix_webhook_deliveries_due', 'webhook_deliveries', ['status', 'next_at'])


def downgrade():
    op.drop_index('ix_webhook_deliveries_due', table_name='webhook_deliveries')
    op.drop_table('webhook_deliveries')
    op.drop_table('webhooks')

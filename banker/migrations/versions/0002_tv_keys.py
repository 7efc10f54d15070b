"""The TV screen's view keys (store/tv.py): one per game, only its hash.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-04

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tv_keys',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id')
    )


def downgrade():
    op.drop_table('tv_keys')

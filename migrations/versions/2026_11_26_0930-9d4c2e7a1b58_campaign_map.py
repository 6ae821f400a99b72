"""campaign_map and map_move: a campaign's strategic map and its sealed army moves.

Revision ID: 9d4c2e7a1b58
Revises: f3b8d2a6c1e4
Create Date: 2026-11-26 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "9d4c2e7a1b58"
down_revision: str | None = "f3b8d2a6c1e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create campaign_map and map_move."""
    op.create_table(
        "campaign_map",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("regions", sa.JSON(), nullable=False),
        sa.Column("holders", sa.JSON(), nullable=False),
        sa.Column("positions", sa.JSON(), nullable=False),
        sa.Column("battles", sa.JSON(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("background", sa.LargeBinary(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("campaign_id"),
    )
    op.create_table(
        "map_move",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("map_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("army_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("to_region", sa.String(length=40), nullable=False),
        sa.Column("submitted_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["army_id"], ["army.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["map_id"], ["campaign_map.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("map_id", "turn", "army_id"),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("map_move")
    op.drop_table("campaign_map")

"""web_secret and web_link_counter: the war table's signing key and each member's link count.

Revision ID: 5a7c3e9b2d41
Revises: 8e4b1d6f2a37
Create Date: 2026-11-29 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "5a7c3e9b2d41"
down_revision: str | None = "8e4b1d6f2a37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create web_secret (empty: the bot makes the key at its first start) and
    web_link_counter."""
    op.create_table(
        "web_secret",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("secret", sa.LargeBinary(length=64), nullable=False),
        sa.Column("created_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_secret")),
    )
    op.create_table(
        "web_link_counter",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("counter", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_web_link_counter_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_link_counter")),
        sa.UniqueConstraint(
            "campaign_id", "user_id", name=op.f("uq_web_link_counter_campaign_id_user_id")
        ),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("web_link_counter")
    op.drop_table("web_secret")

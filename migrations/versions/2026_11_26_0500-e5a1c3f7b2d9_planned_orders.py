"""planned orders and turn plans: orders kept for later steps of the game turn, calls to arms
and players done for the turn.

Revision ID: e5a1c3f7b2d9
Revises: 5a1d3c7e9b20
Create Date: 2026-11-26 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "e5a1c3f7b2d9"
down_revision: str | None = "5a1d3c7e9b20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the two tables; nothing existing changes."""
    op.create_table(
        "planned_order",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("step_key", sa.String(length=160), nullable=False),
        sa.Column("step_title", sa.String(length=200), nullable=False),
        sa.Column("side_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.Column("seq", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("summary", sa.String(length=400), nullable=False),
        sa.Column("consult", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("submitted_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["battle_id"], ["battle.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_planned_order_battle_step", "planned_order", ["battle_id", "step_key"], unique=False
    )
    op.create_table(
        "turn_plan",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.String(length=60), nullable=False),
        sa.Column("user_id", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("called_at", bot.db.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("called_stage", sa.Integer(), nullable=True),
        sa.Column("due_at", bot.db.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("planned", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("done_at", bot.db.base.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["battle_id"], ["battle.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("battle_id", "turn", "side_id"),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("turn_plan")
    op.drop_index("ix_planned_order_battle_step", table_name="planned_order")
    op.drop_table("planned_order")

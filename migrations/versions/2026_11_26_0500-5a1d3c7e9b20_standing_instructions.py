"""standing instructions: how a side or unit answers a recurring question.

Revision ID: 5a1d3c7e9b20
Revises: d7e2b8f41a90
Create Date: 2026-11-26 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "5a1d3c7e9b20"
down_revision: str | None = "d7e2b8f41a90"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the standing_instruction table."""
    op.create_table(
        "standing_instruction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.String(length=40), nullable=False),
        sa.Column("unit_id", sa.String(length=40), nullable=True),
        sa.Column("topic", sa.String(length=40), nullable=False),
        sa.Column("condition", sa.String(length=40), nullable=False),
        sa.Column("choice", sa.String(length=40), nullable=False),
        sa.Column("set_by", sa.BigInteger(), nullable=False),
        sa.Column("set_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_standing_instruction_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standing_instruction")),
    )
    with op.batch_alter_table("standing_instruction", schema=None) as batch_op:
        batch_op.create_index("ix_standing_instruction_battle_id", ["battle_id"], unique=False)


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("standing_instruction", schema=None) as batch_op:
        batch_op.drop_index("ix_standing_instruction_battle_id")
    op.drop_table("standing_instruction")

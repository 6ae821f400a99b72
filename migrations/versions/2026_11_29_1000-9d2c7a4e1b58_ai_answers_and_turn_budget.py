"""ai_answer and battle_side's AI budget (#36): the AI general's answers with their reasons,
and its thinking time spent in a side's game turn so far.

Revision ID: 9d2c7a4e1b58
Revises: 3f6b8d2e9a14
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "9d2c7a4e1b58"
down_revision: str | None = "3f6b8d2e9a14"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ai_answer; add the turn and the seconds spent to battle_side (none spent yet)."""
    op.create_table(
        "ai_answer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.String(length=40), nullable=False),
        sa.Column("question", sa.String(length=300), nullable=False),
        sa.Column("choice", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.Column("given_at", bot.db.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_ai_answer_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ai_answer")),
    )
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ai_turn", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("ai_spent", sa.Double(), server_default=sa.text("0"), nullable=False)
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.drop_column("ai_spent")
        batch_op.drop_column("ai_turn")
    op.drop_table("ai_answer")

"""stage announced_at: the outbox marker for posting each step's result.

Revision ID: a1c0e5b0b0c5
Revises: 3b7d51c2a9e4
Create Date: 2026-11-26 03:35:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import bot.db.base

revision: str = "a1c0e5b0b0c5"
down_revision: str | None = "3b7d51c2a9e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the marker; every stage opened before this revision counts as already posted."""
    with op.batch_alter_table("stage_log", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("announced_at", bot.db.base.UTCDateTime(timezone=True), nullable=True)
        )
    op.execute("UPDATE stage_log SET announced_at = started_at")


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("stage_log", schema=None) as batch_op:
        batch_op.drop_column("announced_at")

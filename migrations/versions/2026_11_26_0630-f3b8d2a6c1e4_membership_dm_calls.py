"""membership.dm_calls: a member's calls to arms also by direct message.

Revision ID: f3b8d2a6c1e4
Revises: e5a1c3f7b2d9
Create Date: 2026-11-26 06:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f3b8d2a6c1e4"
down_revision: str | None = "e5a1c3f7b2d9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add membership.dm_calls (off for everyone)."""
    with op.batch_alter_table("membership") as batch:
        batch.add_column(
            sa.Column("dm_calls", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("membership") as batch:
        batch.drop_column("dm_calls")

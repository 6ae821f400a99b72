"""battle_side commanders: which campaign member commands which group of a side.

Revision ID: d7e2b8f41a90
Revises: c4f1a9d27e55
Create Date: 2026-11-26 04:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d7e2b8f41a90"
down_revision: str | None = "c4f1a9d27e55"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the assignments; existing sides have none, so their owner orders everything."""
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("commanders", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.drop_column("commanders")

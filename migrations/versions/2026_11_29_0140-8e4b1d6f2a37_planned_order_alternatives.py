"""planned_order alternatives: the orders a conditional plan tries in turn before the default.

Revision ID: 8e4b1d6f2a37
Revises: c2a9e4f7d813
Create Date: 2026-11-29 01:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8e4b1d6f2a37"
down_revision: str | None = "c2a9e4f7d813"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the list; no planned order had alternatives before it was kept."""
    with op.batch_alter_table("planned_order", schema=None) as batch_op:
        batch_op.add_column(sa.Column("alternatives", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("planned_order", schema=None) as batch_op:
        batch_op.drop_column("alternatives")

"""battle_side handed_away: the players a GM handed the side away from, until it is handed back.

Revision ID: c2a9e4f7d813
Revises: b7e3f19c4d62
Create Date: 2026-11-27 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c2a9e4f7d813"
down_revision: str | None = "b7e3f19c4d62"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the list; no side was handed away before it was kept."""
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("handed_away", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle_side", schema=None) as batch_op:
        batch_op.drop_column("handed_away")

"""battle_order reason: why the AI general gave an order (#36), None for a player's.

Revision ID: 3f6b8d2e9a14
Revises: 5a7c3e9b2d41
Create Date: 2026-11-29 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f6b8d2e9a14"
down_revision: str | None = "5a7c3e9b2d41"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the reason; no order before it came from the AI."""
    with op.batch_alter_table("battle_order", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.String(length=300), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle_order", schema=None) as batch_op:
        batch_op.drop_column("reason")

"""battle waiting: what a battle's state waits for, stored beside it (#38).

Revision ID: e2a9c4b7d815
Revises: b4e8c2f1a7d3
Create Date: 2026-11-29 13:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e2a9c4b7d815"
down_revision: str | None = "b4e8c2f1a7d3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add what the state waits for; none stored so far (worked out on the next load)."""
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("waiting", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.drop_column("waiting")

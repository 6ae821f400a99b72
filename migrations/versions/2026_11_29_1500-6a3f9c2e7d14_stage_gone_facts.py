"""stage gone facts: each stage's units and its events' reasons for the losses list (#38).

Revision ID: 6a3f9c2e7d14
Revises: e2a9c4b7d815
Create Date: 2026-11-29 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "6a3f9c2e7d14"
down_revision: str | None = "e2a9c4b7d815"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add them; none for rows written so far (their states are decoded for them instead)."""
    with op.batch_alter_table("stage_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unit_names", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("gone_reasons", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("stage_log", schema=None) as batch_op:
        batch_op.drop_column("gone_reasons")
        batch_op.drop_column("unit_names")

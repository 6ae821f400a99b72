"""campaign version: bumped by every write to a campaign, its members or its armies (#38).

Revision ID: a4c8e2f6b913
Revises: 3f7b2d9c5e41
Create Date: 2026-11-29 17:00:00

A resolution's keeping write is given the battle and campaign its rehearsal loaded instead of
loading them again with the write lock held; its claim checks this version beside the battle's.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a4c8e2f6b913"
down_revision: str | None = "3f7b2d9c5e41"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the version; every campaign starts at 0."""
    with op.batch_alter_table("campaign", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("campaign", schema=None) as batch_op:
        batch_op.drop_column("version")

"""battle version: bumped by every write to a battle, checked by a resolution's write (#38).

Revision ID: 7c1e5a9d3b62
Revises: 9d2c7a4e1b58
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7c1e5a9d3b62"
down_revision: str | None = "9d2c7a4e1b58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the version; every battle starts at 0."""
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.drop_column("version")

"""ai answer private: a private question's AI answer stays out of everyone's post (#36).

Revision ID: b4e8c2f1a7d3
Revises: 7c1e5a9d3b62
Create Date: 2026-11-29 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b4e8c2f1a7d3"
down_revision: str | None = "7c1e5a9d3b62"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add whether the question was private; answers kept so far were to public ones."""
    with op.batch_alter_table("ai_answer", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("ai_answer", schema=None) as batch_op:
        batch_op.drop_column("private")

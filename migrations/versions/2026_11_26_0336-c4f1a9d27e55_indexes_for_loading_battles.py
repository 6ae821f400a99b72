"""indexes for loading battles: battle by campaign and status, deadlines by battle.

Revision ID: c4f1a9d27e55
Revises: a1c0e5b0b0c5
Create Date: 2026-11-26 03:36:00

"""

from collections.abc import Sequence

from alembic import op

revision: str = "c4f1a9d27e55"
down_revision: str | None = "a1c0e5b0b0c5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.create_index(
            "ix_battle_campaign_id_status", ["campaign_id", "status"], unique=False
        )
    with op.batch_alter_table("deadline", schema=None) as batch_op:
        batch_op.create_index("ix_deadline_battle_id_status", ["battle_id", "status"], unique=False)


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("deadline", schema=None) as batch_op:
        batch_op.drop_index("ix_deadline_battle_id_status")
    with op.batch_alter_table("battle", schema=None) as batch_op:
        batch_op.drop_index("ix_battle_campaign_id_status")

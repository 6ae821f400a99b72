"""orders: several per actor and stage, in the order given.

Revision ID: 3b7d51c2a9e4
Revises: 901f263a5064
Create Date: 2026-11-26 03:30:00

Existing orders become the first (``seq`` 0) of their actor's orders. Going back keeps only
each actor's first order of a stage, as the old one-per-actor constraint requires.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b7d51c2a9e4"
down_revision: str | None = "901f263a5064"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("battle_order", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("seq", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
        batch_op.drop_constraint("uq_battle_order_battle_id_stage_actor", type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_battle_order_battle_id_stage_actor_seq"),
            ["battle_id", "stage", "actor", "seq"],
        )


def downgrade() -> None:
    """Revert this revision: keep each actor's first order of a stage."""
    op.execute(
        "DELETE FROM battle_order WHERE id NOT IN ("
        " SELECT min(id) FROM battle_order AS first"
        " WHERE first.seq = (SELECT min(seq) FROM battle_order AS o"
        "  WHERE o.battle_id = first.battle_id AND o.stage = first.stage AND o.actor = first.actor)"
        " GROUP BY battle_id, stage, actor)"
    )
    with op.batch_alter_table("battle_order", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("uq_battle_order_battle_id_stage_actor_seq"), type_="unique"
        )
        batch_op.create_unique_constraint(
            "uq_battle_order_battle_id_stage_actor", ["battle_id", "stage", "actor"]
        )
        batch_op.drop_column("seq")

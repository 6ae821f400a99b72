"""record_entry: turn, step and attempt in columns of their own, indexed for /gm undo.

Revision ID: b7e3f19c4d62
Revises: 9d4c2e7a1b58
Create Date: 2026-11-26 14:00:00

``/gm undo`` asks for the highest attempt the record used at a step; it used to open the JSON
of each of the battle's record entries. The three values are copied out of each existing
entry's JSON here (in Python, so the same on SQLite and PostgreSQL), then made required.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b7e3f19c4d62"
down_revision: str | None = "9d4c2e7a1b58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000

record_entry = sa.table(
    "record_entry",
    sa.column("id", sa.Integer()),
    sa.column("entry", sa.JSON()),
    sa.column("turn", sa.Integer()),
    sa.column("step", sa.String(60)),
    sa.column("attempt", sa.Integer()),
)


def upgrade() -> None:
    """Add the columns, copy each entry's values into them, require them, index them."""
    with op.batch_alter_table("record_entry", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("step", sa.String(length=60), nullable=True))
        batch_op.add_column(sa.Column("attempt", sa.Integer(), nullable=True))
    _backfill(op.get_bind())
    with op.batch_alter_table("record_entry", schema=None) as batch_op:
        batch_op.alter_column("turn", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("step", existing_type=sa.String(length=60), nullable=False)
        batch_op.alter_column("attempt", existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(
            "ix_record_entry_battle_step_attempt",
            ["battle_id", "turn", "step", "attempt"],
            unique=False,
        )


def _backfill(bind: sa.Connection) -> None:
    """Every existing entry's turn, step and attempt, a batch of rows at a time (by id)."""
    last = 0
    while True:
        rows = bind.execute(
            sa.select(record_entry.c.id, record_entry.c.entry)
            .where(record_entry.c.id > last)
            .order_by(record_entry.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        values = [
            {
                "row": row.id,
                "turn": int(row.entry.get("turn", 0)),
                "step": str(row.entry.get("step", "")),
                "attempt": int(row.entry.get("attempt", 0)),
            }
            for row in rows
        ]
        bind.execute(
            record_entry.update()
            .where(record_entry.c.id == sa.bindparam("row"))
            .values(
                turn=sa.bindparam("turn"),
                step=sa.bindparam("step"),
                attempt=sa.bindparam("attempt"),
            ),
            values,
        )
        last = rows[-1].id


def downgrade() -> None:
    """Drop the index and the columns (the entries' JSON still holds the values)."""
    with op.batch_alter_table("record_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_record_entry_battle_step_attempt")
        batch_op.drop_column("attempt")
        batch_op.drop_column("step")
        batch_op.drop_column("turn")

"""tree of battles break pinned: stored Tree of Battles battles keep the army break of 1.0 (#36).

Revision ID: 3f7b2d9c5e41
Revises: 6a3f9c2e7d14
Create Date: 2026-11-29 16:00:00

Tree of Battles' stated default army break (``army_break_share``) became 0.5 in round 48; it
was 1.0 (every fighting contingent broken or gone). No battle already stored changes its rule,
so every stored Tree of Battles state whose parameters lack the key is given the old default
written in: the battle's state and first state, each stage log's start state, and the state a
GM's edit left in a record entry (replays and record verification re-run the engine from these,
finished battles too). A state with the key (a campaign's setting) is left as it is; so are
other rulesets and campaign settings (a campaign's parameters reach battles created after,
never one on the table). In Python, a batch of rows at a time, so the same on SQLite (JSON
stored as text) and PostgreSQL (``json``).
"""

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "3f7b2d9c5e41"
down_revision: str | None = "6a3f9c2e7d14"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RULESET = "tree_of_battles"
KEY = "army_break_share"
OLD_DEFAULT = 1.0
BATCH = 200  # a big battle's state is some 100 KB: a batch stays a few MB of memory

battle = sa.table(
    "battle",
    sa.column("id", sa.Integer()),
    sa.column("ruleset_id", sa.String(40)),
    sa.column("state", sa.JSON()),
    sa.column("initial_state", sa.JSON()),
)
stage_log = sa.table(
    "stage_log",
    sa.column("id", sa.Integer()),
    sa.column("battle_id", sa.Integer()),
    sa.column("start_state", sa.JSON()),
)
record_entry = sa.table(
    "record_entry",
    sa.column("id", sa.Integer()),
    sa.column("battle_id", sa.Integer()),
    sa.column("entry", sa.JSON()),
)

Pin = Callable[[Any], dict[str, Any] | None]


def pinned(state: Any) -> dict[str, Any] | None:
    """The state with the old default written into its parameters; None if it needs none."""
    if not isinstance(state, dict) or state.get("ruleset") != RULESET:
        return None
    parameters = state.get("parameters") or {}
    if KEY in parameters:
        return None
    # A new dict: a large value read is kept with its text and never changed in place.
    return {**state, "parameters": {**parameters, KEY: OLD_DEFAULT}}


def pinned_entry(entry: Any) -> dict[str, Any] | None:
    """A GM's edit entry with the state it left pinned; None for any other entry."""
    if not isinstance(entry, dict) or entry.get("action") != "edit":
        return None
    state = pinned(entry.get("state"))
    return None if state is None else {**entry, "state": state}


def upgrade() -> None:
    """Pin the old default into every stored Tree of Battles state that lacks the key."""
    bind = op.get_bind()
    _pin(bind, battle, "state", pinned)
    _pin(bind, battle, "initial_state", pinned)
    _pin(bind, stage_log, "start_state", pinned)
    _pin(bind, record_entry, "entry", pinned_entry)


def _pin(bind: sa.Connection, table: sa.TableClause, name: str, pin: Pin) -> None:
    """Rewrite the column where ``pin`` changes it, in the Tree of Battles battles' rows, a
    batch of rows at a time (by id)."""
    column = table.c[name]
    query = sa.select(table.c.id, column).where(column.is_not(None))
    if table is not battle:
        query = query.join(battle, battle.c.id == table.c.battle_id)
    query = query.where(battle.c.ruleset_id == RULESET)
    last = 0
    while True:
        batch = query.where(table.c.id > last).order_by(table.c.id).limit(BATCH)
        rows = bind.execute(batch).all()
        if not rows:
            return
        changed = [{"row": row.id, "value": pin(row[1])} for row in rows]
        changed = [item for item in changed if item["value"] is not None]
        if changed:
            bind.execute(
                table.update()
                .where(table.c.id == sa.bindparam("row"))
                .values({name: sa.bindparam("value", type_=sa.JSON())}),
                changed,
            )
        last = rows[-1].id


def downgrade() -> None:
    """Nothing to undo: 1.0 was the old default, so a pinned 1.0 plays the same under the old
    code (and a state cannot tell a pinned 1.0 from one a campaign set)."""

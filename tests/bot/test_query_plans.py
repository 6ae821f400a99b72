"""Loading a battle and undoing a step read through indexes, so their cost does not grow with
the battle table or the battle's history."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.dialects import sqlite

from bot.db.models import Battle, BattleStatus, Deadline, DeadlineStatus
from bot.db.session import Database
from bot.services.battle_state import OPEN_BATTLE
from bot.services.gm import used_attempt
from tests.databases import on_postgres

# PostgreSQL's planner scans a table of a few rows whatever its indexes; the indexes are the
# same on both (the migration round trip checks the schema against the models on both).
pytestmark = pytest.mark.skipif(on_postgres(), reason="SQLite's query planner")


async def plan(db: Database, statement: object) -> str:
    """SQLite's query plan for a statement, its details joined."""
    compiled = statement.compile(  # type: ignore[attr-defined]
        dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}
    )
    async with db.read() as session:
        connection = await session.connection()
        found = await connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")
        return " | ".join(str(row[-1]) for row in found)


async def test_a_campaigns_open_battle_is_found_through_an_index(db: Database) -> None:
    query = (
        select(Battle)
        .where(Battle.campaign_id == 7, Battle.status.in_(OPEN_BATTLE))
        .order_by(Battle.id.desc())
    )
    found = await plan(db, query)
    assert "ix_battle_campaign_id_status" in found or "uq_battle_open_campaign" in found
    assert "SCAN battle" not in found


async def test_a_battles_pending_deadlines_are_found_through_an_index(db: Database) -> None:
    query = select(Deadline).where(
        Deadline.battle_id == 7, Deadline.status == DeadlineStatus.PENDING
    )
    found = await plan(db, query)
    assert "ix_deadline_battle_id_status" in found
    assert BattleStatus.FINISHED not in OPEN_BATTLE


async def test_undo_finds_the_attempts_used_at_a_step_through_an_index(db: Database) -> None:
    """``/gm undo`` reads one index entry, not the JSON of each of the battle's entries."""
    found = await plan(db, used_attempt(7, 3, "charge"))
    assert "ix_record_entry_battle_step_attempt" in found
    assert "COVERING INDEX" in found  # the table's rows (and their JSON) are not read
    assert "SCAN" not in found

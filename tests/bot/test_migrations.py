"""Migrations: an empty database upgrades to head with no drift, and downgrades to base;
rows written under an older revision carry over."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bot.db.base import Base
from bot.db.migrate import alembic_config, downgrade_to_base, run_alembic, upgrade_to_head
from bot.db.session import create_engine


def drift(connection: Connection) -> list[object]:
    """What autogenerate would still write: the differences between models and database."""
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "render_as_batch": True}
    )
    return list(compare_metadata(context, Base.metadata))


def tables(connection: Connection) -> set[str]:
    """Names of the tables in the database."""
    return set(inspect(connection).get_table_names())


async def test_upgrade_matches_models_then_downgrade_to_base(db_url: str) -> None:
    await upgrade_to_head(db_url)
    engine = create_engine(db_url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(drift) == []
            assert await conn.run_sync(tables) >= {"campaign", "membership", "army"}
            version = (
                await conn.exec_driver_sql("SELECT version_num FROM alembic_version")
            ).scalar()
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert version == head

        await downgrade_to_base(db_url)
        async with engine.connect() as conn:
            assert await conn.run_sync(tables) == {"alembic_version"}
            assert (
                await conn.exec_driver_sql("SELECT count(*) FROM alembic_version")
            ).scalar() == 0

        await upgrade_to_head(db_url)  # and up again: downgrades leave nothing behind
        async with engine.connect() as conn:
            assert await conn.run_sync(drift) == []
    finally:
        await engine.dispose()


async def test_upgrade_twice_is_a_no_op(db_url: str) -> None:
    await upgrade_to_head(db_url)
    await upgrade_to_head(db_url)
    engine = create_engine(db_url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(drift) == []
    finally:
        await engine.dispose()


def test_single_head() -> None:
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


ORDERS_BEFORE_SEQ = "901f263a5064"  # the revision before several orders per actor


PLACEHOLDERS: dict[type, object] = {
    int: 1,
    bool: False,
    dict: "{}",
    datetime: datetime(2026, 1, 1, tzinfo=UTC),
}


def _insert(conn: Connection, table: str, **given: object) -> int:
    """A row with the given values and a placeholder in every other required column."""
    values = dict(given)
    for column in inspect(conn).get_columns(table):
        name, kind = column["name"], column["type"]
        required = not column["nullable"] and column.get("default") is None
        if required and name != "id" and name not in values:
            values[name] = PLACEHOLDERS.get(kind.python_type, "x")
    names = ", ".join(values)
    marks = ", ".join(f":{name}" for name in values)
    inserted = conn.execute(
        text(f"INSERT INTO {table} ({names}) VALUES ({marks}) RETURNING id"), values
    )
    return int(inserted.scalar_one())


async def test_existing_orders_carry_over_as_first_of_their_actor(db_url: str) -> None:
    await run_alembic(db_url, lambda cfg: command.upgrade(cfg, ORDERS_BEFORE_SEQ))
    engine = create_engine(db_url)
    try:

        def before(conn: Connection) -> int:
            campaign = _insert(conn, "campaign", status="open", settings="{}")
            battle = _insert(conn, "battle", campaign_id=campaign, status="running", state="{}")
            for actor in ("r1", "r2"):
                _insert(conn, "battle_order", battle_id=battle, stage=3, actor=actor,
                        kind="move", params='{"to": [1, 2]}', summary="moves")  # fmt: skip
            return battle

        async with engine.begin() as conn:
            battle = await conn.run_sync(before)
        await engine.dispose()  # the migration below rebuilds tables

        await upgrade_to_head(db_url)

        def after(conn: Connection) -> list[tuple[object, ...]]:
            found = conn.execute(text("SELECT actor, seq, kind FROM battle_order ORDER BY id"))
            _insert(conn, "battle_order", battle_id=battle, stage=3, actor="r1", seq=1,
                    kind="hold", params="{}", summary="holds")  # fmt: skip
            return [tuple(row) for row in found]

        async with engine.begin() as conn:
            assert await conn.run_sync(after) == [("r1", 0, "move"), ("r2", 0, "move")]
        await engine.dispose()

        # Going back keeps each actor's first order, as the old constraint allows only one.
        await run_alembic(db_url, lambda cfg: command.downgrade(cfg, ORDERS_BEFORE_SEQ))
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT actor, kind FROM battle_order ORDER BY id"))
            assert [tuple(row) for row in rows] == [("r1", "move"), ("r2", "move")]
    finally:
        await engine.dispose()


ENTRIES_BEFORE_COLUMNS = "9d4c2e7a1b58"  # the revision before record entries' step columns


async def test_existing_record_entries_get_their_turn_step_and_attempt(db_url: str) -> None:
    await run_alembic(db_url, lambda cfg: command.upgrade(cfg, ENTRIES_BEFORE_COLUMNS))
    engine = create_engine(db_url)
    written = [
        {"action": "resolve", "turn": 1, "step": "move", "attempt": 0},
        {"action": "answer", "turn": 2, "step": "charge", "attempt": 3},
        {"action": "edit", "turn": 2, "step": "charge", "attempt": 4, "reason": "undo: x"},
    ]
    try:

        def before(conn: Connection) -> None:
            campaign = _insert(conn, "campaign", status="open", settings="{}")
            battle = _insert(conn, "battle", campaign_id=campaign, status="running", state="{}")
            for seq, entry in enumerate(written):
                _insert(conn, "record_entry", battle_id=battle, seq=seq, entry=json.dumps(entry))

        async with engine.begin() as conn:
            await conn.run_sync(before)
        await engine.dispose()  # the migration below rebuilds the table

        await upgrade_to_head(db_url)
        async with engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT turn, step, attempt FROM record_entry ORDER BY seq")
            )
            copied = [tuple(row) for row in rows]
            assert copied == [(1, "move", 0), (2, "charge", 3), (2, "charge", 4)]
        await engine.dispose()

        await run_alembic(db_url, lambda cfg: command.downgrade(cfg, ENTRIES_BEFORE_COLUMNS))
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT entry FROM record_entry ORDER BY seq"))
            kept = [row[0] if isinstance(row[0], dict) else json.loads(row[0]) for row in rows]
            assert kept == written
            columns = {c["name"] for c in await conn.run_sync(_columns)}
            assert not columns & {"turn", "step", "attempt"}
    finally:
        await engine.dispose()


def _columns(conn: Connection) -> list[dict[str, object]]:
    return list(inspect(conn).get_columns("record_entry"))  # type: ignore[arg-type]

"""Migrations: an empty database upgrades to head with no drift, and downgrades to base;
rows written under an older revision carry over."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
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


def _file_of(db_url: str) -> str:
    """The SQLite file a test database URL names."""
    return db_url.split("///", 1)[1]


def _insert(conn: sqlite3.Connection, table: str, **given: object) -> int:
    """A row with the given values and a placeholder in every other required column."""
    values = dict(given)
    for _, name, kind, notnull, default, pk in conn.execute(f"PRAGMA table_info({table})"):
        if notnull and default is None and not pk and name not in values:
            values[name] = 1 if "INT" in kind.upper() else "{}" if kind == "JSON" else "x"
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(values.values()))
    return int(cursor.lastrowid or 0)


async def test_existing_orders_carry_over_as_first_of_their_actor(db_url: str) -> None:
    await run_alembic(db_url, lambda cfg: command.upgrade(cfg, ORDERS_BEFORE_SEQ))
    with closing(sqlite3.connect(_file_of(db_url))) as conn, conn:
        campaign = _insert(conn, "campaign", status="open", settings="{}")
        battle = _insert(conn, "battle", campaign_id=campaign, status="running", state="{}")
        for actor in ("r1", "r2"):
            _insert(conn, "battle_order", battle_id=battle, stage=3, actor=actor, kind="move",
                    params='{"to": [1, 2]}', summary="moves")  # fmt: skip

    await upgrade_to_head(db_url)
    with closing(sqlite3.connect(_file_of(db_url))) as conn, conn:
        rows = conn.execute("SELECT actor, seq, kind FROM battle_order ORDER BY id").fetchall()
        assert rows == [("r1", 0, "move"), ("r2", 0, "move")]
        _insert(conn, "battle_order", battle_id=battle, stage=3, actor="r1", seq=1, kind="hold",
                params="{}", summary="holds")  # fmt: skip

    # Going back keeps each actor's first order, as the old constraint allows only one.
    await run_alembic(db_url, lambda cfg: command.downgrade(cfg, ORDERS_BEFORE_SEQ))
    with closing(sqlite3.connect(_file_of(db_url))) as conn:
        rows = conn.execute("SELECT actor, kind FROM battle_order ORDER BY id").fetchall()
        assert rows == [("r1", "move"), ("r2", "move")]

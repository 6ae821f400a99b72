"""Migrations: an empty database upgrades to head with no drift, and downgrades to base."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.db.base import Base
from bot.db.migrate import alembic_config, downgrade_to_base, upgrade_to_head
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

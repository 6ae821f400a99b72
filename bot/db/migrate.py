"""Migrate the database to head from inside the running event loop (Alembic connection sharing)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection

import migrations
from bot.db.revisions import heads, stamped
from bot.db.session import create_engine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic config for our migrations, optionally bound to an open connection."""
    # Imported here: a bot whose database is at head never needs Alembic (bot/db/revisions.py).
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def upgrade_to_head(url: str) -> None:
    """Apply every pending migration; on SQLite foreign keys are off meanwhile and checked after.
    A database already at head is left as it is without starting Alembic."""
    if await at_head(url):
        return
    from alembic import command

    await run_alembic(url, lambda cfg: command.upgrade(cfg, "head"))


async def at_head(url: str) -> bool:
    """Whether the database is stamped with exactly our migrations' heads."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(stamped) == heads()
    finally:
        await engine.dispose()


async def downgrade_to_base(url: str) -> None:
    """Undo every migration (used by the round-trip test)."""
    from alembic import command

    await run_alembic(url, lambda cfg: command.downgrade(cfg, "base"))


async def run_alembic(url: str, action: Callable[[Config], None]) -> None:
    """Run an Alembic command on one connection of a dedicated engine."""
    # Batch migrations rebuild SQLite tables; with foreign keys on, dropping the old
    # table would cascade into its children. They are checked once it is done.
    engine = create_engine(url, foreign_keys=False)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run, action)
    finally:
        await engine.dispose()


def _run(connection: Connection, action: Callable[[Config], None]) -> None:
    action(alembic_config(connection))
    if connection.dialect.name == "sqlite":
        broken = connection.execute(text("PRAGMA foreign_key_check")).fetchall()
        if broken:
            raise RuntimeError(f"foreign key violations after migration: {broken[:5]}")

"""Alembic environment: async, and able to run on a connection handed to it by the bot."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.config import Settings
from bot.db import models  # noqa: F401  (registers every table on Base.metadata)
from bot.db.base import Base
from bot.db.session import create_engine

target_metadata = Base.metadata


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    url = context.config.get_main_option("sqlalchemy.url") or Settings().database_url
    engine = create_engine(url, foreign_keys=False)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_configure_and_run)
            await connection.commit()
    finally:
        await engine.dispose()


def run_offline() -> None:
    """Emit SQL to stdout instead of running it."""
    url = context.config.get_main_option("sqlalchemy.url") or Settings().database_url
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Use the bot's connection when it handed one over; else open our own (CLI use)."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_offline()
else:
    run_online()

"""Engine and sessions: one session per service call, BEGIN IMMEDIATE for writes on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

from bot.config import ensure_sqlite_folder

BUSY_TIMEOUT_MS = 10_000
POOL_SIZE = 20
POOL_OVERFLOW = 20
_BEGIN_OPTION = "sqlite_begin"


def create_engine(url: str, *, foreign_keys: bool = True, echo: bool = False) -> AsyncEngine:
    """An async engine; on SQLite every connection gets WAL, foreign keys and a busy timeout."""
    ensure_sqlite_folder(url)
    engine = create_async_engine(url, echo=echo, **_pool_options(url))
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


def _pool_options(url: str) -> dict[str, Any]:
    """A file SQLite database keeps ``POOL_SIZE`` connections open: a burst of commands
    beyond the default five opened (and closed again) a connection, each with its own
    thread and pragmas, per command."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW}
    return {}


def _configure_sqlite(engine: AsyncEngine, *, foreign_keys: bool) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Hand transaction control to us: pysqlite's own BEGIN is always DEFERRED.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A deferred transaction that reads then writes can fail with "database is locked"
        # however long the timeout; writers take the lock up front instead.
        mode = conn.get_execution_options().get(_BEGIN_OPTION, "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


class Database:
    """The engine and the two kinds of session the services use: read and write."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        writer = engine.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
        self._reader = async_sessionmaker(engine, expire_on_commit=False)
        self._writer = async_sessionmaker(writer, expire_on_commit=False)
        self._turns: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    @classmethod
    def from_url(cls, url: str) -> Database:
        """A database for this URL."""
        return cls(create_engine(url))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reading; nothing it does is committed."""
        async with self._reader() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session in one write transaction: committed on success, rolled back on error.

        The bot's writers take turns (first come, first served) before asking SQLite for its
        write lock: fifty at once all polling the lock left some waiting past the busy
        timeout ("database is locked") while luckier ones went first. The busy timeout is
        still there for other processes (a backup, a migration). A write must not open
        another write inside it.
        """
        async with self._turn(), self._writer() as session, session.begin():
            yield session

    def _turn(self) -> asyncio.Lock:
        """The lock writers queue on, one per event loop (tests run several loops)."""
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns[0] is not loop:
            self._turns = (loop, asyncio.Lock())
        return self._turns[1]

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()

"""Engine and sessions: one session per service call; writes take their write locks up front
(BEGIN IMMEDIATE on SQLite; on PostgreSQL transaction-level advisory locks as narrow as the
data the write names, ``bot.db.locks``).

Everything that differs between the two dialects is here: the services' SQL is the same on
both."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

from bot.config import ensure_sqlite_folder
from bot.db import versioning  # noqa: F401  (every write bumps its battle's version)
from bot.db.encoded import deserialized, serialized
from bot.db.locks import SESSION_KEYS, WRITE_LOCK_KEY, Turns, WriteKeys
from bot.db.on_loop import FIRST_WAIT_S, LAST_WAIT_S, create_writer_engine, writer_url

__all__ = ["WRITE_LOCK_KEY", "Database", "create_engine"]

BUSY_TIMEOUT_MS = 10_000
POOL_SIZE = 20
POOL_OVERFLOW = 20
_WRITER_OPTION = "aide_writer"


def create_engine(url: str, *, foreign_keys: bool = True, echo: bool = False) -> AsyncEngine:
    """An async engine; on SQLite every connection gets WAL, foreign keys and a busy timeout
    (on PostgreSQL foreign keys are always on, and ``Database.write`` takes the locks)."""
    ensure_sqlite_folder(url)
    engine = create_async_engine(url, echo=echo, **_JSON, **_pool_options(url))
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


_JSON = {"json_serializer": serialized, "json_deserializer": deserialized}


def create_writers(url: str) -> AsyncEngine | None:
    """The engine for writes on the loop (``bot.db.on_loop``: a write transaction's statements
    run back to back): a file SQLite database's, every write's; PostgreSQL's, for the writes of
    a battle's own rows (``Database.write(on_loop=True)``); None for SQLite in memory."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        return create_async_engine(writer_url(parsed), **_JSON)  # the pool's defaults, 5 + 10
    if parsed.database in (None, "", ":memory:"):
        return None
    # One writer at a time per process (``Turns``): a small pool, opened once.
    return create_writer_engine(
        parsed, foreign_keys=True, busy_timeout_ms=BUSY_TIMEOUT_MS, pool_size=2, **_JSON
    )


def _pool_options(url: str) -> dict[str, Any]:
    """A file SQLite database keeps ``POOL_SIZE`` connections open: a burst of commands
    beyond the default five opened (and closed again) a connection, each with its own
    thread and pragmas, per command."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW}
    # PostgreSQL keeps the defaults (5 + 10). No pre-ping: it is one more round trip for every
    # session; a connection the server dropped fails one command and SQLAlchemy then
    # replaces the pool's connections.
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
        writer = conn.get_execution_options().get(_WRITER_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN DEFERRED")


class _Busy(Exception):
    """Another writer holds one of a write's advisory locks: try again later."""


class Database:
    """The engine and the two kinds of session the services use: read and write."""

    def __init__(self, engine: AsyncEngine, writers: AsyncEngine | None = None) -> None:
        self.engine = engine
        self.writers = writers or engine  # the engine write transactions run on
        self._reader = async_sessionmaker(engine, expire_on_commit=False)
        self._postgresql = engine.dialect.name == "postgresql"
        # PostgreSQL's writes keep asyncpg (they wait for locks off the loop) but those of a
        # battle's own rows, which run on the loop (``_polled``); SQLite's all run on the loop.
        writer = (engine if self._postgresql else self.writers).execution_options(
            **{_WRITER_OPTION: True}
        )
        self._writer = async_sessionmaker(writer, expire_on_commit=False)
        on_loop = self.writers.execution_options(**{_WRITER_OPTION: True})
        self._on_loop = async_sessionmaker(on_loop, expire_on_commit=False)
        self._polls = self._postgresql and self.writers is not engine
        self.refused_tries = 0  # writes on the loop that found a lock taken (tests watch it)
        # SQLite has one write lock for the file: its writers keep one queue (bot.db.locks).
        self._turns = Turns(per_key=self._postgresql)

    @classmethod
    def from_url(cls, url: str) -> Database:
        """A database for this URL."""
        return cls(create_engine(url), create_writers(url))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reading; nothing it does is committed."""
        async with self._reader() as session:
            yield session

    @asynccontextmanager
    async def write(
        self, *, battle: int | None = None, campaign: int | None = None, on_loop: bool = False
    ) -> AsyncIterator[AsyncSession]:
        """A session in one write transaction: committed on success, rolled back on error.

        ``battle`` and ``campaign`` name what the write changes (nothing named: it may change
        anything). The bot's writers take turns (first come, first served; on PostgreSQL one
        queue per battle or campaign) before asking the database for their locks: fifty at
        once all polling SQLite's lock left some waiting past the busy timeout ("database is
        locked") while luckier ones went first. On PostgreSQL the locks are advisory ones
        taken in one order, database, campaign, battle (``bot.db.locks``), so writes on
        different battles run at once and no two writers deadlock. The busy timeout (SQLite)
        and the locks (PostgreSQL) are also there for other processes (a backup, a migration,
        another shard). A write must not open another write inside it.

        ``on_loop`` (PostgreSQL, a battle named): the write keeps only that battle's own rows,
        and runs on the loop (``bot.db.on_loop_pg``); a row lock it would wait for past
        ``LOCK_TIMEOUT_MS`` fails it (``lock_waited``), and its caller keeps it as before.
        """
        keys = WriteKeys(battle=battle, campaign=campaign)
        async with self._turns.turn(keys):
            if on_loop and self._polls and keys.battle is not None:
                async with self._polled(keys) as session:
                    yield session
                return
            async with self._writer() as session, session.begin():
                session.info[SESSION_KEYS] = keys  # bot.db.locks.check_locked reads them
                if self._postgresql:
                    await session.execute(text(keys.statement()))
                yield session

    @asynccontextmanager
    async def _polled(self, keys: WriteKeys) -> AsyncIterator[AsyncSession]:
        """A write on the loop's PostgreSQL engine, its locks tried without waiting: taken, the
        write goes on; not, it is rolled back (letting go of any taken) and tried again after a
        sleep, so the loop never blocks waiting for another writer."""
        wait = FIRST_WAIT_S
        while True:
            try:
                async with self._on_loop() as session, session.begin():
                    if not await session.scalar(text(keys.try_statement())):
                        raise _Busy()
                    session.info[SESSION_KEYS] = keys
                    yield session
                return
            except _Busy:
                self.refused_tries += 1
                await asyncio.sleep(wait)
                wait = min(wait * 2, LAST_WAIT_S)

    @staticmethod
    def lock_waited(error: BaseException) -> bool:
        """Whether a write on the loop failed because a row lock was not free in time."""
        return "LockNotAvailable" in type(getattr(error, "orig", error)).__name__

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()
        if self.writers is not self.engine:
            await self.writers.dispose()

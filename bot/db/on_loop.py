"""The writers run on the event loop, one transaction without a pause (#38).

A write transaction on ``aiosqlite`` hands each statement to the connection's thread and
waits for the event loop to give it back: with a busy loop (other commands, a resolution's
own work), every statement of a write waited its turn among every other task while the
database's one write lock was held. A keeping write of 13 statements held the lock 60-200 ms
under load for about 10 ms of work; writes on every other battle waited behind it.

Here the writers' connections are plain ``sqlite3`` ones, used synchronously on the loop
through SQLAlchemy's asyncio layer (the dialect says it is async, and its calls never wait):
a write transaction's statements, from ``BEGIN IMMEDIATE`` to ``COMMIT``, run back to back,
and the lock is held for the work alone. The loop is blocked for that work, the same CPU the
write cost before plus SQLite's own time (a small write's statements take microseconds; the
commit's sync of the log is SQLite's as before).

PostgreSQL's writes that keep a battle's own rows (a player's order, a resolution) do the same
through ``psycopg`` (``bot.db.on_loop_pg``).

Only a write that must wait for SQLite's lock (another process holds it: a backup, a
migration, a second bot on the same file) must not block the loop: its ``BEGIN IMMEDIATE`` is
tried without SQLite's busy wait, and while the lock is taken the loop sleeps between tries,
up to the same timeout as every other connection. Reads keep ``aiosqlite``: they wait on the
disk in their threads, and in WAL mode they never wait for a writer.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import Any

from sqlalchemy import event, pool
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL, Connection, Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.util import await_only

DRIVER = "onloop"
FIRST_WAIT_S = 0.001  # the first sleep while another process holds the lock; doubled to
LAST_WAIT_S = 0.05  # at most this, so a lock let go is taken within 50 ms


class SoftClose:
    """What SQLAlchemy's asyncio results ask of a driver's cursor, for a synchronous one."""

    async def _async_soft_close(self) -> None:
        """Nothing to do: the rows are read as they are fetched, on the loop."""


class OnLoop:
    """A synchronous driver's dialect, told to SQLAlchemy's asyncio layer as an async one: its
    calls run at once on the loop's thread (mixed in before the driver's own dialect, which
    sets ``supports_statement_cache`` itself: SQLAlchemy reads it on that class only)."""

    is_async = True
    driver = DRIVER

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        """The asyncio engine's queue pool (a plain ``QueuePool`` is refused under asyncio)."""
        return pool.AsyncAdaptedQueuePool

    @classmethod
    def get_async_dialect_cls(cls, url: URL) -> type[Dialect]:
        """Itself (a driver's own asyncio dialect gives the loop back between statements)."""
        assert issubclass(cls, Dialect)  # mixed into a dialect
        return cls


class _Cursor(SoftClose, sqlite3.Cursor):
    """A ``sqlite3`` cursor as SQLAlchemy's asyncio results use one."""


class _Connection(sqlite3.Connection):
    """A ``sqlite3`` connection whose cursors are ``_Cursor``."""

    def cursor(self, factory: Any = _Cursor) -> Any:
        """A cursor (``_Cursor`` unless another factory is given)."""
        return super().cursor(factory)


class SQLiteDialectOnLoop(OnLoop, SQLiteDialect_pysqlite):
    """``pysqlite`` used from asyncio: its calls run at once on the loop's thread."""

    supports_statement_cache = True  # SQLAlchemy reads it on the dialect's own class only


registry.register(f"sqlite.{DRIVER}", __name__, "SQLiteDialectOnLoop")
# Loaded by SQLAlchemy when first used: ``psycopg`` comes with the postgres extra.
registry.register(f"postgresql.{DRIVER}", "bot.db.on_loop_pg", "PGDialectOnLoop")


def writer_url(url: URL) -> URL:
    """The same database, through the writers' driver."""
    return url.set(drivername=f"{url.get_backend_name()}+{DRIVER}")


def create_writer_engine(
    url: URL, *, foreign_keys: bool, busy_timeout_ms: int, **options: Any
) -> AsyncEngine:
    """An engine whose connections write on the loop (see above), one transaction at a time
    (the writers of a process already take turns: ``bot.db.locks.Turns``)."""
    # The loop's thread alone uses these connections; the pool may close one from elsewhere.
    engine = create_async_engine(
        writer_url(url),
        connect_args={"check_same_thread": False, "factory": _Connection},
        **options,
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # transactions are ours (BEGIN IMMEDIATE)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")  # a rare connect may wait
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute("PRAGMA busy_timeout=0")  # a writer waits for the lock in ``_begin``
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        begin_immediate(conn, busy_timeout_ms / 1000)

    return engine


def begin_immediate(conn: Connection, timeout_s: float) -> None:
    """``BEGIN IMMEDIATE``; while another connection holds the lock, the loop sleeps between
    tries (it is never blocked waiting), up to ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    wait = FIRST_WAIT_S
    while True:
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        except Exception as error:  # SQLAlchemy wraps sqlite3's "database is locked"
            if not _busy(error) or time.monotonic() >= deadline:
                raise
        await_only(asyncio.sleep(wait))
        wait = min(wait * 2, LAST_WAIT_S)


def _busy(error: Exception) -> bool:
    """Whether SQLite refused because another connection holds its lock."""
    cause = getattr(error, "orig", error)
    return isinstance(cause, sqlite3.OperationalError) and (
        getattr(cause, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
        or "locked" in str(cause)
    )

"""SQLite's write transactions run on the loop without a pause (``bot.db.on_loop``, #38): no
other task runs between a write's statements, so the write lock is held for the work alone;
a write that must wait for another connection's lock waits without blocking the loop."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from bot.db import on_loop
from bot.db.session import Database


async def ticking(count: list[int]) -> None:
    """A task that counts every turn the loop gives it."""
    while True:
        count[0] += 1
        await asyncio.sleep(0)


@pytest.fixture
async def file_db(tmp_path: Path) -> Database:
    db = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'writes.db'}")
    async with db.write() as session:
        await session.execute(text("CREATE TABLE t (a INTEGER)"))
    yield db  # type: ignore[misc]
    await db.dispose()


async def test_no_task_runs_between_a_writes_statements(file_db: Database) -> None:
    ticks = [0]
    ticker = asyncio.create_task(ticking(ticks))
    await asyncio.sleep(0)
    try:
        async with file_db.write() as session:
            before = ticks[0]
            for number in range(20):
                await session.execute(text("INSERT INTO t VALUES (:a)"), {"a": number})
            during = ticks[0] - before
        async with file_db.read() as session:  # reads still go through their own threads
            before_read = ticks[0]
            kept = await session.scalar(text("SELECT count(*) FROM t"))
            assert ticks[0] > before_read
    finally:
        ticker.cancel()
    assert during == 0
    assert kept == 20
    assert file_db.writers is not file_db.engine
    assert file_db.writers.dialect.driver == on_loop.DRIVER


async def test_a_write_waits_for_another_connections_lock_without_blocking_the_loop(
    file_db: Database, tmp_path: Path
) -> None:
    other = sqlite3.connect(tmp_path / "writes.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a backup or a second process holds the lock
    ticks = [0]
    ticker = asyncio.create_task(ticking(ticks))

    async def let_go() -> None:
        await asyncio.sleep(0.2)
        other.execute("INSERT INTO t VALUES (1)")
        other.execute("COMMIT")

    letting = asyncio.create_task(let_go())
    try:
        before = ticks[0]
        async with file_db.write() as session:
            await session.execute(text("INSERT INTO t VALUES (2)"))  # BEGIN IMMEDIATE waits here
            waited = ticks[0] - before
        await letting
    finally:
        ticker.cancel()
        other.close()
    assert waited > 100  # the loop ran on while the write waited
    async with file_db.read() as session:
        assert (await session.execute(text("SELECT a FROM t ORDER BY rowid"))).scalars().all() == [
            1,
            2,
        ]


async def test_a_write_gives_up_after_the_busy_timeout(
    file_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(on_loop, "LAST_WAIT_S", 0.01)
    engine = on_loop.create_writer_engine(
        file_db.writers.url, foreign_keys=True, busy_timeout_ms=100
    )
    other = sqlite3.connect(tmp_path / "writes.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        writer = engine.execution_options(aide_writer=True)
        with pytest.raises(OperationalError, match="locked"):
            async with writer.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (3)"))
    finally:
        other.execute("ROLLBACK")
        other.close()
        await engine.dispose()
    async with file_db.read() as session:
        assert await session.scalar(text("SELECT count(*) FROM t")) == 0

"""Write transactions run on the loop without a pause (``bot.db.on_loop``, #38): no other task
runs between a write's statements, so the write lock is held for the work alone; a write that
must wait for another connection's lock waits without blocking the loop. SQLite: every write;
PostgreSQL: the writes of a battle's own rows (``bot.db.on_loop_pg``)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import event, make_url, text
from sqlalchemy.exc import OperationalError

from bot.db import on_loop, on_loop_pg
from bot.db.session import Database
from bot.services import Services
from tests.bot.test_write_keys import ONE, an_order, two_battles
from tests.conftest import GM
from tests.databases import on_postgres


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


@pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's writes on the loop")
async def test_a_players_write_on_postgresql_runs_without_a_pause(services: Services) -> None:
    """The claim and the rows of an order go through psycopg on the loop, back to back."""
    await two_battles(services)
    db = services.play.db
    ticks, seen = [0], []
    ticker = asyncio.create_task(ticking(ticks))

    def statement(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        seen.append((ticks[0], sql.split()[0]))

    event.listen(db.writers.sync_engine, "before_cursor_execute", statement)
    try:
        assert await an_order(services, ONE) == "Red Archers"
    finally:
        event.remove(db.writers.sync_engine, "before_cursor_execute", statement)
        ticker.cancel()
    assert [kind for _, kind in seen][:2] == ["SELECT", "UPDATE"]  # its locks, then the claim
    assert len({tick for tick, _ in seen}) == 1, seen  # no other task ran in between
    assert db.writers.dialect.driver == on_loop.DRIVER


@pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's writes on the loop")
@pytest.mark.parametrize("write", ["an order", "a resolution"])
async def test_a_write_held_up_by_a_row_lock_is_kept_off_the_loop(
    services: Services, db_url: str, caplog: pytest.LogCaptureFixture, write: str
) -> None:
    """A row lock the write on the loop would wait for (here held by a connection this test
    lets go of from another thread) fails it past ``LOCK_TIMEOUT_MS``; the write is then kept
    through asyncpg, waiting off the loop, and goes in once the lock is let go."""
    (battle, _), _ = await two_battles(services)
    address = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
    holder = psycopg.connect(address)
    holder.execute("SELECT id FROM battle WHERE id = %s FOR UPDATE", (battle,))
    letting_go = threading.Timer(1.0, holder.commit)
    letting_go.start()
    try:
        with caplog.at_level(logging.INFO, logger="bot.services"):
            if write == "an order":
                assert await an_order(services, ONE) == "Red Archers"
            else:
                assert (await services.gm.force(ONE, GM)).trigger == "forced by a GM"
    finally:
        letting_go.join()
        holder.close()
    assert "waited for a row lock" in caplog.text


def test_a_silent_postgresql_server_is_given_up_on_within_seconds() -> None:
    """The loop waits on these connections: libpq's TCP settings bound a dead network's wait
    (the URL's own settings first)."""
    dialect = on_loop_pg.PGDialectOnLoop()
    _, given = dialect.create_connect_args(make_url("postgresql+onloop://u:p@h/db"))
    assert given["tcp_user_timeout"] == 5000 and given["connect_timeout"] == 5
    assert given["keepalives_idle"] == 5 and given["cursor_factory"] is on_loop_pg._Cursor
    url = make_url("postgresql+onloop://u:p@h/db?connect_timeout=2")
    assert dialect.create_connect_args(url)[1]["connect_timeout"] == "2"

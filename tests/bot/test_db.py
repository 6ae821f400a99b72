"""Persistence on a real database (a SQLite file, or PostgreSQL with TEST_POSTGRES_URL):
pragmas, UTC datetimes, write locking."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import StatementError

from bot.db.models import Campaign
from bot.db.session import WRITE_LOCK_KEY, Database
from tests.databases import on_postgres


async def make_campaign(db: Database, **overrides: object) -> int:
    """Insert a campaign and return its id."""
    values: dict[str, object] = {
        "guild_id": 2**62,
        "channel_id": 2**62 + 1,
        "name": "Test",
        "ruleset_id": "impetus",
        "created_by": 2**63 - 1,
        "settings": {"counter": 0},
    }
    values.update(overrides)
    async with db.write() as session:
        campaign = Campaign(**values)
        session.add(campaign)
        await session.flush()
        return campaign.id


@pytest.mark.skipif(on_postgres(), reason="SQLite's pragmas")
async def test_every_connection_has_wal_foreign_keys_and_timeout(db: Database) -> None:
    async with db.engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 10_000


async def test_datetimes_come_back_aware_utc(db: Database) -> None:
    paris = timezone(timedelta(hours=1))
    created = datetime(2026, 11, 25, 23, 30, tzinfo=paris)
    campaign_id = await make_campaign(db, created_at=created)
    async with db.read() as session:
        stored = await session.get(Campaign, campaign_id)
    assert stored is not None
    assert stored.created_at == created
    assert stored.created_at.tzinfo is UTC
    assert stored.created_at.hour == 22


async def test_naive_datetime_refused(db: Database) -> None:
    with pytest.raises(StatementError, match="naive datetime"):
        await make_campaign(db, created_at=datetime(2026, 1, 1))


async def test_discord_ids_beyond_32_bits_round_trip(db: Database) -> None:
    campaign_id = await make_campaign(db)
    async with db.read() as session:
        stored = await session.get(Campaign, campaign_id)
    assert stored is not None
    assert (stored.guild_id, stored.created_by) == (2**62, 2**63 - 1)


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(Exception, match="(?i)FOREIGN KEY"):
        async with db.write() as session:
            await session.execute(
                text(
                    "INSERT INTO membership (campaign_id, user_id, role, joined_at) "
                    "VALUES (999, 1, 'gm', '2026-01-01 00:00:00')"
                )
            )


async def test_concurrent_read_then_write_loses_no_update(db_url: str, db: Database) -> None:
    campaign_id = await make_campaign(db)
    # Separate databases (engines) so the increments really run on separate connections.
    writers = [Database.from_url(db_url) for _ in range(4)]

    async def increment(writer: Database) -> None:
        for _ in range(10):
            async with writer.write() as session:
                campaign = await session.get(Campaign, campaign_id)
                assert campaign is not None
                await asyncio.sleep(0)  # let the others interleave between read and write
                campaign.settings = {"counter": campaign.settings["counter"] + 1}

    try:
        await asyncio.gather(*(increment(w) for w in writers))
    finally:
        for writer in writers:
            await writer.dispose()
    async with db.read() as session:
        counter = await session.scalar(select(Campaign.settings).where(Campaign.id == campaign_id))
    assert counter == {"counter": 40}


async def test_failed_write_rolls_back(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.write() as session:
            session.add(
                Campaign(
                    guild_id=1,
                    channel_id=2,
                    name="X",
                    ruleset_id="impetus",
                    created_by=3,
                    settings={},
                )
            )
            await session.flush()
            raise RuntimeError("boom")
    async with db.read() as session:
        assert (await session.scalars(select(Campaign))).all() == []


def test_the_database_is_the_one_the_run_asked_for(db: Database) -> None:
    """With TEST_POSTGRES_URL the whole suite's databases are PostgreSQL ones."""
    assert db.engine.dialect.name == ("postgresql" if on_postgres() else "sqlite")


async def write_locks(db: Database) -> tuple[int, int]:
    """How many hold this database's PostgreSQL write lock, and how many wait for it (pg_locks
    lists every database of the server: other tests' databases hold the same key meanwhile)."""
    async with db.read() as session:
        rows = await session.execute(
            text(
                "SELECT granted, count(*) FROM pg_locks"
                " WHERE locktype = 'advisory' AND objid = :key"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " GROUP BY granted"
            ),
            {"key": WRITE_LOCK_KEY},
        )
        counts = {granted: count for granted, count in rows}
    return counts.get(True, 0), counts.get(False, 0)


@pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's advisory write lock")
async def test_a_write_holds_the_write_lock_until_it_ends(db_url: str, db: Database) -> None:
    """Another process's writer (another engine, so another in-process queue) waits for the
    first writer's commit; readers do not wait."""
    campaign_id = await make_campaign(db)
    other = Database.from_url(db_url)
    order: list[str] = []
    try:
        async with db.write() as session:
            await session.get(Campaign, campaign_id)  # the transaction (and lock) starts here
            assert await write_locks(other) == (1, 0)

            async def second_writer() -> None:
                async with other.write() as session:
                    campaign = await session.get(Campaign, campaign_id)
                    order.append("second writer in")
                    assert campaign is not None
                    assert campaign.name == "Renamed"  # it saw the first writer's commit

            waiting = asyncio.create_task(second_writer())
            # Polling the server: it has no event to wait on. Readers do not queue behind writers.
            while await write_locks(other) != (1, 1):  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            assert order == []
            campaign = await session.get(Campaign, campaign_id)
            assert campaign is not None
            campaign.name = "Renamed"
            order.append("first writer out")
        await waiting
        assert order == ["first writer out", "second writer in"]
    finally:
        await other.dispose()

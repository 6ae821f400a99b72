"""Write locks as narrow as the data (#38): on PostgreSQL writes on different battles run at
once and writes on the same battle take turns, in one lock order that cannot deadlock; on
SQLite many writers on different battles still all get through."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.db.locks import BATTLE_SPACE, CAMPAIGN_SPACE, WRITE_LOCK_KEY, WriteKeys
from bot.db.models import Campaign
from bot.db.session import Database
from tests.bot.test_db import make_campaign
from tests.databases import on_postgres

postgres_only = pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's advisory locks")


async def waits(db: Database, other: Database) -> bool:
    """Whether a write of ``other`` waits for a lock: on the server, or between its tries (a
    write on the loop: ``bot.db.on_loop_pg``)."""
    return bool(other.refused_tries or await waiting_locks(db))


async def waiting_locks(db: Database) -> int:
    """How many advisory lock requests in this database wait (not granted)."""
    async with db.read() as session:
        found = await session.execute(
            text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
        )
        return int(found.scalar_one())


def test_the_locks_are_taken_in_one_order_database_campaign_battle() -> None:
    """A battle's write names its campaign: database shared, campaign shared, battle; a
    campaign-wide write holds its campaign alone; a write naming nothing holds everything."""
    both = WriteKeys(battle=7, campaign=3).statement()
    assert both == (
        f"SELECT pg_advisory_xact_lock_shared({WRITE_LOCK_KEY}), "
        f"pg_advisory_xact_lock_shared({CAMPAIGN_SPACE}, {3 - 2**31}), "
        f"pg_advisory_xact_lock({BATTLE_SPACE}, {7 - 2**31})"
    )
    assert WriteKeys(campaign=3).statement().endswith(f"lock({CAMPAIGN_SPACE}, {3 - 2**31})")
    assert WriteKeys().statement() == f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})"


@postgres_only
@pytest.mark.parametrize("same_process", [True, False])
async def test_writes_on_different_battles_proceed_at_once(
    db_url: str, db: Database, same_process: bool
) -> None:
    """While one battle's write is open, another battle's write starts and commits (in this
    process: its own queue; in another: its own lock)."""
    campaign_id = await make_campaign(db)
    other = db if same_process else Database.from_url(db_url)
    try:
        async with db.write(battle=1, campaign=campaign_id) as session:
            await session.get(Campaign, campaign_id)
            # A guard, not a timing: with one lock for all, this second write never starts.
            async with asyncio.timeout(30), other.write(battle=2, campaign=campaign_id) as second:
                campaign = await second.get(Campaign, campaign_id)
                assert campaign is not None
                campaign.name = "Written meanwhile"
        async with db.read() as session:
            campaign = await session.get(Campaign, campaign_id)
            assert campaign is not None and campaign.name == "Written meanwhile"
    finally:
        if other is not db:
            await other.dispose()


async def _hold_then_release(
    db: Database, first: WriteKeys, second: WriteKeys, second_db: Database
) -> list[str]:
    """Open a write with ``first``'s keys, start one with ``second``'s in ``second_db``, wait
    until the server shows it waiting, then commit the first: the order the two got in."""
    order: list[str] = []

    async def second_writer() -> None:
        async with second_db.write(battle=second.battle, campaign=second.campaign):
            order.append("second in")

    async with db.write(battle=first.battle, campaign=first.campaign):
        waiting = asyncio.create_task(second_writer())
        # Polling the server: it has no event to wait on.
        while not await waiting_locks(db) and not order:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        order.append("first out")
    await waiting
    return order


@postgres_only
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (WriteKeys(battle=5), WriteKeys(battle=5)),
        (WriteKeys(battle=5, campaign=1), WriteKeys(campaign=1)),
        (WriteKeys(campaign=1), WriteKeys(battle=9, campaign=1)),
        (WriteKeys(), WriteKeys(battle=5)),
        (WriteKeys(battle=5), WriteKeys()),
    ],
    ids=["same battle", "battle then its campaign", "campaign then its battle", "all", "one"],
)
async def test_writes_on_the_same_data_take_turns(
    db_url: str, db: Database, first: WriteKeys, second: WriteKeys
) -> None:
    """Another process's write on the same battle (or its campaign, or everything) waits on
    the server for the first write's commit."""
    other = Database.from_url(db_url)
    try:
        assert await _hold_then_release(db, first, second, other) == ["first out", "second in"]
    finally:
        await other.dispose()


@postgres_only
async def test_writes_on_other_campaigns_do_not_wait(db_url: str, db: Database) -> None:
    """A campaign-wide write does not wait for another campaign's battle."""
    other = Database.from_url(db_url)
    try:
        order = await _hold_then_release(
            db, WriteKeys(battle=5, campaign=1), WriteKeys(campaign=2), other
        )
        assert order == ["second in", "first out"]
    finally:
        await other.dispose()


async def _crossing_writers(dbs: list[Database], campaign_id: int) -> None:
    """Many writers in two processes on crossing keys, each updating the campaign row."""
    kinds = [
        WriteKeys(battle=1, campaign=campaign_id),
        WriteKeys(campaign=campaign_id),
        WriteKeys(battle=2),
        WriteKeys(),
        WriteKeys(battle=2, campaign=campaign_id),
        WriteKeys(battle=1),
    ]

    async def one(n: int) -> None:
        keys = kinds[n % len(kinds)]
        async with dbs[n % 2].write(battle=keys.battle, campaign=keys.campaign) as session:
            await session.execute(
                text("UPDATE campaign SET name = name || 'x' WHERE id = :id"), {"id": campaign_id}
            )
            await asyncio.sleep(0)

    await asyncio.gather(*(one(n) for n in range(60)))


async def test_crossing_writers_never_deadlock(db_url: str, db: Database) -> None:
    """Sixty writers on crossing battles, campaigns and the whole database, in two
    processes, all commit (a deadlock would end one with an error, or hang to the guard)."""
    campaign_id = await make_campaign(db, name="")
    other = Database.from_url(db_url)
    try:
        await asyncio.wait_for(_crossing_writers([db, other], campaign_id), timeout=120)
    finally:
        await other.dispose()
    async with db.read() as session:
        campaign = await session.get(Campaign, campaign_id)
        assert campaign is not None
        assert campaign.name == "x" * 60


async def test_fifty_writers_on_different_battles_all_get_through(db: Database) -> None:
    """Fifty writes at once, each on its own battle: none fails with "database is locked"
    (SQLite keeps one queue for its one lock) nor waits for a connection forever."""

    async def one(n: int) -> int:
        async with db.write(battle=1000 + n) as session:
            campaign = Campaign(
                guild_id=n,
                channel_id=n,
                name=f"c{n}",
                ruleset_id="impetus",
                created_by=1,
                settings={},
            )
            session.add(campaign)
            await session.flush()
            return campaign.id

    ids = await asyncio.gather(*(one(n) for n in range(50)))
    assert len(set(ids)) == 50

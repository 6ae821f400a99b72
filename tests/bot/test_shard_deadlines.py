"""Sharded processes and deadlines: each process arms and fires only the deadlines of servers
on its shards; two processes racing for one step resolve it once.

(The same with real bot processes against the fake Discord: tests/e2e/test_shards.py.)
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from bot.db.models import Battle, Campaign, Deadline, DeadlineKind, DeadlineStatus
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.scheduling import DeadlineScheduler
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.stages import StageReport
from bot.shards import shard_of
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM
from tests.e2e.fake_clock import FakeClock

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
# Real-sized snowflakes (2024), one per shard of four: the shift must work on 64-bit ids.
BASE = 1_250_000_000_000_000_000
GUILDS = {shard: next(g for g in range(BASE, BASE + (1 << 26), 1 << 22) if shard_of(g, 4) == shard)
          for shard in range(4)}  # fmt: skip


def test_shard_of_is_discords_formula() -> None:
    assert shard_of(GUILDS[3], 4) == (GUILDS[3] >> 22) % 4 == 3
    assert shard_of(GUILDS[3], 1) == 0


async def add_deadline(db: Database, guild_id: int, channel: int, due_at: datetime) -> int:
    """A battle of a campaign in this server with one pending step deadline; its id."""
    async with db.write() as session:
        campaign = Campaign(
            guild_id=guild_id, channel_id=channel, name="C", ruleset_id="impetus",
            created_by=1, settings={},
        )  # fmt: skip
        session.add(campaign)
        await session.flush()
        battle = Battle(
            campaign_id=campaign.id, name="B", ruleset_id="impetus", seed="00",
            seed_sha256="00", state={}, created_by=1,
        )  # fmt: skip
        session.add(battle)
        await session.flush()
        deadline = Deadline(
            battle_id=battle.id, stage=1, kind=DeadlineKind.STEP, due_at=due_at, note={}
        )
        session.add(deadline)
        await session.flush()
        return deadline.id


class Recorder:
    def __init__(self) -> None:
        self.fired: list[int] = []

    async def __call__(self, due: DueDeadline) -> None:
        self.fired.append(due.id)


async def test_a_process_fires_only_its_shards_and_a_successor_picks_up_the_rest(
    db: Database,
) -> None:
    clock = FakeClock(START)
    overdue = {s: await add_deadline(db, g, 100 + s, START - timedelta(hours=1))
               for s, g in GUILDS.items()}  # fmt: skip
    later = {s: await add_deadline(db, g, 200 + s, START + timedelta(hours=1))
             for s, g in GUILDS.items()}  # fmt: skip
    first, second = Recorder(), Recorder()
    a = DeadlineScheduler(db, clock, first, shards=(4, (0, 2)))
    b = DeadlineScheduler(db, clock, second, shards=(4, (1,)))
    try:
        assert await a.start() == 2 and await b.start() == 1
        assert sorted(first.fired) == sorted([overdue[0], overdue[2]])
        assert second.fired == [overdue[1]]
        # Only their own are armed for later, too.
        assert await a.arm_window() == 2 and await b.arm_window() == 1
        clock.advance(timedelta(hours=2))
        await a.run_due()
        await b.run_due()
        assert sorted(first.fired) == sorted([overdue[0], overdue[2], later[0], later[2]])
        assert second.fired == [overdue[1], later[1]]
    finally:
        a.shutdown()
        b.shutdown()
    async with db.read() as session:
        pending = set(
            (await session.scalars(
                select(Deadline.id).where(Deadline.status == DeadlineStatus.PENDING)
            )).all()
        )  # fmt: skip
    assert pending == {overdue[3], later[3]}  # shard 3's process is down: its wait
    # Shard 3 moves to a process started with it: the overdue ones fire at its start-up.
    moved = Recorder()
    c = DeadlineScheduler(db, clock, moved, shards=(4, (1, 3)))
    try:
        assert await c.start() == 2
    finally:
        c.shutdown()
    assert sorted(moved.fired) == sorted([overdue[3], later[3]])


async def test_unsharded_fires_every_server(db: Database) -> None:
    clock = FakeClock(START)
    ids = [await add_deadline(db, g, 300 + s, START) for s, g in GUILDS.items()]
    everything = Recorder()
    scheduler = DeadlineScheduler(db, clock, everything)
    try:
        assert await scheduler.start() == 4
    finally:
        scheduler.shutdown()
    assert sorted(everything.fired) == sorted(ids)


async def test_two_processes_racing_for_a_step_resolve_it_once(
    db_url: str, db: Database, services: Services, place: Place
) -> None:
    """Two processes (two engines on one database) handle the same deadline at the same
    moment: the conditional update that takes the deadline inside the resolving transaction
    lets exactly one resolve the step; the other finds it taken and does nothing."""
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    other_db = Database.from_url(db_url)
    try:
        other = Services.build(other_db, rng=random.Random(1))
        async with db.read() as session:
            battle = await session.scalar(select(Battle))
            assert battle is not None
            row = await session.scalar(
                select(Deadline).where(
                    Deadline.battle_id == battle.id,
                    Deadline.status == DeadlineStatus.PENDING,
                    Deadline.kind == DeadlineKind.STEP,
                )
            )
            assert row is not None
            stage = battle.stage
        due = DueDeadline(row.id, row.battle_id, row.stage, row.kind, row.due_at, {})
        outcomes = await asyncio.gather(services.play.on_deadline(due), other.play.on_deadline(due))
    finally:
        await other_db.dispose()
    assert sum(isinstance(o, StageReport) for o in outcomes) == 1, outcomes
    assert None in outcomes
    async with db.read() as session:
        battle = await session.scalar(select(Battle))
        assert battle is not None and battle.stage == stage + 1
        status = await session.scalar(select(Deadline.status).where(Deadline.id == row.id))
    assert status is DeadlineStatus.FIRED


async def test_a_sharded_outbox_holds_only_its_servers_results(
    services: Services, place: Place
) -> None:
    """Results left unposted are posted by the process of their server's shard."""
    other = Place((1 << 22) | 5, 3000)  # a server on shard 1 of 2 (the first is on shard 0)
    assert (shard_of(place.guild_id, 2), shard_of(other.guild_id, 2)) == (0, 1)
    for where in (place, other):
        await deployed_battle(services, where)
        await services.play.start(where, GM)
    everything = await services.outbox.pending()
    battles = sorted({battle for battle, _ in everything})
    assert len(battles) == 2
    services.outbox.shards = (2, (1,))
    assert {battle for battle, _ in await services.outbox.pending()} == {battles[1]}
    services.outbox.shards = (2, (0,))
    assert {battle for battle, _ in await services.outbox.pending()} == {battles[0]}
    services.outbox.shards = (2, (0, 1))
    assert await services.outbox.pending() == everything

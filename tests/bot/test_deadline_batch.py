"""Deadlines due together start together: a batch is sifted by one query before its handlers
start, those with nothing left to do load no battle, and several handlers run at once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, update

from bot.db.models import Battle, BattleStatus, Deadline, DeadlineKind
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.scheduling import DeadlineScheduler
from bot.services import Services
from tests.bot.test_scheduling import add_deadline, until
from tests.e2e.fake_clock import FakeClock

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    """Time that moves only when the test says."""
    return FakeClock(START)


async def test_eight_handlers_start_before_any_finishes_after_one_sift(
    db: Database, clock: FakeClock
) -> None:
    """A batch's handlers do not queue four at a time behind full loads: the batch is handed
    once to ``before_batch`` before any handler starts, then eight run at once."""
    ids = [
        await add_deadline(db, START - timedelta(minutes=i), DeadlineKind.REMINDER, 100 + i)
        for i in range(12)
    ]
    sifted: list[list[int]] = []
    started: list[int] = []
    finished: list[int] = []
    release = asyncio.Event()

    async def sift(batch: list[DueDeadline]) -> None:
        assert not started  # before any handler
        sifted.append(sorted(d.id for d in batch))

    async def handler(due: DueDeadline) -> None:
        started.append(due.id)
        await release.wait()
        finished.append(due.id)

    scheduler = DeadlineScheduler(db, clock, handler)
    scheduler.before_batch = sift
    run = asyncio.create_task(scheduler.run_due())

    async def eight_started() -> bool:
        return len(started) >= 8

    await until(eight_started)
    assert not finished and len(started) == 8  # bounded: the other four wait for a slot
    release.set()
    assert await run == 12
    assert sifted == [sorted(ids)]  # one sift for the whole batch
    assert sorted(finished) == sorted(ids)


async def _battle(db: Database, channel: int, stage: int, status: BattleStatus) -> DueDeadline:
    """A battle at ``stage`` with one reminder deadline of step 3, as its handler sees it."""
    deadline_id = await add_deadline(db, START, DeadlineKind.REMINDER, channel)
    async with db.write() as session:
        deadline = await session.get_one(Deadline, deadline_id)
        deadline.stage = 3
        await session.execute(
            update(Battle).where(Battle.id == deadline.battle_id).values(stage=stage, status=status)
        )
        return DueDeadline(deadline_id, deadline.battle_id, 3, DeadlineKind.REMINDER, START, {})


async def test_a_batch_of_deadlines_with_nothing_left_to_do_loads_no_battle(
    db: Database, clock: FakeClock
) -> None:
    """One query over the batch's battles finds the deadlines whose battle finished or moved
    past their step; their handlers then return without loading the battle. A deadline of
    the step its battle is at is left to its handler."""
    moved_on = await _battle(db, 501, 5, BattleStatus.RUNNING)
    finished = await _battle(db, 502, 3, BattleStatus.FINISHED)
    current = await _battle(db, 503, 3, BattleStatus.PAUSED)  # may resume at this step
    services = Services.build(db, clock=clock)
    batch = [moved_on, finished, current]
    statements: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        if sql.startswith("SELECT"):
            statements.append(sql)

    for engine in {db.engine, db.writers}:  # reads, and writes on their own engine
        event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await services.play.idle.sift(batch)
        assert len(statements) == 1  # one query for the whole batch
        statements.clear()
        assert await services.play.on_deadline(batch[0]) is None
        assert await services.play.on_deadline(batch[1]) is None
        assert statements == []  # nothing loaded
    finally:
        for engine in {db.engine, db.writers}:
            event.remove(engine.sync_engine, "before_cursor_execute", record)
    assert not services.play.idle.take(current.id)  # its handler loads and decides
    assert not services.play.idle.take(moved_on.id)  # asked once, forgotten


async def test_a_claimed_batch_leaves_no_wake_armed_for_its_deadlines(
    db: Database, clock: FakeClock
) -> None:
    """Each deadline of a batch is armed for its own time; once the batch claims them all,
    their wakes are taken off the scheduler (each would only find its deadline claimed, at
    the cost of a query under the claiming lock: a thousand due together made a thousand)."""
    ids = [
        await add_deadline(db, START + timedelta(minutes=10 + i), DeadlineKind.REMINDER, 700 + i)
        for i in range(12)
    ]
    handled: list[int] = []

    async def handler(due: DueDeadline) -> None:
        handled.append(due.id)

    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        assert await scheduler.start() == 0
        assert all(scheduler.armed(i) for i in ids)  # each waits for its own time
        clock.advance(timedelta(hours=1))
        assert await scheduler.run_due() == 12  # one batch claims them all
        assert sorted(handled) == sorted(ids)
        assert not any(scheduler.armed(i) for i in ids)
    finally:
        scheduler.shutdown()

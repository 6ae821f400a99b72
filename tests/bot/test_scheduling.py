"""Deadlines: fired once at their time by our clock, re-armed after a restart, never lost."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.db.models import Battle, Campaign, Deadline, DeadlineKind, DeadlineStatus
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.scheduling import DeadlineScheduler
from tests.e2e.fake_clock import FakeClock

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


async def add_deadline(
    db: Database, due_at: datetime, kind: DeadlineKind, channel: int | None = None
) -> int:
    """A battle with one pending deadline (its campaign in ``channel``, by default one per
    day); returns the deadline's id."""
    async with db.write() as session:
        campaign = Campaign(
            guild_id=1, channel_id=channel or due_at.toordinal(), name="C", ruleset_id="impetus",
            created_by=1, settings={},
        )  # fmt: skip
        battle = Battle(
            name="B", ruleset_id="impetus", seed="00", seed_sha256="00", state={}, created_by=1
        )
        campaign_battles = [battle]
        session.add(campaign)
        await session.flush()
        for b in campaign_battles:
            b.campaign_id = campaign.id
            session.add(b)
        await session.flush()
        deadline = Deadline(battle_id=battle.id, stage=1, kind=kind, due_at=due_at, note={})
        session.add(deadline)
        await session.flush()
        return deadline.id


async def until(condition: Callable[[], Awaitable[bool]], seconds: float = 60.0) -> None:
    """Wait, by polling, until `condition` holds; a busy machine may take a while, so this
    waits on what happened, never on a fixed sleep, and fails only after `seconds`."""
    for _ in range(int(seconds / 0.01)):
        if await condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


async def status_of(db: Database, deadline_id: int) -> DeadlineStatus:
    """The stored status of a deadline."""
    async with db.read() as session:
        status = await session.scalar(select(Deadline.status).where(Deadline.id == deadline_id))
    assert status is not None
    return status


class Recorder:
    """A handler that remembers what fired and can be told to fail."""

    def __init__(self) -> None:
        self.fired: list[DueDeadline] = []
        self.fail = False

    async def __call__(self, due: DueDeadline) -> None:
        if self.fail:
            raise RuntimeError("handler failed")
        self.fired.append(due)


@pytest.fixture
def clock() -> FakeClock:
    """Time that moves only when the test says."""
    return FakeClock(START)


async def test_fires_once_when_due_by_our_clock(db: Database, clock: FakeClock) -> None:
    deadline_id = await add_deadline(db, START + timedelta(hours=24), DeadlineKind.STEP)
    handler = Recorder()
    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        assert await scheduler.start() == 0
        clock.advance(timedelta(hours=23, minutes=59))
        assert await scheduler.run_due() == 0 and handler.fired == []
        clock.advance(timedelta(minutes=1))
        assert await scheduler.run_due() == 1
        assert await scheduler.run_due() == 0
        assert await scheduler.fire(deadline_id) is False
    finally:
        scheduler.shutdown()
    assert [(d.id, d.kind, d.stage) for d in handler.fired] == [(deadline_id, DeadlineKind.STEP, 1)]
    assert await status_of(db, deadline_id) is DeadlineStatus.FIRED


async def test_overdue_deadline_fires_at_start_up(db: Database, clock: FakeClock) -> None:
    """The bot was down when the deadline passed: it fires as soon as the bot starts."""
    deadline_id = await add_deadline(db, START - timedelta(hours=3), DeadlineKind.REMINDER)
    handler = Recorder()
    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        assert await scheduler.start() == 1
    finally:
        scheduler.shutdown()
    assert [d.id for d in handler.fired] == [deadline_id]


async def test_failed_handler_leaves_deadline_pending_for_retry(
    db: Database, clock: FakeClock
) -> None:
    deadline_id = await add_deadline(db, START, DeadlineKind.STEP)
    handler = Recorder()
    handler.fail = True
    first = DeadlineScheduler(db, clock, handler)
    try:
        assert await first.start() == 0
    finally:
        first.shutdown()
    assert await status_of(db, deadline_id) is DeadlineStatus.PENDING
    handler.fail = False
    second = DeadlineScheduler(db, clock, handler)  # a restart
    try:
        assert await second.start() == 1
    finally:
        second.shutdown()
    assert await status_of(db, deadline_id) is DeadlineStatus.FIRED


async def test_cancelled_deadline_never_fires(db: Database, clock: FakeClock) -> None:
    deadline_id = await add_deadline(db, START, DeadlineKind.STEP)
    async with db.write() as session:
        row = await session.get(Deadline, deadline_id)
        assert row is not None
        row.status = DeadlineStatus.CANCELLED
    handler = Recorder()
    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        assert await scheduler.start() == 0
        assert await scheduler.fire(deadline_id) is False
    finally:
        scheduler.shutdown()
    assert handler.fired == []


async def test_armed_jobs_wake_by_the_injected_clock(db: Database, clock: FakeClock) -> None:
    """A deadline an hour away by our clock is armed an hour away on the wall clock."""
    deadline_id = await add_deadline(db, START + timedelta(hours=1), DeadlineKind.STEP)
    scheduler = DeadlineScheduler(db, clock, Recorder())
    try:
        await scheduler.start()
        job = scheduler._scheduler.get_job(f"deadline:{deadline_id}")
        assert job is not None
        wait = job.next_run_time - datetime.now(UTC)
        assert timedelta(minutes=59) < wait <= timedelta(hours=1)
        scheduler.disarm(deadline_id)
        assert scheduler._scheduler.get_job(f"deadline:{deadline_id}") is None
    finally:
        scheduler.shutdown()


async def test_many_due_at_once_all_fire_a_few_at_a_time(db: Database, clock: FakeClock) -> None:
    """Deadlines woken in the same moment wait for a slot rather than each taking a database
    connection (a thousand at once exhausted the pool and failed them all)."""
    from bot.scheduling import AT_ONCE

    ids = []
    for day in range(12):  # one campaign channel per day
        ids.append(await add_deadline(db, START - timedelta(days=day + 1), DeadlineKind.STEP))
    busy, most = 0, 0
    done: list[int] = []

    async def handler(due: DueDeadline) -> None:
        nonlocal busy, most
        busy += 1
        most = max(most, busy)
        await asyncio.sleep(0.01)
        busy -= 1
        done.append(due.id)

    scheduler = DeadlineScheduler(db, clock, handler)
    fired = await asyncio.gather(*(scheduler.fire(i) for i in ids))
    assert all(fired) and sorted(done) == sorted(ids)
    assert 1 < most <= AT_ONCE
    for deadline_id in ids:
        assert await status_of(db, deadline_id) is DeadlineStatus.FIRED


async def test_a_far_deadline_is_armed_by_a_later_window(db: Database, clock: FakeClock) -> None:
    """Only deadlines within the horizon are armed at start-up; a window arms the next."""
    from bot.scheduling import HORIZON

    far = await add_deadline(db, START + timedelta(days=1), DeadlineKind.STEP)  # another day
    soon = await add_deadline(db, START + timedelta(minutes=5), DeadlineKind.REMINDER)
    scheduler = DeadlineScheduler(db, clock, Recorder())
    try:
        await scheduler.start()
        assert scheduler._scheduler.get_job(f"deadline:{soon}") is not None
        assert scheduler._scheduler.get_job(f"deadline:{far}") is None
        assert scheduler._scheduler.get_job("deadline-window") is not None
        clock.advance(timedelta(days=1) - HORIZON / 2)
        assert await scheduler.arm_window() == 2
        assert scheduler._scheduler.get_job(f"deadline:{far}") is not None
    finally:
        scheduler.shutdown()


async def test_many_due_together_are_claimed_in_one_batch_and_handled_once(
    db: Database, clock: FakeClock
) -> None:
    """Deadlines due together cost one query and one UPDATE before any handler starts; every
    wake of them (their own jobs, a start-up, a second scan) handles each exactly once, and a
    restart after the claim posts no reminder again."""
    from sqlalchemy import event

    from bot.scheduling import AT_ONCE

    steps = [
        await add_deadline(db, START - timedelta(minutes=i), DeadlineKind.STEP, 100 + i)
        for i in range(15)
    ]
    reminders = [
        await add_deadline(db, START - timedelta(seconds=i), DeadlineKind.REMINDER, 200 + i)
        for i in range(15)
    ]
    statements: list[str] = []
    first_handler_at: list[int] = []

    def record(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        statements.append(
            sql.split(None, 1)[0].upper() + (" deadline" if "deadline" in sql else "")
        )

    handled: list[int] = []
    release = asyncio.Event()

    async def handler(due: DueDeadline) -> None:
        if not first_handler_at:
            first_handler_at.append(len(statements))
        handled.append(due.id)
        await release.wait()

    for engine in {db.engine, db.writers}:  # reads, and writes on their own engine
        event.listen(engine.sync_engine, "before_cursor_execute", record)
    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        wakes = [asyncio.create_task(scheduler.fire(i)) for i in steps + reminders]

        async def slots_full() -> bool:
            return len(handled) >= 4

        await until(slots_full)
        before = statements[: first_handler_at[0]]
        assert before.count("SELECT deadline") == 1 and before.count("UPDATE deadline") == 1
        async with db.read() as session:
            started = (
                await session.execute(select(Deadline.id, Deadline.status, Deadline.fired_at))
            ).all()
        assert {fired_at for _, _, fired_at in started} == {START}  # all started at once
        assert {i for i, status, _ in started if status is DeadlineStatus.FIRED} == set(reminders)
        assert await scheduler.run_due() == 0  # all claimed: a second scan claims none
    finally:
        for engine in {db.engine, db.writers}:
            event.remove(engine.sync_engine, "before_cursor_execute", record)
        scheduler.shutdown()
    assert len(handled) <= AT_ONCE  # the rest wait for a slot
    release.set()
    assert all(await asyncio.gather(*wakes))
    assert sorted(handled) == sorted(steps + reminders)  # each once
    for deadline_id in steps + reminders:
        assert await status_of(db, deadline_id) is DeadlineStatus.FIRED

    # Claimed, then the process died before their handlers ran: the reminders were marked
    # fired by the claim and are never posted again; the steps fire again (their handler
    # does nothing if the battle has moved on).
    late_step = await add_deadline(db, START, DeadlineKind.STEP, 300)
    late_reminder = await add_deadline(db, START, DeadlineKind.REMINDER, 301)
    never = asyncio.Event()

    async def stuck(due: DueDeadline) -> None:
        await never.wait()

    dying = DeadlineScheduler(db, clock, stuck)
    dying_run = asyncio.create_task(dying.run_due())

    async def claimed() -> bool:
        return await status_of(db, late_reminder) is DeadlineStatus.FIRED and bool(dying._tasks)

    await until(claimed)
    dying_run.cancel()
    for task in list(dying._tasks):
        task.cancel()
    await asyncio.sleep(0.05)
    again = Recorder()
    restarted = DeadlineScheduler(db, clock, again)
    try:
        assert await restarted.start() == 1
    finally:
        restarted.shutdown()
    assert [d.id for d in again.fired] == [late_step]
    assert await status_of(db, late_reminder) is DeadlineStatus.FIRED


async def test_a_failed_deadline_waits_for_its_retry_not_the_next_batch(
    db: Database, clock: FakeClock
) -> None:
    failing = await add_deadline(db, START, DeadlineKind.STEP, 400)
    handler = Recorder()
    handler.fail = True
    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        assert await scheduler.run_due() == 0
        handler.fail = False
        other = await add_deadline(db, START, DeadlineKind.STEP, 401)
        assert await scheduler.run_due() == 1  # the other one only
        assert [d.id for d in handler.fired] == [other]
        assert await status_of(db, failing) is DeadlineStatus.PENDING
        assert await scheduler.fire(failing) is True  # its own retry wakes it
        assert await status_of(db, failing) is DeadlineStatus.FIRED
    finally:
        scheduler.shutdown()

"""Stopping cleanly: SIGTERM closes the bot, a handler in flight finishes; deadlines are
recorded as what happened to them, and a reminder is never posted twice."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.__main__ import stop_on_sigterm
from bot.db.models import Deadline, DeadlineKind, DeadlineStatus
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.presentation.orders import waiting_text
from bot.scheduling import DeadlineScheduler
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import Confirmed
from tests.bot.battle_setup import deployed_battle
from tests.bot.test_scheduling import START, add_deadline, status_of
from tests.conftest import GM
from tests.e2e.fake_clock import FakeClock


class ClosingBot:
    """Stands in for the bot: remembers being closed."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    async def close(self) -> None:
        """Record the close."""
        self.closed.set()


async def test_sigterm_closes_the_bot() -> None:
    bot = ClosingBot()
    stop_on_sigterm(bot)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(bot.closed.wait(), 30)
    finally:
        asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
    assert bot.closed.is_set()


async def test_shutdown_waits_for_the_handler_in_flight(db: Database) -> None:
    clock = FakeClock(START)
    deadline_id = await add_deadline(db, START, DeadlineKind.STEP)
    started, release = asyncio.Event(), asyncio.Event()
    finished: list[int] = []

    async def handler(due: DueDeadline) -> None:
        started.set()
        await release.wait()
        finished.append(due.id)

    scheduler = DeadlineScheduler(db, clock, handler)
    firing = asyncio.create_task(scheduler.fire(deadline_id))
    await started.wait()
    scheduler.shutdown()
    asyncio.get_running_loop().call_soon(release.set)
    assert await scheduler.drain(30) == 0
    assert firing.done() and finished == [deadline_id]
    assert await status_of(db, deadline_id) is DeadlineStatus.FIRED


async def test_a_reminder_interrupted_after_posting_is_not_posted_again(db: Database) -> None:
    """The process dies after the ping went out: the next start does not ping again."""
    clock = FakeClock(START)
    deadline_id = await add_deadline(db, START, DeadlineKind.REMINDER)
    pinged: list[int] = []

    async def dies_after_posting(due: DueDeadline) -> None:
        pinged.append(due.id)
        raise RuntimeError("killed after posting")

    first = DeadlineScheduler(db, clock, dies_after_posting)
    await first.start()
    first.shutdown()
    second = DeadlineScheduler(db, clock, dies_after_posting)
    await second.start()
    second.shutdown()
    assert pinged == [deadline_id]
    assert await status_of(db, deadline_id) is DeadlineStatus.FIRED


async def test_a_fired_step_deadline_is_recorded_as_fired(db: Database, place: Place) -> None:
    clock = FakeClock(START)
    services = Services.build(db, rng=random.Random(1), clock=clock)
    await deployed_battle(services, place)
    await services.play.start(place, GM)

    async def handler(due: DueDeadline) -> None:
        await services.play.on_deadline(due)

    scheduler = DeadlineScheduler(db, clock, handler)
    clock.advance(timedelta(hours=49))
    await scheduler.start()
    scheduler.shutdown()
    async with db.read() as session:
        rows = await session.scalars(select(Deadline).where(Deadline.stage == 1))
        statuses = {(d.kind, d.status) for d in rows}
    assert (DeadlineKind.STEP, DeadlineStatus.FIRED) in statuses
    assert (DeadlineKind.STEP, DeadlineStatus.CANCELLED) not in statuses


def test_confirming_after_a_step_resolved_elsewhere_says_so() -> None:
    text = waiting_text(Confirmed((), (), None))
    assert "nobody" not in text and "just been resolved" in text


async def test_a_restart_while_a_deadline_fires_is_logged_as_a_shutdown(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot stops (its tasks cancelled, as ``asyncio.run`` does) while a step deadline's
    handler runs: no ERROR with a traceback, one INFO line saying it fires again at the next
    start, and the row stays pending for that start."""
    clock = FakeClock(START)
    deadline_id = await add_deadline(db, START + timedelta(seconds=1), DeadlineKind.STEP)
    started = asyncio.Event()

    async def handler(due: DueDeadline) -> None:
        started.set()
        await asyncio.Event().wait()  # still resolving when the bot stops

    scheduler = DeadlineScheduler(db, clock, handler)
    await scheduler.start()
    clock.advance(timedelta(seconds=1))
    scheduler.arm(deadline_id, START + timedelta(seconds=1))
    await asyncio.wait_for(started.wait(), 30)
    scheduler.shutdown()
    jobs = [t for t in asyncio.all_tasks() if t.get_coro().__qualname__ == "run_coroutine_job"]
    assert jobs, "the scheduler's job for the deadline is running"
    with caplog.at_level(logging.INFO):
        for task in [*jobs, *scheduler._tasks]:
            task.cancel()
        await asyncio.gather(*jobs, *scheduler._tasks, return_exceptions=True)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    stopped = [r.getMessage() for r in caplog.records if r.name == "bot.scheduling"]
    assert any(f"deadline {deadline_id}" in m and "next start" in m for m in stopped), stopped
    assert await status_of(db, deadline_id) is DeadlineStatus.PENDING

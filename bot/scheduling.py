"""Deadlines: rows in our database fired at their time; APScheduler is only a cache of them.

At start-up every pending deadline due within ``HORIZON`` is armed again (later ones are
armed by a window every ``WINDOW_EVERY``) and the overdue ones fire at once, so a
deadline that passed while the bot was down is not lost (APScheduler's default misfire grace
of one second would silently drop it). A step or question deadline is marked fired only
after its handler ran, and handlers are idempotent (a step resolves only if the battle is
still at that stage), so a crash between the two fires it again harmlessly rather than
losing it. A reminder is the other way round: marked fired first, so a restart never posts
it twice (a lost reminder costs less than a repeated ping).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy import select, update

from bot.clock import Clock
from bot.db.models import Deadline, DeadlineKind, DeadlineStatus
from bot.db.session import Database
from bot.services.battle_state import FIRING

log = logging.getLogger(__name__)
RETRY_AFTER = timedelta(minutes=1)
# Deadlines fired at the same time: more wait for a slot (many due in the same moment would
# otherwise each hold a database connection and exhaust the pool, failing them all).
AT_ONCE = 4
# Only deadlines due within this horizon are armed (APScheduler takes about a millisecond a
# job: ten thousand open deadlines armed at once took seconds at start-up); every
# ``WINDOW_EVERY`` the next ones are armed, well before they are due.
HORIZON = timedelta(hours=2)
WINDOW_EVERY = timedelta(minutes=30)


@dataclass(frozen=True)
class DueDeadline:
    """A deadline as its handler sees it."""

    id: int
    battle_id: int
    stage: int
    kind: DeadlineKind
    due_at: datetime
    note: dict[str, Any]


Handler = Callable[[DueDeadline], Awaitable[None]]


def _due(row: Deadline) -> DueDeadline:
    return DueDeadline(row.id, row.battle_id, row.stage, row.kind, row.due_at, dict(row.note))


class DeadlineScheduler:
    """Arms pending deadline rows on an in-memory APScheduler and fires them through a handler."""

    def __init__(self, db: Database, clock: Clock, handler: Handler) -> None:
        self.db = db
        self.clock = clock
        self.handler = handler
        self._running: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()  # handlers in flight, awaited at shutdown
        self._slots = asyncio.Semaphore(AT_ONCE)
        self._scheduler = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )

    async def start(self) -> int:
        """Start, fire the overdue deadlines, arm the rest; return how many fired."""
        if not self._scheduler.running:
            self._scheduler.start()
        fired = await self.run_due()
        await self.arm_window()
        self._scheduler.add_job(
            self.arm_window,
            trigger=IntervalTrigger(seconds=WINDOW_EVERY.total_seconds()),
            id="deadline-window",
            replace_existing=True,
        )
        return fired

    async def arm_window(self) -> int:
        """Arm every pending deadline due within the horizon; how many."""
        async with self.db.read() as session:
            rows = (
                await session.execute(
                    select(Deadline.id, Deadline.due_at).where(
                        Deadline.status == DeadlineStatus.PENDING,
                        Deadline.due_at <= self.clock.now() + HORIZON,
                    )
                )
            ).all()
        for deadline_id, due_at in rows:
            self.arm(deadline_id, due_at)
        return len(rows)

    def shutdown(self) -> None:
        """Stop firing; the rows stay and are armed again at the next start."""
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)

    async def drain(self, grace_s: float) -> int:
        """Wait (at most ``grace_s`` seconds) for handlers in flight; how many were left."""
        tasks = {t for t in self._tasks if not t.done() and t is not asyncio.current_task()}
        if not tasks:
            return 0
        _done, pending = await asyncio.wait(tasks, timeout=grace_s)
        return len(pending)

    def arm(self, deadline_id: int, due_at: datetime) -> None:
        """Schedule (or reschedule) one deadline by its row id."""
        if not self._scheduler.running:
            return  # start() arms everything from the table
        if due_at - self.clock.now() > HORIZON:
            self.disarm(deadline_id)  # armed by a later window (a moved deadline: not early)
            return
        # Our clock decides when a deadline is due; the wall-clock wake-up is derived from it
        # so an injected clock (tests) and the real one (production) behave alike.
        wake = datetime.now(UTC) + max(due_at - self.clock.now(), timedelta(0))
        self._scheduler.add_job(
            self.fire,
            trigger=DateTrigger(run_date=wake),
            args=[deadline_id],
            id=f"deadline:{deadline_id}",
            replace_existing=True,
        )

    def disarm(self, deadline_id: int) -> None:
        """Forget a scheduled deadline (its row has been cancelled or moved)."""
        if self._scheduler.running and self._scheduler.get_job(f"deadline:{deadline_id}"):
            self._scheduler.remove_job(f"deadline:{deadline_id}")

    async def run_due(self) -> int:
        """Fire every pending deadline whose time has come by our clock; how many fired."""
        async with self.db.read() as session:
            ids = (
                await session.scalars(
                    select(Deadline.id)
                    .where(
                        Deadline.status == DeadlineStatus.PENDING,
                        Deadline.due_at <= self.clock.now(),
                    )
                    .order_by(Deadline.due_at, Deadline.id)
                )
            ).all()
        fired = 0
        for deadline_id in ids:
            fired += await self.fire(deadline_id)
        return fired

    async def fire(self, deadline_id: int) -> bool:
        """Run one deadline's handler if it is pending and due, then mark it fired."""
        if deadline_id in self._running:
            return False
        self._running.add(deadline_id)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        token = FIRING.set(deadline_id)
        try:
            async with self._slots:
                return await self._fire(deadline_id)
        finally:
            FIRING.reset(token)
            self._running.discard(deadline_id)
            self._tasks.discard(task)  # type: ignore[arg-type]

    async def _fire(self, deadline_id: int) -> bool:
        async with self.db.read() as session:
            row = await session.get(Deadline, deadline_id)
            if row is None or row.status is not DeadlineStatus.PENDING:
                return False
            due = _due(row)
        if due.due_at > self.clock.now():
            self.arm(due.id, due.due_at)  # woken early (clock skew): wait for the real time
            return False
        if due.kind is DeadlineKind.REMINDER and not await self._mark_fired(deadline_id):
            return False
        try:
            await self.handler(due)
        except Exception:
            log.exception("deadline %s (%s) failed; retrying later", due.id, due.kind.value)
            if due.kind is not DeadlineKind.REMINDER:
                self.arm(due.id, self.clock.now() + RETRY_AFTER)
            return False
        if due.kind is not DeadlineKind.REMINDER:
            await self._mark_fired(deadline_id)
        return True

    async def _mark_fired(self, deadline_id: int) -> bool:
        """Mark a pending deadline fired; False if it was no longer pending."""
        async with self.db.write() as session:
            result = await session.execute(
                update(Deadline)
                .where(Deadline.id == deadline_id, Deadline.status == DeadlineStatus.PENDING)
                .values(status=DeadlineStatus.FIRED, fired_at=self.clock.now())
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

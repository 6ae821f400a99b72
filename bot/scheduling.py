"""Deadlines: rows in our database fired at their time; APScheduler is only a cache of them.

At start-up every pending deadline due within ``HORIZON`` is armed again (later ones are
armed by a window every ``WINDOW_EVERY``) and the overdue ones fire at once, so a
deadline that passed while the bot was down is not lost (APScheduler's default misfire grace
of one second would silently drop it).

Deadlines due together are claimed as one batch: one query finds every pending row due by
our clock, one conditional ``UPDATE`` records them started (``fired_at``), then their
handlers run, at most ``AT_ONCE`` at a time (a thousand due in the same second cost two
statements, not a thousand transactions, before the first handler starts). A row claimed
here is not claimed again while its handler runs. A step or question deadline is marked
fired only after its handler ran, and handlers are idempotent (a step resolves only if the
battle is still at that stage), so a crash between the two fires it again harmlessly rather
than losing it. A reminder is the other way round: the claim marks it fired, so a restart
never posts it twice (a lost reminder costs less than a repeated ping).

Sharded (``shards``: the shard count and this process's shards), a process arms and fires
only the deadlines of servers on its shards (Discord's ``(guild_id >> 22) % shard_count``);
a process started with the shards of one that died fires their overdue deadlines at start-up.
Two processes that still race for one deadline (a shard moving while its old process runs)
both claim it, and the handler's own conditional update decides: ``PlayService.resolve_stage``
marks a step's deadline fired in the transaction that resolves it, only if it is still
pending, and a reminder's claim is that update itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy import ColumnElement, case, or_, select, update

from bot.clock import Clock
from bot.db.models import Deadline, DeadlineKind, DeadlineStatus
from bot.db.session import Database
from bot.deadlines import FIRING, DueDeadline, Handler
from bot.shards import Shards, battles_on

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(minutes=1)
# Deadlines fired at the same time: more wait for a slot (many due in the same moment would
# otherwise each hold a database connection and exhaust the pool, failing them all).
# Eight: under PostgreSQL's pool of 5 + 10 connections with room left for commands (a
# handler holds one connection at a time); deadlines with nothing left to do are sifted out by
# ``before_batch`` and take a slot only for a moment.
AT_ONCE = 8
# Only deadlines due within this horizon are armed (APScheduler takes about a millisecond a
# job: ten thousand open deadlines armed at once took seconds at start-up); every
# ``WINDOW_EVERY`` the next ones are armed, well before they are due.
HORIZON = timedelta(hours=2)
WINDOW_EVERY = timedelta(minutes=30)


def on_shards(shards: Shards) -> ColumnElement[bool]:
    """Whether a deadline's server is on these shards, as a condition on the deadline row."""
    return Deadline.battle_id.in_(battles_on(shards))


def _due(row: Deadline) -> DueDeadline:
    return DueDeadline(row.id, row.battle_id, row.stage, row.kind, row.due_at, dict(row.note))


class DeadlineScheduler:
    """Arms pending deadline rows on an in-memory APScheduler and fires them through a handler."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        handler: Handler,
        *,
        shards: Shards | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.handler = handler
        self.shards = shards  # (count, ours): only our servers' deadlines; None: every one
        # Deadlines claimed and not yet handled, each with its outcome (whether it was handled).
        self._running: dict[int, asyncio.Future[bool]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # handlers in flight, awaited at shutdown
        self._claiming = asyncio.Lock()
        self._retry_at: dict[int, datetime] = {}  # failed handlers: not claimed again before
        # Awaited once after every handler of a batch is done (the bot retries its outbox).
        self.after_batch: Callable[[], Awaitable[Any]] | None = None
        # Awaited with a batch's claimed deadlines before their handlers start (the bot finds,
        # by one query, those with nothing left to do, so their handlers load nothing).
        self.before_batch: Callable[[list[DueDeadline]], Awaitable[Any]] | None = None
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
            self._quietly_arm_window,
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
                        *self._ours(),
                    )
                )
            ).all()
        for deadline_id, due_at in rows:
            self.arm(deadline_id, due_at)
        return len(rows)

    def _ours(self) -> tuple[ColumnElement[bool], ...]:
        """The condition that keeps to this process's shards (none when unsharded)."""
        return () if self.shards is None else (on_shards(self.shards),)

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
            self._wake,
            trigger=DateTrigger(run_date=wake),
            args=[deadline_id],
            id=f"deadline:{deadline_id}",
            replace_existing=True,
        )

    def armed(self, deadline_id: int) -> bool:
        """Whether a wake is scheduled for this deadline."""
        return bool(self._scheduler.running and self._scheduler.get_job(f"deadline:{deadline_id}"))

    def disarm(self, deadline_id: int) -> None:
        """Forget a scheduled deadline (its row has been cancelled or moved)."""
        self._retry_at.pop(deadline_id, None)
        if self.armed(deadline_id):
            self._scheduler.remove_job(f"deadline:{deadline_id}")

    async def run_due(self) -> int:
        """Fire every pending deadline whose time has come by our clock, as one batch; how
        many were handled."""
        batch = await self._claim()
        outcomes = await asyncio.gather(*batch.values())
        return sum(outcomes)

    async def _wake(self, deadline_id: int) -> None:
        """The scheduler's job for one deadline: fire it. The bot stopping meanwhile is a
        shutdown, not an error: the row stays pending and fires again at the next start."""
        try:
            await self.fire(deadline_id)
        except asyncio.CancelledError:
            log.info(
                "deadline %s: the bot stopped while it fired; it stays pending and fires "
                "again at the next start",
                deadline_id,
            )

    async def _quietly_arm_window(self) -> None:
        """The scheduler's periodic job: arm the next window (a shutdown meanwhile is
        not an error: the next start arms it)."""
        try:
            await self.arm_window()
        except asyncio.CancelledError:
            log.info("the bot stopped while arming deadlines; the next start arms them")

    async def fire(self, deadline_id: int) -> bool:
        """Woken for one deadline: claim it with every other one due now (one batch), and
        whether this one's handler ran. A deadline already claimed is not claimed again: a
        wake for it waits for its outcome instead."""
        outcome = self._running.get(deadline_id)
        if outcome is None:
            outcome = (await self._claim(woken=deadline_id)).get(deadline_id)
            if outcome is None:
                return False  # not pending, or not due yet (armed again for its time)
        return await asyncio.shield(outcome)

    async def _claim(self, woken: int | None = None) -> dict[int, asyncio.Future[bool]]:
        """Claim every pending deadline due by our clock (not already running here) in one
        query and one conditional ``UPDATE``, start their handlers (at most ``AT_ONCE`` at a
        time) and return each one's outcome.

        The ``UPDATE`` records when each was started (``fired_at``) and marks a reminder
        fired: a restart never posts a reminder twice. A step or question stays pending until
        its handler is done (its handler is idempotent: a crash before the end fires it again
        harmlessly rather than losing it). Claims are one at a time, so two wakes in the same
        moment never claim the same row."""
        async with self._claiming:
            if woken is not None and woken in self._running:  # claimed while this one waited
                return {woken: self._running[woken]}
            now = self.clock.now()
            wanted = Deadline.due_at <= now
            if woken is not None:
                wanted = or_(wanted, Deadline.id == woken)
            async with self.db.read() as session:
                rows = (
                    await session.scalars(
                        select(Deadline)
                        .where(Deadline.status == DeadlineStatus.PENDING, wanted, *self._ours())
                        .order_by(Deadline.due_at, Deadline.id)
                    )
                ).all()
                found = [_due(r) for r in rows if r.id not in self._running]
            # A deadline whose handler failed waits for its retry (its own wake), not for the
            # next batch.
            found = [d for d in found if d.id == woken or self._retry_at.get(d.id, d.due_at) <= now]
            for due in found:
                if due.due_at > now:
                    self.arm(due.id, due.due_at)  # woken early (clock skew): wait for its time
            found = [d for d in found if d.due_at <= now]
            if not found:
                return {}
            claimed = await self._mark_started(found, now)
            for deadline_id in claimed - {woken}:
                # Its own wake would only find it claimed: one query each under this lock,
                # a thousand of them delaying the next batch (a failed handler is armed again).
                self.disarm(deadline_id)
            await self._before([d for d in found if d.id in claimed])
            loop = asyncio.get_running_loop()
            batch: dict[int, asyncio.Future[bool]] = {}
            for due in found:
                if due.id in claimed:
                    batch[due.id] = self._running[due.id] = loop.create_future()
            for due in found:
                if due.id in claimed:
                    task = asyncio.create_task(self._run(due, batch[due.id], now))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            if batch and self.after_batch is not None:
                done = asyncio.create_task(self._after(list(batch.values())))
                self._tasks.add(done)
                done.add_done_callback(self._tasks.discard)
            return batch

    async def _mark_started(self, found: list[DueDeadline], now: datetime) -> set[int]:
        """One conditional ``UPDATE``: each still pending deadline recorded started (a
        reminder also fired); the ids it claimed."""
        async with self.db.write() as session:
            return set(
                (
                    await session.scalars(
                        update(Deadline)
                        .where(
                            Deadline.id.in_([d.id for d in found]),
                            Deadline.status == DeadlineStatus.PENDING,
                        )
                        .values(
                            fired_at=now,
                            status=case(
                                (Deadline.kind == DeadlineKind.REMINDER, DeadlineStatus.FIRED),
                                else_=Deadline.status,
                            ),
                        )
                        .returning(Deadline.id)
                    )
                ).all()
            )

    async def _before(self, batch: list[DueDeadline]) -> None:
        """The work before a batch's handlers start; its failure only costs them time."""
        if self.before_batch is None or not batch:
            return
        try:
            await self.before_batch(batch)
        except Exception:  # each handler still finds out for itself
            log.exception("the work before a batch of deadlines failed")

    async def _after(self, outcomes: list[asyncio.Future[bool]]) -> None:
        await asyncio.gather(*outcomes, return_exceptions=True)
        assert self.after_batch is not None
        try:
            await self.after_batch()
        except Exception:
            log.exception("the work after a batch of deadlines failed")

    async def _run(
        self, due: DueDeadline, outcome: asyncio.Future[bool], started: datetime
    ) -> None:
        """One claimed deadline's handler, in a slot; its outcome is set when done."""
        token = FIRING.set(due.id)
        handled = False
        try:
            async with self._slots:
                handled = await self._handle(due, started)
        except Exception:  # marking it failed: it stays pending, retried like a failed handler
            log.exception("deadline %s (%s) could not be marked", due.id, due.kind.value)
            if due.kind is not DeadlineKind.REMINDER:
                self._retry_at[due.id] = self.clock.now() + RETRY_AFTER
                self.arm(due.id, self._retry_at[due.id])
        finally:
            FIRING.reset(token)
            self._running.pop(due.id, None)
            if not outcome.done():
                outcome.set_result(handled)

    async def _handle(self, due: DueDeadline, started: datetime) -> bool:
        try:
            await self.handler(due)
        except Exception:
            log.exception("deadline %s (%s) failed; retrying later", due.id, due.kind.value)
            if due.kind is not DeadlineKind.REMINDER:
                self._retry_at[due.id] = self.clock.now() + RETRY_AFTER
                self.arm(due.id, self._retry_at[due.id])
            return False
        self._retry_at.pop(due.id, None)
        if due.kind is not DeadlineKind.REMINDER:
            await self._mark_fired(due.id, started)
        return True

    async def _mark_fired(self, deadline_id: int, started: datetime) -> bool:
        """Mark a pending deadline fired (started at ``started``); False if it was no longer
        pending."""
        async with self.db.write() as session:
            result = await session.execute(
                update(Deadline)
                .where(Deadline.id == deadline_id, Deadline.status == DeadlineStatus.PENDING)
                .values(status=DeadlineStatus.FIRED, fired_at=started)
            )
            # SQLAlchemy's stubs type execute() as Result, but an UPDATE gives a CursorResult.
            return bool(result.rowcount)  # type: ignore[attr-defined]

"""The garbage collector's policy in the bot's process: start-up's heap settled once, one full
collection a period (``GC_REFRESH_MINUTES``, #38).

Python's full (generation 2) collection walks every object that has survived the younger
ones. In the bot's process those are mostly what start-up built (modules, rules tables, the
command tree: 100,000 to 140,000 objects), and each full collection took 80-136 ms, holding the
GIL while the event loop waited: every write transaction in flight held the database's write
lock that long, most of the lock's p99 (``python -m bench.scale``). ``gc.freeze()`` moves every
object alive now out of the collector's sight (a full collection then costs about 1 ms). The
collector never frees what is frozen, so once a period ``refresh`` unfreezes, collects and
freezes again: a cycle among frozen objects that has since become garbage is still freed (no
leak), and its one long collection happens once a period rather than every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from bot.clock import Clock

log = logging.getLogger(__name__)

GC_YOUNGEST = 2000  # objects allocated between collections of the youngest generation (700)
POLL_S = 30.0  # how often the refresh task looks at the clock (a comparison: nothing to it)


def settle() -> None:
    """Once start-up is done: free its garbage, then freeze what is left (alive at start-up,
    it lives as long as the process: the collector need never walk it again), and collect the
    youngest generation less often (start-up's churn no longer sets the pace)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])


def refresh() -> None:
    """One full collection of everything, frozen objects included, then freeze again: what
    became garbage since the last freeze is freed; the rest is out of sight once more."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class HeapPolicy:
    """Settles the heap when the bot is ready, then refreshes it every ``minutes`` by the
    bot's clock; 0 minutes: neither (a test process, or an operator who wants Python's own)."""

    def __init__(self, minutes: int, clock: Clock, poll_s: float = POLL_S) -> None:
        self.every = timedelta(minutes=minutes)
        self.clock = clock
        self.poll_s = poll_s
        self.due_at: datetime | None = None  # the next refresh; None until settled
        self.polls = 0  # looks at the clock, so a test can tell the task has looked
        self.refreshes = 0

    @property
    def enabled(self) -> bool:
        """Whether the policy is on (``GC_REFRESH_MINUTES`` above 0)."""
        return self.every > timedelta(0)

    def start(self) -> asyncio.Task[None] | None:
        """Settle the heap now and start refreshing it; the task to cancel on close (None
        when the policy is off)."""
        if not self.enabled:
            return None
        settle()
        self.due_at = self.clock.now() + self.every
        log.info("heap settled: %d objects frozen", gc.get_freeze_count())
        return asyncio.create_task(self.keep(), name="gc-refresh")

    def run_due(self) -> bool:
        """Refresh if the clock says it is time; whether it did."""
        self.polls += 1
        now = self.clock.now()
        if self.due_at is None or now < self.due_at:
            return False
        refresh()
        self.refreshes += 1
        self.due_at = now + self.every
        return True

    async def keep(self) -> None:
        """Look at the clock every ``poll_s`` seconds and refresh when due, until cancelled."""
        while True:
            await asyncio.sleep(self.poll_s)
            self.run_due()


@contextmanager
def put_back() -> Iterator[None]:
    """After the stretch, the collector as it was (nothing frozen, its thresholds): where a
    process lives on past it (a test's, a benchmark's), frozen objects would never be freed."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@contextmanager
def settled() -> Iterator[None]:
    """The heap settled for a stretch, then put back (``put_back``): for a benchmark that
    stands for the bot inside a process that lives on."""
    with put_back():
        settle()
        yield

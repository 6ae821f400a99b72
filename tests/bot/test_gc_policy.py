"""The garbage collector's policy (bot/gc_policy.py): start-up's heap frozen out of the
collector's sight, and a refresh that still frees what became garbage among frozen objects.

Each test puts the collector back as it found it (nothing frozen, its thresholds): a frozen
heap would outlive the test in this process."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from datetime import timedelta

import pytest
from pydantic import ValidationError

from bot.config import GC_REFRESH_MAX, Settings
from bot.gc_policy import GC_YOUNGEST, HeapPolicy, put_back, refresh, settle, settled
from tests.e2e.fake_clock import FakeClock


class Node:
    """One half of a reference cycle: freed only by the collector, never by reference counts."""

    other: Node | None = None


@pytest.fixture(autouse=True)
def collector_put_back() -> Iterator[None]:
    """Nothing frozen before the test; after it, nothing frozen and the thresholds restored."""
    gc.unfreeze()
    with put_back():
        yield


def a_cycle() -> weakref.ref[Node]:
    """A two-object cycle nothing else refers to once this returns; a weak reference to it."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_settle_freezes_what_is_alive_and_collects_the_youngest_less_often() -> None:
    assert gc.get_freeze_count() == 0
    settle()
    assert gc.get_freeze_count() > 10_000  # the test run's modules, at least
    assert gc.get_threshold()[0] == GC_YOUNGEST


def test_refresh_frees_a_cycle_that_was_alive_when_frozen() -> None:
    """Without refresh a frozen cycle that became garbage stays for good (a full collection
    does not see it); refresh frees it and freezes the rest again."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    gone = weakref.ref(first)
    settle()  # frozen while alive
    del first, second
    gc.collect()
    assert gone() is not None  # out of the collector's sight: kept
    refresh()
    assert gone() is None
    assert gc.get_freeze_count() > 10_000  # the rest frozen again


def test_a_cycle_made_and_dropped_after_settling_is_freed() -> None:
    settle()
    frozen = gc.get_freeze_count()
    gone = a_cycle()
    refresh()
    assert gone() is None
    assert gc.get_freeze_count() >= frozen - 1_000  # about as many: nothing lost but garbage


def test_the_policy_refreshes_only_when_due_by_the_clock() -> None:
    async def run() -> None:
        clock = FakeClock()
        policy = HeapPolicy(60, clock, poll_s=3600.0)
        task = policy.start()
        assert task is not None and gc.get_freeze_count() > 0
        try:
            clock.advance(timedelta(minutes=59))
            assert not policy.run_due() and policy.refreshes == 0
            gone = a_cycle()
            gc.freeze()  # as if frozen at start-up
            clock.advance(timedelta(minutes=1))
            assert policy.run_due() and policy.refreshes == 1
            assert gone() is None
            assert not policy.run_due()  # the next one is an hour on
        finally:
            task.cancel()

    asyncio.run(run())


def test_zero_minutes_turns_the_policy_off() -> None:
    policy = HeapPolicy(0, FakeClock())
    assert not policy.enabled
    assert policy.start() is None  # no task, and nothing frozen
    assert gc.get_freeze_count() == 0
    assert not policy.run_due()


def test_the_setting_defaults_to_an_hour_and_refuses_what_is_not_minutes() -> None:
    assert Settings().gc_refresh_minutes == 60
    assert Settings(gc_refresh_minutes=0).gc_refresh_minutes == 0
    for bad in (-1, GC_REFRESH_MAX + 1):
        with pytest.raises(ValidationError, match="gc_refresh_minutes"):
            Settings(gc_refresh_minutes=bad)


def test_settled_puts_the_collector_back() -> None:
    thresholds = gc.get_threshold()
    with settled():
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds

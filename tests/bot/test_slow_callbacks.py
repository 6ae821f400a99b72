"""The benchmarks' loop-callback timer (``bench.slow_callbacks``) sees a callback that holds
the loop, names it, and leaves asyncio as it found it."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from bench.slow_callbacks import LOGGED_MS, SlowCallbacks


def _hold(ms: float) -> None:
    """Keep the loop's thread busy for at least ``ms`` (no sleep: a real block)."""
    until = time.perf_counter() + ms / 1000
    while time.perf_counter() < until:
        pass


async def test_a_callback_that_holds_the_loop_is_timed_and_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    run = asyncio.events.Handle._run
    loop = asyncio.get_running_loop()
    with caplog.at_level(logging.WARNING, "bench.slow_callbacks"), SlowCallbacks(loop) as slow:
        loop.call_soon(_hold, LOGGED_MS + 10)
        await asyncio.sleep(0.05)
    assert max(slow.took_ms) >= LOGGED_MS + 10
    assert any("_hold" in record.getMessage() for record in caplog.records)
    assert asyncio.events.Handle._run is run  # put back as it was
    assert not loop.get_debug()  # timed without asyncio's debug mode (it slows every call)


async def test_a_quick_callback_is_not_kept() -> None:
    loop = asyncio.get_running_loop()
    with SlowCallbacks(loop) as slow:
        loop.call_soon(lambda: None)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    assert all(ms > 1.0 for ms in slow.took_ms)


def _collect_inside(ms: float) -> None:
    """Hold the loop ``ms``, a full garbage collection run in the middle."""
    _hold(ms / 2)
    gc.collect()
    _hold(ms / 2)


async def test_a_collection_inside_a_callback_is_told_apart_and_the_hook_removed() -> None:
    loop = asyncio.get_running_loop()
    hooks = list(gc.callbacks)
    with SlowCallbacks(loop) as slow:
        loop.call_soon(_collect_inside, 4.0)
        loop.call_soon(_hold, 4.0)
        await asyncio.sleep(0.05)
    collected = dict(zip(slow.took_ms, slow.collected_ms, strict=True))
    assert len(collected) >= 2
    assert max(collected.values()) > 0.0  # the callback that collected shows it
    assert min(collected.values()) == 0.0  # the one that only held the loop does not
    most, in_gc = slow.largest()
    assert most == max(slow.took_ms) and in_gc == collected[most]
    assert gc.callbacks == hooks  # the hook taken off again

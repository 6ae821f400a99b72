"""Drawing a replay never holds up the event loop: no loop callback does the drawing."""

from __future__ import annotations

import asyncio
import time
from asyncio.events import Handle

import pytest

from bot.rendering.replay import Frame, render_replay_async
from tests.rendering import states

SLOW_CPU = 0.020  # s: the longest a single loop callback may compute (the 20 ms)


def long_replay() -> list[Frame]:
    """A start and seven steps with moves, a shot and a combat: far over 20 ms to draw."""
    state, events = states.mid_battle()
    steps = [Frame(state, events, title=f"Turn {n} · Movement") for n in range(1, 8)]
    return [Frame(states.start()), *steps]


async def test_no_loop_callback_computes_for_20_ms_while_a_replay_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every callback the loop runs meanwhile is timed in CPU of the loop's thread (so a
    busy machine does not make it look slow), while a ticker keeps the loop turning."""
    costs: list[tuple[float, str]] = []
    run = Handle._run

    def timed(handle: Handle) -> None:
        started = time.thread_time()
        run(handle)
        costs.append((time.thread_time() - started, repr(handle)))

    drawing = True
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while drawing:
            await asyncio.sleep(0.001)
            ticks += 1

    monkeypatch.setattr(Handle, "_run", timed)
    probe = asyncio.create_task(ticker())
    made = await render_replay_async(long_replay(), width=600)
    drawing = False
    await probe
    monkeypatch.undo()
    assert made.frames == 8
    assert ticks > 0, "the loop never turned while the replay was drawn"
    worst = max(costs)
    assert worst[0] < SLOW_CPU, f"a loop callback computed {worst[0] * 1000:.0f} ms: {worst[1]}"

"""A pool of engine workers (#38): two battles' engine calls run at once in two workers, a
battle's calls all go to its own worker (so its paused resolution is resumed there), calls
without a battle go to the least busy worker; ``ENGINE_WORKERS`` is validated."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.services import resolving
from rules_core import engine, registry, resume
from rules_core.big_battles import big_battle, demo_answer, demo_orders
from rules_core.decisions import Answer
from rules_core.plugin import Rules
from rules_core.state import BattleState

SEED = b"engine-pool"
ONE, TWO = 10, 11  # two battles' ids, on two different workers of a pool of two


@pytest.fixture(params=["thread", "process"])
async def pool(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """Two engine workers, as threads or processes; one worker thread again afterwards."""
    resolving.configure(request.param, 2)
    await resolving.start()
    yield request.param
    await resolving.shutdown()
    resolving.configure("thread", 1)


# Run in the workers (crossing by module and name, as the bot's own calls do).


def where() -> tuple[int, int]:
    """The worker's process and thread."""
    return os.getpid(), threading.get_ident()


def meet(folder: str, me: str, other: str) -> str:
    """Say this call started, then wait until the other call has started too: two calls in
    one worker never meet (the first waits for a second that cannot start)."""
    Path(folder, me).touch()
    for _ in range(12_000):  # two minutes at most: a guard, not a timing
        if Path(folder, other).exists():
            return me
        time.sleep(0.01)
    raise AssertionError(f"{me} never met {other}: one worker ran both")


def held_until(path: str) -> tuple[int, int]:
    """Keep the worker busy until ``path`` exists."""
    while not Path(path).exists():
        time.sleep(0.01)
    return where()


def resumable(rules: Rules, seed: bytes, state: BattleState, given: Answer) -> bool:
    """Whether this worker keeps ``state``'s resolution paused (and resumes it now)."""
    return resume.resume(rules, seed, state, given) is not None


def forget() -> None:
    """Drop this worker's paused resolutions."""
    resume.forget()


async def test_two_battles_calls_run_at_once_on_two_workers(pool: str, tmp_path: Path) -> None:
    assert resolving.workers() == 2
    both = await asyncio.gather(
        resolving.off_loop_at(ONE, meet, str(tmp_path), "one", "two"),
        resolving.off_loop_at(TWO, meet, str(tmp_path), "two", "one"),
    )
    assert list(both) == ["one", "two"]  # both started before either ended


async def test_a_battles_calls_all_go_to_its_own_worker(pool: str) -> None:
    ones = {await resolving.off_loop_at(ONE, where) for _ in range(6)}
    twos = {await resolving.off_loop_at(TWO, where) for _ in range(6)}
    assert len(ones) == len(twos) == 1
    assert ones != twos
    if pool == "process":
        assert os.getpid() not in {pid for pid, _ in ones | twos}


async def test_a_call_without_a_battle_goes_to_the_worker_not_busy(
    pool: str, tmp_path: Path
) -> None:
    released = tmp_path / "released"
    busy = asyncio.create_task(resolving.off_loop_at(ONE, held_until, str(released)))
    while resolving.calls_waiting() < 1:  # the held call counts as soon as it is handed over
        await resolving.off_loop_at(TWO, where)
    try:  # a guard, not a timing: on the busy worker this call would wait for ever
        async with asyncio.timeout(120):
            free = await resolving.off_loop(where)
    finally:
        released.touch()
    assert free != await busy
    assert free == await resolving.off_loop_at(TWO, where)


async def test_a_call_without_a_battle_never_waits_for_busy_workers(
    pool: str, tmp_path: Path
) -> None:
    """An order's check (judging, inside its write) while every worker resolves a battle:
    it runs at once on the spare worker instead of queueing behind a resolution."""
    released = tmp_path / "released"
    busy = [
        asyncio.create_task(resolving.off_loop_at(key, held_until, str(released)))
        for key in (ONE, TWO)
    ]
    await asyncio.sleep(0)  # each task's first step hands its call over
    assert resolving.calls_waiting() == 2
    try:  # a guard, not a timing: behind a held worker this call would wait for ever
        async with asyncio.timeout(120):
            spare = await resolving.off_loop(where)
    finally:
        released.touch()
    held = {await call for call in busy}
    assert spare not in held
    assert len(held) == 2


async def test_a_paused_resolution_is_resumed_on_its_own_worker(pool: str) -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    for key in (ONE, TWO):
        await resolving.off_loop_at(key, forget)
    state = await resolving.off_loop_at(ONE, engine.begin, rules, big_battle(rules, 12))
    for _ in range(20):  # steps until one stops at a question
        if state.pending is not None:
            break
        orders = await resolving.off_loop_at(ONE, demo_orders, rules, state)
        state = (await resolving.off_loop_at(ONE, engine.run, rules, SEED, state, orders)).state
    assert state.pending is not None
    given = demo_answer(rules, state)
    assert not await resolving.off_loop_at(TWO, resumable, rules, SEED, state, given)
    assert await resolving.off_loop_at(ONE, resumable, rules, SEED, state, given)


def test_engine_workers_is_validated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file here
    monkeypatch.delenv("ENGINE_WORKERS", raising=False)
    assert Settings().engine_workers == min(os.cpu_count() or 1, 64)
    monkeypatch.setenv("ENGINE_WORKERS", "3")
    assert Settings().engine_workers == 3
    for wrong in ("0", "65", "many", "-2"):
        monkeypatch.setenv("ENGINE_WORKERS", wrong)
        with pytest.raises(ValidationError, match="engine_workers"):
            Settings()
    with pytest.raises(ValueError, match="ENGINE_WORKERS must be between 1 and 64, not 0"):
        resolving.configure("thread", 0)
    assert resolving.workers() == 1  # nothing changed

"""``ENGINE=process``: engine work runs in one long-lived worker process, crossing as plain
data; a paused resolution is resumed there; a worker that dies fails the call it was running
(nothing kept) and the next call starts another worker."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.db.models import Battle, BattleStatus, StageLog
from bot.engine_worker import dumps, loads, worker_pid
from bot.services import Services, resolving
from bot.services.campaigns import Place
from rules_core import engine, registry, resume
from rules_core.big_battles import big_battle, demo_answer, demo_orders
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM

SEED = b"engine-process"


@pytest.fixture
async def in_process() -> AsyncIterator[None]:
    """Engine work in a worker process for the test; the worker stopped afterwards."""
    resolving.configure("process")
    await resolving.start()
    yield
    await resolving.shutdown()


async def until(predicate: Callable[[], bool]) -> None:
    """Wait for something the test cannot be told of (a condition, not a duration)."""
    for _ in range(12_000):  # two minutes at most on a loaded machine
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def broken() -> bool:
    """Whether the worker process's pool knows its worker died."""
    pool = resolving._ENGINE.workers[0]._process
    return pool is not None and bool(pool._broken)  # type: ignore[attr-defined]


# Run in the worker (crossing by module and name, as the bot's own calls do).


def kept_paused() -> int:
    """How many paused resolutions the process keeps."""
    return len(resume._kept)


def held_until(path: str) -> None:
    """Keep the worker busy until ``path`` exists (a test kills it first)."""
    while not Path(path).exists():
        time.sleep(0.01)


def killed() -> None:
    """The worker dies in the middle of a call, as an out-of-memory kill would take it."""
    os.kill(os.getpid(), signal.SIGKILL)


async def play(rules: Rules, state: BattleState, calls: int) -> list[Resolution]:
    """Engine calls through ``off_loop`` as the bot makes them, each step's result kept."""
    made = []
    state = await resolving.off_loop(engine.begin, rules, state)
    for _ in range(calls):
        if state.outcome is not None:
            break
        if state.pending is not None:
            given = await resolving.off_loop(demo_answer, rules, state)
            result = await resolving.off_loop(resolving.answered, rules, SEED, state, given)
        else:
            orders = await resolving.off_loop(demo_orders, rules, state)
            result = await resolving.off_loop(engine.run, rules, SEED, state, orders)
        made.append(result)
        state = result.state
    return made


def test_rules_cross_by_their_id_and_states_without_what_is_kept_beside_them() -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    assert loads(dumps(rules)) is rules  # the registry's own object: resume checks identity
    assert pickle.loads(pickle.dumps(rules)) is not rules  # what plain pickling would give
    state = engine.begin(rules, big_battle(rules, 120))
    waiting = engine.waiting(rules, state)
    engine.run(rules, SEED, state, demo_orders(rules, state))  # footprints, contacts kept
    crossed = loads(dumps(state))
    assert crossed == state and crossed is not state
    assert crossed.__dict__["_waiting"] == (rules, waiting)  # the loop need not work it out
    assert crossed.__dict__["_waiting"][0] is rules
    fields = set(state.__dataclass_fields__)
    assert set(crossed.__dict__) - fields == {"_waiting"}
    for unit in crossed.units:
        assert set(unit.__dict__) == set(unit.__dataclass_fields__)


@pytest.mark.parametrize("ruleset_id", ["skirmish", "heroic_age"])
async def test_the_worker_process_plays_as_the_thread_does(
    ruleset_id: str, in_process: None
) -> None:
    rules = registry.get(ruleset_id).rules
    assert rules is not None
    assert await resolving.off_loop(worker_pid) != os.getpid()
    battle = big_battle(rules, 12)
    played = await play(rules, battle, 12)

    resolving.configure("thread")
    resume.forget()
    assert await resolving.off_loop(worker_pid) == os.getpid()
    assert await play(rules, battle, 12) == played
    assert len(played) == 12


async def test_an_answer_resumes_the_resolution_paused_in_the_worker(in_process: None) -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    await resolving.off_loop(resume.forget)
    state = await resolving.off_loop(engine.begin, rules, big_battle(rules, 12))
    for _ in range(20):  # steps until one stops at a question
        if state.pending is not None:
            break
        orders = await resolving.off_loop(demo_orders, rules, state)
        state = (await resolving.off_loop(engine.run, rules, SEED, state, orders)).state
    assert state.pending is not None
    asked = Resolution(state, (), ())
    assert await resolving.off_loop(kept_paused) == 1  # its resolver paused in the worker
    assert kept_paused() == 0  # not here

    given = demo_answer(rules, asked.state)
    answered = await resolving.off_loop(resolving.answered, rules, SEED, asked.state, given)
    assert await resolving.off_loop(kept_paused) == 0  # taken up: resumed, not replayed
    assert answered == resolving.answered(rules, SEED, asked.state, given)  # a replay here


async def test_a_worker_that_dies_fails_its_call_and_the_next_call_starts_another(
    in_process: None, tmp_path: Path
) -> None:
    first = await resolving.off_loop(worker_pid)
    with pytest.raises(resolving.EngineStopped) as stopped:
        await resolving.off_loop(killed)
    assert stopped.value.message.startswith("The rules engine stopped while working this out")
    second = await resolving.off_loop(worker_pid)
    assert second != first

    # A call waiting behind the one running fails with it; neither ran to its end.
    held = asyncio.ensure_future(resolving.off_loop(held_until, str(tmp_path / "never")))
    queued = asyncio.ensure_future(resolving.off_loop_at(0, worker_pid))  # the same worker
    await until(lambda: resolving.calls_waiting() == 2)
    os.kill(second, signal.SIGKILL)
    for call in (held, queued):
        with pytest.raises(resolving.EngineStopped):
            await call

    # Killed while idle: the next call finds it gone and is handed to a new worker.
    third = await resolving.off_loop(worker_pid)
    os.kill(third, signal.SIGKILL)
    await until(lambda: broken())  # the pool has seen it die (as it does at once)
    assert await resolving.off_loop(worker_pid) not in {first, second, third}


async def test_a_start_whose_worker_dies_rolls_back(
    services: Services, place: Place, in_process: None
) -> None:
    await deployed_battle(services, place)
    pid = await resolving.off_loop(worker_pid)
    held = asyncio.ensure_future(resolving.off_loop(held_until, "/nonexistent/never"))
    starting = asyncio.ensure_future(services.play.start(place, GM))
    await until(lambda: resolving.calls_waiting() == 2)  # the start's settle, behind it
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(resolving.EngineStopped):
        await starting
    with pytest.raises(resolving.EngineStopped):
        await held

    async with services.play.db.read() as session:
        battle = await session.get(Battle, 1)
        assert battle is not None
        assert battle.status is BattleStatus.SETUP and battle.stage == 0
        assert battle.initial_state is None
        assert (await session.get(StageLog, 1)) is None
    report = await services.play.start(place, GM)  # a new worker: the start goes through
    assert report.battle.stage == 1


async def test_shutdown_stops_the_worker_and_later_calls_run_in_a_thread(
    in_process: None,
) -> None:
    pid = await resolving.off_loop(worker_pid)
    assert pid in {p.pid for p in multiprocessing.active_children()}
    await resolving.shutdown()
    assert pid not in {p.pid for p in multiprocessing.active_children()}
    assert resolving.mode() == "thread"
    assert await resolving.off_loop(worker_pid) == os.getpid()


def test_the_setting_is_process_or_thread() -> None:
    with pytest.raises(ValueError, match="ENGINE must be one of process, thread"):
        resolving.configure("fork")

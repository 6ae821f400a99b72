"""Engine work runs away from the event loop, so a big step never freezes the bot.

A resolution calls it from a rehearsal in a read session (``bot.services.rehearsal``), so no
write lock is held while it awaits; other callers may still be inside a write (an order's
check). The event loop serves every other command meanwhile.
The engine is pure, so it is safe to run beside the loop.

Where it runs is the ``ENGINE`` setting (``configure``):

- ``process``: one long-lived worker process (``spawn``ed, started with the bot, started
  again if it dies). The engine's pure Python then holds that process's GIL, not the
  loop's: the loop only pickles the call and unpickles its result (about 1 ms each for a
  120-unit state). Work must be picklable by reference: module-level functions, a
  registered ruleset's rules (sent by id), states and orders as plain data
  (``bot.engine_worker``). If the worker dies while it works, the caller gets
  ``EngineStopped`` (its transaction rolls back, nothing is written) and the next call
  starts a new worker.
- ``thread``: one worker thread in the bot's own process. The GIL lets one thread of Python
  run at a time, so a long resolution still delays the loop by the GIL's switch interval,
  and more on a loaded machine.

Either way all engine work runs in one worker: a resolution stopped at a question is kept
paused there (``rules_core.resume``), and only that worker can resume it, so an answer goes
on from the question instead of replaying the step. (Map drawing keeps its own threads.)
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, ParamSpec, TypeVar

from bot.engine_worker import answered, call, defaulted, dumps, loads, worker_started
from bot.errors import Conflict
from bot.services import replay
from rules_core import registry, resume

__all__ = ["EngineStopped", "answered", "configure", "defaulted", "off_loop", "shutdown", "start"]

P = ParamSpec("P")
R = TypeVar("R")
Mode = Literal["process", "thread"]
MODES: tuple[Mode, ...] = ("process", "thread")

log = logging.getLogger(__name__)
CROSSINGS_KEPT = 1_000  # the loop's cost of the last calls to the worker process, kept

ENGINE_STOPPED = (
    "The rules engine stopped while working this out, so nothing was changed. "
    "Send the command again; if it keeps failing, tell whoever runs the bot."
)


class EngineStopped(Conflict):
    """The engine's worker process died during a call: nothing the call did was kept."""

    def __init__(self) -> None:
        super().__init__(ENGINE_STOPPED)


# -- the engine's worker -----------------------------------------------------------------


class _Engine:
    """The one worker all engine work runs in, as a thread or a process."""

    def __init__(self) -> None:
        self.mode: Mode = "thread"  # until the bot configures it: tests, the benchmark
        self._thread: ThreadPoolExecutor | None = None
        self._process: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.waiting = 0  # calls awaited now (only the loop's thread changes it)
        self.crossings: deque[float] = deque(maxlen=CROSSINGS_KEPT)

    def crossed(self, ms: float) -> None:
        """Note what one call to the worker process cost the loop."""
        self.crossings.append(ms)

    def thread_pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")
            return self._thread

    def process_pool(self) -> ProcessPoolExecutor:
        """The worker process's pool, started if there is none (or the last one broke)."""
        with self._lock:
            if self._process is None:
                context = multiprocessing.get_context("spawn")
                self._process = ProcessPoolExecutor(1, context, initializer=worker_started)
            return self._process

    def broken(self, pool: ProcessPoolExecutor) -> None:
        """Let go of a pool whose worker died; the next call starts another."""
        with self._lock:
            if self._process is pool:
                self._process = None
        pool.shutdown(wait=False, cancel_futures=True)

    def submit_to_process(self, payload: bytes) -> tuple[ProcessPoolExecutor, Future[bytes]]:
        """Hand a pickled call to the worker process; a worker found dead before it took the
        call is replaced and the call handed to the new one (nothing of it ran)."""
        pool = self.process_pool()
        try:
            return pool, pool.submit(call, payload)
        except BrokenProcessPool:
            self.broken(pool)
        pool = self.process_pool()
        return pool, pool.submit(call, payload)

    def pools(self) -> list[Executor]:
        with self._lock:
            found: list[Executor] = [p for p in (self._process, self._thread) if p is not None]
            self._process = self._thread = None
        return found


_ENGINE = _Engine()


def configure(mode: str) -> None:
    """Choose where engine work runs from now on: ``process`` or ``thread``."""
    if mode not in MODES:
        raise ValueError(f"ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    _ENGINE.mode = mode


def mode() -> Mode:
    """Where engine work runs now."""
    return _ENGINE.mode


async def start() -> None:
    """Start the worker now (the bot does, while it connects) rather than at the first
    resolution, and wait until the worker process has imported the rules."""
    if _ENGINE.mode == "thread":
        _ENGINE.thread_pool()
        return
    try:
        await off_loop(registry.discover)
    except EngineStopped:  # the next call starts another
        log.warning("the engine's worker process stopped while starting")


async def shutdown() -> None:
    """Stop the worker, after the call it is running (the bot closing). Later calls, if any,
    run in a new worker thread until ``configure`` chooses again."""
    _ENGINE.mode = "thread"
    pools = _ENGINE.pools()
    if pools:
        await asyncio.to_thread(_shut, pools)


def _shut(pools: list[Executor]) -> None:
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


async def off_loop(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``work`` in the engine's worker and wait for it without blocking the loop; in the
    write that keeps a rehearsed resolution, the rehearsal's result (``bot.services.replay``).

    With ``ENGINE=process``, ``work`` must be picklable by reference (a module-level function,
    or a method of a registered ruleset's rules) and its arguments and result plain data."""
    noted = replay.recall(work, args, kwargs)
    if noted is not replay.MISS:
        found: R = noted
        return found
    result = await _on_worker(work, *args, **kwargs)
    replay.note(work, args, kwargs, result)
    return result


async def _on_worker(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``work`` in the engine's worker."""
    _ENGINE.waiting += 1
    try:
        if _ENGINE.mode == "thread":
            bound = functools.partial(work, *args, **kwargs)
            return await asyncio.get_running_loop().run_in_executor(_ENGINE.thread_pool(), bound)
        began = time.thread_time()
        pool, future = _ENGINE.submit_to_process(dumps((work, args, kwargs)))
        spent = time.thread_time() - began
        try:
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool as error:
            _ENGINE.broken(pool)
            log.warning("the engine's worker process stopped during %s", _name(work))
            raise EngineStopped() from error
        began = time.thread_time()
        found: R = loads(result)  # what `work` returned, made again from its pickle
        _ENGINE.crossed((spent + time.thread_time() - began) * 1000)
        return found
    finally:
        _ENGINE.waiting -= 1


def crossing_ms() -> list[float]:
    """The event loop's own CPU time for each recent call to the worker process (pickling
    the call, unpickling its result), oldest first: what a call blocks the loop for."""
    return list(_ENGINE.crossings)


def calls_waiting() -> int:
    """Engine calls handed to the worker and not yet answered (running or queued)."""
    return _ENGINE.waiting


def _name(work: Callable[..., Any]) -> str:
    return getattr(work, "__qualname__", repr(work))


async def forget() -> None:
    """Drop every paused resolution where the engine runs (the benchmark's cold start)."""
    await off_loop(resume.forget)

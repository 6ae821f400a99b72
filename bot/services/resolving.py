"""Engine work runs away from the event loop, so a big step never freezes the bot.

A resolution calls it from a rehearsal in a read session (``bot.services.rehearsal``), so no
write lock is held while it awaits; other callers may still be inside a write (an order's
check). The event loop serves every other command meanwhile.
The engine is pure, so it is safe to run beside the loop.

Where it runs is the ``ENGINE`` setting, in ``ENGINE_WORKERS`` workers (``configure``):

- ``process``: long-lived worker processes (``spawn``ed, started with the bot, each started
  again if it dies). The engine's pure Python then holds its process's GIL, not the
  loop's: the loop only pickles the call and unpickles its result (about 1 ms each for a
  120-unit state). Work must be picklable by reference: module-level functions, a
  registered ruleset's rules (sent by id), states and orders as plain data
  (``bot.engine_worker``). If a worker dies while it works, the caller gets
  ``EngineStopped`` (its transaction rolls back, nothing is written) and the next call
  to that worker starts a new one.
- ``thread``: worker threads in the bot's own process. The GIL lets one thread of Python
  run at a time, so a long resolution still delays the loop by the GIL's switch interval,
  and more on a loaded machine; two threads' resolutions interleave rather than run at once.

A battle's calls go to one worker (``off_loop_at(battle_id, ...)``, the key's hash): a
resolution stopped at a question is kept paused in the worker that ran it
(``rules_core.resume``), and only that worker can resume it, so an answer goes on from the
question instead of replaying the step (a call that lands elsewhere replays: slower, the
same result). Two battles' resolutions run at once in two workers. Work that keeps nothing
(judging, odds) goes to an idle worker (``off_loop``), or when all are busy to a spare one
of its own, so an order's check inside its write never waits for another battle's
resolution. (Map drawing keeps its own threads.)
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, ParamSpec, TypeVar

from bot.config import ENGINE_WORKERS_MAX, ENGINE_WORKERS_MIN
from bot.engine_worker import answered, call, defaulted, dumps, loads, worker_started
from bot.errors import Conflict
from bot.lean_spawn import LeanSpawnContext
from bot.services import replay
from rules_core import registry, resume

__all__ = [
    "EngineStopped",
    "answered",
    "configure",
    "defaulted",
    "off_loop",
    "off_loop_at",
    "shutdown",
    "start",
]

P = ParamSpec("P")
R = TypeVar("R")
Mode = Literal["process", "thread"]
MODES: tuple[Mode, ...] = ("process", "thread")

log = logging.getLogger(__name__)
SPARE = -1  # the spare worker's index (work without a battle when every worker is busy)
CROSSINGS_KEPT = 1_000  # the loop's cost of the last calls to the worker process, kept

ENGINE_STOPPED = (
    "The rules engine stopped while working this out, so nothing was changed. "
    "Send the command again; if it keeps failing, tell whoever runs the bot."
)


class EngineStopped(Conflict):
    """The engine's worker process died during a call: nothing the call did was kept."""

    def __init__(self) -> None:
        super().__init__(ENGINE_STOPPED)


# -- the engine's workers ----------------------------------------------------------------


class _Worker:
    """One engine worker, as a thread or a process (a pool of one: a paused resolution is
    kept in the worker that paused it, so its calls must all go to that one worker)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self._thread: ThreadPoolExecutor | None = None
        self._process: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.waiting = 0  # calls awaited on this worker now (only the loop's thread changes it)

    def thread_pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._thread is None:
                name = f"engine-{self.index}"
                self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
            return self._thread

    def process_pool(self) -> ProcessPoolExecutor:
        """The worker process's pool, started if there is none (or the last one broke)."""
        with self._lock:
            if self._process is None:
                context = LeanSpawnContext()  # the worker imports the rules, not the bot
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


class _Engine:
    """The engine's workers (``ENGINE_WORKERS`` of them), as threads or processes."""

    def __init__(self) -> None:
        self.mode: Mode = "thread"  # until the bot configures it: tests, the benchmark
        self.workers = [_Worker(0)]  # one until configured
        # Work without a battle (an order's judging, often inside its write transaction)
        # never queues behind a battle's resolution: when every worker is busy it goes to
        # this spare one (started at its first such call), so a write waits milliseconds.
        self.spare = _Worker(SPARE)
        self.crossings: deque[float] = deque(maxlen=CROSSINGS_KEPT)

    def crossed(self, ms: float) -> None:
        """Note what one call to a worker process cost the loop."""
        self.crossings.append(ms)

    def worker(self, key: Hashable | None) -> _Worker:
        """The worker for ``key`` (always the same one for the same key while the pool
        lives), or (no key) the one with the fewest calls waiting."""
        if key is None:
            idle = min(self.workers, key=lambda worker: worker.waiting)
            return idle if idle.waiting == 0 or idle.waiting < self.spare.waiting else self.spare
        return self.workers[hash(key) % len(self.workers)]

    def pools(self) -> list[Executor]:
        return [pool for worker in (*self.workers, self.spare) for pool in worker.pools()]


_ENGINE = _Engine()


def configure(mode: str, workers: int | None = None) -> None:
    """Choose where engine work runs from now on: ``process`` or ``thread``, in ``workers``
    workers (None: as many as before). Call it before ``start``, not while calls run."""
    if mode not in MODES:
        raise ValueError(f"ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    if workers is not None:
        if not ENGINE_WORKERS_MIN <= workers <= ENGINE_WORKERS_MAX:
            raise ValueError(
                f"ENGINE_WORKERS must be between {ENGINE_WORKERS_MIN} and "
                f"{ENGINE_WORKERS_MAX}, not {workers}"
            )
        if workers != len(_ENGINE.workers):
            _shut_later(_ENGINE.pools())
            _ENGINE.workers = [_Worker(index) for index in range(workers)]
    _ENGINE.mode = mode


def _shut_later(pools: list[Executor]) -> None:
    """Let the old workers finish what they run, without waiting for them."""
    for pool in pools:
        pool.shutdown(wait=False)


def mode() -> Mode:
    """Where engine work runs now."""
    return _ENGINE.mode


def workers() -> int:
    """How many engine workers there are."""
    return len(_ENGINE.workers)


async def start() -> None:
    """Start the workers now (the bot does, while it connects) rather than at the first
    resolution, and wait until each worker process has imported the rules."""
    every = (*_ENGINE.workers, _ENGINE.spare)  # the spare too: it is wanted when all are busy
    if _ENGINE.mode == "thread":
        for worker in every:
            worker.thread_pool()
        return
    await asyncio.gather(*(_start(worker) for worker in every))


async def _start(worker: _Worker) -> None:
    try:
        await _run(worker, registry.discover, (), {})
    except EngineStopped:  # the next call starts another
        log.warning("engine worker %d's process stopped while starting", worker.index)


async def shutdown() -> None:
    """Stop the workers, after the calls they are running (the bot closing). Later calls, if
    any, run in new worker threads until ``configure`` chooses again."""
    _ENGINE.mode = "thread"
    pools = _ENGINE.pools()
    if pools:
        await asyncio.to_thread(_shut, pools)


def _shut(pools: list[Executor]) -> None:
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


async def off_loop(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``work`` in any engine worker (the least busy) and wait for it without blocking
    the loop: for work that keeps nothing in its worker (judging, odds, plans' previews). In
    the write that keeps a rehearsed resolution, the rehearsal's result
    (``bot.services.replay``).

    With ``ENGINE=process``, ``work`` must be picklable by reference (a module-level function,
    or a method of a registered ruleset's rules) and its arguments and result plain data."""
    return await _noted(None, work, args, kwargs)


async def off_loop_at(
    key: Hashable | None, work: Callable[P, R], *args: P.args, **kwargs: P.kwargs
) -> R:
    """``off_loop`` in the worker of ``key`` (a battle's id): every call for one battle runs
    in one worker, so a resolution paused at a question there is resumed there, and two
    battles' resolutions run at once in two workers.

    The key comes first because nothing may follow ``*args`` of a ParamSpec.
    """
    return await _noted(key, work, args, kwargs)


async def _noted(
    key: Hashable | None, work: Callable[..., R], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> R:
    """The rehearsal's result of ``work`` when the write replays one, else ``work`` run in
    ``key``'s worker (and noted, when a rehearsal is recording)."""
    noted = replay.recall(work, args, kwargs)
    if noted is not replay.MISS:
        found: R = noted
        return found
    result = await _run(_ENGINE.worker(key), work, args, kwargs)
    replay.note(work, args, kwargs, result)
    return result


async def _run(
    worker: _Worker, work: Callable[..., R], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> R:
    """Run ``work`` in ``worker``, a thread or a process as configured."""
    worker.waiting += 1
    try:
        if _ENGINE.mode == "thread":
            bound = functools.partial(work, *args, **kwargs)
            return await asyncio.get_running_loop().run_in_executor(worker.thread_pool(), bound)
        began = time.thread_time()
        pool, future = worker.submit_to_process(dumps((work, args, kwargs)))
        spent = time.thread_time() - began
        try:
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool as error:
            worker.broken(pool)
            log.warning("engine worker %d's process stopped during %s", worker.index, _name(work))
            raise EngineStopped() from error
        began = time.thread_time()
        found: R = loads(result)  # what `work` returned, made again from its pickle
        _ENGINE.crossed((spent + time.thread_time() - began) * 1000)
        return found
    finally:
        worker.waiting -= 1


def crossing_ms() -> list[float]:
    """The event loop's own CPU time for each recent call to the worker process (pickling
    the call, unpickling its result), oldest first: what a call blocks the loop for."""
    return list(_ENGINE.crossings)


def calls_waiting() -> int:
    """Engine calls handed to the workers and not yet answered (running or queued)."""
    return sum(worker.waiting for worker in (*_ENGINE.workers, _ENGINE.spare))


def _name(work: Callable[..., Any]) -> str:
    return getattr(work, "__qualname__", repr(work))


async def forget() -> None:
    """Drop every paused resolution in every worker (the benchmark's cold start)."""
    await asyncio.gather(*(_run(worker, resume.forget, (), {}) for worker in _ENGINE.workers))

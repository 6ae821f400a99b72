"""How long each callback of the event loop runs, in the benchmark only.

Every callback the loop runs goes through ``asyncio.events.Handle._run``; while in use, that
method is wrapped to time each run (wall time, on the loop's own thread), keep those over a
millisecond (``took_ms``) and log each one over ``LOGGED_MS`` by name. asyncio's own
slow-callback log is not used: it needs the loop's debug mode, which records a stack for every
callback and future made, and so lengthens the very callbacks it times (a hub poll of 1.5 ms
of CPU measured 27-38 ms under it, 9 ms without).

The garbage collector's passes on the loop's thread are timed too (``gc.callbacks``): a slow
callback's log says how much of it was a collection and of which generation, the cause of the
rare long callbacks no code of ours explains (a full collection walks every object the process
keeps, the decoded battles included).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

LOGGED_MS = 20.0  # callbacks over this are logged by name (#37: none while a battle resolves)
TIMED_MS = 1.0  # callbacks over this are kept; the largest of them is the figure

log = logging.getLogger("bench.slow_callbacks")
Run = Callable[[asyncio.Handle], None]


class SlowCallbacks:
    """While in use: how long each callback of ``loop`` over a millisecond took
    (``took_ms``), and a warning naming each one over ``LOGGED_MS``."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.took_ms: list[float] = []
        self.collected_ms: list[float] = []  # of each callback kept: its garbage collection
        self._original: Run | None = None
        self._collections = _Collections()

    def __enter__(self) -> SlowCallbacks:
        original: Run = asyncio.events.Handle._run
        self._original = original
        setattr(asyncio.events.Handle, "_run", self._timed(original))  # noqa: B010 - a method
        gc.callbacks.append(self._collections.noted)
        return self

    def _timed(self, original: Run) -> Callable[[asyncio.Handle], None]:
        """``Handle._run`` timed, for the callbacks of the loop's own thread only."""
        loop_thread = threading.get_ident()
        took, collected, collections = self.took_ms, self.collected_ms, self._collections

        def timed(handle: asyncio.Handle) -> None:
            if threading.get_ident() != loop_thread:
                original(handle)
                return
            began, gc_before = time.perf_counter(), collections.spent_ms
            try:
                original(handle)
            finally:
                ms = (time.perf_counter() - began) * 1000
                if ms > TIMED_MS:
                    in_gc = collections.spent_ms - gc_before
                    took.append(ms)
                    collected.append(in_gc)
                    if ms > LOGGED_MS:
                        log.warning(
                            "a loop callback took %.1f ms (%.1f ms of it garbage collection, "
                            "generation %s): %s",
                            ms,
                            in_gc,
                            collections.last_generation,
                            _named(handle),
                        )

        return timed

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._original is not None:
            setattr(asyncio.events.Handle, "_run", self._original)  # noqa: B010 - a method
            self._original = None
        if self._collections.noted in gc.callbacks:
            gc.callbacks.remove(self._collections.noted)

    def largest(self) -> tuple[float, float]:
        """The largest callback kept and how much of it was garbage collection (ms)."""
        if not self.took_ms:
            return 0.0, 0.0
        index = max(range(len(self.took_ms)), key=self.took_ms.__getitem__)
        return self.took_ms[index], self.collected_ms[index]


class _Collections:
    """The garbage collector's time on the thread that made this (the loop's), summed."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()
        self.spent_ms = 0.0
        self.last_generation: int | None = None
        self._began = 0.0

    def noted(self, phase: str, info: dict[str, int]) -> None:
        """``gc.callbacks``' hook: a collection starts or stops."""
        if threading.get_ident() != self.thread:
            return
        if phase == "start":
            self._began = time.perf_counter()
            self.last_generation = info.get("generation")
        elif self._began:
            self.spent_ms += (time.perf_counter() - self._began) * 1000
            self._began = 0.0


def _named(handle: asyncio.Handle) -> str:
    """What a callback runs, as asyncio names it (the task it steps, when it steps one)."""
    callback: Any = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    return repr(task if isinstance(task, asyncio.Task) else handle)

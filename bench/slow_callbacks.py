"""How long each callback of the event loop runs, in the benchmark only.

Every callback the loop runs goes through ``asyncio.events.Handle._run``; while in use, that
method is wrapped to time each run (wall time, on the loop's own thread), keep those over a
millisecond (``took_ms``) and log each one over ``LOGGED_MS`` by name. asyncio's own
slow-callback log is not used: it needs the loop's debug mode, which records a stack for every
callback and future made, and so lengthens the very callbacks it times (a hub poll of 1.5 ms
of CPU measured 27-38 ms under it, 9 ms without).
"""

from __future__ import annotations

import asyncio
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
        self._original: Run | None = None

    def __enter__(self) -> SlowCallbacks:
        original: Run = asyncio.events.Handle._run
        self._original = original
        setattr(asyncio.events.Handle, "_run", self._timed(original))  # noqa: B010 - a method
        return self

    def _timed(self, original: Run) -> Callable[[asyncio.Handle], None]:
        """``Handle._run`` timed, for the callbacks of the loop's own thread only."""
        loop_thread = threading.get_ident()
        took = self.took_ms

        def timed(handle: asyncio.Handle) -> None:
            if threading.get_ident() != loop_thread:
                original(handle)
                return
            began = time.perf_counter()
            try:
                original(handle)
            finally:
                ms = (time.perf_counter() - began) * 1000
                if ms > TIMED_MS:
                    took.append(ms)
                    if ms > LOGGED_MS:
                        log.warning("a loop callback took %.1f ms: %s", ms, _named(handle))

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


def _named(handle: asyncio.Handle) -> str:
    """What a callback runs, as asyncio names it (the task it steps, when it steps one)."""
    callback: Any = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    return repr(task if isinstance(task, asyncio.Task) else handle)

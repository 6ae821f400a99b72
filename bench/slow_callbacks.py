"""asyncio's own slow-callback log, in the benchmark only: debug mode times every callback
the loop runs and logs each one over ``slow_callback_duration``, naming it."""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType

LOGGED_MS = 20.0  # callbacks over this are logged by name (#37: none while a battle resolves)
TIMED_S = 0.001  # asyncio reports callbacks over this; the largest of them is the figure

log = logging.getLogger("bench.slow_callbacks")


class SlowCallbacks(logging.Handler):
    """While in use: the loop in debug mode, how long each callback over a millisecond took
    (``took_ms``), and a warning naming each one over ``LOGGED_MS``."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logging.WARNING)
        self.loop = loop
        self.took_ms: list[float] = []
        self._was = (loop.get_debug(), loop.slow_callback_duration)
        self._asyncio = logging.getLogger("asyncio")
        self._propagated = self._asyncio.propagate

    def __enter__(self) -> SlowCallbacks:
        self.loop.set_debug(True)
        self.loop.slow_callback_duration = TIMED_S
        self._asyncio.addHandler(self)
        self._asyncio.propagate = False  # the many callbacks over 1 ms are not news
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._asyncio.removeHandler(self)
        self._asyncio.propagate = self._propagated
        self.loop.set_debug(self._was[0])
        self.loop.slow_callback_duration = self._was[1]

    def emit(self, record: logging.LogRecord) -> None:
        """Keep a slow callback's time; name it when it is over ``LOGGED_MS``."""
        if not record.msg.startswith("Executing") or not isinstance(record.args, tuple):
            logging.getLogger().handle(record)  # asyncio's other warnings, as usual
            return
        handle, took_s = record.args
        took_ms = float(took_s) * 1000  # type: ignore[arg-type]
        self.took_ms.append(took_ms)
        if took_ms > LOGGED_MS:
            log.warning("a loop callback took %.1f ms: %s", took_ms, handle)

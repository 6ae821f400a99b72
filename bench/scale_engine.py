"""Where ``bench.scale``'s engine work runs: as the bot runs it (``ENGINE=process``, one
worker per core, ``bot.config``'s defaults) unless told otherwise, since an engine thread
shares the event loop's GIL and would measure a bot nobody runs by default."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.config import ENGINE_WORKERS_MAX
from bot.services import resolving

DEFAULT_MODE = "process"  # the bot's ENGINE default (bot.config.Settings.engine)


def default_workers() -> int:
    """The bot's ENGINE_WORKERS default: one per core."""
    return min(os.cpu_count() or 1, ENGINE_WORKERS_MAX)


@asynccontextmanager
async def engine_as(mode: str, workers: int) -> AsyncIterator[None]:
    """The engine's workers configured and started, as the bot does; one thread after."""
    resolving.configure(mode, workers)
    await resolving.start()
    try:
        yield
    finally:
        await resolving.shutdown()
        resolving.configure("thread", 1)


__all__ = ["DEFAULT_MODE", "default_workers", "engine_as"]

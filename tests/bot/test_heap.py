"""The C heap's free memory is handed back to the system (bot/heap.py)."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import sys
import threading
from pathlib import Path

import pytest

from bench.memory import status_mb
from bot import heap
from bot.client import AideBot
from bot.config import Settings

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not heap.AVAILABLE, reason="glibc only"
)

_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]


def _fragment(megabytes: int) -> None:
    """Allocate ``megabytes`` in small blocks and free all but the last: the heap's top is
    held, so malloc gives none of it back by itself."""
    blocks = [_libc.malloc(1024) for _ in range(megabytes * 1024)]
    for block in blocks:
        ctypes.memset(block, 1, 1024)  # touched: resident
    for block in blocks[:-1]:
        _libc.free(block)


def test_trim_hands_back_free_heap_memory() -> None:
    worker = threading.Thread(target=_fragment, args=(40,))
    worker.start()
    worker.join()
    before = status_mb("VmRSS")
    assert heap.trim()
    after = status_mb("VmRSS")
    assert before - after >= 30, (before, after)


def test_the_arenas_are_limited() -> None:
    assert heap.limit_arenas()


async def test_trim_forever_trims_until_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    third = asyncio.Event()
    loop = asyncio.get_running_loop()

    def counted() -> bool:
        trims.append(1)
        if len(trims) == 3:
            loop.call_soon_threadsafe(third.set)
        return True

    monkeypatch.setattr(heap, "trim", counted)
    task = asyncio.create_task(heap.trim_forever(0.01))
    await asyncio.wait_for(third.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_bot_keeps_no_message_cache(tmp_path: Path) -> None:
    bot = AideBot(Settings(discord_token="x", database_url=f"sqlite+aiosqlite:///{tmp_path}/a.db"))
    try:
        assert bot._connection.max_messages is None
        assert bot._connection._messages is None
    finally:
        await bot.db.dispose()

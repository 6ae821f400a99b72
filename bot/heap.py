"""The C heap under the bot's process: what glibc's malloc keeps resident after a burst.

A burst of commands runs on many threads at once (each SQLite connection has its own thread
in aiosqlite, renders run in worker threads), and glibc gives each thread a heap (an arena)
of its own. Memory freed there stays resident: after a burst of 100 commands about 20 MB
of the bot's resident memory was free space in those heaps. Fewer arenas and trimming the
heaps when the bot is quiet hand it back. On a C library other than glibc (musl, macOS)
both are no-ops.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

ARENAS = 2  # glibc's heaps shared by all threads (its default: eight per core)
TRIM_EVERY_S = 10.0  # how often the free top of each heap is handed back to the system
_M_ARENA_MAX = -8  # mallopt's parameter number (glibc's malloc.h)


def _glibc() -> ctypes.CDLL | None:
    """The C library if it is glibc (it has ``malloc_trim``), else None."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


_LIBC = _glibc()
AVAILABLE = _LIBC is not None  # glibc: the heap can be limited and trimmed


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Let threads started from now on share ``arenas`` heaps; True if glibc took it."""
    return _LIBC is not None and bool(_LIBC.mallopt(_M_ARENA_MAX, arenas))


def trim() -> bool:
    """Hand the heaps' free memory back to the system; True if any was."""
    return _LIBC is not None and bool(_LIBC.malloc_trim(0))


async def trim_forever(every_s: float = TRIM_EVERY_S) -> None:
    """Trim the heaps every ``every_s`` seconds, in a worker thread (a trim walks every
    heap: a few milliseconds the event loop need not wait for)."""
    while True:
        await asyncio.sleep(every_s)
        try:
            await asyncio.to_thread(trim)
        except RuntimeError:  # the executor shut down: the bot is closing
            return

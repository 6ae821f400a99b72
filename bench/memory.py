"""Resident memory for the benchmark: the bot's process with the fake Discord's objects
measured apart, and the engine's worker process."""

from __future__ import annotations

import gc
import os
import sys
import types
from pathlib import Path
from typing import Any

# Objects shared with everything else (code, classes, modules, the event loop and its tasks):
# a walk from the fake Discord's data stops there, so it counts the fake's data, not the bot.
_SHARED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.FrameType,
)


def status_mb(field: str, pid: int | str = "self") -> float:
    """A memory line (``VmRSS``: resident now, ``VmHWM``: its peak) of a process, in MB."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker_pids() -> list[int]:
    """This process's children started by multiprocessing's spawn: the engine's worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


def objects_mb(*roots: Any) -> float:
    """The size of everything reachable from ``roots`` (not code, classes, modules, nor the
    event loop's own objects), in MB: an object counted once."""
    seen: set[int] = set()
    stack = list(roots)
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, _SHARED) or _is_loop_object(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total / (1024 * 1024)


def _is_loop_object(item: Any) -> bool:
    """The event loop, its tasks and futures: shared with the bot."""
    name = type(item).__module__
    return name.startswith(("asyncio", "_asyncio", "concurrent", "selectors", "aiohttp"))

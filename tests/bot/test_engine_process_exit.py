"""The engine's worker process lives and dies with the bot, on a real bot process
(``ENGINE=process``): started with it, stopped by SIGTERM's graceful close, and gone by
itself when the bot is killed outright (no orphan left holding 90 MB), every worker of the
pool (#38)."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from tests.e2e.process_harness import SETTLE_TIMEOUT, ProcessBot
from tools.fake_discord import World

SEED = bytes(range(32))
PROC = Path("/proc")
pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="reads processes from /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid; None once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Whether the process still runs (a zombie waiting to be reaped has ended)."""
    found = _stat(pid)
    return found is not None and found[0] != "Z"


def engine_workers(parent: int) -> list[int]:
    """The bot's engine worker processes: its spawned children (not the resource tracker)."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is None or stat[1] != parent:
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in command and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


async def until(predicate: object, what: str) -> None:
    """Wait for a condition (not a duration), at most SETTLE_TIMEOUT."""
    assert callable(predicate)
    for _ in range(int(SETTLE_TIMEOUT * 100)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
async def test_the_worker_ends_with_the_bot(tmp_path: Path, how: signal.Signals) -> None:
    pb = ProcessBot(tmp_path, World(), SEED, env={"ENGINE": "process", "ENGINE_WORKERS": "2"})
    await pb.open()
    try:
        assert await pb.start()
        bot = pb.pid
        assert bot is not None
        workers = engine_workers(bot)  # started with the bot, before it was ready
        assert len(workers) == 2 + 1  # and the spare, for work of no battle when all are busy
        os.kill(bot, how)
        await asyncio.wait_for(pb._exited.wait(), SETTLE_TIMEOUT)
        assert pb.exits == [0 if how is signal.SIGTERM else -9]
        await until(lambda: not any(map(alive, workers)), "the workers have ended")
    finally:
        await pb.close()

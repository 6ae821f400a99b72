"""Liveness for a container: the bot touches a heartbeat file; ``python -m bot.health`` checks it.

The bot writes the file every ``BEAT_SECONDS`` while it is connected to Discord and its
database answers, so a stale or missing file means the process hangs, has lost the gateway
(every one of its shards, when sharded) or cannot reach its database. Docker's HEALTHCHECK runs this
module; it exits 0 when the last beat is recent and 1 (with one line saying why) otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

BEAT_SECONDS = 30
STALE_SECONDS = 120
HELP = (
    "Check that the running bot is healthy: exit 0 if the heartbeat file named by "
    f"HEARTBEAT_FILE was touched in the last {STALE_SECONDS} s, else exit 1 with one line "
    "saying why. Docker's HEALTHCHECK runs this."
)


async def beat_forever(
    path: Path,
    connected: Callable[[], bool],
    database_ok: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """Touch the heartbeat file every BEAT_SECONDS while ``connected()`` says so and
    ``database_ok()`` (if given) answers True within the beat."""
    while True:
        if connected() and (database_ok is None or await _answers(database_ok)):
            path.touch()  # noqa: ASYNC240 - a microsecond, every 30 s
        await asyncio.sleep(BEAT_SECONDS)


async def _answers(check: Callable[[], Awaitable[bool]]) -> bool:
    """Whether the check says yes within ``BEAT_SECONDS`` (an error or a hang is a no)."""
    try:
        return await asyncio.wait_for(check(), BEAT_SECONDS)
    except Exception:
        return False


def problem(path: Path, now: float | None = None) -> str | None:
    """Why the bot looks unhealthy from its heartbeat file; None if the last beat is recent."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot has not connected to Discord yet"
    if age > STALE_SECONDS:
        return f"last heartbeat {age:.0f} s ago: the bot is stuck or disconnected"
    return None


def main(argv: list[str] | None = None) -> int:
    """Exit 0 if the heartbeat named by HEARTBEAT_FILE is fresh, else 1 with the reason."""
    parser = argparse.ArgumentParser(prog="python -m bot.health", description=HELP)
    parser.parse_args(argv)
    from bot.config import Settings  # lazy: the beat loop in the bot never needs pydantic

    setting = Settings().heartbeat_file
    if not setting:
        print("HEARTBEAT_FILE is not set, so there is no heartbeat to check", file=sys.stderr)
        return 1
    found = problem(Path(setting))
    if found is not None:
        print(found, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How command throughput grows with bot processes: ``python -m tests.e2e.shard_bench``.

The same servers (two per shard, a running skirmish battle in each) are served first by one
process with both shards, then by two processes with one shard each, on one database
(PostgreSQL from TEST_POSTGRES_URL or a throwaway ``.ci/postgres`` cluster; ``--sqlite`` for
a SQLite file). A burst of ``--burst`` commands (the live benchmark's mix: status, orders,
terrain) is sent at once, spread over the servers, ``--rounds`` times after one warm-up burst; the
figure is commands answered per second (the burst size over the time until its last
answer), best round. The
fake Discord runs in this process and costs CPU too: on a machine with few cores the figure
is a lower bound of what real processes on their own cores would do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.fake_discord.interactions import command_interaction

_MIX: tuple[tuple[str, dict[str, Any]], ...] = (
    ("battle status", {}),
    ("orders mine", {}),
    ("battle status", {}),
    ("battle terrain list", {}),
)


async def _burst(fleet: Any, channels: list[str], size: int) -> float:
    """Commands answered per second for one burst of ``size``."""
    world = fleet.world
    payloads = []
    for i in range(size):
        where = world.channel(channels[i % len(channels)])
        user = world.alice if i % 2 else world.bob
        command, options = _MIX[i % len(_MIX)]
        payloads.append(command_interaction(fleet.fake, user, where, command, dict(options)))
    began = time.perf_counter()
    records = await asyncio.gather(*(fleet.fake.send_interaction(p, None) for p in payloads))
    await fleet.fake.wait_until(
        lambda: all(r.callbacks and (r.original or r.followups) for r in records),
        300.0,
        "every answer of the burst",
    )
    return size / (time.perf_counter() - began)


async def _measure(url: str, burst: int, rounds: int) -> dict[str, float]:
    from tests.e2e.test_shards import Fleet, set_up_battle, shards_world

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="aide-shard-bench-") as folder:
        world, by_shard = shards_world()
        channels = [name for names in by_shard.values() for name in names]
        fleet = Fleet(Path(folder), world, url)
        await fleet.open()
        try:
            await fleet.start("a", "0,1")
            for name in channels:
                await set_up_battle(fleet, name)
            await fleet.bots["a"].settle()
            await _burst(fleet, channels, burst)  # warm-up (caches, pools), not counted
            one = [await _burst(fleet, channels, burst) for _ in range(rounds)]
            figures["1 process, 2 shards"] = max(one)
            await fleet.bots["a"].stop()
            await asyncio.gather(fleet.start("a", "0"), fleet.start("b", "1"))
            await _burst(fleet, channels, burst)  # warm-up, not counted
            two = [await _burst(fleet, channels, burst) for _ in range(rounds)]
            figures["2 processes, 1 shard each"] = max(two)
        finally:
            await fleet.close()
    return figures


@contextlib.contextmanager
def _postgres() -> Any:
    given = os.environ.get("TEST_POSTGRES_URL")
    if given:
        yield given
        return
    from tests.e2e.test_shards import ROOT, _free_port

    env = {**os.environ, "POSTGRES_PORT": str(_free_port())}
    script = str(ROOT / ".ci" / "postgres")
    out = subprocess.run([script, "start"], env=env, capture_output=True, text=True, check=True)
    url = next(
        line.split("=", 1)[1]
        for line in out.stdout.splitlines()
        if line.startswith("export TEST_POSTGRES_URL=")
    )
    try:
        yield url
    finally:
        subprocess.run([script, "stop"], env=env, capture_output=True, check=False)


async def _main(args: argparse.Namespace) -> dict[str, float]:
    from tests.e2e.test_shards import fresh_postgres

    if args.sqlite:
        with tempfile.TemporaryDirectory() as folder:
            return await _measure(f"sqlite+aiosqlite:///{folder}/aide.db", args.burst, args.rounds)
    with _postgres() as server:
        async with fresh_postgres(server) as url:
            return await _measure(url, args.burst, args.rounds)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.e2e.shard_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--burst", type=int, default=100, help="commands sent at once")
    parser.add_argument("--rounds", type=int, default=3, help="bursts per configuration")
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    args = parser.parse_args()
    figures = asyncio.run(_main(args))
    cores = os.cpu_count()
    print(f"commands answered per second (burst of {args.burst}, best of {args.rounds}; "
          f"{cores} cores, load {os.getloadavg()[0]:.1f}):")  # fmt: skip
    for name, value in figures.items():
        print(f"  {name:28} {value:7.1f}/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

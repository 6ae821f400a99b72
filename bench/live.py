"""The bot measured from outside: the real client against the e2e fake Discord, on a SQLite file.

``python -m bench.live [--smoke] [--json PATH]`` runs in a process of its own (the
benchmark starts it), so its resident memory is the bot's (and the fake Discord's, which
shares the process: the figure is an upper bound). It sets up campaigns and skirmish battles
through slash commands, then measures:

- interaction latency (the fake's time from sending an interaction to the bot's first
  answer) one at a time, and in bursts of 10 and 100 sent at once;
- deadlines: start-up with many open deadlines, and many due in the same two seconds (the
  time from each one's due moment until its handler started);
- resident memory with the campaigns and battles in progress;
- growth: a command's cost with many finished battles and a long history beside none.

It needs the test extra (aiohttp, for the fake Discord in ``tools/fake_discord``) and a
repository checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select

from bench.memory import objects_mb, status_mb, worker_pids
from bench.report import Figure
from bench.scale import database
from bot.client import AideBot
from bot.clock import SystemClock
from bot.config import Settings
from bot.db.models import (
    Battle,
    BattleStatus,
    Campaign,
    Deadline,
    DeadlineKind,
    RecordEntry,
    StageLog,
)
from bot.heap import TRIM_EVERY_S
from tools.fake_discord import World
from tools.fake_discord.interactions import command_interaction
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle


@dataclass(frozen=True)
class Sizes:
    """How much the live benchmark sets up and sends."""

    campaigns: int
    battles: int
    singles: int
    bursts: tuple[int, ...]
    open_deadlines: int
    due_deadlines: int
    finished_battles: int
    history: int
    rest_s: float = 0.0  # quiet time before memory is measured again "at rest"


# At rest: long enough for the bot to trim its heap once (bot/heap.py).
FULL = Sizes(1_000, 100, 200, (10, 100), 10_000, 1_000, 10_000, 10_000, TRIM_EVERY_S + 1)
SMOKE = Sizes(3, 1, 3, (3,), 20, 5, 20, 20)

# The targets.
SINGLE_P99_MS = 20.0
BURST_P99_MS = 300.0  # #37: a burst of 100 commands, p99
LOOP_CPU_MS = 3.0  # #37: the loop's CPU per command, median
STARTUP_S = 1.0
ALL_STARTED_S = 1.0
MEMORY_MB = 150.0
WORKER_MB = 80.0  # #37: the engine's worker process
GROWTH = 1.5  # "does not grow": at most this much slower with the big database


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def resident_mb() -> float:
    """This process's resident memory (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Live:
    """A harness with the real bot, and the measurements made through it."""

    def __init__(self, sizes: Sizes, folder: Path, database_url: str | None = None) -> None:
        self.sizes = sizes
        self.folder = folder
        self.url = database_url or f"sqlite+aiosqlite:///{folder / 'bench.db'}"
        self.world = World()
        count = max(sizes.campaigns, sizes.battles)
        self.channels = [
            self.world.add_channel(FakeChannel(f"bench-{i}", self.world.guild_id, position=9 + i))
            for i in range(count)
        ]
        self.started_at: dict[int, float] = {}
        self.database = "PostgreSQL" if self.url.startswith("postgresql") else "SQLite"
        self.loop_cpu_ms: list[float] = []  # the loop thread's CPU per single command
        self.h: Any = None

    async def start(self) -> None:
        """Start the fake Discord and the real bot on a new database."""
        settings = Settings(
            discord_token="fake-token",
            database_url=self.url,
            dev_guild_id=self.world.guild_id,
            log_level="WARNING",
            web_enabled=False,
            gc_refresh_minutes=0,  # as it was measured; may run inside a test's process
        )

        def build() -> Any:
            return AideBot(settings, clock=SystemClock(), guild_ready_timeout=0.05)

        self.h = Harness(build, self.world, timeout=60.0)
        await self.h.start()

    async def close(self) -> None:
        """Stop the bot and the fake."""
        if self.h is not None:
            await self.h.close()

    # -- setting up ----------------------------------------------------------------------
    async def set_up(self) -> None:
        """The battles (each in its own campaign, running), then campaigns up to the count."""
        h = self.h
        for where in self.channels[: self.sizes.battles]:
            await set_up_battle(h, where)
            started = await h.slash(h.gm, "battle start", channel=where)
            assert not started.ephemeral, started
        for i, where in enumerate(self.channels[self.sizes.battles : self.sizes.campaigns]):
            made = await h.slash(
                h.gm, "campaign create", channel=where, name=f"Bench {i}", ruleset="skirmish"
            )
            assert not made.ephemeral, made

    async def settled(self, quiet: float = 2.0, give_up: float = 120.0) -> None:
        """Wait until nothing is left to post and the fake has had no new message for
        ``quiet`` seconds: interactions are measured on a bot at rest, not posting maps."""
        h = self.h
        until = time.monotonic() + give_up
        seen, since = len(h.fake.messages), time.monotonic()
        while time.monotonic() < until:
            await asyncio.sleep(0.25)
            if len(h.fake.messages) != seen:
                seen, since = len(h.fake.messages), time.monotonic()
            elif time.monotonic() - since >= quiet and not await h.bot.services.outbox.pending():
                return

    # -- interactions --------------------------------------------------------------------
    async def status_latency(self, count: int, where: Any = None) -> list[float]:
        """Latency in ms of ``count`` ``/battle status`` sent one at a time over the battles."""
        h = self.h
        found = []
        for i in range(count):
            channel = where or self.channels[i % self.sizes.battles]
            user = h.alice if i % 2 else h.bob
            began = time.thread_time()  # the loop's thread: the bot's and the fake's work
            done = await h.slash(user, "battle status", channel=channel)
            self.loop_cpu_ms.append((time.thread_time() - began) * 1000)
            found.append(_answered_ms(done))
        return found

    async def burst(self, count: int) -> list[float]:
        """Latency in ms of ``count`` interactions sent at once (status, orders and lists)."""
        h = self.h
        payloads = []
        for i in range(count):
            where = self.channels[i % self.sizes.battles]
            user = h.alice if i % 2 else h.bob
            command, options = _BURST_MIX[i % len(_BURST_MIX)]
            payloads.append(command_interaction(h.fake, user, where, command, dict(options)))
        # Sent straight to the fake (the harness's send fails an answer later than Discord's
        # 3 s, which a loaded machine may give): every answer is waited for and timed.
        records = await asyncio.gather(*(h.fake.send_interaction(p, None) for p in payloads))
        await h.fake.wait_until(
            lambda: all(r.callbacks for r in records), 120.0, "every answer of the burst"
        )
        await h._handlers_done()
        h.check()
        return [float(r.answered_after or 0.0) * 1000 for r in records]

    # -- deadlines -------------------------------------------------------------------------
    async def _battle_ids(self) -> list[int]:
        async with self.h.bot.db.read() as session:
            return list(
                (
                    await session.scalars(
                        select(Battle.id).where(Battle.status != BattleStatus.FINISHED)
                    )
                ).all()
            )

    async def _add_deadlines(self, count: int, first: datetime, spread: timedelta) -> list[int]:
        """``count`` reminder deadlines of the running battles, due from ``first`` over
        ``spread`` (a reminder of a stage the battle has left posts nothing)."""
        battles = await self._battle_ids()
        rows = [
            {
                "battle_id": battles[i % len(battles)],
                "stage": 0,  # a step every running battle has left: the handler finds nothing to do
                "kind": DeadlineKind.REMINDER,
                "due_at": first + spread * (i / max(count - 1, 1)),
                "note": {},
            }
            for i in range(count)
        ]
        async with self.h.bot.db.write() as session:
            result = await session.execute(insert(Deadline).returning(Deadline.id), rows)
            return list(result.scalars().all())

    async def startup_with_deadlines(self) -> float:
        """Seconds for the bot to start (ready, deadlines armed) with many open deadlines."""
        far = datetime.now(UTC) + timedelta(days=2)
        await self._add_deadlines(self.sizes.open_deadlines, far, timedelta(days=1))
        await self.h.stop_bot()
        started = time.perf_counter()
        await self.h.start_bot()
        return time.perf_counter() - started

    async def deadline_burst(self) -> tuple[list[float], list[float]]:
        """For many deadlines due in the same two seconds: seconds from each due moment until
        it was started (claimed: its ``fired_at``, recorded for a whole batch at once), and
        until its handler began (handlers run a few at a time)."""
        scheduler = self.h.bot.deadlines
        handler = scheduler.handler
        starts: dict[int, float] = {}
        count = self.sizes.due_deadlines
        every = asyncio.Event()

        async def timed(due: Any) -> None:
            starts[due.id] = time.time()
            if len(starts) >= count:
                every.set()
            await handler(due)

        scheduler.handler = timed
        try:
            first = datetime.now(UTC) + timedelta(seconds=0.5)
            ids = await self._add_deadlines(count, first, timedelta(seconds=2))
            async with self.h.bot.db.read() as session:
                due_at = dict(
                    (
                        await session.execute(
                            select(Deadline.id, Deadline.due_at).where(Deadline.id.in_(ids))
                        )
                    ).all()
                )
            for deadline_id in ids:
                scheduler.arm(deadline_id, due_at[deadline_id])
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(every.wait(), 60)
            await scheduler.drain(30)
        finally:
            scheduler.handler = handler
        async with self.h.bot.db.read() as session:
            fired_at = dict(
                (
                    await session.execute(
                        select(Deadline.id, Deadline.fired_at).where(Deadline.id.in_(ids))
                    )
                ).all()
            )
        claimed = [
            max(0.0, (fired_at[i] - due_at[i]).total_seconds())
            for i in ids
            if fired_at.get(i) is not None
        ]
        began = [max(0.0, starts[i] - due_at[i].timestamp()) for i in ids if i in starts]
        return claimed, began

    # -- growth ------------------------------------------------------------------------------
    async def add_finished_battles(self, count: int) -> None:
        """``count`` finished battles (copies of a running one's row) in the database."""
        async with self.h.bot.db.write() as session:
            model = (await session.scalars(select(Battle).limit(1))).one()
            columns = {
                c.key: getattr(model, c.key)
                for c in Battle.__table__.columns
                if c.key not in ("id", "status")
            }
            rows = [
                {**columns, "name": f"Old {i}", "status": BattleStatus.FINISHED}
                for i in range(count)
            ]
            await session.execute(insert(Battle), rows)
            total = await session.scalar(select(func.count(Battle.id)))
            assert total is not None and total >= count

    async def add_history(self, where: Any, count: int) -> None:
        """``count`` more record entries and stage logs for the battle played in ``where``,
        numbered before its first (so its current stage and record stay what they were)."""
        async with self.h.bot.db.write() as session:
            battle_id = (
                await session.scalars(
                    select(Battle.id)
                    .join(Campaign, Campaign.id == Battle.campaign_id)
                    .where(Campaign.channel_id == where.id, Battle.status != BattleStatus.FINISHED)
                )
            ).one()
            for model, number in ((RecordEntry, "seq"), (StageLog, "number")):
                last = (
                    await session.scalars(
                        select(model).where(model.battle_id == battle_id).limit(1)
                    )
                ).first()
                if last is None:
                    continue
                columns = {
                    c.key: getattr(last, c.key)
                    for c in model.__table__.columns
                    if c.key not in ("id", number)
                }
                rows = [{**columns, number: -1 - i} for i in range(count)]
                await session.execute(insert(model), rows)


_BURST_MIX: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (
    ("battle status", ()),
    ("orders mine", ()),
    ("battle status", ()),
    ("battle terrain list", ()),
)


def _answered_ms(done: Any) -> float:
    """The fake's time from sending an interaction to the bot's first answer, in ms."""
    return float(done.record.answered_after or 0.0) * 1000


async def _measure(sizes: Sizes, postgres: str | None = None) -> list[Figure]:
    """Every figure on a SQLite file; with ``postgres`` (a server's URL), the bursts alone on a
    new database of that server (the rest does not depend on the database)."""
    with tempfile.TemporaryDirectory(prefix="aide-bench-") as folder:
        if postgres is None:
            live = Live(sizes, Path(folder))
            await live.start()
            try:
                return await _figures(live, sizes)
            finally:
                await live.close()
        async with database(postgres) as url:
            live = Live(sizes, Path(folder), url)
            await live.start()
            try:
                return await _bursts(live, sizes)
            finally:
                await live.close()


async def _bursts(live: Live, sizes: Sizes) -> list[Figure]:
    """The bursts, on the same campaigns and battles as the whole run sets up."""
    await live.set_up()
    await live.settled()
    await live.status_latency(10)  # warm up
    figures: list[Figure] = []
    for size in sizes.bursts:
        name = f"interaction burst of {size} ({live.database})"
        figures += _latency(name, await live.burst(size), BURST_P99_MS)
    return figures


async def _figures(live: Live, sizes: Sizes) -> list[Figure]:
    figures: list[Figure] = [
        Figure("resident memory at start-up, nothing set up (bot and fake Discord)",
               resident_mb(), "MB"),
    ]  # fmt: skip
    took = time.perf_counter()
    await live.set_up()
    setup_s = time.perf_counter() - took
    await live.settled()  # the battles' start posts (maps) are sent in the background
    await live.status_latency(10)  # warm up
    singles = await live.status_latency(sizes.singles)
    figures += _latency(f"interaction one at a time ({sizes.battles} battles running)", singles,
                        SINGLE_P99_MS)  # fmt: skip
    for size in sizes.bursts:
        name = f"interaction burst of {size} ({live.database})"
        figures += _latency(name, await live.burst(size), BURST_P99_MS)
    cpu = percentile(live.loop_cpu_ms, 0.5)
    name = "loop CPU per command: p50 (/battle status one at a time; the fake Discord's share too)"
    figures.append(Figure(name, cpu, "ms", f"<= {LOOP_CPU_MS:g} ms", cpu <= LOOP_CPU_MS))
    figures += _memory(live, sizes)
    figures.append(await _at_rest(live, sizes))
    startup = await live.startup_with_deadlines()
    figures.append(
        Figure(
            f"start-up with {sizes.open_deadlines:,} open deadlines",
            startup * 1000,
            "ms",
            f"<= {STARTUP_S * 1000:g} ms",
            startup <= STARTUP_S,
        )
    )
    late, began = await live.deadline_burst()
    last = max(late, default=0.0)
    started_all = len(late) == sizes.due_deadlines and len(began) == sizes.due_deadlines
    figures.append(
        Figure(
            f"{sizes.due_deadlines:,} deadlines due in the same 2 s: last started (claimed)"
            " after its time",
            last * 1000,
            "ms",
            f"<= {ALL_STARTED_S * 1000:g} ms",
            started_all and last <= ALL_STARTED_S,
        )
    )
    figures.append(Figure("  the same: p50 late", percentile(late, 0.5) * 1000, "ms"))
    last_began = max(began, default=0.0)
    figures.append(
        Figure(f"{sizes.due_deadlines:,} deadlines due in the same 2 s: last handler began after"
               " its time", last_began * 1000, "ms", f"<= {ALL_STARTED_S * 1000:g} ms",
               started_all and last_began <= ALL_STARTED_S)
    )  # fmt: skip
    figures += await _growth(live, sizes)
    figures.append(Figure("live set-up through slash commands (not a target)", setup_s, "s"))
    return figures


def _memory(live: Live, sizes: Sizes) -> list[Figure]:
    """Resident memory with the campaigns and battles set up: the process (bot and fake
    Discord), the fake's objects measured apart, the bot (the one less the other), and the
    engine's worker (its peak)."""
    rss = resident_mb()
    fake = objects_mb(live.h.fake, live.world)
    bot = rss - fake
    worker = max((status_mb("VmHWM", pid) for pid in worker_pids()), default=0.0)
    setting = f"{sizes.campaigns:,} campaigns and {sizes.battles:,} battles"
    return [
        Figure(f"resident memory, bot and fake Discord in one process, {setting}", rss, "MB"),
        Figure("  the fake Discord's objects (measured apart)", fake, "MB"),
        Figure(f"bot process resident memory, {setting} (the process less the fake Discord)",
               bot, "MB", f"<= {MEMORY_MB:g} MB", bot <= MEMORY_MB),
        Figure("engine worker resident memory (peak; 0: ENGINE=thread)", worker, "MB",
               f"<= {WORKER_MB:g} MB", worker <= WORKER_MB),
    ]  # fmt: skip


async def _at_rest(live: Live, sizes: Sizes) -> Figure:
    """The bot's resident memory (the process less the fake Discord) after ``rest_s`` quiet
    seconds: what a burst's threads freed is handed back by the bot's heap trimming."""
    await asyncio.sleep(sizes.rest_s)
    rest = resident_mb() - objects_mb(live.h.fake, live.world)
    return Figure(f"  the same after {sizes.rest_s:g} s at rest (its heap trimmed)", rest, "MB")


async def _growth(live: Live, sizes: Sizes) -> list[Figure]:
    where = live.channels[0]
    before = statistics.median(await live.status_latency(sizes.singles, where))
    await live.add_finished_battles(sizes.finished_battles)
    after = statistics.median(await live.status_latency(sizes.singles, where))
    await live.add_history(where, sizes.history)
    longer = statistics.median(await live.status_latency(sizes.singles, where))
    return [
        _ratio(f"/battle status p50 with {sizes.finished_battles:,} finished battles vs none",
               after, before),
        _ratio(f"/battle status p50 with {sizes.history:,} more stages and record entries"
               " vs none", longer, after),
    ]  # fmt: skip


def _ratio(name: str, after: float, before: float) -> Figure:
    ratio = after / before if before else 0.0
    return Figure(
        f"{name} ({before:.1f} -> {after:.1f} ms)",
        ratio,
        "x",
        f"<= {GROWTH:g} x",
        ratio <= GROWTH,
    )


def _latency(name: str, values: list[float], p99_target: float) -> list[Figure]:
    p99 = percentile(values, 0.99)
    return [
        Figure(f"{name}: p50", percentile(values, 0.5), "ms"),
        Figure(f"{name}: p99", p99, "ms", f"<= {p99_target:g} ms", p99 <= p99_target),
    ]


def measure(sizes: Sizes, postgres: str | None = None) -> list[Figure]:
    """Every live figure, or with ``postgres`` the bursts on PostgreSQL (blocking: runs its
    own event loop)."""
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    return asyncio.run(_measure(sizes, postgres))


Runner = Callable[[Sizes], Awaitable[list[Figure]]]


def main(argv: list[str] | None = None) -> int:
    """Measure and write the figures as JSON (the benchmark reads them)."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.live",
        description="Measure the real bot against the fake Discord and write the figures as "
        "JSON. The benchmark (python -m bench) runs this in a process of its own.",
    )
    parser.add_argument("--smoke", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--json", type=Path, required=True, help="where to write the figures")
    parser.add_argument(
        "--postgres", metavar="URL", help="the bursts alone, on a new database of this server"
    )
    args = parser.parse_args(argv)
    figures = measure(SMOKE if args.smoke else FULL, args.postgres)
    args.json.write_text(json.dumps([asdict(f) for f in figures], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

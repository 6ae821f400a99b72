"""Sharded processes: two real bot processes on one database, against a fake Discord that
speaks for two shards.

Four servers, two on each shard, each with a skirmish battle waiting on a step deadline.
Process A runs shard 0 and process B shard 1 (``SHARD_COUNT=2``, ``SHARD_IDS``):

1. each process handles exactly the deadlines of the servers on its shard, and every step
   resolves once;
2. A is killed (SIGKILL): B goes on with its own servers and leaves A's deadlines alone
   (they wait, overdue);
3. B is restarted with both shards (``SHARD_IDS=0,1``): at start-up it fires A's overdue
   deadlines, once each;
4. A comes back with both shards too, so the two processes race for every deadline: each
   step still resolves exactly once (the conditional update that takes a step's deadline
   inside the transaction that resolves it decides which one acts).

Run on PostgreSQL (TEST_POSTGRES_URL, or a throwaway cluster started with ``.ci/postgres``
when the server binaries are installed; skipped otherwise) and on one SQLite file (not when
the whole suite runs on PostgreSQL: the SQLite run of the suite has it).
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.shards import shard_of
from tests.e2e.process_harness import ProcessBot
from tools.fake_discord import FakeDiscord, World
from tools.skirmish_battle import BATTLE, BLUE, BLUE_DEPLOYMENT, CAMPAIGN, RED, RED_DEPLOYMENT

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
SHARDS = 2
SERVERS_PER_SHARD = 2


# -- the database ---------------------------------------------------------------------------
def _postgres_binaries() -> bool:
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb") or shutil.which("initdb")
    return bool(found)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server's URL: TEST_POSTGRES_URL, else a throwaway cluster of our own."""
    given = os.environ.get("TEST_POSTGRES_URL")
    if given:
        yield given
        return
    if not _postgres_binaries():
        pytest.skip(
            "PostgreSQL is not installed (no initdb): set TEST_POSTGRES_URL or install "
            "Debian's postgresql (.ci/postgres install)"
        )
    env = {**os.environ, "POSTGRES_PORT": str(_free_port())}  # our own cluster, nobody else's
    script = str(ROOT / ".ci" / "postgres")
    started = subprocess.run(
        [script, "start"], env=env, capture_output=True, text=True, timeout=180, check=False
    )
    if started.returncode != 0:
        pytest.skip(f"could not start a PostgreSQL cluster: {started.stderr.strip()[-400:]}")
    url = next(
        line.split("=", 1)[1]
        for line in started.stdout.splitlines()
        if line.startswith("export TEST_POSTGRES_URL=")
    )
    try:
        yield url
    finally:
        subprocess.run([script, "stop"], env=env, capture_output=True, timeout=120, check=False)


@contextlib.asynccontextmanager
async def fresh_postgres(server: str) -> AsyncIterator[str]:
    """A new, empty database on the server for this test; dropped afterwards."""
    name = f"aide_shards_{uuid.uuid4().hex[:10]}"
    admin = create_async_engine(server, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as con:
            await con.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as con:
            await con.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


@pytest.fixture(params=["postgresql", "sqlite"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the two processes share."""
    if request.param == "postgresql":
        request.getfixturevalue("postgres_server")
    elif os.environ.get("TEST_POSTGRES_URL"):
        pytest.skip("the suite runs on PostgreSQL (TEST_POSTGRES_URL): the SQLite run has this")
    return str(request.param)


# -- the processes --------------------------------------------------------------------------
class Fleet:
    """Two bot processes (each a fork server, see bot_process) sharing a fake Discord, a
    database and a clock; every deadline either one handles is appended to one log."""

    def __init__(self, tmp: Path, world: World, database_url: str) -> None:
        self.world = world
        self.fake = FakeDiscord(world)
        self.fired_log = tmp / "fired.jsonl"
        self.database_url = database_url
        self.bots: dict[str, ProcessBot] = {}
        for name in ("a", "b"):
            folder = tmp / name
            folder.mkdir()
            env = {
                "DATABASE_URL": database_url,
                "DEV_GUILD_ID": "",  # global commands: every server has them
                "SHARD_COUNT": str(SHARDS),
                "AIDE_TEST_FIRED_LOG": str(self.fired_log),
            }
            self.bots[name] = ProcessBot(folder, world, SEED, fake=self.fake, env=env)
        self.engine: AsyncEngine = create_async_engine(database_url)

    async def open(self) -> None:
        await self.fake.start()
        await asyncio.gather(*(bot.open() for bot in self.bots.values()))

    async def close(self) -> None:
        for bot in self.bots.values():
            with contextlib.suppress(Exception):
                await bot.close()
        await self.fake.stop()
        await self.engine.dispose()

    async def start(self, name: str, shard_ids: str) -> ProcessBot:
        bot = self.bots[name]
        bot.env["SHARD_IDS"] = shard_ids
        assert await bot.start(), f"bot {name} died while starting"
        return bot

    def owner(self, guild_id: int) -> ProcessBot:
        """The running process that has this server's shard (the last one started)."""
        shard = shard_of(guild_id, SHARDS)
        for bot in self.bots.values():
            if bot.running and str(shard) in (bot.status().get("seqs") or {}):
                return bot
        raise AssertionError(f"no running process has shard {shard}")

    async def advance_to(self, when: datetime) -> None:
        """Move every running process's clock at once, then wait for each to catch up."""
        running = [b for b in self.bots.values() if b.running]
        for bot in self.bots.values():
            bot.set_clock(when)
        for bot in running:
            await bot.settle()

    def fired(self) -> list[dict[str, Any]]:
        if not self.fired_log.exists():
            return []
        return [json.loads(line) for line in self.fired_log.read_text().splitlines()]

    async def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        async with self.engine.connect() as con:
            return [tuple(r) for r in (await con.execute(text(sql), params)).all()]


async def set_up_battle(fleet: Fleet, channel_name: str) -> None:
    """A skirmish battle started in this channel, through its server's process."""
    world = fleet.world
    where = world.channel(channel_name)
    bot = fleet.owner(where.guild_id or world.guild_id)

    async def slash(user: Any, command: str, **options: Any) -> str:
        outcome = await bot.slash(user, command, where, **options)
        assert outcome.acknowledged, f"/{command} in {channel_name} got no answer"
        return outcome.text

    await slash(world.gm, "campaign create", name=CAMPAIGN, ruleset="skirmish")
    await slash(world.alice, "campaign join", side="Red")
    await slash(world.bob, "campaign join", side="Blue")
    for user, army in ((world.alice, RED), (world.bob, BLUE)):
        file = bot.upload(f"{army['name']}.json", json.dumps(army))
        await slash(user, "army import", file=file)
    await slash(world.gm, "battle create", name=BATTLE, army_a="Red Host", army_b="Blue Host")
    for unit, at in RED_DEPLOYMENT.items():
        await slash(world.alice, "battle deploy", unit=unit, at=at)
    file = bot.upload("blue-deployment.json", json.dumps(BLUE_DEPLOYMENT))
    await slash(world.bob, "battle deploy-file", file=file)
    started = await slash(world.gm, "battle start")
    assert "Error" not in started, started


def shards_world() -> tuple[World, dict[int, list[str]]]:
    """A world with SERVERS_PER_SHARD servers on each shard, one battle channel each."""
    world = World()
    world.shard_count = SHARDS
    channels: dict[int, list[str]] = {shard: [] for shard in range(SHARDS)}
    for shard in range(SHARDS):
        for n in range(SERVERS_PER_SHARD):
            name = f"shard{shard}-table{n}"
            world.add_guild(f"Server {shard}.{n}", (name,), shard=(shard, SHARDS))
            channels[shard].append(name)
    return world, channels


# -- the test -------------------------------------------------------------------------------
async def test_two_processes_split_the_deadlines_and_resolve_each_step_once(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    world, channels = shards_world()
    if backend == "postgresql":
        database = fresh_postgres(request.getfixturevalue("postgres_server"))
    else:
        database = contextlib.nullcontext(f"sqlite+aiosqlite:///{tmp_path / 'aide.db'}")
    async with database as url:
        fleet = Fleet(tmp_path, world, url)
        await fleet.open()
        try:
            await _play(fleet, world, channels)
        finally:
            await fleet.close()


async def _guild_of_battles(fleet: Fleet) -> dict[int, int]:
    """Battle id -> the guild of its campaign."""
    rows = await fleet.rows(
        "SELECT b.id, c.guild_id FROM battle b JOIN campaign c ON c.id = b.campaign_id"
    )
    return {int(b): int(g) for b, g in rows}


async def _next_step_due(fleet: Fleet, battles: list[int]) -> datetime:
    """A minute after the last of these battles' pending stage deadlines (a step's or a
    question's) is due."""
    rows = await fleet.rows(
        "SELECT battle_id, due_at FROM deadline "
        "WHERE kind IN ('step', 'decision') AND status = 'pending'"
    )
    due = [d for b, d in rows if int(b) in battles]
    every = await fleet.rows("SELECT battle_id, stage, kind, status, due_at FROM deadline")
    assert len(due) == len(battles), f"a pending step deadline for each of {battles}: {every}"
    latest = max(d if isinstance(d, datetime) else datetime.fromisoformat(str(d)) for d in due)
    return (latest if latest.tzinfo else latest.replace(tzinfo=UTC)) + timedelta(minutes=1)


async def _stages(fleet: Fleet) -> dict[int, int]:
    return {int(b): int(s) for b, s in await fleet.rows("SELECT id, stage FROM battle")}


def _resolutions(fired: list[dict[str, Any]]) -> Counter[tuple[int, int]]:
    """How many times each (battle, stage) was resolved by its deadline (a step's or a
    question's), by either process."""
    return Counter(
        (f["battle"], f["stage"]) for f in fired if f["kind"] == "step" and f["resolved"]
    )


async def _play(fleet: Fleet, world: World, channels: dict[int, list[str]]) -> None:
    # Started together on an empty database: one migrates, the other waits for it.
    a, b = await asyncio.gather(fleet.start("a", "0"), fleet.start("b", "1"))
    assert fleet.fake.gateway.connected_shards() == {0: SHARDS, 1: SHARDS}
    for names in channels.values():
        for name in names:
            await set_up_battle(fleet, name)
    guild_of = await _guild_of_battles(fleet)
    shard = {battle: shard_of(guild, SHARDS) for battle, guild in guild_of.items()}
    on = {s: sorted(bt for bt, sh in shard.items() if sh == s) for s in range(SHARDS)}
    assert [len(on[s]) for s in range(SHARDS)] == [SERVERS_PER_SHARD] * SHARDS

    # 1. Each process fires the deadlines of its own servers, and only those.
    start = await _stages(fleet)
    await fleet.advance_to(await _next_step_due(fleet, sorted(shard)))
    fired = fleet.fired()
    by_pid = {a.pid: 0, b.pid: 1}
    for line in fired:
        assert shard[line["battle"]] == by_pid[line["pid"]], line
    assert {by_pid[f["pid"]] for f in fired if f["resolved"]} == {0, 1}
    after_one = await _stages(fleet)
    assert all(after_one[bt] > start[bt] for bt in shard), (start, after_one)
    assert set(_resolutions(fired).values()) == {1}

    # 2. A dies mid-game; B goes on with its own servers and leaves A's alone.
    assert a.pid is not None
    os.kill(a.pid, signal.SIGKILL)
    await asyncio.wait_for(a._exited.wait(), 30)
    assert a.exits[-1] == -9
    seen = len(fleet.fired())
    await fleet.advance_to(await _next_step_due(fleet, sorted(shard)))
    after_two = await _stages(fleet)
    assert all(after_two[bt] > after_one[bt] for bt in on[1])
    assert all(after_two[bt] == after_one[bt] for bt in on[0]), "A's servers waited"
    assert all(shard[f["battle"]] == 1 for f in fleet.fired()[seen:])
    overdue = await fleet.rows(
        "SELECT battle_id FROM deadline WHERE kind IN ('step', 'decision') AND status = 'pending'"
    )
    assert {int(r[0]) for r in overdue} >= set(on[0])

    # 3. B is restarted with both shards: at start-up it fires A's overdue deadlines.
    await b.stop()
    assert b.exits[-1] == 0
    seen = len(fleet.fired())
    b = await fleet.start("b", "0,1")
    assert fleet.fake.gateway.connected_shards() == {0: SHARDS, 1: SHARDS}
    after_three = await _stages(fleet)
    assert all(after_three[bt] > after_two[bt] for bt in on[0]), (after_two, after_three)
    assert all(after_three[bt] == after_two[bt] for bt in on[1])
    assert {f["pid"] for f in fleet.fired()[seen:] if f["resolved"]} == {b.pid}

    # 4. A comes back with both shards as well: both race for every deadline.
    a = await fleet.start("a", "0,1")
    seen = len(fleet.fired())
    await fleet.advance_to(await _next_step_due(fleet, sorted(shard)))
    after_four = await _stages(fleet)
    assert all(after_four[bt] > after_three[bt] for bt in shard)
    raced = fleet.fired()[seen:]
    handled_twice = [k for k, n in Counter((f["deadline"]) for f in raced).items() if n > 1]
    print(f"\nrace: {len(raced)} deadlines handled, {len(handled_twice)} by both processes")

    # Every step resolved exactly once, whoever fired it; the record agrees.
    resolutions = _resolutions(fleet.fired())
    assert set(resolutions.values()) == {1}, resolutions
    logs = await fleet.rows("SELECT battle_id, number FROM stage_log")
    assert len(logs) == len(set(logs))
    for battle in shard:
        steps = sorted(n for bt, n in logs if int(bt) == battle)
        assert steps == list(range(1, len(steps) + 1)), (battle, steps)
    # Each step result was posted once in its channel.
    for names in channels.values():
        for name in names:
            posts = [
                m.embeds[0]["title"] for m in fleet.bots["a"].posts(world.channel(name)) if m.embeds
            ]
            repeated = [t for t, n in Counter(posts).items() if n > 1 and "status" not in t.lower()]
            assert not repeated, (name, posts)

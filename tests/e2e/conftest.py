"""Fixtures for end-to-end tests: a fake Discord, a real bot, a temp database file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from tests.databases import TestDatabases
from tests.e2e.fake_clock import FakeClock
from tools.fake_discord import World
from tools.harness import Harness

MakeHarness = Callable[..., Awaitable[Harness]]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock, injected into the bot."""
    return FakeClock()


@pytest.fixture
async def make_harness() -> AsyncIterator[MakeHarness]:
    """Start a harness for a bot factory; every harness is closed (and checked) at teardown."""
    made: list[Harness] = []

    async def make(
        bot_factory: Callable[[], commands.Bot], world: World | None = None, clock: Any = None
    ) -> Harness:
        harness = Harness(bot_factory, world, clock=clock)
        made.append(harness)
        await harness.start()
        return harness

    yield make
    for harness in made:
        await harness.close()


@pytest.fixture
def make_aide(databases: TestDatabases, make_harness: MakeHarness, clock: FakeClock) -> MakeHarness:
    """Start the real Aide-de-Camp (real cogs, the test's database ``db_name``: a SQLite file
    in tmp_path, or a PostgreSQL database) against the fake. ``databases`` comes first so that
    it is torn down last: a bot still finishing its work when the test ends is closed before
    its PostgreSQL database is emptied (its connections terminated) or dropped."""
    if not (ROOT / "bot" / "client.py").exists():
        pytest.skip("bot/client.py has not landed yet")
    from bot.client import AideBot, cog_modules
    from bot.config import Settings

    if not cog_modules():
        pytest.skip("no cogs have landed yet")

    async def make(
        world: World | None = None,
        db_name: str = "aide.db",
        bot_class: type = AideBot,
        engine: str = "thread",  # the worker process only where a test asks for it (start-up)
        web_port: int | None = None,  # the war table on this port (0: a free one); else off
        gc_refresh_minutes: int = 0,  # off: a frozen heap would outlive this test's bot
    ) -> Harness:
        world = world or World()
        database_url = databases.url(db_name, migrated=True)
        settings = Settings(
            discord_token="fake-token",
            database_url=database_url,
            dev_guild_id=world.guild_id,
            log_level="INFO",
            engine=engine,
            engine_workers=1,  # one worker, as the tests of it expect (tests/bot/test_engine_pool)
            web_enabled=web_port is not None,
            web_port=web_port or 0,
            gc_refresh_minutes=gc_refresh_minutes,
        )

        def build() -> commands.Bot:
            rng = random.Random(1415)
            return bot_class(settings, clock=clock, rng=rng, guild_ready_timeout=0.05)

        harness = await make_harness(build, world, clock)
        harness.database_url = database_url
        return harness

    return make


@pytest.fixture
async def aide(make_aide: MakeHarness) -> Harness:
    """The real bot, connected and ready, with an empty database."""
    return await make_aide()


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Every battle created gets this dice seed, so a scenario's rolls are the same each run.

    The seed is the one edge of the bot's randomness (``secrets`` in new_seed); everything
    else (the rolls, the record, its verification) stays the bot's own.
    """
    import bot.services.battles

    seed = bytes(range(32))
    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: seed)
    return seed

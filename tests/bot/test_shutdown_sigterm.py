"""Graceful shutdown, on a real bot process: SIGTERM (``docker stop``) in the middle of a
command lets the command finish (its write committed, its reply sent), then the bot closes
the gateway and the database and exits 0. Nothing the user was told is lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

from tests.e2e.process_harness import SETTLE_TIMEOUT, ProcessBot
from tools.fake_discord import World
from tools.fake_discord.records import InteractionRecord
from tools.skirmish_battle import BLUE, RED

SEED = bytes(range(32))


async def _set_up(pb: ProcessBot, world: World) -> None:
    where = world.channel("hundred-years")
    for user, command, options in (
        (world.gm, "campaign create", {"name": "Border Raids", "ruleset": "skirmish"}),
        (world.alice, "campaign join", {"side": "Red"}),
        (world.bob, "campaign join", {"side": "Blue"}),
    ):
        assert (await pb.slash(user, command, where, **options)).acknowledged
    for user, army in ((world.alice, RED), (world.bob, BLUE)):
        file = pb.upload(f"{army['name']}.json", json.dumps(army))
        assert (await pb.slash(user, "army import", where, file=file)).acknowledged
    created = await pb.slash(
        world.gm, "battle create", where, name="Ford", army_a="Red Host", army_b="Blue Host"
    )
    assert created.acknowledged


async def test_sigterm_during_a_command_finishes_it_then_exits_0(tmp_path: Path) -> None:
    world = World()
    pb = ProcessBot(tmp_path, world, SEED)
    await pb.open()
    try:
        assert await pb.start()
        await _set_up(pb, world)
        terminated: list[int] = []

        def terminate_on_deferral(record: InteractionRecord) -> None:
            """The bot has just said "thinking…" for /battle deploy: SIGTERM it now, before
            it has written the deployment or replied."""
            if pb.pid is not None and not terminated and record.payload["type"] == 2:
                terminated.append(pb.pid)
                os.kill(pb.pid, signal.SIGTERM)

        pb.fake.on_callback.append(terminate_on_deferral)
        where = world.channel("hundred-years")
        outcome = await pb.slash(world.alice, "battle deploy", where, unit="Red Horse", at="32,10")
        await asyncio.wait_for(pb._exited.wait(), SETTLE_TIMEOUT)
        assert terminated, "the command was never deferred"
        # It exited by itself, with status 0, after the command was done and answered.
        assert pb.exits == [0]
        assert "Red Horse" in outcome.text, outcome.text
        # The gateway was closed by the bot (a clean close, not a dropped connection).
        assert pb.fake.gateway.sessions == {}
        # The write is there: the unit stands where Alice put it.
        state = json.loads(pb.read("SELECT state FROM battle")[0][0])
        horse = next(u for u in state["units"] if u["name"] == "Red Horse")
        assert (horse["x"], horse["y"]) == (32.0, 10.0), horse
    finally:
        await pb.close()

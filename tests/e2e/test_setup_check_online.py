"""``python -m bot check``'s online part against the fake Discord: the token accepted, the
intents, and the bot's permissions in its server and in each channel it can see."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.setup_check import online_findings
from tools.fake_discord import World
from tools.fake_discord.server import FakeDiscord
from tools.fake_discord.world import EMBED_LINKS, SEND_MESSAGES


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The fake Discord alone (no bot), with discord.py's REST calls pointed at it."""
    server = FakeDiscord(World())
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    yield server
    await server.stop()


async def test_a_ready_bot_passes_every_online_check(fake: FakeDiscord) -> None:
    found = await online_findings("fake-token")
    assert all(f.passed for f in found), found
    lines = [f.line for f in found]
    assert lines[0].startswith("Discord accepted the token: the bot is Aide-de-Camp")
    assert "The bot needs no privileged intents." in lines
    assert "In the server The Campaign Table, the bot's role has every permission" in lines[2]
    assert "GET /api/v10/users/@me/guilds" in fake.requests and not fake.unhandled


async def test_a_permission_missing_in_the_server_is_named_with_where_to_fix_it(
    fake: FakeDiscord,
) -> None:
    world = fake.world
    world.bot_role.permissions &= ~EMBED_LINKS
    world.everyone.permissions &= ~EMBED_LINKS
    problems = [f.line for f in await online_findings("fake-token") if not f.passed]
    assert problems == [
        "In the server The Campaign Table, the bot's role lacks Embed Links: Server Settings "
        "→ Roles → the bot's role, or invite it again with `python -m bot invite`."
    ]


async def test_a_channel_that_denies_the_bot_a_permission_is_named(fake: FakeDiscord) -> None:
    world = fake.world
    deny = {"id": str(world.bot_role.id), "type": 0, "allow": "0", "deny": str(SEND_MESSAGES)}
    world.channel("punic-wars").overwrites.append(deny)
    problems = [f.line for f in await online_findings("fake-token") if not f.passed]
    # Discord takes Embed Links and Attach Files away with Send Messages: all three named.
    assert problems == [
        "In #punic-wars (The Campaign Table) the bot lacks Send Messages, Embed Links, Attach "
        "Files: Edit Channel → Permissions → the bot's role."
    ]


async def test_a_bot_in_no_server_is_told_to_open_the_invite_link(fake: FakeDiscord) -> None:
    fake.world.guilds.clear()
    found = await online_findings("fake-token")
    assert found[0].passed  # the token was accepted before the servers were asked for
    assert [f.line for f in found if not f.passed] == [
        "The bot is in no server yet: open the link `python -m bot invite` prints."
    ]

"""The war table with the real bot through the fake Discord: served while the bot runs, stopped
with it; `/battle table` answers privately with a link that opens the page; links survive a
restart; with WEB_ENABLED off the command says so."""

from __future__ import annotations

import re

import aiohttp
import pytest

from tests.e2e.conftest import MakeHarness
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle

LINK = re.compile(r"<(http://localhost:(\d+)/t/([A-Za-z0-9_.-]+))>")


def port_of(h: Harness) -> int:
    """The port the running bot's war table listens on."""
    assert h.bot is not None and h.bot.web is not None  # type: ignore[attr-defined]
    port: int = h.bot.web.port  # type: ignore[attr-defined]
    return port


async def opened(url: str) -> tuple[int, str]:
    """Follow a link as a browser does (cookies kept): the final status and address."""
    jar = aiohttp.CookieJar(unsafe=True)  # keep cookies of localhost
    async with aiohttp.ClientSession(cookie_jar=jar) as session, session.get(url) as response:
        return response.status, str(response.url)


async def served_battle(make_aide: MakeHarness) -> tuple[Harness, FakeChannel]:
    """A bot serving the war table on a free port, and a battle set up in its channel."""
    h = await make_aide(web_port=0)
    where = h.channel("punic-wars")
    await set_up_battle(h, where)
    return h, where


async def test_battle_table_gives_a_private_link_that_opens_the_page(
    make_aide: MakeHarness,
) -> None:
    h, where = await served_battle(make_aide)
    answer = await h.slash(h.alice, "battle table", channel=where)
    assert answer.ephemeral
    assert "yours only" in answer.text and "7 days" in answer.text
    found = LINK.search(answer.text)
    assert found is not None, answer.text
    url, port = found.group(1), int(found.group(2))
    assert port == port_of(h)
    status, landed = await opened(url)
    assert status == 200 and landed.endswith("/c/1/") and "/t/" not in landed

    revoked = await h.slash(h.alice, "battle table", channel=where, revoke=True)
    assert revoked.ephemeral and "old links are ended" in revoked.text
    assert (await opened(url))[0] == 403  # the leaked link is dead
    new = LINK.search(revoked.text)
    assert new is not None and (await opened(new.group(1)))[0] == 200


async def test_links_keep_working_after_a_restart_and_the_server_stops_with_the_bot(
    make_aide: MakeHarness,
) -> None:
    h, where = await served_battle(make_aide)
    found = LINK.search((await h.slash(h.bob, "battle table", channel=where)).text)
    assert found is not None
    token, old_port = found.group(3), port_of(h)
    await h.stop_bot()
    with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the bot
        await opened(f"http://localhost:{old_port}/health")
    await h.start_bot()
    status, _ = await opened(f"http://localhost:{port_of(h)}/t/{token}")
    assert status == 200  # the secret and the counters are in the database


async def test_health_reports_the_bot_connected(make_aide: MakeHarness) -> None:
    h = await make_aide(web_port=0)
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://localhost:{port_of(h)}/health") as response,
    ):
        assert response.status == 200
        assert await response.json() == {"web": "ok", "discord": True, "database": True}


async def test_with_the_war_table_off_the_command_says_so(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    assert aide.bot is not None and aide.bot.web is None  # type: ignore[attr-defined]
    refused = await aide.slash(aide.alice, "battle table", channel=where)
    assert refused.ephemeral and "WEB_ENABLED" in refused.text and "http" not in refused.text

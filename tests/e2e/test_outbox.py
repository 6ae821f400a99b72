"""The outbox: a step result that could not be posted is posted later, once, with its question."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import bot.delivery as delivery
from tools.fake_discord import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import (
    BATTLE,
    open_questions,
    order,
    posts,
    reports,
    set_up_battle,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")


def failing_sends(monkeypatch: pytest.MonkeyPatch, times: int) -> list[int]:
    """Make the bot's next ``times`` channel posts fail as Discord's 500 would."""
    real = discord.PartialMessageable.send
    failed: list[int] = []

    async def send(self: discord.PartialMessageable, *args: Any, **kwargs: Any) -> Any:
        if len(failed) < times:
            failed.append(1)
            raise discord.HTTPException(SimpleNamespace(status=500, reason="down"), "down")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.PartialMessageable, "send", send)
    return failed


async def resolve_deployment(h: Harness) -> None:
    """Both players give an order and confirm: deployment resolves."""
    where = h.channel("hundred-years")
    await order(h, h.alice, where, "place", unit="Red Archers", x=26, y=11)
    await h.slash(h.alice, "order done", channel=where)
    await h.slash(h.bob, "order done", channel=where)


async def deployment_post_fails(
    h: Harness, where: FakeChannel, monkeypatch: pytest.MonkeyPatch, times: int = 1
) -> list[int]:
    """Set up and start the battle, then resolve deployment while Discord refuses the bot's
    next ``times`` posts: the result is stored but not in the channel."""
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    failed = failing_sends(monkeypatch, times)
    await resolve_deployment(h)
    assert reports(h, where) == []  # Discord refused the post
    return failed


async def test_result_lost_to_discord_is_posted_at_start_up_once(
    aide: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await deployment_post_fails(h, where, monkeypatch)
    assert open_questions(h, where) == []
    monkeypatch.undo()

    await h.stop_bot()
    await h.start_bot()
    (result,) = reports(h, where)
    assert result.embeds[0]["title"] == f"{BATTLE} — Set-up · Deployment"
    assert 'Red Archers moves 2.2" to (26, 11) facing 0°' in result.text
    assert result.files  # with its map
    (question,) = open_questions(h, where)
    assert question.content.startswith(f"{h.bob.mention}: Blue won the initiative")

    count = len(posts(h, where))
    await h.stop_bot()
    await h.start_bot()
    assert len(posts(h, where)) == count  # never twice


async def test_unposted_result_goes_out_before_the_next_one(
    aide: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next post of the battle carries the one that failed first, in order."""
    h, where = aide, aide.channel("hundred-years")
    await deployment_post_fails(h, where, monkeypatch)
    monkeypatch.undo()
    await h.slash(h.gm, "gm ruling", channel=where, choice="first")
    titles = [r.embeds[0]["title"] for r in reports(h, where)]
    assert titles == [f"{BATTLE} — Set-up · Deployment", f"{BATTLE} — Turn 1 · Initiative"]


async def test_a_map_that_cannot_be_drawn_does_not_lose_the_result(
    aide: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)

    async def broken(_report: object) -> discord.File:
        raise MemoryError("map too large")

    monkeypatch.setattr(delivery, "map_file", broken)
    await resolve_deployment(h)
    (result,) = reports(h, where)
    assert result.files == [] and "Red Archers" in result.text
    assert open_questions(h, where)


async def test_a_result_lost_to_discord_is_retried_by_a_timer_once(
    make_aide: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a restart, a deadline or another step: the retry timer posts it, once."""
    from bot.client import AideBot

    class QuickRetry(AideBot):
        outbox_retry_s = 0.02

    h = await make_aide(bot_class=QuickRetry)
    where = h.channel("hundred-years")
    failed = await deployment_post_fails(h, where, monkeypatch, 3)  # down for two retries too
    title = f"{BATTLE} — Set-up · Deployment"
    result = await h.wait_for_message(
        lambda m: bool(m.embeds) and m.embeds[0].get("title") == title, "the retried result"
    )
    await h.wait_for_message(
        lambda m: m.content.startswith(f"{h.bob.mention}: Blue won the initiative"), "its question"
    )
    assert len(failed) == 3 and result.files  # with its map
    await asyncio.sleep(0.2)  # several more rounds of the timer: nothing is posted again
    assert reports(h, where) == [result]
    assert len(open_questions(h, where)) == 1

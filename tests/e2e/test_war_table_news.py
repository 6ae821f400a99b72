"""Open pages hear of a battle's change from the bot's own writes at once (the hooks), without
waiting for the database poll: the poll is switched off here, so only a hook can tell them."""

from __future__ import annotations

import pytest

from bot.client import AideBot
from bot.web.live import Subscription
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
GUARD_S = 10.0  # a guard against a hang, not a latency check


def follow(h: Harness, battle_id: int = 1) -> Subscription:
    """An open page's news of the battle, with the cross-process poll off."""
    assert isinstance(h.bot, AideBot)
    h.bot.web_hub.marks = None
    return h.bot.web_hub.subscribe(battle_id)


async def test_a_step_resolved_through_discord_is_published(aide: Harness) -> None:
    where = aide.channel()
    await set_up_battle(aide, where)
    page = follow(aide)
    await aide.slash(aide.gm, "battle start", channel=where)
    assert await page.next(GUARD_S) is True
    assert await page.next(0) is None  # read: nothing else waits
    forced = await aide.slash(aide.gm, "gm force", channel=where)
    assert not forced.ephemeral, forced
    assert await page.next(GUARD_S) is True


async def test_a_refused_command_publishes_nothing(aide: Harness) -> None:
    where = aide.channel()
    await set_up_battle(aide, where)
    await aide.slash(aide.gm, "battle start", channel=where)
    page = follow(aide)
    refused = await aide.slash(aide.alice, "gm force", channel=where)
    assert refused.ephemeral
    assert await page.next(0) is None

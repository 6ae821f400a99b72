"""The real bot settles its heap once started and refreshes it when due by its clock
(``GC_REFRESH_MINUTES``, bot/gc_policy.py); the harness's bots leave the test run's heap alone."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest

from bot.client import AideBot
from bot.gc_policy import put_back
from tests.e2e.conftest import MakeHarness
from tools.harness import Harness

WAIT_S = 30.0  # how long a poll of the bot's refresh task may take to come, at most


class QuickPoll(AideBot):
    """Looks at the (fake) clock every few milliseconds rather than every 30 s."""

    gc_poll_s = 0.005


@pytest.fixture
def unfrozen_after() -> Iterator[None]:
    """The test starts with nothing frozen and leaves nothing frozen, thresholds as found."""
    gc.unfreeze()
    with put_back():
        yield


async def until(done: Callable[[], bool], what: str) -> None:
    """Wait, a poll at a time, until ``done()``."""
    async with asyncio.timeout(WAIT_S):
        while not done():  # noqa: ASYNC110 - what the bot's task does is seen by its counters
            await asyncio.sleep(0.005)
    assert done(), what


def policy_of(h: Harness) -> AideBot:
    """The harness's bot, as the real bot."""
    assert isinstance(h.bot, AideBot)
    return h.bot


async def test_the_bot_settles_at_start_and_refreshes_every_period(
    unfrozen_after: None, make_aide: MakeHarness
) -> None:
    h = await make_aide(bot_class=QuickPoll, gc_refresh_minutes=60)
    policy = policy_of(h).heap_policy
    assert gc.get_freeze_count() > 10_000  # start-up's heap out of the collector's sight
    assert h.clock is not None
    h.clock.advance(timedelta(minutes=59))
    polls = policy.polls
    await until(lambda: policy.polls >= polls + 3, "the refresh task looked at the clock")
    assert policy.refreshes == 0  # not yet due
    h.clock.advance(timedelta(minutes=1))
    await until(lambda: policy.refreshes == 1, "the refresh, an hour after start")
    assert gc.get_freeze_count() > 10_000  # frozen again after its full collection
    h.clock.advance(timedelta(minutes=59))
    polls = policy.polls
    await until(lambda: policy.polls >= polls + 3, "the refresh task looked again")
    assert policy.refreshes == 1  # the next is an hour after the last
    await h.slash(h.gm, "help")  # the bot plays on
    assert h.messages()


async def test_the_harness_bot_leaves_the_heap_alone(unfrozen_after: None, aide: Harness) -> None:
    bot = policy_of(aide)
    assert not bot.heap_policy.enabled
    assert gc.get_freeze_count() == 0

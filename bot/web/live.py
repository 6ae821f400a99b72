"""News of a battle's change for open pages: an in-process hub and its Server-Sent Events.

The news carries no content, only which battle changed: a page fetches its own view again
(``state.json``, ``map.svg``), through the same checks as any request. This process's writes
publish at once (``Hub.publish``, after the commit); writes of another process (shards) are
heard by polling a small mark of each battle a page here follows (``NewsService.marks``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Hashable

from aiohttp import web

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0  # a comment line keeps proxies from closing an idle stream
POLL_S = 0.5  # how often battles followed here are checked for other processes' writes
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream
Marks = Callable[[Collection[int]], Awaitable[dict[int, Hashable]]]


class Subscription:
    """One open page's news of one battle: at most one news waits (news says only "it
    changed", so a second before the page read the first adds nothing), so a slow page
    never holds the hub or other pages up."""

    def __init__(self, hub: Hub, battle_id: int) -> None:
        self.hub, self.battle_id = hub, battle_id
        self.news: asyncio.Queue[bool] = asyncio.Queue(maxsize=1)

    def tell(self, more: bool = True) -> None:
        """Queue the news (``False``: the hub is closing), unless news is already waiting."""
        with contextlib.suppress(asyncio.QueueFull):
            self.news.put_nowait(more)

    async def next(self, wait_s: float | None = None) -> bool | None:
        """Wait for news: True (changed), False (the hub closed) or None (``wait_s`` passed)."""
        try:
            return await asyncio.wait_for(self.news.get(), wait_s)
        except TimeoutError:
            return None

    def close(self) -> None:
        """Hear no more news (the page went away)."""
        self.hub.unsubscribe(self)

    def __enter__(self) -> Subscription:
        """The subscription, closed when the block ends."""
        return self

    def __exit__(self, *_exc: object) -> None:
        """Close it, however the block ended."""
        self.close()

    async def __aiter__(self) -> AsyncIterator[int]:
        """The battle id, once per news, until the hub closes."""
        while await self.next():
            yield self.battle_id


class Hub:
    """Where the bot says a battle changed, and open pages hear it."""

    def __init__(self, marks: Marks | None = None, poll_s: float = POLL_S) -> None:
        self.marks, self.poll_s = marks, poll_s
        self.heartbeat_s = HEARTBEAT_S
        self.subscribers: dict[int, set[Subscription]] = {}
        self.last_marks: dict[int, Hashable] = {}
        self.polls = 0  # reads made by the poller (the bench reports their cost)
        self._poller: asyncio.Task[None] | None = None
        self.closed = False

    def publish(self, battle_id: int) -> None:
        """Tell every page open on this battle that it changed (no content: pages fetch their
        own view again)."""
        for subscription in self.subscribers.get(battle_id, ()):
            subscription.tell()

    def subscribe(self, battle_id: int) -> Subscription:
        """Follow a battle's news (close the subscription when the page goes away)."""
        subscription = Subscription(self, battle_id)
        if self.closed:
            subscription.tell(False)
            return subscription
        self.subscribers.setdefault(battle_id, set()).add(subscription)
        if self.marks is not None and (self._poller is None or self._poller.done()):
            self._poller = asyncio.create_task(self._poll_forever(), name="web-hub-poll")
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop telling this subscription; a battle nobody here follows is no longer polled."""
        followers = self.subscribers.get(subscription.battle_id)
        if followers is None:
            return
        followers.discard(subscription)
        if not followers:
            del self.subscribers[subscription.battle_id]
            self.last_marks.pop(subscription.battle_id, None)

    async def poll(self) -> list[int]:
        """Read the marks of the battles followed here once, publish those that moved since
        the last read (a battle's first read only records its mark); the battles published."""
        if self.marks is None or not self.subscribers:
            return []
        self.polls += 1
        now = await self.marks(list(self.subscribers))
        moved = []
        for battle_id, mark in now.items():
            before = self.last_marks.get(battle_id)
            self.last_marks[battle_id] = mark
            if before is not None and before != mark and battle_id in self.subscribers:
                moved.append(battle_id)
                self.publish(battle_id)
        return moved

    async def _poll_forever(self) -> None:
        """Poll while any page here follows a battle; a failed read is tried again next time."""
        while self.subscribers and not self.closed:
            try:
                await self.poll()
            except Exception:  # the database away for a moment: pages keep their last view
                log.warning("polling battles for the war table failed", exc_info=True)
            await asyncio.sleep(self.poll_s)

    async def close(self) -> None:
        """End every stream (the server is stopping) and the poller."""
        self.closed = True
        for followers in list(self.subscribers.values()):
            for subscription in list(followers):
                subscription.tell(False)
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller


def news_event(battle_id: int) -> bytes:
    """One Server-Sent Event saying which battle changed, and nothing of what."""
    return f"data: {json.dumps({'battle': battle_id})}\n\n".encode()


async def stream(request: web.Request, hub: Hub, battle_id: int) -> web.StreamResponse:
    """The battle's news as Server-Sent Events, until the page goes away or the hub closes:
    an event per change, a comment line every ``hub.heartbeat_s`` while nothing happens."""
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",  # nginx passes each event on at once
        }
    )
    await response.prepare(request)
    with hub.subscribe(battle_id) as subscription:
        try:
            await response.write(f"retry: {RETRY_MS}\n: following battle {battle_id}\n\n".encode())
            while (news := await subscription.next(hub.heartbeat_s)) is not False:
                await response.write(news_event(battle_id) if news else b": heartbeat\n\n")
        except ConnectionResetError:  # the page went away: the subscription closes
            log.debug("a page following battle %s went away", battle_id)
    return response

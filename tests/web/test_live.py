"""The war table's news: the hub's publish and subscribe, its Server-Sent Events, and the news
of another process's writes heard through the database."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.db.session import Database
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from bot.web.live import Hub, stream
from tests.bot.battle_setup import deployed_battle
from tests.conftest import ALICE, GM

GUARD_S = 10.0  # a guard against a hang, not a latency check


async def test_publish_reaches_each_subscriber_of_that_battle_only() -> None:
    hub = Hub()
    first, second, other = hub.subscribe(7), hub.subscribe(7), hub.subscribe(8)
    hub.publish(7)
    assert await first.next(GUARD_S) is True
    assert await second.next(GUARD_S) is True
    assert other.news.empty()


async def test_closing_a_subscription_unsubscribes_it() -> None:
    hub = Hub()
    with hub.subscribe(7) as page:
        assert hub.subscribers == {7: {page}}
    assert hub.subscribers == {}
    hub.publish(7)
    assert page.news.empty()


async def test_a_slow_subscriber_holds_one_news_and_never_blocks_the_others() -> None:
    hub = Hub()
    slow, quick = hub.subscribe(7), hub.subscribe(7)
    for _ in range(100):  # the slow page reads nothing meanwhile; publish never waits on it
        hub.publish(7)
        assert await quick.next(GUARD_S) is True
    assert slow.news.qsize() == 1  # bounded: one "it changed" waits, not a hundred
    assert await slow.next(GUARD_S) is True


async def test_closing_the_hub_ends_every_subscription() -> None:
    hub = Hub()
    page = hub.subscribe(7)
    await hub.close()
    assert [battle async for battle in page] == []
    assert await hub.subscribe(8).next(GUARD_S) is False


@pytest.fixture
async def events() -> AsyncIterator[tuple[Hub, TestClient[web.Request, web.Application]]]:
    """A hub and a test client of an app serving its stream for battle 7."""
    hub = Hub()
    hub.heartbeat_s = 0.05

    async def handler(request: web.Request) -> web.StreamResponse:
        return await stream(request, hub, 7)

    app = web.Application()
    app.router.add_get("/events", handler)
    async with TestClient(TestServer(app)) as client:
        yield hub, client
    await hub.close()


async def read_event(response: web.StreamResponse | object) -> str:
    """The next whole event (or comment) of a stream: its lines up to a blank line."""
    lines = []
    while (line := (await response.content.readline()).decode()) != "\n":  # type: ignore[attr-defined]
        lines.append(line)
    return "".join(lines)


async def test_the_stream_sends_an_event_on_publish_and_heartbeats_between(
    events: tuple[Hub, TestClient[web.Request, web.Application]],
) -> None:
    hub, client = events
    async with client.get("/events") as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        opening = await asyncio.wait_for(read_event(response), GUARD_S)
        assert opening.startswith("retry: ")
        assert await asyncio.wait_for(read_event(response), GUARD_S) == ": heartbeat\n"
        hub.publish(8)  # another battle's news is not this page's
        hub.publish(7)
        for _ in range(100):  # heartbeats may come first; a page never sees battle 8's news
            news = await asyncio.wait_for(read_event(response), GUARD_S)
            if news != ": heartbeat\n":
                break
        assert news.startswith("data: ")
        assert json.loads(news.removeprefix("data: ")) == {"battle": 7}  # news, never content


async def test_a_page_that_goes_away_is_unsubscribed(
    events: tuple[Hub, TestClient[web.Request, web.Application]],
) -> None:
    hub, client = events
    async with client.get("/events") as response:
        await asyncio.wait_for(read_event(response), GUARD_S)
        assert len(hub.subscribers[7]) == 1
    for _ in range(200):  # the server notices at its next write (a heartbeat)
        if not hub.subscribers:
            break
        await asyncio.sleep(0.05)
    assert hub.subscribers == {}


async def started_battle(services: Services, place: Place) -> int:
    """A skirmish battle started, waiting for its first step's orders; its id."""
    await deployed_battle(services, place)
    return (await services.play.start(place, GM)).battle.id


async def test_another_process_s_step_is_heard_through_the_database(
    services: Services, place: Place, db_url: str
) -> None:
    battle_id = await started_battle(services, place)
    elsewhere = Database.from_url(db_url)  # this process's own connection to the same data
    hub = Hub(Services.build(elsewhere).news.marks)
    try:
        page = hub.subscribe(battle_id)
        assert await hub.poll() == []  # the first read only notes where the battle stands
        assert await hub.poll() == []
        await services.gm.force(place, GM)  # "another process": this hub is not told
        assert await hub.poll() == [battle_id]
        assert await page.next(GUARD_S) is True
        assert await hub.poll() == []
    finally:
        await hub.close()
        await elsewhere.dispose()


async def test_the_poller_runs_while_pages_follow_a_battle(
    services: Services, place: Place
) -> None:
    battle_id = await started_battle(services, place)
    hub = Hub(services.news.marks, poll_s=0.02)
    page = hub.subscribe(battle_id)
    for _ in range(500):  # until it has noted where the battle stands (a guard, not a timing)
        if hub.polls >= 2:
            break
        await asyncio.sleep(0.02)
    await services.gm.force(place, GM)
    assert await page.next(GUARD_S) is True  # heard without anyone publishing
    page.close()
    await asyncio.sleep(0.1)
    polls = hub.polls
    await asyncio.sleep(0.1)
    assert hub.polls == polls  # nobody follows a battle here: no more reads
    await hub.close()


async def test_marks_move_with_orders_given_between_steps(services: Services, place: Place) -> None:
    battle_id = await started_battle(services, place)
    marks = [(await services.news.marks([battle_id]))[battle_id]]
    assert await services.news.marks([battle_id]) == {battle_id: marks[0]}  # nothing written
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    marks.append((await services.news.marks([battle_id]))[battle_id])
    await services.play.withdraw(place, ALICE, "Red Archers")
    marks.append((await services.news.marks([battle_id]))[battle_id])
    await services.gm.force(place, GM)
    marks.append((await services.news.marks([battle_id]))[battle_id])
    # An order given, withdrawn, a step: each moves the mark from the one before (withdrawing
    # the only order gives back the first mark: the page shows what it showed then).
    assert all(before != after for before, after in itertools.pairwise(marks))
    assert await services.news.marks([battle_id + 1]) == {}

"""``python -m bench.web``: the war table's costs, beside #34's targets.

The demo's Tree of Battles battle with each sample army ten times over (2 x 60 units, as
``bench.orders_mine``) is set up and begun offline through the services, and the war table
is served from this process on a free port, as the bot serves it:

- the first page for a player: server CPU of the page (the process's, so other work on a
  shared machine inflates it little) and the bytes of its HTML with the SVG map inside;
- an update reaching an open page's event stream after the step's publish (wall time, the
  client in this process), and after another process's step (heard by the hub's poll);
- the hub's poll: CPU of one read of the battles followed (made every ``POLL_S``);
- the longest loop callback while pages are fetched (asyncio's slow-callback log, the
  requests sent from a thread so that the client's work is not the loop's).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp

from bench.orders_mine import RULESET, set_up_big
from bench.replay import on_a_new_database
from bench.report import Figure, table
from bench.slow_callbacks import SlowCallbacks
from bot.config import Settings
from bot.db.session import Database
from bot.demo import GM, PLACE, PLAYERS
from bot.gc_policy import settle
from bot.services import Services
from bot.services.web_links import Reader
from bot.web import pages
from bot.web.live import POLL_S, Hub
from bot.web.server import WebServer, cookie_name, make_app
from rules_core import registry

PAGE_MS, PAGE_KB, UPDATE_MS, ELSEWHERE_MS, LOOP_MS = 300.0, 400.0, 100.0, 1000.0, 20.0
COPIES = 10
RUNS, UPDATES, FETCHES = 11, 30, 20


@dataclass(frozen=True)
class Served:
    """The war table of a begun battle, served on a free port, and a player's way in."""

    services: Services
    db: Database
    url: str  # the database's
    hub: Hub
    base: str  # http://127.0.0.1:port
    campaign_id: int
    battle_id: int
    reader: Reader
    cookie: str  # "adc_<campaign>=<token>"
    units: int  # on the table


@asynccontextmanager
async def served(copies: int) -> AsyncIterator[Served]:
    """A begun 2 x ``copies`` x (sample army) battle and its war table, served here."""
    rules = registry.get(RULESET).rules
    assert rules is not None
    async with on_a_new_database() as (services, db, folder):
        await set_up_big(services, rules, copies)
        started = await services.play.start(PLACE, GM)
        await services.web_links.ensure_secret()
        link = await services.web_links.issue(PLACE, PLAYERS[0])
        token, campaign_id = link.token, link.campaign_id
        reader = await services.web_links.reader(token, campaign_id)
        url = f"sqlite+aiosqlite:///{folder / 'bench.db'}"
        hub = Hub(services.news.marks)
        settings = Settings(discord_token="bench", database_url=url, web_port=0)
        server = WebServer(make_app(services, hub, settings), "127.0.0.1", 0)
        await server.start()
        try:
            base = f"http://127.0.0.1:{server.port}"
            cookie = f"{cookie_name(campaign_id)}={token}"
            battle = started.battle
            units = len(battle.state.units)
            yield Served(
                services, db, url, hub, base, campaign_id, battle.id, reader, cookie, units
            )
        finally:
            await hub.close()
            await server.stop()


async def first_page(s: Served, runs: int) -> tuple[float, int]:
    """The median server CPU of a player's first page (ms) and its size (bytes)."""
    costs, size = [], 0
    for _ in range(runs + 1):  # the first warms the caches
        started = time.process_time()
        html = await pages.table_page(s.services, s.reader)
        costs.append((time.process_time() - started) * 1000)
        size = len(html.encode())
    return statistics.median(costs[1:]), size


async def next_event(events: aiohttp.ClientResponse) -> str:
    """The next event's data line of a stream (comments skipped)."""
    while True:
        line = (await events.content.readline()).decode()
        if line.startswith("data:"):
            return line


async def update_latency(s: Served, updates: int) -> tuple[float, float]:
    """Wall ms from a publish to the event reaching an open page: median and largest."""
    took = []
    headers = {"Cookie": s.cookie}
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"{s.base}/c/{s.campaign_id}/events", headers=headers) as events,
    ):
        await events.content.readline()  # the stream is open
        for _ in range(updates):
            started = time.perf_counter()
            s.hub.publish(s.battle_id)
            await asyncio.wait_for(next_event(events), 10)
            took.append((time.perf_counter() - started) * 1000)
    return statistics.median(took), max(took)


async def elsewhere_latency(s: Served) -> float:
    """Wall ms from another process's step (a write on its own connection, this hub not
    told) to the event reaching an open page."""
    other = Database.from_url(s.url)
    try:
        gm = Services.build(other).gm
        headers = {"Cookie": s.cookie}
        async with (
            aiohttp.ClientSession() as client,
            client.get(f"{s.base}/c/{s.campaign_id}/events", headers=headers) as events,
        ):
            await events.content.readline()
            await asyncio.sleep(2 * POLL_S)  # the hub has noted where the battle stands
            await gm.force(PLACE, GM)
            started = time.perf_counter()
            await asyncio.wait_for(next_event(events), 10)
            return (time.perf_counter() - started) * 1000
    finally:
        await other.dispose()


async def poll_cost(s: Served, runs: int) -> float:
    """The median CPU ms of one poll of the battles followed here (one battle)."""
    with s.hub.subscribe(s.battle_id):
        costs = []
        for _ in range(runs):
            started = time.process_time()
            await s.hub.poll()
            costs.append((time.process_time() - started) * 1000)
    return statistics.median(costs)


def fetch_pages(s: Served, fetches: int) -> None:
    """A browser's fetches (page, state, map), ``fetches`` times over, from this thread."""
    for _ in range(fetches):
        for path in ("", "state.json", "map.svg"):
            request = urllib.request.Request(
                f"{s.base}/c/{s.campaign_id}/{path}", headers={"Cookie": s.cookie}
            )
            with urllib.request.urlopen(request, timeout=30) as answer:
                answer.read()


async def longest_callback(s: Served, fetches: int) -> float:
    """The longest loop callback (ms) while pages are fetched from another thread, in a heap
    settled as ``python -m bot`` settles it after start-up (``bot.gc_policy.settle``): without it a
    full collection of the start-up's objects (80-90 ms here) lands in whichever callback
    allocates at the time, and is measured as the web server's."""
    settle()
    with SlowCallbacks(asyncio.get_running_loop()) as slow:
        await asyncio.to_thread(fetch_pages, s, fetches)
    return max(slow.took_ms, default=0.0)


async def measure(smoke: bool) -> list[Figure]:
    """Every figure of the war table."""
    copies = 1 if smoke else COPIES
    async with served(copies) as s:
        page_ms, size = await first_page(s, 3 if smoke else RUNS)
        update_p50, update_max = await update_latency(s, 5 if smoke else UPDATES)
        poll_ms = await poll_cost(s, 5 if smoke else RUNS)
        longest = await longest_callback(s, 2 if smoke else FETCHES)
        elsewhere = await elsewhere_latency(s)
        units = f"{s.units} units"
    judged = not smoke
    return [
        _figure(f"war table first page ({units}): server CPU", page_ms, "ms", PAGE_MS, judged),
        _figure(
            f"war table first page ({units}): HTML with its SVG", size / 1000, "KB", PAGE_KB, judged
        ),
        _figure("war table update reaching an open page: p50", update_p50, "ms", UPDATE_MS, True),
        Figure("war table update reaching an open page: largest", update_max, "ms"),
        _figure(
            "war table: another process's step reaching an open page",
            elsewhere,
            "ms",
            ELSEWHERE_MS,
            True,
        ),
        Figure(f"war table hub poll (every {POLL_S:g} s): CPU per read", poll_ms, "ms"),
        _figure(
            "war table: longest loop callback while pages are served", longest, "ms", LOOP_MS, True
        ),
    ]


def _figure(name: str, value: float, unit: str, most: float, judged: bool) -> Figure:
    """A figure beside its target (at most ``most``), judged or only shown."""
    return Figure(name, value, unit, f"<= {most:g} {unit}", value <= most if judged else None)


def figures(smoke: bool = False) -> list[Figure]:
    """The war table's figures (``smoke``: the sample armies once over, a few runs)."""
    return asyncio.run(measure(smoke))


def main(argv: list[str] | None = None) -> int:
    """Print the war table's figures beside #34's targets."""
    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="small battle, a few runs")
    args = parser.parse_args(argv)
    print(table(figures(args.smoke)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

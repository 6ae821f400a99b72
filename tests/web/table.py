"""A campaign at the war table: a GM, two Red players, one Blue, an observer; an HTTP client
over the real application and database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.services import Services
from bot.services.campaigns import Place
from bot.web.live import Hub
from bot.web.server import make_app
from tests.bot.battle_setup import deployed_battle
from tests.conftest import ALICE, BOB, CHANNEL, GM, GUILD

CAROL = 23  # a second player of Red
DAVE = 31  # an observer
PLACE = Place(GUILD, CHANNEL)
# Every route under /c/{campaign}/ (the table, its map, its state, its stream, its replay).
ENDPOINTS = ("", "map.svg", "state.json", "events", "replay.json", "replay/0.svg")
ROLES = {"gm": GM, "red": ALICE, "blue": BOB, "red too": CAROL, "observer": DAVE}


@dataclass
class Table:
    """The campaign under test and a client of the war table."""

    services: Services
    client: TestClient
    campaign_id: int

    async def token(self, user_id: int, *, spectator: bool = False) -> str:
        """A fresh link's token for this user."""
        return (await self.services.web_links.issue(PLACE, user_id, spectator)).token

    async def get(self, token: str, endpoint: str = "", campaign_id: int | None = None) -> int:
        """The status of one endpoint for a request carrying this link's cookie (the
        response is closed at once: the event stream may never end)."""
        cid = campaign_id or self.campaign_id
        response = await self.client.get(
            f"/c/{cid}/{endpoint}", headers={"Cookie": f"adc_{cid}={token}"}
        )
        status = response.status
        response.close()
        return status

    async def statuses(self, token: str) -> set[int]:
        """The statuses of every endpoint for this link."""
        return {await self.get(token, endpoint) for endpoint in ENDPOINTS}


async def campaign(services: Services) -> int:
    """The skirmish battle begun, its deployment step resolved (so there is a replay), with
    Carol on Red and Dave observing; its campaign id."""
    await deployed_battle(services, PLACE)
    await services.play.start(PLACE, GM)
    await services.gm.force(PLACE, GM)
    await services.campaigns.join(PLACE, CAROL, "Red")
    await services.campaigns.admit(PLACE, GM, DAVE)
    return (await services.campaigns.info(PLACE)).id


@asynccontextmanager
async def client_of(
    services: Services, settings: Settings | None = None, connected: bool = False
) -> AsyncIterator[TestClient]:
    """An HTTP client of the war table over these services (cookies kept, even for 127.0.0.1)."""
    settings = settings or Settings(web_port=0)
    app = make_app(services, Hub(), settings, connected=lambda: connected)
    async with TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True)) as client:
        yield client

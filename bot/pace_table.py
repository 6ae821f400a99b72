"""The pace report's "war table" players: they plan ahead as ``pace.OrdersPlanner``'s do, but
every order goes through the war table's HTTP endpoints (``POST api/order`` with its step, the
page's token and cookie) to the bot's own services, over a real SQLite file.

The engine loop of ``bot.pace`` still owns the battle: when a side is called, the battle as it
stands is written to the bot's database, the side's orders for each step of its turn are
posted as the page posts them, and what the services kept (the open step's order and those
planned for later steps) is read back as the plan; the rows are then cleared, so the next call
starts from the battle as it stands again. An order the services refuse is left out, as the
slash-command planner leaves out an order not legal when planned.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import CookieJar, web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import delete, select

from bot.config import Settings
from bot.db.migrate import upgrade_to_head
from bot.db.models import (
    Battle,
    BattleOrder,
    BattleSide,
    BattleStatus,
    Campaign,
    CampaignStatus,
    Membership,
    PlannedOrder,
    Role,
)
from bot.db.session import Database
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.plans import planned_of
from bot.web.actions import CSRF_HEADER, Bucket
from bot.web.live import Hub
from bot.web.server import API, make_app
from rules_core import planning
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState

GUILD, CHANNEL, GM_ID = 1, 2, 3
FIRST_PLAYER = 100  # the side at index n is played by user FIRST_PLAYER + n
T = TypeVar("T")


@dataclass
class Door:
    """One player's page: its cookie and anti-forgery token."""

    cookie: str
    csrf: str


@dataclass
class WarTable:
    """The bot's services and war table over a fresh SQLite file, served to a test client on
    its own event loop (the pace loop is synchronous)."""

    rules: Rules
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pace-table-")))
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.new_event_loop)
    doors: dict[str, Door] = field(default_factory=dict)
    client: TestClient[web.Request, web.Application] | None = None
    services: Services | None = None
    campaign_id: int = 0

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one coroutine on the table's loop."""
        return self.loop.run_until_complete(work)

    async def open(self, state: BattleState) -> None:
        """Migrate the database, seat a player on each side of the battle and serve the table."""
        url = f"sqlite+aiosqlite:///{self.folder / 'pace.db'}"
        await upgrade_to_head(url)
        self.services = Services.build(Database.from_url(url), rng=random.Random(0))
        async with self.services.play.db.write() as session:
            campaign = Campaign(
                guild_id=GUILD,
                channel_id=CHANNEL,
                name="Pace",
                ruleset_id=state.ruleset,
                status=CampaignStatus.ACTIVE,
                created_by=GM_ID,
            )
            session.add(campaign)
            await session.flush()
            self.campaign_id = campaign.id
            session.add(Membership(campaign_id=campaign.id, user_id=GM_ID, role=Role.GM))
            battle = Battle(
                campaign_id=campaign.id,
                name="Pace",
                ruleset_id=state.ruleset,
                status=BattleStatus.RUNNING,
                seed="00",
                seed_sha256="00",
                state=state.to_dict(),
                created_by=GM_ID,
            )
            session.add(battle)
            await session.flush()
            for n, side in enumerate(state.sides):
                user = FIRST_PLAYER + n
                session.add(
                    Membership(
                        campaign_id=campaign.id, user_id=user, role=Role.PLAYER, side=side.name
                    )
                )
                session.add(
                    BattleSide(battle_id=battle.id, side_id=side.id, name=side.name, owner_id=user)
                )
        app = make_app(self.services, Hub(), Settings(web_port=0))
        # A scripted player posts a whole turn's orders at once, faster than a person clicks:
        # the report measures stops, not the page's rate limit.
        app[API].writes = Bucket(capacity=1_000_000, per_s=1_000_000.0)
        self.client = TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True))
        await self.client.start_server()
        for n, side in enumerate(state.sides):
            link = await self.services.web_links.issue(Place(GUILD, CHANNEL), FIRST_PLAYER + n)
            csrf = await self.services.web_links.csrf(link.token)
            self.doors[side.id] = Door(f"adc_{self.campaign_id}={link.token}", csrf)

    async def close(self) -> None:
        """Stop serving and let the database go."""
        if self.client is not None:
            await self.client.close()
        if self.services is not None:
            await self.services.play.db.dispose()

    def plan(
        self, state: BattleState, side: str, wanted: Sequence[tuple[str, Order]]
    ) -> list[planning.Planned]:
        """The side's orders (each with its step's key) posted on its page; what the services
        kept, as plan entries (the table opened at the first call)."""
        if self.client is None:
            self.run(self.open(state))
        return self.run(self._posted(state, side, wanted))

    def shut(self) -> None:
        """Stop serving, let the database go, close the loop."""
        if not self.loop.is_closed():
            self.run(self.close())
            self.loop.close()

    async def _posted(
        self, state: BattleState, side: str, wanted: Sequence[tuple[str, Order]]
    ) -> list[planning.Planned]:
        """Post the side's orders (each with its step's key) as its page does; what the
        services kept, as plan entries."""
        assert self.client is not None and self.services is not None
        async with self.services.play.db.write() as session:
            battle = await session.scalar(select(Battle))
            assert battle is not None
            battle.state = state.to_dict()
        door = self.doors[side]
        headers = {"Cookie": door.cookie, CSRF_HEADER: door.csrf}
        for step, order in wanted:
            params = json.loads(json.dumps(dict(order.params)))
            body = {"kind": order.kind, "unit": order.actor, "params": params, "step": step}
            answer = await self.client.post(
                f"/c/{self.campaign_id}/api/order", json=body, headers=headers
            )
            answer.release()  # a refusal leaves the order out
        return await self._kept(state)

    async def _kept(self, state: BattleState) -> list[planning.Planned]:
        """The orders the services stored, as plan entries; the rows cleared."""
        assert self.services is not None
        now = planning.current_key(self.rules, state)
        async with self.services.play.db.write() as session:
            given = (await session.scalars(select(BattleOrder).order_by(BattleOrder.id))).all()
            planned = (await session.scalars(select(PlannedOrder).order_by(PlannedOrder.id))).all()
            kept = [
                planning.Planned(now, row.side_id, Order(row.actor, row.kind, row.params))
                for row in given
            ] + [planned_of(row) for row in planned]
            await session.execute(delete(BattleOrder))
            await session.execute(delete(PlannedOrder))
        return kept

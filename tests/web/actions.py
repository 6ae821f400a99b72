"""A member at the war table's write API: the page's token, JSON posts, the skirmish battle at
its first Movement step (deployed, the initiative answered)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import PermissionDenied
from bot.web.actions import CSRF_HEADER, csrf_for
from tests.conftest import ALICE, BOB
from tests.web.table import PLACE, Table


@dataclass
class Member:
    """One link's holder as their page talks to the API."""

    table: Table
    token: str
    csrf: str

    @property
    def cookie(self) -> str:
        """The link's cookie header value."""
        return f"adc_{self.table.campaign_id}={self.token}"

    async def post(
        self, endpoint: str, body: Any, *, csrf: str | None = None, **headers: str
    ) -> tuple[int, dict[str, Any]]:
        """POST JSON with the page's token (or ``csrf``); the status and the JSON answer."""
        sent = {
            "Cookie": self.cookie,
            "Content-Type": "application/json",
            CSRF_HEADER: self.csrf if csrf is None else csrf,
            **headers,
        }
        url = f"/c/{self.table.campaign_id}/api/{endpoint}"
        response = await self.table.client.post(url, json=body, headers=sent)
        return response.status, await response.json()

    async def get(self, endpoint: str, **query: str) -> tuple[int, dict[str, Any]]:
        """GET an API endpoint; the status and the JSON answer."""
        url = f"/c/{self.table.campaign_id}/api/{endpoint}"
        response = await self.table.client.get(url, params=query, headers={"Cookie": self.cookie})
        return response.status, await response.json()


async def member(table: Table, user_id: int, *, spectator: bool = False) -> Member:
    """A member's fresh link and its page's anti-forgery token."""
    token = await table.token(user_id, spectator=spectator)
    return Member(table, token, await csrf_for(table.services, token))


@dataclass(frozen=True)
class Mover:
    """The player whose Movement step is open, their foot unit, a move within its reach and
    one past it; the other side's player."""

    user_id: int
    unit: str
    near: list[float]
    far: list[float]
    other: int

    def move(self, to: list[float] | None = None) -> dict[str, Any]:
        """An order's body moving the unit (within reach unless told)."""
        return {"kind": "move", "unit": self.unit, "params": {"to": to or self.near}}


MOVERS = {
    ALICE: Mover(ALICE, "Red Spearmen", [12, 8], [12, 30], BOB),
    BOB: Mover(BOB, "Blue Warriors", [12, 28], [12, 6], ALICE),
}


async def to_movement(table: Table) -> Mover:
    """Answer the initiative roll-off (whoever won it goes first): their Movement opens."""
    for user in (ALICE, BOB):
        try:
            await table.services.play.answer_here(PLACE, user, "first")
        except PermissionDenied:
            continue
        return MOVERS[user]
    raise AssertionError("nobody could answer the initiative question")

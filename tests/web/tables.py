"""Readers and battles for the war table's tests."""

from __future__ import annotations

from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from bot.services.seats import Seat, SeatKind
from bot.services.web_links import Reader
from tests.bot.battle_setup import deployed_battle
from tests.conftest import ALICE, GM

ORDER = "deploys at (26, 6) facing 0°"  # the preview of Alice's order in ``ordered_battle``


def reader(place: Place, user_id: int | None) -> Reader:
    """A reader as the link service finds one (None: a spectator)."""
    seen = Place(place.guild_id, place.channel_id, user_id)
    return Reader(1, user_id, seen, Seat(SeatKind.OUTSIDER))


async def ordered_battle(services: Services, place: Place) -> None:
    """The skirmish battle started, Alice's archers ordered to re-deploy (not yet resolved)."""
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))

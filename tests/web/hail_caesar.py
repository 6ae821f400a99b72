"""A Hail Caesar battle at the war table: the sample armies deployed round a wood, begun, and
the Romans' first division's orders open (every question before them answered)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.services import Services
from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from bot.services.shapes import TypedTerrain
from bot.services.stages import StageReport
from tests.bot.test_hail_caesar_battle import answer, engine_sides, set_up
from tests.conftest import GM
from tests.web.table import PLACE, Table, client_of

MOVER = "First Cohort"  # the Romans' (Alice's) unit at (5, 6), facing the Gauls
THROUGH_WOOD = [5.0, 16.0]  # a move within reach across Oakwood
TOO_FAR = [5.0, 30.0]  # 24": beyond three moves of 6"
WOOD = TypedTerrain("wood", "rectangle", "5,11", "6,2", "Oakwood")


async def hail_caesar_orders(services: Services, place: Place = PLACE) -> int:
    """The battle begun at its first orders step; the campaign's id."""
    await set_up(services, place)
    await services.battles.add_terrain(place, GM, WOOD)
    report = await services.play.start(place, GM)
    while report.battle.state.pending is not None or report.battle.state.cursor.step != "orders":
        view = report.battle
        report = await (answer(services, view) if view.state.pending else confirm(services, view))
    return (await services.campaigns.info(place)).id


async def confirm(services: Services, view: BattleView) -> StageReport:
    """Every side the stage waits for done with no orders (deployment stands as set up)."""
    owners = {s.side_id: s.owner_id for s in view.sides}
    report = None
    for side in engine_sides(view):
        report = (await services.play.confirm(PLACE, owners[side])).report or report
    assert report is not None
    return report


@asynccontextmanager
async def hail_caesar_table(services: Services) -> AsyncIterator[Table]:
    """The Hail Caesar battle at its orders and a client of its war table."""
    campaign_id = await hail_caesar_orders(services)
    async with client_of(services) as client:
        yield Table(services, client, campaign_id)

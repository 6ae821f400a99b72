"""Armies in a battle are locked; a battle ended during set-up changes no army."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from bot.db.models import Army
from bot.db.session import Database
from bot.errors import Conflict
from bot.services import Services
from bot.services.campaigns import Place
from tests.bot.battle_setup import BLUE, RED, START, deployed_battle
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def services(db: Database) -> Services:
    """Services on a fake clock."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


async def rosters(db: Database) -> dict[str, dict[str, object]]:
    """Every army's stored roster, by name."""
    async with db.read() as session:
        return {a.name: a.roster for a in await session.scalars(select(Army))}


async def test_ending_during_set_up_writes_nothing_back(
    services: Services, place: Place, db: Database
) -> None:
    await deployed_battle(services, place)
    before = await rosters(db)
    ended = await services.gm.end(place, GM, None, "cancelled")
    assert ended.losses == ()
    assert await rosters(db) == before


@pytest.mark.parametrize("started", [False, True])
async def test_armies_in_a_battle_cannot_be_replaced_or_removed(
    services: Services, place: Place, db: Database, started: bool
) -> None:
    await deployed_battle(services, place)
    if started:
        await services.play.start(place, GM)
    before = await rosters(db)
    bigger = {**RED, "units": [*RED["units"], {**RED["units"][0], "name": "Late Spears"}]}
    with pytest.raises(Conflict, match=r"fighting in \*\*Ford\*\*"):
        await services.armies.import_roster(place, ALICE, json.dumps(bigger).encode(), "r.json")
    with pytest.raises(Conflict, match="once that battle has ended"):
        await services.armies.check_can_remove(place, BOB, str(BLUE["name"]))
    with pytest.raises(Conflict, match="once that battle has ended"):
        await services.armies.remove(place, GM, str(BLUE["name"]))
    assert await rosters(db) == before


async def test_armies_free_again_after_the_battle(
    services: Services, place: Place, db: Database
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    await services.gm.end(place, GM, "Red", "conceded")
    removed = await services.armies.remove(place, BOB, str(BLUE["name"]))
    assert removed.name == BLUE["name"]
    assert set(await rosters(db)) == {RED["name"]}

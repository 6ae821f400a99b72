"""Who may do what: commands by (GM, owning player, other player, other side, observer,
outsider, another campaign's GM), through the services on a real database.

Every refusal is a PermissionDenied (or NotFound for someone outside the campaign where the
command only looks inside it) and changes nothing: the battle's state is compared after.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Army, Battle
from bot.db.session import Database
from bot.errors import PermissionDenied, UserError
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.shapes import TypedTerrain
from tests.bot.battle_setup import RED, START, deployed_battle
from tests.conftest import ALICE, BOB, GM, OTHER_CHANNEL, OUTSIDER
from tests.e2e.fake_clock import FakeClock

CAROL, DAVE, OTHER_GM = 23, 24, 31
ROLES = {
    "gm": GM,
    "owner": ALICE,
    "other player": CAROL,
    "other side": BOB,
    "observer": DAVE,
    "outsider": OUTSIDER,
    "other campaign's gm": OTHER_GM,
}
Call = Callable[[Services, Place, int], Awaitable[Any]]
COMMANDS: dict[str, tuple[bool, Call, set[str]]] = {
    # name: (battle started?, the call, the roles allowed)
    "army show": (
        False,
        lambda s, p, u: s.armies.show(p, u, "Red Host"),
        {"gm", "owner", "other player", "other side", "observer"},
    ),
    "army remove": (False, lambda s, p, u: s.armies.check_can_remove(p, u, "Red Reserve"),
                    {"gm", "owner"}),
    "battle terrain add": (
        False,
        lambda s, p, u: s.battles.add_terrain(
            p, u, TypedTerrain("hill", "circle", "30,18", "3", "Knoll")
        ),
        {"gm"},
    ),
    "campaign remove": (False, lambda s, p, u: s.campaigns.remove_member(p, u, CAROL), {"gm"}),
    "battle start": (False, lambda s, p, u: s.play.start(p, u), {"gm"}),
    "gm pause": (True, lambda s, p, u: s.gm.pause(p, u, "tea"), {"gm"}),
    "gm set": (
        True,
        lambda s, p, u: s.gm.set_status(p, u, "Red Horse", "disordered", "yes", "x"),
        {"gm"},
    ),
    "gm end": (True, lambda s, p, u: s.gm.end(p, u, "Red", "conceded"), {"gm"}),
}  # fmt: skip


async def snapshot(db: Database) -> tuple[Any, ...]:
    """Battles and armies as stored."""
    async with db.read() as session:
        battles = [(b.status, b.state, b.stage) for b in await session.scalars(select(Battle))]
        armies = [(a.name, a.roster) for a in await session.scalars(select(Army))]
    return (battles, armies)


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("role", list(ROLES))
async def test_permission_matrix(db: Database, place: Place, command: str, role: str) -> None:
    services = Services.build(db, rng=random.Random(1), clock=FakeClock(START))
    started, call, allowed = COMMANDS[command]
    await deployed_battle(services, place)
    await services.campaigns.join(place, CAROL, "Red")
    await services.campaigns.join(place, DAVE, None)
    reserve = json.dumps({**RED, "name": "Red Reserve"}).encode()
    await services.armies.import_roster(place, ALICE, reserve, "reserve.json")  # not fighting
    await services.campaigns.create(Place(place.guild_id, OTHER_CHANNEL), OTHER_GM, "Elsewhere",
                                    "skirmish")  # fmt: skip
    if started:
        await services.play.start(place, GM)
    before = await snapshot(db)
    if role in allowed:
        await call(services, place, ROLES[role])
        return
    with pytest.raises(UserError) as refused:
        await call(services, place, ROLES[role])
    assert isinstance(refused.value, PermissionDenied), refused.value.message
    assert 0 < len(refused.value.message) <= 2000
    assert await snapshot(db) == before

"""GM tools reach every kind of state: a leader's points and wounds, a group's and a side's
status, and terrain mid-battle; each change is on the record with its reason and before/after."""

from __future__ import annotations

import json

import pytest

from bot.errors import InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.gm import Change
from bot.services.shapes import TypedTerrain
from rules_core.plugin import Rules
from tests.bot.test_actor_orders import mustered
from tests.conftest import ALICE, GM


async def test_leaders_groups_and_sides_are_set_with_before_and_after(
    muster: Rules, services: Services, place: Place
) -> None:
    await mustered(services, place, muster)
    points = await services.gm.set_status(place, GM, "General a", "points", "3", "a hero's boon")
    assert (points.change, points.before, points.after, points.unit) == (
        Change.SET, 0, 3, "General a",
    )  # fmt: skip
    wounds = await services.gm.set_status(place, GM, "a_general", "wounds", "1", "an arrow")
    assert (wounds.before, wounds.after) == (0, 1)
    posture = await services.gm.set_status(place, GM, "Left wing a", "posture", "withdraw", "rout")
    assert (posture.before, posture.after, posture.field) == (None, "withdraw", "posture")
    stance = await services.gm.set_status(place, GM, "Red", "stance", "bold", "a rousing speech")
    assert stance.after == "bold"

    with pytest.raises(InvalidInput, match="whole number of 0 or more"):
        await services.gm.set_status(place, GM, "General a", "points", "-1", "typo")
    with pytest.raises(InvalidInput, match="Groups have no status `stance`.*posture"):
        await services.gm.set_status(place, GM, "Left wing a", "stance", "bold", "typo")
    with pytest.raises(InvalidInput):
        await services.gm.set_status(place, GM, "Red", "stance", "reckless", "not a level")
    with pytest.raises(PermissionDenied):
        await services.gm.set_status(place, ALICE, "General a", "points", "9", "cheat")

    state = (await services.battles.view(place)).state
    general = state.leader("a_general")
    assert (general.points, general.wounds) == (3, 1)
    assert state.group("a_left").status["posture"] == "withdraw"
    assert state.side("a").status["stance"] == "bold"
    record = json.loads(await services.records.record(place))
    reasons = [e["reason"] for e in record["entries"] if e["action"] == "edit"]
    assert reasons == [
        "points of General a: a hero's boon", "wounds of General a: an arrow",
        "posture of Left wing a: rout", "stance of Red: a rousing speech",
    ]  # fmt: skip
    fields = await services.lookups.status_fields(place, "General a")
    assert fields[:2] == ["points", "wounds"]
    assert "posture" in await services.lookups.status_fields(place, "a_left")


async def test_terrain_changes_mid_battle_on_the_record(
    muster: Rules, services: Services, place: Place
) -> None:
    await mustered(services, place, muster)
    laid = await services.gm.lay_terrain(
        place, GM, TypedTerrain("wood", "circle", "24,18", "3"), "a fire"
    )
    assert (laid.change, laid.before, laid.after) == (Change.TERRAIN, None, "Wood")
    with pytest.raises(InvalidInput, match="Unknown terrain"):
        await services.gm.lay_terrain(place, GM, TypedTerrain("lava", "circle", "24,18", "3"), "no")
    with pytest.raises(PermissionDenied):
        await services.gm.lift_terrain(place, ALICE, laid.unit, "mine")
    lifted = await services.gm.lift_terrain(place, GM, laid.unit, "burnt down")
    assert (lifted.before, lifted.after) == ("Wood", None)
    with pytest.raises(NotFound):
        await services.gm.lift_terrain(place, GM, laid.unit, "again")
    assert (await services.battles.view(place)).state.terrain == ()
    record = json.loads(await services.records.record(place))
    reasons = [e["reason"] for e in record["entries"] if e["action"] == "edit"]
    assert reasons == ["laid Wood: a fire", "lifted Wood: burnt down"]

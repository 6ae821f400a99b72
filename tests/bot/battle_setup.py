"""A skirmish campaign with two players and their armies, set up through the services."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.services import Services
from bot.services.campaigns import Place
from bot.services.shapes import TypedTerrain
from rules_core.rulesets.skirmish.sample import SAMPLE_ARMIES
from tests.conftest import ALICE, BOB, GM

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
RED, BLUE = SAMPLE_ARMIES
DEPLOYMENT = {
    "Red Spearmen": "12,4",
    "Red Archers": "24,4",
    "Red Horse": "36,4",
    "Blue Warriors": "12,32",
    "Blue Slingers": "24,32",
    "Blue Riders": "36,32",
}


async def skirmish_campaign(services: Services, place: Place) -> None:
    """Campaign, players on two sides, their armies imported."""
    await services.campaigns.create(place, GM, "Border Raids", "skirmish")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.armies.import_roster(place, ALICE, json.dumps(RED).encode(), "red.json")
    await services.armies.import_roster(place, BOB, json.dumps(BLUE).encode(), "blue.json")


async def deployed_battle(services: Services, place: Place) -> None:
    """A battle with every unit deployed, not yet started."""
    await skirmish_campaign(services, place)
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], 48, 36)
    await services.battles.add_terrain(
        place, GM, TypedTerrain("wood", "rectangle", "18,18", "8,8", "Thornwood")
    )
    for unit, at in DEPLOYMENT.items():
        owner = ALICE if unit.startswith("Red") else BOB
        await services.battles.deploy(place, owner, unit, at, None)

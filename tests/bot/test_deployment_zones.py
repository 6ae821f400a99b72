"""Deployment zones on a small table through the services over a real SQLite file: a base
crossing the zone's edge is refused naming which part of it is out and where it would fit,
by /battle deploy and by a deployment file alike, and nothing is placed (#39 item 12)."""

from __future__ import annotations

import json

import pytest

from bot.errors import InvalidInput
from bot.services import Services
from bot.services.campaigns import Place
from tests.bot.battle_setup import skirmish_campaign
from tests.conftest import ALICE, GM

# Skirmish zones are 12" deep, but at most a third of the table: 3.33" on a 10" table. The
# spearmen's 2" deep base centred at y = 2.8 faces north, so its front edge reaches y = 3.8.
OUT = (
    "**Red Spearmen** must deploy inside Red's deployment zone (y from 0 to 3.3 inch, the "
    "south edge): its front edge reaches y=3.8, past the zone's edge at y=3.33; move it 0.47 "
    "inch south, to (20, 2.33)."
)


@pytest.fixture
async def small_table(services: Services, place: Place) -> Place:
    """A skirmish battle on a 48 by 10 inch table, in set-up."""
    await skirmish_campaign(services, place)
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], 48, 10)
    return place


async def test_a_deployment_over_the_zones_edge_says_which_part_is_out(
    services: Services, small_table: Place
) -> None:
    with pytest.raises(InvalidInput) as refused:
        await services.battles.deploy(small_table, ALICE, "Red Spearmen", "20,2.8", None)
    assert refused.value.message == OUT
    assert (await services.battles.view(small_table)).state.units_on_table == ()
    placed = await services.battles.deploy(small_table, ALICE, "Red Spearmen", "20,2.33", None)
    assert (placed.x, placed.y) == (20, 2.33)


async def test_a_deployment_file_row_over_the_zones_edge_says_the_same(
    services: Services, small_table: Place
) -> None:
    rows = [
        {"unit": "Red Archers", "at": [30, 1.5]},
        {"unit": "Red Spearmen", "at": [20, 2.8]},
    ]
    with pytest.raises(InvalidInput) as refused:
        await services.battles.deploy_many(small_table, ALICE, json.dumps(rows).encode(), "d.json")
    assert refused.value.message == f"Row 2 (Red Spearmen): {OUT}"
    assert (await services.battles.view(small_table)).state.units_on_table == ()

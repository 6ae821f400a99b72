"""How many sides a ruleset's battles take, and a battle's own scale, through the services."""

from __future__ import annotations

import json
import math

import pytest

from bot.errors import Conflict, InvalidInput
from bot.services import Services
from bot.services.campaigns import Place
from rules_core import registry
from tests.bot.battle_setup import skirmish_campaign
from tests.conftest import GM, OUTSIDER


def test_the_sheet_rulesets_take_exactly_two_sides_and_skirmish_up_to_eight() -> None:
    for ruleset in ("tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot"):
        rules = registry.get(ruleset).rules
        assert rules is not None and rules.sides == (2, 2)
    skirmish = registry.get("skirmish").rules
    assert skirmish is not None and skirmish.sides == (2, 8)


async def test_a_battle_takes_its_own_scale(services: Services, place: Place) -> None:
    await skirmish_campaign(services, place)
    view = await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], scale=15)
    assert view.state.battlefield.mm_per_measure == 15


@pytest.mark.parametrize("scale", [0.5, 5000.0, math.nan, math.inf])
async def test_a_scale_out_of_bounds_is_refused_and_nothing_is_made(
    services: Services, place: Place, scale: float
) -> None:
    await skirmish_campaign(services, place)
    with pytest.raises(InvalidInput, match="A scale runs from 1 to 1000 millimetres"):
        await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], scale=scale)
    assert await services.battles.list(place) == []


async def test_a_third_side_is_refused_where_the_ruleset_takes_two(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, 21, "English")
    await services.campaigns.join(place, 22, "French")
    with pytest.raises(Conflict, match="take at most 2 sides, and \\*\\*English\\*\\* and"):
        await services.campaigns.join(place, OUTSIDER, "Burgundians")
    await services.campaigns.join(place, OUTSIDER, "french")  # a side that exists is fine


async def test_skirmish_takes_a_third_side(services: Services, place: Place) -> None:
    await skirmish_campaign(services, place)
    await services.campaigns.join(place, OUTSIDER, "Green")


async def test_a_battle_of_more_armies_than_the_ruleset_takes_is_refused(
    services: Services, place: Place
) -> None:
    from pathlib import Path

    armies = Path(registry.__file__).parent / "rulesets" / "tree_of_battles" / "armies"
    english = json.loads((armies / "english.json").read_text())
    french = json.loads((armies / "french.json").read_text())
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, 21, "English")
    await services.campaigns.join(place, 22, "French")
    await services.armies.import_roster(place, 21, json.dumps(english).encode(), "e.json")
    await services.armies.import_roster(
        place, 21, json.dumps({**english, "name": "Gascons"}).encode(), "g.json"
    )
    await services.armies.import_roster(place, 22, json.dumps(french).encode(), "f.json")
    names = [english["name"], "Gascons", french["name"]]
    with pytest.raises(InvalidInput, match=r"takes exactly 2 sides; 3 were named\."):
        await services.battles.create(place, GM, "Agincourt", names)
    assert await services.battles.list(place) == []

"""A campaign map checked against its campaign at import (#33 item 7): a map naming other sides,
a side holding no region, keys the map does not read, a region no army could reach: each refused
naming the file's key and the way forward, and nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from bot.errors import InvalidInput, NotFound
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.map_files import parse_map
from tests.conftest import ALICE, BOB, GM


def marches(west: str = "England", east: str = "Wales") -> dict[str, Any]:
    """A small map of the Welsh Marches, its two sides named as given."""
    return {
        "name": "The Welsh Marches",
        "regions": [
            {"name": "Chester", "at": [0, 0], "holder": west, "adjacent": ["Clwyd"]},
            {"name": "Clwyd", "at": [100, 0], "holder": east, "adjacent": ["Powys"]},
            {"name": "Powys", "at": [100, 100], "adjacent": ["Shrewsbury"]},
            {"name": "Shrewsbury", "at": [0, 100], "holder": west, "adjacent": ["Chester"]},
        ],
    }


def upload(data: dict[str, Any]) -> bytes:
    return yaml.safe_dump(data, sort_keys=False).encode()


@pytest.fixture
async def gallic_war(services: Services, place: Place) -> Place:
    """A skirmish campaign of Romans (Alice) and Gauls (Bob), no map yet."""
    await services.campaigns.create(place, GM, "Gallic War", "skirmish")
    for player, side in ((ALICE, "Romans"), (BOB, "Gauls")):
        await services.campaigns.join(place, player, side)
    return place


async def refused(services: Services, place: Place, data: dict[str, Any]) -> str:
    with pytest.raises(InvalidInput) as caught:
        await services.campaign_map.import_map(place, GM, upload(data), "marches.yaml")
    return str(caught.value)


async def test_a_map_of_other_sides_is_refused_naming_both_and_the_keys(
    services: Services, gallic_war: Place
) -> None:
    said = await refused(services, gallic_war, marches())
    assert said.startswith(
        "`marches.yaml` does not fit **Gallic War**: the map's sides are **England** and "
        "**Wales**; the campaign's are **Romans** and **Gauls**. Nothing was imported.\n"
    )
    assert (
        "• **England** (regions[0].holder (Chester), regions[3].holder (Shrewsbury)) is not a "
        "side of **Gallic War**\n" in said
    )
    assert "• **Wales** (regions[1].holder (Clwyd)) is not a side of **Gallic War**\n" in said
    assert "• **Romans** holds no region, so its armies could not enter the map" in said
    assert "Rename each `holder:` in the file to one of the campaign's sides" in said
    with pytest.raises(NotFound):  # nothing was stored
        await services.campaign_map.show(gallic_war, GM)


async def test_a_refused_map_leaves_the_one_in_play(services: Services, gallic_war: Place) -> None:
    await services.campaign_map.import_map(
        gallic_war, GM, upload(marches("Romans", "Gauls")), "m.yaml"
    )
    await refused(services, gallic_war, dict(marches(), name="Another"))
    view = await services.campaign_map.show(gallic_war, GM)
    assert view.picture.name == "The Welsh Marches"
    assert view.picture.holders["Clwyd"] == "Gauls"


async def test_a_side_is_taken_as_the_campaign_spells_it(
    services: Services, gallic_war: Place
) -> None:
    picture = await services.campaign_map.import_map(
        gallic_war, GM, upload(marches("ROMANS", "gauls")), "m.yaml"
    )
    assert picture.holders == {"Chester": "Romans", "Clwyd": "Gauls", "Shrewsbury": "Romans"}
    assert picture.sides == ("Romans", "Gauls")


async def test_a_near_miss_is_named_and_a_side_without_a_region_too(
    services: Services, gallic_war: Place
) -> None:
    said = await refused(services, gallic_war, marches("Roman", "Romans"))
    assert (
        "• **Roman** (regions[0].holder (Chester), regions[3].holder (Shrewsbury)) is not a "
        "side of **Gallic War**; did you mean **Romans**?" in said
    )
    assert (
        "• **Gauls** holds no region, so its armies could not enter the map: give it one with "
        "`holder: Gauls`" in said
    )
    assert "**Romans** holds no region" not in said


async def test_before_anyone_joins_the_maps_sides_stand_but_some_side_must_hold_a_region(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Gallic War", "skirmish")
    bare = marches()
    for region in bare["regions"]:
        region.pop("holder", None)
    said = await refused(services, place, bare)
    assert said.startswith("`marches.yaml`: no region has a `holder:`, so no army could enter")
    picture = await services.campaign_map.import_map(place, GM, upload(marches()), "m.yaml")
    assert picture.sides == ("England", "Wales")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda m: m["regions"][1].update(holdr=m["regions"][1].pop("holder")),
         "regions[1].holdr: not a key of a campaign map; did you mean `holder`?"),
        (lambda m: m["regions"][0].update(adjacant=m["regions"][0].pop("adjacent")),
         "regions[0].adjacant: not a key of a campaign map; did you mean `adjacent`?"),
        (lambda m: m.update(region=[]), "region: not a key of a campaign map; did you mean"),
        (lambda m: m["regions"].append({"name": "Anglesey", "at": [300, 0]}),
         "Anglesey: no region is adjacent to it, so no army could march in or out"),
    ],
)  # fmt: skip
def test_what_the_first_move_would_trip_over_is_named(change: Any, said: str) -> None:
    data = marches()
    change(data)
    with pytest.raises(InvalidInput) as caught:
        parse_map(json.dumps(data).encode(), "m.json")
    assert said in str(caught.value)

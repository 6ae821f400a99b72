"""Bad input through the services, over a real database (#30 items 9-12): too few points for
a terrain shape, a deployment file's facing that is not a number, names typed with extra
spaces, and NaN or infinities; each refusal is specific and changes no row."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Army
from bot.db.session import Database
from bot.errors import InvalidInput
from bot.presentation.replies import matching_choices
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from bot.services.shapes import TypedTerrain, parse_point
from tests.bot.battle_setup import DEPLOYMENT, RED, deployed_battle, skirmish_campaign
from tests.conftest import ALICE, BOB, GM
from tests.databases import snapshot

NOT_FINITE = [math.nan, math.inf, -math.inf]


async def set_up(services: Services, place: Place) -> None:
    """The skirmish campaign and its battle in set-up, nothing deployed."""
    await skirmish_campaign(services, place)
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], 48, 36)


async def running(services: Services, place: Place) -> None:
    """The battle deployed and started."""
    await deployed_battle(services, place)
    await services.play.start(place, GM)


async def refused_unchanged(db_url: str, call: Any, match: str) -> str:
    """Await ``call``: it must be refused with ``match`` and leave every row as it was."""
    before = snapshot(db_url)
    with pytest.raises(InvalidInput, match=match) as refusal:
        await call
    assert snapshot(db_url) == before
    return refusal.value.message


# Item 9: too few points for a line or a polygon.


@pytest.mark.parametrize(
    ("kind", "shape", "at", "words"),
    [
        ("river", "line", "10,10", "A line needs at least 2 points; you gave 1"),
        ("wood", "polygon", "10,10 20,10", "A polygon needs at least 3 points; you gave 2"),
        ("wood", "polygon", "10,10", "A polygon needs at least 3 points; you gave 1"),
    ],
)
async def test_terrain_with_too_few_points_is_refused_with_the_rule(
    services: Services, place: Place, db_url: str, kind: str, shape: str, at: str, words: str
) -> None:
    await set_up(services, place)
    laying = services.battles.add_terrain(place, GM, TypedTerrain(kind, shape, at))
    await refused_unchanged(db_url, laying, words)


async def test_gm_terrain_with_too_few_points_is_refused_with_the_rule(
    services: Services, place: Place, db_url: str
) -> None:
    await running(services, place)
    laying = services.gm.lay_terrain(place, GM, TypedTerrain("road", "line", "10,10"), "a road")
    await refused_unchanged(db_url, laying, "A line needs at least 2 points; you gave 1")


# Item 10: a deployment file's facing must be a number.


@pytest.mark.parametrize("facing", ["abc", [90], {"a": 1}, True])
async def test_deployment_file_facing_not_a_number_names_the_row(
    services: Services, place: Place, db_url: str, facing: object
) -> None:
    await set_up(services, place)
    rows = [
        {"unit": "Red Spearmen", "at": [12, 4]},
        {"unit": "Red Horse", "at": [36, 4], "facing": facing},
    ]
    deploying = services.battles.deploy_many(place, ALICE, json.dumps(rows).encode(), "d.json")
    await refused_unchanged(
        db_url, deploying, r"Row 2 \(Red Horse\): `facing` must be a number of degrees"
    )


# Item 11: names are compared tidied (spaces collapsed, any case), stored tidied on import.


async def test_imported_names_are_stored_tidied_and_found_however_spaced(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Border Raids", "skirmish")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    spaced = {**RED, "units": [{**u, "name": f"  {u['name'].replace(' ', '  ')} "}
                               for u in RED["units"]]}  # fmt: skip
    army = await services.armies.import_roster(
        place, ALICE, json.dumps(spaced).encode(), "red.json"
    )
    assert [u["name"] for u in army.units] == [u["name"] for u in RED["units"]]


async def test_old_rows_with_double_spaces_are_still_found(
    services: Services, place: Place, db: Database
) -> None:
    await skirmish_campaign(services, place)
    async with db.write() as session:  # as a list imported before names were tidied
        army = await session.scalar(select(Army).where(Army.name == "Red Host"))
        assert army is not None
        units = [{**u, "name": u["name"].replace("Red Horse", "Red  Horse")} for u in RED["units"]]
        army.roster = {**RED, "units": units}
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], 48, 36)
    offered = await services.lookups.roster_units(place, ALICE)
    names = [name for _, name, _ in offered]
    assert [c.value for c in matching_choices(names, "red horse")] == ["Red  Horse"]
    for unit, at in DEPLOYMENT.items():
        typed = "Red  Horse" if unit == "Red Horse" else unit
        await services.battles.deploy(place, ALICE if unit[0] == "R" else BOB, typed, at, None)
    placed = await services.battles.deploy(place, ALICE, "red horse", "36,5", None)
    assert placed.name == "Red  Horse"
    await services.play.start(place, GM)
    view = await services.play.submit(place, ALICE, "place", "RED HORSE", OrderInput(x=36, y=6))
    assert view.unit_name == "Red  Horse"
    assert await services.lookups.units_on_table(place, ALICE, own=True)
    moved = await services.gm.move(place, GM, " red horse ", "30,6", None, "tidy")
    assert moved.unit == "Red  Horse"


# Item 12: every number entering a service is finite.


@pytest.mark.parametrize("value", NOT_FINITE)
@pytest.mark.parametrize("slot", ["x", "y", "number"])
async def test_order_numbers_must_be_finite(
    services: Services, place: Place, db_url: str, slot: str, value: float
) -> None:
    await running(services, place)
    typed: dict[str, Any] = {"x": 26.0, "y": 6.0, slot: value}
    giving = services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(**typed))
    await refused_unchanged(db_url, giving, f"`{slot}` must be a finite number")


@pytest.mark.parametrize("typed", ["nan", "inf", "-Infinity"])
async def test_an_order_number_typed_by_name_must_be_finite(
    services: Services, place: Place, db_url: str, typed: str
) -> None:
    await running(services, place)
    given = OrderInput(x=26.0, y=6.0, named={"facing": typed})
    giving = services.play.submit(place, ALICE, "place", "Red Archers", given)
    await refused_unchanged(db_url, giving, "`facing` must be a finite number")


@pytest.mark.parametrize("value", NOT_FINITE)
async def test_gm_move_and_bring_back_facing_must_be_finite(
    services: Services, place: Place, db_url: str, value: float
) -> None:
    await running(services, place)
    moving = services.gm.move(place, GM, "Red Horse", "30,6", value, "why")
    await refused_unchanged(db_url, moving, "`facing` must be a finite number")
    await services.gm.take_off(place, GM, "Red Horse", "pursuit")
    back = services.gm.bring_back(place, GM, "Red Horse", "30,6", value, "back")
    await refused_unchanged(db_url, back, "`facing` must be a finite number")


@pytest.mark.parametrize("value", NOT_FINITE)
async def test_deploy_facing_must_be_finite(
    services: Services, place: Place, db_url: str, value: float
) -> None:
    await set_up(services, place)
    deploying = services.battles.deploy(place, ALICE, "Red Horse", "36,4", value)
    await refused_unchanged(db_url, deploying, "`facing` must be a finite number")


async def test_gm_extend_and_odds_numbers_must_be_finite(
    services: Services, place: Place, db_url: str
) -> None:
    await running(services, place)
    await refused_unchanged(
        db_url, services.gm.extend(place, GM, math.nan, "why"), "`hours` must be a finite number"
    )
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    with pytest.raises(InvalidInput, match="`number` must be a finite number"):
        await services.odds.of_order(place, ALICE, math.nan)  # type: ignore[arg-type]


@pytest.mark.parametrize("at", ["9" * 400 + ",4", "4," + "9" * 400])
async def test_a_position_too_large_to_be_finite_is_refused(at: str) -> None:
    with pytest.raises(InvalidInput, match="must be a finite number"):
        parse_point(at)

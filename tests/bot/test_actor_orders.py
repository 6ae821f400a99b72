"""Orders by units, leaders, groups and sides through the services: several per actor, each
parameter by name, shared names refused, and withdrawing one order of several."""

from __future__ import annotations

import json

import pytest

from bot.errors import InvalidInput, NotFound
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.order_params import OrderInput
from rules_core.plugin import Rules
from tests.conftest import ALICE, BOB, GM


async def mustered(services: Services, place: Place, rules: Rules) -> None:
    """A Muster battle with both armies deployed, started and at its council."""
    red, blue = rules.sample_armies()
    await services.campaigns.create(place, GM, "Muster campaign", "muster")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.armies.import_roster(place, ALICE, json.dumps(red).encode(), "red.json")
    await services.armies.import_roster(place, BOB, json.dumps(blue).encode(), "blue.json")
    await services.battles.create(place, GM, "Field of muster", ["Red Muster", "Blue Muster"])
    await services.battles.deploy(place, ALICE, "Red Pikes", "10,4", 0)
    await services.battles.deploy(place, ALICE, "Red Horse", "30,4", 0)
    await services.battles.deploy(place, BOB, "Blue Axes", "10,32", 180)
    await services.battles.deploy(place, BOB, "Blue Horse", "30,32", 180)
    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.battle.waiting_step == "Council"


async def test_sides_groups_and_leaders_give_orders_by_name(
    muster: Rules, services: Services, place: Place
) -> None:
    await mustered(services, place, muster)
    state = (await services.battles.view(place)).state
    red = next(side for side in state.sides if side.name == "Red")
    stance = await services.play.submit(place, ALICE, "stance", "Red", OrderInput(option="bold"))
    assert (stance.unit_id, stance.summary) == (red.id, "stance: bold")
    wing = next(g for g in state.groups if g.side == red.id and g.id.endswith("left"))
    posture = await services.play.submit(
        place, ALICE, "posture", wing.name, OrderInput(option="attack")
    )
    assert posture.unit_id == wing.id
    with pytest.raises(NotFound, match="There is no group of yours called"):
        await services.play.submit(place, BOB, "posture", wing.name, OrderInput(option="hold"))
    general = f"General {red.id}"
    cry = OrderInput(target="Red Pikes", text="For Red!")
    assert (await services.play.submit(place, ALICE, "inspire", general, cry)).summary == (
        "inspires Red Pikes"
    )
    rally = OrderInput(group=f"Right wing {red.id}")
    await services.play.submit(place, ALICE, "rally", general, rally)
    await services.play.submit(place, ALICE, "inspire", general, OrderInput(target="Red Horse"))
    with pytest.raises(InvalidInput, match="at most 2 inspire order"):
        await services.play.submit(place, ALICE, "inspire", general, OrderInput(target="Red Pikes"))

    mine = await services.play.mine(place, ALICE)
    assert [(v.unit_name, v.kind) for v in mine] == [
        ("Red", "stance"), (wing.name, "posture"), (general, "inspire"), (general, "rally"),
        (general, "inspire"),
    ]  # fmt: skip
    assert await services.play.mine(place, BOB) == []  # secret from the other side

    withdrawn = await services.play.withdraw(place, ALICE, general, 1)
    assert (withdrawn.kind, withdrawn.remaining) == ("inspire", 2)
    with pytest.raises(InvalidInput, match="has 2 order\\(s\\) this step; give 1 to 2"):
        await services.play.withdraw(place, ALICE, general, 3)

    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None
    after = report.battle.state
    assert after.side(red.id).status["stance"] == "bold"
    assert after.group(wing.id).status["posture"] == "attack"
    assert after.group(f"{red.id}_right").status["rallied"] is True
    horse = next(u for u in after.units if u.name == "Red Horse")
    pikes = next(u for u in after.units if u.name == "Red Pikes")
    assert horse.status["inspired"] == 1 and "inspired" not in pikes.status  # the first withdrawn


async def test_paths_and_repeated_marches_by_name(
    muster: Rules, services: Services, place: Place
) -> None:
    await mustered(services, place, muster)
    await services.play.confirm(place, ALICE)
    await services.play.confirm(place, BOB)  # the council passes on defaults
    first = await services.play.submit(place, ALICE, "march", "Red Pikes", OrderInput(x=10, y=6))
    assert first.summary == "marches to (10, 6)"
    await services.play.submit(place, ALICE, "march", "Red Pikes", OrderInput(x=12, y=8))
    with pytest.raises(InvalidInput, match="takes points as `x,y`"):
        await services.play.submit(place, ALICE, "route", "Red Horse", OrderInput(path="30 4 x"))
    route = OrderInput(named={"via": "30,6 32,8 (34, 8)"})
    assert (await services.play.submit(place, ALICE, "route", "Red Horse", route)).summary == (
        "marches by 3 points"
    )
    # A march does not combine with a route: it replaces it, and the preview says so.
    march = await services.play.submit(place, ALICE, "march", "Red Horse", OrderInput(x=30, y=6))
    route_title = muster.order_kind("route").title
    assert march.notes == (f"replaces its earlier {route_title} order",)
    await services.play.submit(place, ALICE, "route", "Red Horse", route)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None
    units = {u.name: u for u in report.battle.state.units}
    assert (units["Red Pikes"].x, units["Red Pikes"].y) == (12, 8)
    assert units["Red Pikes"].status["marches"] == 2
    assert (units["Red Horse"].x, units["Red Horse"].y) == (34, 8)


async def test_a_name_both_sides_share_is_refused_with_the_candidates(
    muster: Rules, services: Services, place: Place
) -> None:
    red, blue = muster.sample_armies()
    twin = {**blue, "units": [{**blue["units"][0], "name": "Red Pikes"}, blue["units"][1]]}
    await services.campaigns.create(place, GM, "Muster campaign", "muster")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.armies.import_roster(place, ALICE, json.dumps(red).encode(), "red.json")
    await services.armies.import_roster(place, BOB, json.dumps(twin).encode(), "blue.json")
    await services.battles.create(place, GM, "Field of muster", ["Red Muster", "Blue Muster"])
    for user, name, where, facing in (
        (ALICE, "Red Pikes", "10,4", 0), (ALICE, "Red Horse", "30,4", 0),
        (BOB, "Red Pikes", "10,32", 180), (BOB, "Blue Horse", "30,32", 180),
    ):  # fmt: skip
        await services.battles.deploy(place, user, name, where, facing)
    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    await services.play.confirm(place, BOB)
    general = (await services.battles.view(place)).state.leaders[0]
    with pytest.raises(InvalidInput, match="names several units; give one by id: `") as refused:
        await services.play.submit(
            place, ALICE, "inspire", general.id, OrderInput(target="red pikes")
        )
    ids = sorted(u.id for u in (await services.battles.view(place)).state.units
                 if u.name == "Red Pikes")  # fmt: skip
    assert all(f"`{unit_id}`" in str(refused.value) for unit_id in ids)
    own = next(i for i in ids if i.startswith(general.side))
    view = await services.play.submit(place, ALICE, "inspire", general.id, OrderInput(target=own))
    assert view.summary == "inspires Red Pikes"
    # Autocomplete offers a shared name with its id, which resolves to that unit.
    offered = await services.lookups.any_targets(place, ALICE)
    assert sorted(n for n in offered if n.startswith("Red Pikes")) == [
        f"Red Pikes ({unit_id})" for unit_id in ids
    ]
    tagged = OrderInput(target=f"Red Pikes ({own})")
    assert (await services.play.submit(place, ALICE, "inspire", general.id, tagged)).summary == (
        "inspires Red Pikes"
    )

"""The turn loop through the services: start, orders, confirmation, questions, deadlines."""

from __future__ import annotations

import random

import pytest

from bot.db.session import Database
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.battle_setup import START, deployed_battle
from tests.conftest import ALICE, BOB, GM, OUTSIDER
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """The services' clock."""
    return FakeClock(START)


@pytest.fixture
def services(db: Database, clock: FakeClock) -> Services:
    """Services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=clock)


async def test_start_publishes_hash_and_waits_for_deployment(
    services: Services, place: Place
) -> None:
    await deployed_battle(services, place)
    report = await services.play.start(place, GM)
    assert report.battle.status.value == "running"
    assert len(report.battle.seed_sha256) == 64
    assert report.battle.waiting_step == "Deployment"
    assert set(report.battle.waiting_for) == {ALICE, BOB}
    assert report.battle.deadline_at is not None


async def test_start_refused_until_every_unit_is_deployed(services: Services, place: Place) -> None:
    from tests.bot.battle_setup import skirmish_campaign

    await skirmish_campaign(services, place)
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"], 48, 36)
    with pytest.raises(Conflict, match="Deploy every unit"):
        await services.play.start(place, GM)
    with pytest.raises(PermissionDenied):
        await services.play.start(place, ALICE)


async def test_orders_confirmation_and_resolution(services: Services, place: Place) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    # deployment: Alice re-places her archers, then both confirm
    view = await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    assert view.summary.startswith("deploys at (26, 6)")
    with pytest.raises(InvalidInput, match="outside"):
        await services.play.submit(place, ALICE, "place", "Red Horse", OrderInput(x=26, y=30))
    with pytest.raises(NotFound, match="no unit of yours"):
        await services.play.submit(place, ALICE, "place", "Blue Riders", OrderInput(x=2, y=2))
    with pytest.raises(PermissionDenied):
        await services.play.submit(place, OUTSIDER, "place", "Red Horse", OrderInput(x=2, y=2))
    assert [o.unit_name for o in await services.play.mine(place, ALICE)] == ["Red Archers"]
    first = await services.play.confirm(place, ALICE)
    assert first.report is None and first.side_names == ("Blue",)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None
    report = done.report
    assert report.title.startswith("Set-up · Deployment")
    assert any("Red Archers" in line for line in report.lines)
    # initiative then stops at a question for the winner
    assert report.decision is not None
    assert report.decision.question.endswith("go first or second?")


async def test_autocomplete_sources(services: Services, place: Place) -> None:
    await deployed_battle(services, place)
    assert await services.lookups.units_on_table(place, ALICE, own=True) == [
        "Red Spearmen",
        "Red Archers",
        "Red Horse",
    ]
    assert await services.lookups.units_on_table(place, ALICE, own=False) == [
        "Blue Warriors",
        "Blue Slingers",
        "Blue Riders",
    ]
    assert (await services.lookups.any_targets(place, ALICE))[3:] == [
        "Red Spearmen",
        "Red Archers",
        "Red Horse",
    ]
    # A GM without a side gives no orders, so is offered none of the sides' units to order.
    assert await services.lookups.units_on_table(place, GM, own=True) == []
    assert len(await services.lookups.units_on_table(place, GM, own=False)) == 6
    await services.play.start(place, GM)
    assert await services.lookups.order_kinds(place) == [("place", "Deploy")]
    assert await services.lookups.order_options(place, "place") == []
    assert await services.lookups.order_options(place, "nonsense") == []
    assert await services.lookups.pending_options(place) == []
    assert await services.lookups.units_on_table(Place(1, 1), ALICE, own=True) == []


async def test_illegal_order_kind_for_the_step_is_refused(services: Services, place: Place) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    with pytest.raises(
        InvalidInput, match="move orders are not given in the Deployment step; it takes only place"
    ):
        await services.play.submit(place, ALICE, "move", "Red Horse", OrderInput(x=36, y=8))
    with pytest.raises(InvalidInput, match="no `fly` order"):
        await services.play.submit(place, ALICE, "fly", "Red Horse", OrderInput())
    with pytest.raises(InvalidInput, match="needs a destination"):
        await services.play.submit(place, ALICE, "place", "Red Horse", OrderInput())
    assert await services.play.mine(place, ALICE) == []

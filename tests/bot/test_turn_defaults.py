"""``/order done turn:true`` with nothing planned: the service names what each remaining step
of the player's turn does by the rules' defaults (Agincourt, as test_standing_service.py)."""

from __future__ import annotations

from bot.services import Services
from bot.services.campaigns import Place
from bot.services.order_params import OrderInput
from tests.bot.test_hail_caesar_battle import set_up as hail_caesar_set_up
from tests.bot.test_standing_service import fixed_services
from tests.bot.test_tree_of_battles_battle import set_up
from tests.conftest import ALICE, BOB, GM, OUTSIDER

__all__ = ["fixed_services"]  # a fixture


async def test_nothing_planned_names_each_steps_defaults(
    fixed_services: Services, place: Place
) -> None:
    services = fixed_services
    await set_up(services, place)
    assert await services.turn_defaults.unplanned(place, ALICE) is None  # not started yet
    await services.play.start(place, GM)
    found = await services.turn_defaults.unplanned(place, BOB)
    assert found is not None and found.side_names == ("France",)
    assert [s.step for s in found.steps][:2] == ["Command — action 1", "Command — action 2"]
    assert found.steps[-1].step == "Combat: charges and responses"
    assert all(s.defaults == () for s in found.steps)  # the Tree of Battles orders nobody
    assert await services.turn_defaults.unplanned(place, GM) is None  # no side of his own
    assert await services.turn_defaults.unplanned(place, OUTSIDER) is None
    given = OrderInput(option="hold the line behind the stakes")
    await services.play.submit(place, ALICE, "new_orders", "Edward, Duke of York", given)
    assert await services.turn_defaults.unplanned(place, ALICE) is None  # an order given
    assert await services.turn_defaults.unplanned(place, BOB) is not None


async def test_the_hail_caesar_defaults_are_named_for_each_unit(
    fixed_services: Services, place: Place
) -> None:
    await hail_caesar_set_up(fixed_services, place)
    await fixed_services.play.start(place, GM)
    for user in (ALICE, BOB):  # the deployment step: Rome's part of turn 1 opens
        await fixed_services.play.confirm(place, user)
    found = await fixed_services.turn_defaults.unplanned(place, ALICE)
    assert found is not None and found.side_names == ("Rome",)
    assert [s.step for s in found.steps] == [
        "Command: General Advance", "Command: Orders — Legio", "Command: Orders — Equites",
        "Shooting",
    ]  # fmt: skip
    general_advance = dict(found.steps[0].defaults)
    assert general_advance["First Cohort"] == "holds" and len(general_advance) == 6
    steps = dict(await fixed_services.lookups.turn_steps(place, ALICE))
    key = next(k for k, words in steps.items() if words == "Command: Orders — Legio")
    await fixed_services.play.submit(place, ALICE, "hold", "First Cohort", OrderInput(), key)
    assert await fixed_services.turn_defaults.unplanned(place, ALICE) is None  # one planned

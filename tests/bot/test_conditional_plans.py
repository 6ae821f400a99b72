"""Conditional plans through the services, on a real SQLite file: an order planned ahead with
alternatives falls through to the first one legal when its step comes, and the result says
which was used and why the earlier ones failed (Gergovia, as in test_hail_caesar_battle)."""

from __future__ import annotations

import pytest

from bot.errors import Conflict, InvalidInput, NotFound
from bot.services import Services
from bot.services.alternatives import Wanted
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.test_hail_caesar_battle import set_up
from tests.bot.test_tree_of_battles_battle import clock, services
from tests.conftest import ALICE, BOB, GM

__all__ = ["clock", "services"]  # fixtures: every battle gets the same dice seed (Rome first)

EQUITES = "Command: Orders — Equites"


async def _turn_one(services: Services, place: Place) -> dict[str, str]:
    """Deployment confirmed by both: Rome's part of turn 1 is open; Rome's steps {words: key}."""
    await set_up(services, place)
    await services.play.start(place, GM)
    for user in (ALICE, BOB):
        await services.play.confirm(place, user)
    return {words: key for key, words in await services.lookups.turn_steps(place, ALICE)}


async def test_a_conditional_plan_falls_through_to_its_second_alternative(
    services: Services, place: Place
) -> None:
    steps = await _turn_one(services, place)
    step = steps[EQUITES]
    planned = await services.play.submit(
        place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14), step=step
    )
    assert planned.step == EQUITES
    first = await services.alternatives.add(
        place, ALICE, step, Wanted("move", "Gallic Horse", OrderInput(x=33, y=12))
    )
    assert len(first.alternatives) == 1 and "not possible now" not in first.alternatives[0]
    both = await services.alternatives.add(
        place, ALICE, step, Wanted("hold", "Gallic Horse", OrderInput())
    )
    assert len(both.alternatives) == 2
    (mine,) = await services.play.mine(place, ALICE)
    assert mine.alternatives == both.alternatives  # /orders mine lists them, in turn
    # The GM sends the horse far away: neither move can be made by its step; holding can.
    await services.gm.move(place, GM, "Gallic Horse", "2,20", None, "scouting")
    done = await services.play.confirm(place, ALICE, turn=True)
    assert done.report is not None
    text = "\n".join(done.report.lines)
    (note,) = [line for line in text.splitlines() if "alternative 2 (hold) used" in line]
    assert note.startswith("Gallic Horse: planned move could not be carried out, ")
    assert "; alternative 1 (move): " in note  # why the first alternative failed too
    assert "default used" not in text
    assert await services.play.mine(place, ALICE) == []  # used, gone with its alternatives


async def test_alternatives_are_refused_without_a_planned_order_and_withdrawn_with_it(
    services: Services, place: Place
) -> None:
    steps = await _turn_one(services, place)
    step = steps[EQUITES]
    with pytest.raises(NotFound, match="has no order planned for"):
        await services.alternatives.add(
            place, ALICE, step, Wanted("hold", "Gallic Horse", OrderInput())
        )
    with pytest.raises(Conflict, match="Alternatives are for an order planned for a later step"):
        await services.alternatives.add(
            place,
            ALICE,
            steps["Command: General Advance"],
            Wanted("hold", "Gallic Horse", OrderInput()),
        )
    await services.play.submit(
        place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14), step=step
    )
    with pytest.raises(InvalidInput, match="already has that order planned"):
        await services.alternatives.add(
            place, ALICE, step, Wanted("move", "Gallic Horse", OrderInput(x=33, y=14))
        )
    with pytest.raises(InvalidInput, match="This ruleset has no `fly` order"):
        await services.alternatives.add(
            place, ALICE, step, Wanted("fly", "Gallic Horse", OrderInput())
        )
    with pytest.raises(InvalidInput, match="not a step of this turn your side acts in"):
        await services.alternatives.add(
            place, BOB, step, Wanted("hold", "Gallic Horse", OrderInput())
        )
    # Not possible now, kept all the same with its verdict: it is judged again at its step.
    far = await services.alternatives.add(
        place, ALICE, step, Wanted("move", "Gallic Horse", OrderInput(x=33, y=34))
    )
    assert far.alternatives[0].startswith("not possible now (")
    await services.play.withdraw(place, ALICE, "Gallic Horse", None, step)
    assert await services.play.mine(place, ALICE) == []
    with pytest.raises(NotFound, match="has no order planned for"):
        await services.alternatives.add(
            place, ALICE, step, Wanted("hold", "Gallic Horse", OrderInput())
        )

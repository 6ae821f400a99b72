"""Conditional plans through the services, on a real SQLite file: an order planned ahead with
alternatives falls through to the first one legal when its step comes, and the result says
which was used and why the earlier ones failed (Gergovia, as in test_hail_caesar_battle)."""

from __future__ import annotations

import pytest

from bot.db.models import PlannedOrder
from bot.errors import Conflict, InvalidInput, NotFound
from bot.services import Services, plans
from bot.services.campaigns import Place
from bot.services.intake import Wanted
from bot.services.play import OrderInput
from rules_core import planning
from tests.bot.test_hail_caesar_battle import set_up
from tests.bot.test_tree_of_battles_battle import clock, services
from tests.conftest import ALICE, BOB, GM
from tests.rules_core.test_planning import _last_division

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
    with pytest.raises(InvalidInput, match="not a step of this turn or the next your side acts in"):
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


async def test_a_gm_sees_the_alternatives_and_the_other_side_sees_nothing(
    services: Services, place: Place
) -> None:
    steps = await _turn_one(services, place)
    await services.play.submit(
        place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14), step=steps[EQUITES]
    )
    for kind in ("hold", "rally"):
        wanted = Wanted(kind, "Gallic Horse", OrderInput())
        try:
            await services.alternatives.add(place, ALICE, steps[EQUITES], wanted)
        except InvalidInput:
            continue  # a kind the step does not take is refused, not kept
    (planned,) = (await services.order_book.book(place, GM)).planned
    assert planned.summary.endswith("(if not: hold)")
    theirs = await services.order_book.book(place, BOB)
    assert not theirs.planned and "Gallic Horse" not in str(theirs)


def test_a_planned_order_opening_its_step_becomes_its_first_legal_alternative() -> None:
    """When its step opens before it is carried out (a step shared with players still to
    plan), a planned order not legal then becomes its first alternative that is."""
    rules, state, later, unit = _last_division()
    there = planning.at_step(state, later)
    far = {"kind": "move", "params": {"to": [unit.x, unit.y + 40]}, "summary": "far"}
    hold = {"kind": "hold", "params": {}, "summary": "hold"}
    row = PlannedOrder(
        actor=unit.id, kind="move", params=far["params"], summary="move", alternatives=[far, hold]
    )
    row.step_key, row.side_id, row.consult = "k", unit.side, False
    kind, params, summary = plans.adopted(rules, there, row)
    assert (kind, params) == ("hold", {}) and summary.endswith("(alternative 2 to move)")
    row.alternatives = []
    assert plans.adopted(rules, there, row) == ("move", far["params"], "move")

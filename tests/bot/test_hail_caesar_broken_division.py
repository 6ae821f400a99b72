"""A broken Hail Caesar division through the services: the GM marks it broken, an ordered
move to one of its units is refused with the reason and what the unit may do instead, and
the retirement the sheet allows is taken."""

from __future__ import annotations

import pytest

from bot.errors import RefusedOrder, Way
from bot.presentation.refusals import refused_text
from bot.services import Services
from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.test_hail_caesar_battle import set_up
from tests.conftest import ALICE, GM

EQUITES = ("orders", "a_rom_equites")


async def to_the_equites_orders(services: Services, place: Place) -> BattleView:
    """The Romans' first turn, every step before the Equites' orders confirmed empty."""
    await set_up(services, place)
    view = (await services.play.start(place, GM)).battle
    for _ in range(10):
        cursor = view.state.cursor
        if (cursor.step, cursor.subject.id if cursor.subject else "") == EQUITES:
            return view
        assert view.state.pending is None
        confirmed = [await services.play.confirm(place, user) for user in view.waiting_for]
        report = confirmed[-1].report
        assert report is not None  # every player awaited has confirmed
        view = report.battle
    raise AssertionError("the Equites' orders never came")


async def test_an_ordered_move_to_a_broken_division_is_refused_with_its_way_forward(
    services: Services, place: Place
) -> None:
    await to_the_equites_orders(services, place)
    await services.gm.set_status(place, GM, "a", "broken_divisions", "a_rom_equites", "routed")
    with pytest.raises(RefusedOrder) as refused:
        await services.play.submit(place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14))
    why = (
        "**Gallic Horse** cannot move: Gallic Horse's division is broken: it may only retire "
        "(Where Is Your Courage? is the army commander's, and he does not lead this division)."
    )
    assert str(refused.value) == why
    assert refused.value.ways == (Way("kinds", ("retire", "hold")),)
    assert refused_text(refused.value).endswith(
        "➡️ Orders it can take now (`/order give kind:…`): retire, hold."
    )
    # The way forward works: one retirement move, no order test.
    taken = await services.play.submit(
        place, ALICE, "retire", "Gallic Horse", OrderInput(x=33, y=2)
    )
    assert 'retires 4" to (33, 2), no order test' in str(taken)


async def test_before_the_gm_marks_it_the_same_move_is_an_order_test(
    services: Services, place: Place
) -> None:
    await to_the_equites_orders(services, place)
    taken = await services.play.submit(place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14))
    assert "order test by" in str(taken)


async def test_an_advance_on_its_initiative_is_put_to_the_gm_and_refused_by_default(
    services: Services, place: Place
) -> None:
    await to_the_equites_orders(services, place)
    await services.gm.move(place, GM, "Gallic Horse", "33,20", None, "near the Noble Horse")
    await services.gm.set_status(place, GM, "a", "broken_divisions", "a_rom_equites", "routed")
    taken = await services.play.submit(place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=23))
    assert "the GM rules whether it may advance on its initiative (pre-selected: no)" in str(taken)
    report = (await services.play.confirm(place, ALICE)).report
    assert report is not None and report.battle.state.pending is not None
    asked = report.battle.state.pending.decision
    assert (asked.who, asked.default) == ("gm", "forbid")
    ruled = await services.play.answer(report.battle.id, report.battle.stage, GM, None, "forbid")
    assert any(
        "Gallic Horse's division is broken and the GM ruled it may not advance on its "
        "initiative: give it a Retire order (one move, no nearer the enemy) or let it hold" in line
        for line in ruled.lines
    )
    gallic = next(u for u in ruled.battle.state.units if u.name == "Gallic Horse")
    assert (gallic.x, gallic.y) == (33, 20)

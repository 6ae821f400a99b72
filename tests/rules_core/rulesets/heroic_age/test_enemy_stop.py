"""A move stopped by an enemy to its front ends at exactly the sheet's distance, and may charge
(issue #30 item 1): for several starting gaps on the same dice, an ordered move and a Blood Lust
advance."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.geometry import EPSILON
from rules_core.orders import Order, Preview
from rules_core.rulesets.heroic_age import charges, movement, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.rules import PARAMETERS
from rules_core.state import BattleState
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, context

GAPS = (6.0, 6.1, 6.2, 7.0, 7.3)
MOVE_FACES = [5, 5]  # 1 AvD + the optional D6: 10", more than any gap less the stop
CHARGE_REACH = float(next(p.default for p in PARAMETERS if p.name == "charge_reach"))  # type: ignore[arg-type]


def _facing(mover: str, gap: float) -> BattleState:
    """``mover`` facing north at (28, 5) and the Danes' danes3 facing it ``gap`` inches ahead."""
    state = at("movement", **{mover: (28.0, 5.0, 0.0)}, danes3=(28.0, 20.0, 180.0))
    here, there = state.unit(mover), state.unit("danes3")
    y = 5.0 + (here.depth + there.depth) / 2 + gap
    return state.with_unit(replace(there, y=y))


def _charges_step(state: BattleState) -> BattleState:
    """The same state in the Combat phase's charges step."""
    return replace(state, cursor=replace(state.cursor, step="charges"))


@pytest.mark.parametrize("gap", GAPS)
def test_a_move_stopped_by_an_enemy_ends_at_the_stop_distance_and_may_charge(gap: float) -> None:
    state = _facing("saxons2", gap)  # with its leader: no control test
    order = Order("saxons2", "move", {"to": [28, 23], "extra_d6": "yes"})
    ctx = context(state, MOVE_FACES, [order])
    movement.resolve(ctx)
    mover, enemy = ctx.state.unit("saxons2"), ctx.state.unit("danes3")
    assert u.gap(ctx.state, mover, enemy) == pytest.approx(tables.ENEMY_STOP, abs=EPSILON)
    charging = _charges_step(ctx.state)
    charge = Order("saxons2", "charge", {"target": "danes3"})
    assert charges.problem(charging, mover, enemy, CHARGE_REACH) is None
    assert isinstance(RULES.judge(charging, charge), Preview)
    ctx = context(charging, [6], [charge])  # the charge test passed
    charges.resolve(ctx, CHARGE_REACH)
    assert u.engaged_with(ctx.state, ctx.state.unit("saxons2"))


@pytest.mark.parametrize("gap", GAPS)
def test_a_blood_lust_advance_stops_at_the_stop_distance_and_charges(gap: float) -> None:
    state = _facing("saxons5", gap)  # no leader within 2": a control test
    ctx = context(state, [5, *MOVE_FACES])  # control test 5: Blood Lust, then its advance
    movement.resolve(ctx)
    mover, enemy = ctx.state.unit("saxons5"), ctx.state.unit("danes3")
    assert u.level(mover) == "blood lust"
    assert u.gap(ctx.state, mover, enemy) == pytest.approx(tables.ENEMY_STOP, abs=EPSILON)
    ctx = context(_charges_step(ctx.state))  # Blood Lust charges without an order or a test
    charges.resolve(ctx, CHARGE_REACH)
    assert u.engaged_with(ctx.state, ctx.state.unit("saxons5"))


def test_a_unit_already_at_the_stop_distance_does_not_move_closer() -> None:
    state = _facing("saxons2", tables.ENEMY_STOP)
    ctx = context(state, MOVE_FACES, [Order("saxons2", "move", {"to": [28, 23]})])
    movement.resolve(ctx)
    assert ctx.state.unit("saxons2").y == state.unit("saxons2").y


def test_an_enemy_at_the_distance_within_the_shared_tolerance_counts_as_within() -> None:
    beyond = float(tables.REST.lookup("C", "beyond"))  # type: ignore[arg-type]
    state = _facing("saxons1", beyond + EPSILON / 2)  # C grade: rests only beyond 2" of enemy
    unit = state.unit("saxons1")
    assert unit.quality == "C"
    assert movement.rest_problem(context(state), unit) == f'within {beyond:g}" of the enemy'
    clear = _facing("saxons1", beyond + 2 * EPSILON)
    assert movement.rest_problem(context(clear), clear.unit("saxons1")) is None

"""Heroic age: a move stops at exactly 2" from the enemy to its front ("stop at 2" from enemy to
front"), so the charge that needs it within 2" to the front is legal (#39 item 1)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given

from rules_core.geometry import within
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import movement, tables
from rules_core.rulesets.heroic_age import units as u
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, context
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

MOVE_FACES = [5, 5]  # 1 AvD + the optional D6: 10", more than any gap drawn here less the stop
MOVER, ENEMY = "saxons2", "danes3"  # with its leader: no control test


@EXAMPLES
@given(gap=gaps(tables.ENEMY_STOP + 0.1, 9.0), across=turns(1.0), turn=turns(40.0))
def test_a_move_stopped_2_inches_off_may_charge(gap: float, across: float, turn: float) -> None:
    state = at("movement", **{MOVER: (28.0, 5.0, 0.0), ENEMY: (28.0, 20.0, 180.0)})
    state = placed_ahead(state, MOVER, ENEMY, gap, across=across, turn=turn)
    order = Order(MOVER, "move", {"to": [28, 23], "extra_d6": "yes"})
    assert_legal(RULES, state, order)
    ctx = context(state, MOVE_FACES, [order])
    movement.resolve(ctx)
    mover, enemy = ctx.state.unit(MOVER), ctx.state.unit(ENEMY)
    assert within(u.gap(ctx.state, mover, enemy), tables.ENEMY_STOP)
    charging = replace(ctx.state, cursor=replace(ctx.state.cursor, step="charges"))
    assert_legal(RULES, charging, Order(MOVER, "charge", {"target": ENEMY}))

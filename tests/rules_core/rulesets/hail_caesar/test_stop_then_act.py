"""Hail Caesar: a move stops exactly ``enemy_keep_off`` (1") short of the enemy, so it stands
within that distance, not beyond it, and may charge from there (#39 item 1)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given

from rules_core.context import Context
from rules_core.geometry import EPSILON, within
from rules_core.orders import Order
from rules_core.rulesets.hail_caesar import measure, movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.steps import Cursor
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

RULES = HailCaesarRules()
KEEP_OFF = float(RULES.parameter_values()["enemy_keep_off"])  # type: ignore[arg-type]
MOVER, ENEMY = "r1", "g2"  # the First Cohort (heavy infantry, 6") and the Carnutes Warband


@EXAMPLES
@given(gap=gaps(KEEP_OFF + 0.1, 6.5), across=turns(2.0), turn=turns(30.0))
def test_a_move_stopped_short_stands_at_the_keep_off_and_may_charge(
    gap: float, across: float, turn: float
) -> None:
    state = replace(sample_battle(), cursor=Cursor(1, "main", "orders", ("rom", "gau")))
    state = placed_ahead(state, MOVER, ENEMY, gap, across=across, turn=turn, at=(8.0, 20.0, 0.0))
    enemy = state.unit(ENEMY)
    assume(measure.gap(state.unit(MOVER), enemy) > KEEP_OFF)  # a turned enemy's corner nearer
    goal = (8.0, enemy.y)  # straight ahead: no wheel at the start
    ctx = Context(RULES, state, (), (), random.Random(0))  # no dice: a plain move
    movement.move_to(ctx, state.unit(MOVER), goal, 1, None, "test")
    mover = ctx.state.unit(MOVER)
    apart = measure.gap(mover, ctx.state.unit(ENEMY))
    assert apart >= KEEP_OFF - EPSILON, apart
    if mover.facing == 0.0:  # not turned to face afterwards (proximity): stopped exactly
        assert within(apart, KEEP_OFF), apart
    charge = Order(MOVER, "charge", {"target": ENEMY})
    assert_legal(RULES, ctx.state, charge)

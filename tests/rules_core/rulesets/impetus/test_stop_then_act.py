"""Impetus: a forward move that closes to exactly the charge distance leaves the enemy within
it, so the charge is legal (#39 item 1)."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import assume, given

from rules_core import paths
from rules_core.context import Context
from rules_core.geometry import EPSILON, Footprint, edge_distance, within
from rules_core.orders import Order
from rules_core.rulesets.impetus import actions
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus.orders import charge_problem
from rules_core.state import BattleState
from tests.rules_core.rulesets.impetus.helpers import rules, stopped_at, unit_named
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

MOVER, ENEMY = "Legio X", "Carnutes Warband"


@cache
def _caesars_move() -> BattleState:
    return stopped_at("move", "romans_caesar")  # plays the sample battle: once


@EXAMPLES
@given(closing=gaps(0.05, 2.0), across=turns(1.0), turn=turns(30.0))
def test_a_move_closing_to_the_charge_distance_may_charge(
    closing: float, across: float, turn: float
) -> None:
    state = _caesars_move()
    mover, enemy = unit_named(state, MOVER), unit_named(state, ENEMY)
    reach = mt.distance(mover, "charge")
    state = placed_ahead(state, mover.id, enemy.id, reach + closing, across=across, turn=turn)
    here, there = Footprint.of(state.unit(mover.id)), Footprint.of(state.unit(enemy.id))
    # the closing move, exactly: where the enemy first comes the charge distance away
    closing_move = paths.gap_reached(here, here.facing, reach + closing, there, reach)
    assume(closing_move is not None)  # a turned enemy's corner may already be within it
    order = Order(mover.id, "move", {"manoeuvre": "forward", "distance": closing_move})
    assert_legal(rules(), state, order)
    ctx = Context(rules(), state, (), (), random.Random(0))
    actions.carry_out(ctx, state.unit(mover.id), order)
    after = ctx.state
    assert within(edge_distance(Footprint.of(after.unit(mover.id)), there), reach)
    assert charge_problem(after, after.unit(mover.id), after.unit(enemy.id), {}) is None


def test_a_target_at_the_charge_distance_within_the_shared_tolerance_may_be_charged() -> None:
    state = _caesars_move()
    mover, enemy = unit_named(state, MOVER), unit_named(state, ENEMY)
    reach = mt.distance(mover, "charge")
    state = placed_ahead(state, mover.id, enemy.id, reach + EPSILON / 2)
    assert charge_problem(state, state.unit(mover.id), state.unit(enemy.id), {}) is None

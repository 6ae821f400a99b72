"""Skirmish: a move that closes to exactly a shooter's range leaves the target within it, so
the shot is legal (#39 item 1)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given

from rules_core import paths, registry
from rules_core.context import Context
from rules_core.geometry import EPSILON, Footprint
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

RULES: Rules = registry.get("skirmish").rules  # type: ignore[assignment]
MOVER, ENEMY = "r2", "b2"  # the Red Archers and the Blue Slingers


def _at(
    step: str, closing: float, across: float = 0.0, turn: float = 0.0
) -> tuple[BattleState, float]:
    """The sample battle in ``step``, the Slingers ``closing`` beyond the Archers' range."""
    state = RULES.sample_battle()
    assert state is not None
    state = replace(state, cursor=Cursor(1, "main", step, ("red", "blue")))
    reach = float(state.unit(MOVER).profile["range"])  # type: ignore[arg-type]
    return placed_ahead(state, MOVER, ENEMY, reach + closing, across=across, turn=turn), reach


@EXAMPLES
@given(closing=gaps(0.05, 5.0), across=turns(1.5), turn=turns(30.0))
def test_a_move_closing_to_range_may_shoot(closing: float, across: float, turn: float) -> None:
    state, reach = _at("move", closing, across, turn)
    here = Footprint.of(state.unit(MOVER))
    # the closing move, exactly: where the target first comes the range to the front
    move = paths.front_reached(here, here.facing, reach + closing, [state.unit(ENEMY)], reach)
    assume(move is not None)  # a turned target's corner may already be within range
    order = Order(MOVER, "move", {"to": [here.x, here.y + move]})
    assert_legal(RULES, state, order)
    ctx = Context(RULES, state, (order,), (), random.Random(0))
    RULES.resolve_movement(ctx)  # type: ignore[attr-defined]
    shooting = replace(ctx.state, cursor=replace(ctx.state.cursor, step="shoot"))
    assert_legal(RULES, shooting, Order(MOVER, "shoot", {"target": ENEMY}))


def test_a_target_at_the_range_within_the_shared_tolerance_may_be_shot() -> None:
    state, _ = _at("shoot", EPSILON / 2)
    assert_legal(RULES, state, Order(MOVER, "shoot", {"target": ENEMY}))

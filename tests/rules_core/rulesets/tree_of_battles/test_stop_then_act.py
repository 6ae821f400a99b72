"""Tree of Battles: a move halts at exactly 1 SF from the enemy to its front ("Must halt at 1 SF
from enemy to their front"), so skirmishers (1 SF maximum range) may shoot from there (#39)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given

from rules_core import registry
from rules_core.context import Context
from rules_core.geometry import Footprint, range_from_front, within
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import shooting, tables, tactical
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.rules_core.rulesets.tree_of_battles.test_moves_back import Loaded
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

RULES: Rules = registry.get("tob").rules  # type: ignore[assignment]
HALT = shooting.ranges("skirmishers", RULES.parameter_values())[0]  # 1 SF: the halt and range
MOVER, ENEMY = "f6", "e3"  # the Brigands (foot skirmishers) and the King's Battle
FIVES = [5] * 8  # every AvD a 5: 2 AvD x ½ SF + ½ SF a die = 6 SF, past any gap drawn here


def at(step: str, state: BattleState) -> BattleState:
    return replace(state, cursor=Cursor(1, "main", step, ("english", "french")))


@EXAMPLES
@given(gap=gaps(HALT + 0.1, 4.0), across=turns(1.2), turn=turns(40.0))
def test_a_skirmisher_halted_at_1_sf_may_shoot(gap: float, across: float, turn: float) -> None:
    state = at("tactical", sample_battle())
    state = placed_ahead(state, MOVER, ENEMY, gap, across=across, turn=turn, at=(12.0, 6.0, 0.0))
    enemy = state.unit(ENEMY)
    to = {"to": [enemy.x, enemy.y], "facing": 0.0, "option": "skirmish_bonus"}
    order = Order(MOVER, "move", to)
    assert_legal(RULES, state, order)
    ctx = Context(RULES, state, (), (), Loaded(FIVES))
    tactical.move(ctx, order)
    mover = ctx.state.unit(MOVER)
    apart = range_from_front(Footprint.of(mover), Footprint.of(ctx.state.unit(ENEMY)))
    assert within(apart, HALT) and apart >= HALT - tables.MOVE_DIE_SF, apart
    assert_legal(RULES, at("shooting", ctx.state), Order(MOVER, "shoot", {"target": ENEMY}))

"""Pike and shot: a move into an enemy stops exactly in contact ("contact with an enemy stops
it"), so it is in the melee the ruleset then fights (#39 item 1)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given

from rules_core.geometry import EPSILON
from rules_core.odds import OddsQuery, Refused
from rules_core.orders import Order
from rules_core.rulesets.pike_and_shot import combat_rolls, movement
from rules_core.rulesets.pike_and_shot.status import ATTACKER
from rules_core.toolkit import enemies_in_contact
from rules_core.toolkit import gap as apart
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, context
from tests.rules_core.stop_then_act import EXAMPLES, assert_legal, gaps, placed_ahead, turns

MOVER, ENEMY = "royalists1", "parliament3"  # Wilmot's Horse and Essex's Foot


@EXAMPLES
@given(gap=gaps(0.1, 8.0), across=turns(2.0), turn=turns(40.0))
def test_a_move_stopped_in_contact_is_in_melee(gap: float, across: float, turn: float) -> None:
    state = at("movement", **{MOVER: (30.0, 10.0, 0.0), ENEMY: (30.0, 30.0, 180.0)})
    state = placed_ahead(state, MOVER, ENEMY, gap, across=across, turn=turn)
    assume(apart(state.unit(MOVER), state.unit(ENEMY)) > 0.05)  # a turned enemy's corner nearer
    order = Order(MOVER, "move", {"path": [[30.0, 10.0 + gap + 4.0]]})
    assert_legal(RULES, state, order)
    ctx = context(state, orders=[order])
    movement.resolve(ctx)
    mover = ctx.state.unit(MOVER)
    assert ATTACKER.of(mover), "it did not stop on the enemy"
    assert [e.id for e in enemies_in_contact(ctx.state, mover)] == [ENEMY]
    fighting = replace(ctx.state, cursor=replace(ctx.state.cursor, step="combat"))
    odds = RULES.odds(fighting, OddsQuery("melee", MOVER))
    assert not isinstance(odds, Refused), odds


def test_a_target_at_the_range_within_the_shared_tolerance_may_be_shot() -> None:
    shooter = "royalists4"  # Gerard's Foot
    state = at("combat", **{shooter: (30.0, 10.0, 0.0), ENEMY: (30.0, 30.0, 180.0)})
    reach = combat_rolls.shooting_range(state.unit(shooter))
    state = placed_ahead(state, shooter, ENEMY, reach + EPSILON / 2)
    assert_legal(RULES, state, Order(shooter, "shoot", {"target": ENEMY}))

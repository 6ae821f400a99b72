"""A simple order policy for the heroic age: advance on the enemy with the extra D6, charge
when able, shoot the nearest. The bot's demo and the scripted battle both use it."""

from __future__ import annotations

from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.heroic_age import measure
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN
from rules_core.state import BattleState, Unit


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    found: list[Order] = []
    for unit in state.units_of(side):
        if BROKEN.of(unit) or u.engaged_with(state, unit):
            continue
        order = _order(rules, state, unit, step)
        if order is not None:
            found.append(order)
    return found


def _order(rules: Rules, state: BattleState, unit: Unit, step: str) -> Order | None:
    enemy = u.nearest_enemy(state, unit)
    if enemy is None:
        return None
    if step == "movement":
        ahead = (unit.x, unit.y + (6.0 if unit.facing < 90 or unit.facing > 270 else -6.0))
        target = (enemy.x, enemy.y)
        for point in (target, ahead):
            order = rules.legal(
                state, Order(unit.id, "move", {"to": [point[0], point[1]], "extra_d6": "yes"})
            )
            if order is not None:
                return order
        return None
    if step == "charges":
        front = measure.enemy_to_front(state, unit, 2.0)
        if front is None:
            return None
        return rules.legal(state, Order(unit.id, "charge", {"target": front.id}))
    if step == "missiles":
        return rules.legal(state, Order(unit.id, "shoot", {"target": enemy.id}))
    return None

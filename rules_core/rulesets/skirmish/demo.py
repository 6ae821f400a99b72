"""A simple order policy for the skirmish ruleset: close on the nearest enemy, charge when
it can, shoot what it can see. The bot's demo and the core's scripted battle both use it."""

from __future__ import annotations

import math

from rules_core import profile
from rules_core.geometry import Footprint, range_from_front
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish import measure
from rules_core.state import BattleState, Unit
from rules_core.toolkit import nearest_enemy


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    if step == "deploy":
        return []  # the units stay where they were deployed
    orders = []
    for unit in state.units_of(side, on_table=True):
        order = _shoot(rules, state, unit) if step == "shoot" else _move(rules, state, unit)
        if order is not None:
            orders.append(order)
    return orders


def _shoot(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    for enemy in sorted(state.enemies_of(unit.side, on_table=True), key=lambda e: _gap(unit, e)):
        order = rules.legal(state, Order(unit.id, "shoot", {"target": enemy.id}))
        if order is not None:
            return order
    return None


def _move(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    enemy = nearest_enemy(state, unit)
    if enemy is None:
        return None
    charge = rules.legal(state, Order(unit.id, "charge", {"target": enemy.id}))
    if charge is not None:
        return charge
    if profile.value(unit, "range") and isinstance(_shoot(rules, state, unit), Order):
        return None  # in range already: stay and shoot
    gap = math.dist((unit.x, unit.y), (enemy.x, enemy.y))
    share = max(0.0, (gap - 4) / gap)
    goal = (unit.x + (enemy.x - unit.x) * share, unit.y + (enemy.y - unit.y) * share)
    params = rules.parameter_values(state.parameters)
    end = measure.farthest(state, unit, goal, params)
    return rules.legal(state, Order(unit.id, "move", {"to": [end[0], end[1]]}))


def _gap(unit: Unit, enemy: Unit) -> float:
    return range_from_front(Footprint.of(unit), Footprint.of(enemy))

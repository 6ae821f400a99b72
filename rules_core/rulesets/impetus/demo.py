"""The scripted players of the sample battle: every unit advances, shoots and charges."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules_core.orders import Order
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus import orders as unit_orders
from rules_core.rulesets.impetus.profiles import missile
from rules_core.rulesets.impetus.status import DISORDERED, RALLIED
from rules_core.state import BattleState, Unit

if TYPE_CHECKING:
    from rules_core.plugin import Rules


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """Orders for the open step: rally the disordered, charge what is in reach, shoot what is
    in range, otherwise advance towards the nearest enemy."""
    step = state.cursor.step
    subject = state.cursor.subject
    if subject is None or subject.side != side:
        return []
    mine = [u for u in state.units_on_table if u.group == subject.id]
    foes = [u for u in state.units_on_table if u.side != side]
    params = rules.parameter_values(state.parameters)
    found: list[Order] = []
    for unit in mine:
        if unit_orders.in_melee(unit) or RALLIED.of(unit):
            continue
        if step == "rally" and DISORDERED.of(unit):
            found.append(Order(unit.id, "rally"))
        elif step == "charge":
            target = _first(
                f
                for f in _by_distance(unit, foes)
                if unit_orders.charge_problem(state, unit, f, params) is None
            )
            if (target is not None and not missile(unit)) or (
                target is not None and unit.type in ("CL", "CM", "CP1", "CP2")
            ):
                found.append(Order(unit.id, "charge", {"target": target.id}))
        elif step == "shoot":
            target = _first(
                f
                for f in _by_distance(unit, foes)
                if unit_orders.shoot_problem(state, unit, f) is None
            )
            if target is not None:
                found.append(Order(unit.id, "shoot", {"target": target.id}))
        elif step == "move":
            found.extend(_advance(rules, state, unit, foes))
    return [o for o in found if rules.legal(state, o) is not None or o.kind == "move"]


def _first(items: Iterable[Unit]) -> Unit | None:
    return next(iter(items), None)


def _by_distance(unit: Unit, foes: list[Unit]) -> list[Unit]:
    return sorted(foes, key=lambda f: math.dist((unit.x, unit.y), (f.x, f.y)))


def _advance(rules: Rules, state: BattleState, unit: Unit, foes: list[Unit]) -> list[Order]:
    """Straight forward by a full move, twice when the enemy is still far, stopping short of
    the enemy's charge reach is not attempted: a plain advance."""
    near = _first(_by_distance(unit, foes))
    if near is None:
        return []
    gap = math.dist((unit.x, unit.y), (near.x, near.y))
    step = mt.distance(unit, "normal")
    if gap < step + 3.0:
        return []
    first = Order(unit.id, "move", {"manoeuvre": "forward", "distance": step})
    if rules.legal(state, first) is None:
        return []
    moves = [first]
    if gap > 2 * step + 6.0 and not DISORDERED.of(unit):
        moves.append(Order(unit.id, "move", {"manoeuvre": "forward", "distance": step}))
    return moves

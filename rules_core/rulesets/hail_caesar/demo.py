"""A simple order policy for Hail Caesar: advance on the enemy, charge and shoot when able.

The army commander of the side that moves first tries a General Advance in the first turn;
each division's general rallies a battered unit out of combat, else orders the division as
one. Questions are answered by re-rolling failed orders and retreating rather than holding
disordered. The bot's demo and the core's scripted battle both use it.
"""

from __future__ import annotations

import math

from rules_core.codec import Json
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar import measure
from rules_core.rulesets.hail_caesar.status import CASUALTIES, RANK
from rules_core.state import BattleState, Unit
from rules_core.toolkit import engaged


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    if step == "army":
        return _army(state, side)
    if step == "orders":
        return _division(rules, state, side)
    if step == "shooting":
        return [o for u in state.units_of(side, on_table=True) if (o := _shoot(rules, state, u))]
    return []


def answer(state: BattleState) -> str:
    """Re-roll failed orders when allowed, retreat rather than hold disordered, else default."""
    assert state.pending is not None
    decision = state.pending.decision
    if decision.id.startswith("reroll:"):
        return "reroll"
    if decision.id.startswith("hold_or_retreat:"):
        return "retreat"
    return decision.default


def _army(state: BattleState, side: str) -> list[Order]:
    """The first side's army commander tries a General Advance in the first turn."""
    order = state.cursor.side_order
    if state.cursor.turn != 1 or not order or side != order[0]:
        return []
    chief = next((ld for ld in state.leaders if ld.side == side and RANK.of(ld) == "army"), None)
    return [] if chief is None else [Order(chief.id, "general_advance")]


def _division(rules: Rules, state: BattleState, side: str) -> list[Order]:
    division = state.cursor.subject.id if state.cursor.subject else ""
    units = [u for u in state.units_of(side, on_table=True) if u.group == division]
    found = [o for u in units if (o := _unit_order(rules, state, u))]
    leader = next((ld for ld in state.leaders if ld.group == division), None)
    if leader is not None:
        command = _command(rules, state, leader.id, units)
        if command is not None:
            found.append(command)
    return found


def _command(rules: Rules, state: BattleState, leader: str, units: list[Unit]) -> Order | None:
    """Rally a battered unit out of combat, else give the whole division one order."""
    for unit in units:
        if CASUALTIES.of(unit) >= 2 and not engaged(state, unit):
            order = Order(leader, "command", {"option": "rally", "target": unit.id})
            if rules.legal(state, order):
                return order
    return rules.legal(state, Order(leader, "command", {"option": "division"}))


def _unit_order(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    enemy = measure.nearest_enemy(state, unit)
    if enemy is None or engaged(state, unit):
        return None
    charge = rules.legal(state, Order(unit.id, "charge", {"target": enemy.id}))
    if charge is not None and unit.type != "skirmishers":
        return charge
    if _shoot(rules, state, unit) is not None:
        return None
    return _advance(rules, state, unit, enemy)


def _advance(rules: Rules, state: BattleState, unit: Unit, enemy: Unit) -> Order | None:
    """The longest legal move towards the enemy or straight ahead (three moves down to one)."""
    here = (unit.x, unit.y)
    aims = [(enemy.x, enemy.y), measure.shifted(unit, "forward", 40.0)]
    for moves in (3, 2, 1):
        for aim in aims:
            whole = math.dist(here, aim)
            for share in (1.0, 0.75, 0.5, 0.25):
                length = min(whole - 4.0, moves * measure.rate(unit) * share)
                if length < 1.0:
                    continue
                end: list[Json] = [
                    round(unit.x + (aim[0] - unit.x) * length / whole, 1),
                    round(unit.y + (aim[1] - unit.y) * length / whole, 1),
                ]
                order = rules.legal(state, Order(unit.id, "move", {"to": end}))
                if order is not None:
                    return order
    return None


def _shoot(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    if unit.get("weapon", "none") == "none":
        return None
    for enemy in sorted(
        state.enemies_of(unit.side, on_table=True), key=lambda e: measure.gap(unit, e)
    ):
        order = rules.legal(state, Order(unit.id, "shoot", {"target": enemy.id}))
        if order is not None:
            return order
    return None

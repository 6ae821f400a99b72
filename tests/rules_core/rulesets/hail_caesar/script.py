"""A scripted Hail Caesar battle: the sample armies, a simple order policy, scripted answers."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar import measure
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState, Unit

SEED = bytes.fromhex("abba" * 16)


@dataclass
class Played:
    """A finished scripted battle: the first state and every resolution in order."""

    first: BattleState
    result: Resolution


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    if step == "army":
        return _army(rules, state, side)
    if step == "orders":
        return _division(rules, state, side)
    if step == "shooting":
        return [o for u in state.units_of(side) if (o := _shoot(rules, state, u))]
    return []


def _legal(rules: Rules, state: BattleState, order: Order) -> Order | None:
    return order if isinstance(rules.judge(state, order), Preview) else None


def _army(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The Romans try a General Advance in the first turn."""
    if side != "rom" or state.cursor.turn != 1:
        return []
    return [Order("rom_legate", "general_advance")]


def _division(rules: Rules, state: BattleState, side: str) -> list[Order]:
    division = state.cursor.subject.id if state.cursor.subject else ""
    units = [u for u in state.units_of(side) if u.group == division]
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
        if measure.stat(unit, "casualties") >= 2 and not measure.engaged(state, unit):
            order = Order(leader, "command", {"option": "rally", "target": unit.id})
            if _legal(rules, state, order):
                return order
    return _legal(rules, state, Order(leader, "command", {"option": "division"}))


def _unit_order(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    enemy = measure.nearest_enemy(state, unit)
    if enemy is None or measure.engaged(state, unit):
        return None
    charge = _legal(rules, state, Order(unit.id, "charge", {"target": enemy.id}))
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
                end = [
                    round(unit.x + (aim[0] - unit.x) * length / whole, 1),
                    round(unit.y + (aim[1] - unit.y) * length / whole, 1),
                ]
                order = _legal(rules, state, Order(unit.id, "move", {"to": end}))
                if order is not None:
                    return order
    return None


def _shoot(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    if unit.get("weapon", "none") == "none":
        return None
    for enemy in sorted(state.enemies_of(unit.side), key=lambda e: measure.gap(unit, e)):
        order = _legal(rules, state, Order(unit.id, "shoot", {"target": enemy.id}))
        if order is not None:
            return order
    return None


def scripted_answer(state: BattleState) -> Answer:
    """Re-roll failed orders when allowed, retreat rather than hold disordered, else default."""
    assert state.pending is not None
    decision = state.pending.decision
    choice = decision.default
    if decision.id.startswith("reroll:"):
        choice = "reroll"
    elif decision.id.startswith("hold_or_retreat:"):
        choice = "retreat"
    return Answer(decision.id, choice, decision.who)


def play(rules: Rules, seed: bytes = SEED, limit: int = 2000) -> Played:
    """Play the sample battle to its end with the script."""
    first = engine.begin(rules, sample_battle())
    result = Resolution(first, (), ())
    for _ in range(limit):
        state = result.state
        if state.outcome is not None:
            return Played(first, result)
        if state.pending is not None:
            result = result.then(engine.answer(rules, seed, state, scripted_answer(state)))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in orders_for(rules, state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    raise AssertionError("the scripted battle did not end")

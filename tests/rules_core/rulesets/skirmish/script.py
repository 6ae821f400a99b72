"""A scripted skirmish battle: fixed deployment, a simple order policy, scripted answers."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.geometry import Footprint, range_from_front
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish import measure
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, Unit

SEED = bytes.fromhex("5eed" * 16)
DEPLOYMENT = (
    Order("r2", "place", {"at": [26, 6]}),
    Order("b2", "place", {"at": [22, 30], "facing": 180}),
)
# Who stands and who evades a charge; the winner of a melee always follows up.
EVADERS = {"r2", "b2"}


@dataclass
class Played:
    """A finished scripted battle: the first state, the last, and every resolution in order."""

    first: BattleState
    result: Resolution


def nearest_enemy(state: BattleState, unit: Unit) -> Unit:
    """The closest enemy, edge to edge; ties go to roster order."""
    here = Footprint.of(unit)
    return min(
        state.enemies_of(unit.side),
        key=lambda enemy: here.polygon.distance(Footprint.of(enemy).polygon),
    )


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    if step == "deploy":
        return list(DEPLOYMENT)
    orders = []
    for unit in state.units_of(side):
        order = _shoot(rules, state, unit) if step == "shoot" else _move(rules, state, unit)
        if order is not None:
            orders.append(order)
    return orders


def _shoot(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    for enemy in sorted(state.enemies_of(unit.side), key=lambda e: _gap(unit, e)):
        order = Order(unit.id, "shoot", {"target": enemy.id})
        if isinstance(rules.judge(state, order), Preview):
            return order
    return None


def _move(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    enemy = nearest_enemy(state, unit)
    charge = Order(unit.id, "charge", {"target": enemy.id})
    if isinstance(rules.judge(state, charge), Preview):
        return charge
    if unit.get("range") and isinstance(_shoot(rules, state, unit), Order):
        return None  # in range already: stay and shoot
    gap = math.dist((unit.x, unit.y), (enemy.x, enemy.y))
    share = max(0.0, (gap - 4) / gap)
    goal = (unit.x + (enemy.x - unit.x) * share, unit.y + (enemy.y - unit.y) * share)
    params = rules.parameter_values(state.parameters)
    end = measure.farthest(state, unit, goal, params)
    order = Order(unit.id, "move", {"to": [end[0], end[1]]})
    return order if isinstance(rules.judge(state, order), Preview) else None


def _gap(unit: Unit, enemy: Unit) -> float:
    return range_from_front(Footprint.of(unit), Footprint.of(enemy))


def scripted_answer(state: BattleState) -> Answer:
    """The script's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    if decision.id.startswith("response:"):
        unit = decision.id.split(":", 1)[1]
        return Answer(decision.id, "evade" if unit in EVADERS else "stand", decision.who)
    if decision.id.startswith("after:"):
        return Answer(decision.id, "follow_up", decision.who)
    return Answer(decision.id, decision.default, decision.who)


def play(rules: Rules, seed: bytes = SEED, limit: int = 500) -> Played:
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

"""A scripted Agincourt: the French advance and attack, the English stand and shoot."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.geometry import Footprint, range_from_front
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import command
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState, Unit

SEED = bytes.fromhex("70b5" * 16)
ATTACKER = "french"
# Answers the script gives instead of the defaults.
ANSWERS = {"response:f1": "counter_charge", "after:f1": "pursue"}


@dataclass
class Played:
    """A finished scripted battle: the first state and every resolution in order."""

    first: BattleState
    result: Resolution


def _legal(rules: Rules, state: BattleState, order: Order) -> bool:
    return isinstance(rules.judge(state, order), Preview)


def _by_gap(state: BattleState, unit: Unit) -> list[Unit]:
    here = Footprint.of(unit)
    return sorted(
        state.enemies_of(unit.side), key=lambda e: range_from_front(here, Footprint.of(e))
    )


def _command(rules: Rules, state: BattleState, side: str) -> list[Order]:
    found = []
    for leader in state.leaders:
        if leader.side != side or not leader.attached_to:
            continue
        unit = state.unit(leader.attached_to)
        if unit.status.get("dps"):
            order = Order(leader.id, "steady", {"target": unit.id})
        elif leader.id == "york" and state.cursor.turn == 1 and command.left(leader) == 3:
            order = Order(leader.id, "new_orders", {"text": "hold the line behind the stakes"})
        else:
            continue
        if _legal(rules, state, order):
            found.append(order)
    return found


def _unit_order(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    step = state.cursor.step
    if step == "control":
        order = Order(unit.id, "restrain")
        wanted = unit.side != ATTACKER or bool(unit.status.get("pursuing"))
        return order if wanted and _legal(rules, state, order) else None
    if step in ("shooting", "charges"):
        kind = "shoot" if step == "shooting" else "charge"
        for enemy in _by_gap(state, unit):
            order = Order(unit.id, kind, {"target": enemy.id})
            if _legal(rules, state, order):
                return order
        return None
    if unit.side != ATTACKER or unit.type in ("artillery", "baggage"):
        return None
    return _approach(rules, state, unit) if step == "approach" else _advance(rules, state, unit)


def _approach(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    here = Footprint.of(unit)
    for tenths in range(60, 4, -5):
        ahead = here.advanced(tenths / 10)
        order = Order(unit.id, "march", {"to": [round(ahead.x, 2), round(ahead.y, 2)]})
        if _legal(rules, state, order):
            return order
    return None


def _advance(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    enemy = _by_gap(state, unit)[0]
    option = "extra_d6" if unit.get("mounted") else "plain"
    gap = math.dist((unit.x, unit.y), (enemy.x, enemy.y))
    share = max(0.0, (gap - 1.5) / gap)
    goal = [
        round(unit.x + (enemy.x - unit.x) * share, 2),
        round(unit.y + (enemy.y - unit.y) * share, 2),
    ]
    order = Order(unit.id, "move", {"to": goal, "option": option})
    return order if _legal(rules, state, order) else None


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    if state.cursor.step == "command":
        return _command(rules, state, side)
    found = [_unit_order(rules, state, unit) for unit in state.units_of(side)]
    return [order for order in found if order is not None]


def scripted_answer(state: BattleState) -> Answer:
    """The script's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    choice = ANSWERS.get(decision.id, decision.default)
    if choice not in decision.option_ids:
        choice = decision.default
    return Answer(decision.id, choice, decision.who)


def play(rules: Rules, seed: bytes = SEED, limit: int = 800) -> Played:
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

"""A scripted player for The Tree of Battles: the last side attacks, the others stand and shoot.

The attacker marches and moves on the nearest enemy; every side shoots and charges what it
can, leaders steady their own contingent when it carries DPs, and the defender's first captain
issues new orders on the first turn. The attacker's mounted contingents counter-charge when
charged and pursue when they win; every other question takes its default. The bot's demo and
the core's scripted Agincourt both use it.
"""

from __future__ import annotations

import math

from rules_core.codec import Json
from rules_core.geometry import Footprint, range_from_front
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import command
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import DPS, MOUNTED, PURSUING, RANK
from rules_core.state import BattleState, Leader, Unit

# Answers the attacker's mounted contingents give instead of the defaults, by question kind.
MOUNTED_ANSWERS = {"response": "counter_charge", "after": "pursue"}
HOLD_ORDERS = "hold the line behind the stakes"


def attacker(state: BattleState) -> str:
    """The side that attacks: the last one."""
    return state.sides[-1].id


def _by_gap(state: BattleState, unit: Unit) -> list[Unit]:
    """Enemies, nearest to the unit's front first."""
    here = Footprint.of(unit)
    return sorted(
        state.enemies_of(unit.side, on_table=True),
        key=lambda e: range_from_front(here, Footprint.of(e)),
    )


def _herald(state: BattleState, side: str) -> Leader | None:
    """The defender's first captain, who issues new orders on the first turn."""
    if side == attacker(state):
        return None
    captains = (ld for ld in state.leaders if ld.side == side and RANK.of(ld) != "marshal")
    return next(captains, None)


def _command(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """Steady a leader's own contingent if it has DPs; the herald's new orders on turn 1."""
    herald = _herald(state, side)
    found = []
    on_table = {unit.id: unit for unit in state.units_on_table}
    for leader in state.leaders:
        if leader.side != side or leader.attached_to not in on_table:
            continue  # unattached, or his contingent is gone
        unit = on_table[leader.attached_to]
        if DPS.of(unit):
            order = Order(leader.id, "steady", {"target": unit.id})
        elif (
            herald is not None
            and leader.id == herald.id
            and state.cursor.turn == 1
            and command.left(leader) == leader.points
        ):
            order = Order(leader.id, "new_orders", {"text": HOLD_ORDERS})
        else:
            continue
        if rules.legal(state, order):
            found.append(order)
    return found


def _unit_order(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    """One contingent's order for the current step, if any."""
    step = state.cursor.step
    if step == "control":
        order = Order(unit.id, "restrain")
        wanted = unit.side != attacker(state) or PURSUING.of(unit)
        return order if wanted and rules.legal(state, order) else None
    if step in ("shooting", "charges"):
        kind = "shoot" if step == "shooting" else "charge"
        for enemy in _by_gap(state, unit):
            order = Order(unit.id, kind, {"target": enemy.id})
            if rules.legal(state, order):
                return order
        return None
    if unit.side != attacker(state) or unit.type in ("artillery", "baggage"):
        return None
    return _approach(rules, state, unit) if step == "approach" else _advance(rules, state, unit)


def _approach(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    """The longest legal march straight ahead, 6 SF down to 1 SF."""
    here = Footprint.of(unit)
    for tenths in range(60, 4, -5):
        ahead = here.advanced(tenths / 10)
        order = Order(unit.id, "march", {"to": [round(ahead.x, 2), round(ahead.y, 2)]})
        if rules.legal(state, order):
            return order
    return None


def _advance(rules: Rules, state: BattleState, unit: Unit) -> Order | None:
    """A normal move towards the nearest enemy, stopping 1.5 SF short of its centre."""
    enemy = _by_gap(state, unit)[0]
    option = "extra_d6" if MOUNTED.of(unit) else "plain"
    gap = math.dist((unit.x, unit.y), (enemy.x, enemy.y))
    share = max(0.0, (gap - 1.5) / gap)
    goal: list[Json] = [
        round(unit.x + (enemy.x - unit.x) * share, 2),
        round(unit.y + (enemy.y - unit.y) * share, 2),
    ]
    order = Order(unit.id, "move", {"to": goal, "option": option})
    return order if rules.legal(state, order) else None


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step (leaders' and contingents')."""
    if state.cursor.step == "command":
        return _command(rules, state, side)
    if not state.enemies_of(side, on_table=True):
        return []
    found = [_unit_order(rules, state, unit) for unit in state.units_of(side, on_table=True)]
    return [order for order in found if order is not None]


def answer_for(state: BattleState) -> str:
    """The script's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    kind, _, unit_id = decision.id.partition(":")
    choice = decision.default
    if kind in MOUNTED_ANSWERS and u.alive(state, unit_id):
        unit = state.unit(unit_id)
        if unit.side == attacker(state) and MOUNTED.of(unit):
            choice = MOUNTED_ANSWERS[kind]
    return choice if choice in decision.option_ids else decision.default

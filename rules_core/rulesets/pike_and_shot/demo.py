"""A simple order policy for pike and shot: a wing on Hold attacks once the enemy comes within
16" of it (an order it keeps), units advance straight ahead on the
enemy, shoot the nearest, commanders keep behind their wings. The bot's demo and the scripted
battle both use it."""

from __future__ import annotations

import math

from rules_core.codec import Json
from rules_core.general_hints import Judge
from rules_core.geometry import Footprint, edge_distance
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.pike_and_shot import movement_tables as mt
from rules_core.rulesets.pike_and_shot.command import can_act
from rules_core.rulesets.pike_and_shot.kept import engaged, nearest_enemy
from rules_core.rulesets.pike_and_shot.profiles import ARTILLERY
from rules_core.rulesets.pike_and_shot.status import COHESION, WING_ORDER
from rules_core.state import BattleState, Unit


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders for one side in the current step."""
    step = state.cursor.step
    if step == "orders":
        return [
            Order(g.id, "wing_order", {"order": "attack"})
            for g in state.groups
            if g.side == side
            and g.kind == "wing"
            and WING_ORDER.of(g) == "hold"
            and _enemy_near(state, g.id, ENGAGE_RANGE)
        ]
    if step == "commanders_move":
        return _commanders(rules, state, side)
    found: list[Order] = []
    for unit in state.units_of(side, on_table=True):
        if COHESION.of(unit) in ("routed", "destroyed") or engaged(state, unit):
            continue
        order = _order(rules, state, unit, step)
        if order is not None:
            found.append(order)
    return found


ENGAGE_RANGE = 16.0  # a wing on Hold attacks once an enemy comes this close to one of its units


def _enemy_near(state: BattleState, wing: str, reach: float) -> bool:
    mine = [u for u in state.units_on_table if u.group == wing]
    enemies = [u for u in state.units_on_table if mine and u.side != mine[0].side]
    return any(
        edge_distance(Footprint.of(a), Footprint.of(b)) <= reach for a in mine for b in enemies
    )


def _order(rules: Rules, state: BattleState, unit: Unit, step: str) -> Order | None:
    enemy = nearest_enemy(state, unit)
    if enemy is None:
        return None
    if step == "movement" and unit.type not in ARTILLERY:
        params = rules.parameter_values(state.parameters)
        gap = edge_distance(Footprint.of(unit), Footprint.of(enemy))
        return forward_move(rules, state, unit, min(mt.rate(unit, params), gap + 1.0))
    if step == "combat":
        return rules.legal(state, Order(unit.id, "shoot", {"target": enemy.id}))
    return None


def forward_move(rules: Judge, state: BattleState, unit: Unit, reach: float) -> Order | None:
    """A legal move straight ahead by ``reach``, else by a half or a quarter of it; None if
    none is legal (the AI general's drill moves so too)."""
    forward = Footprint.of(unit).forward
    for share in (1.0, 0.5, 0.25):
        distance = round(reach * share, 3)
        to: list[Json] = [
            round(unit.x + forward[0] * distance, 3),
            round(unit.y + forward[1] * distance, 3),
        ]
        order = rules.legal(state, Order(unit.id, "move", {"path": [to]}))
        if order is not None:
            return order
    return None


def _commanders(rules: Rules, state: BattleState, side: str) -> list[Order]:
    found: list[Order] = []
    for leader in state.leaders:
        if leader.side != side or not can_act(leader) or leader.attached_to:
            continue
        mine = [u for u in state.units_of(side, on_table=True) if u.group == leader.group]
        mine = mine or list(state.units_of(side, on_table=True))
        if not mine:
            continue
        x = sum(u.x for u in mine) / len(mine)
        y = sum(u.y for u in mine) / len(mine)
        back = Footprint.of(mine[0]).forward
        spot = (round(x - back[0] * 4.0, 3), round(y - back[1] * 4.0, 3))
        if math.dist(spot, (leader.x, leader.y)) < 1.0:
            continue
        order = rules.legal(state, Order(leader.id, "command_move", {"to": list(spot)}))
        if order is not None:
            found.append(order)
    return found

"""Command actions paid with CPs: move, steady, control, and issue or listen to new orders."""

from __future__ import annotations

import math

from rules_core.context import Context
from rules_core.geometry import Footprint, edge_distance, within
from rules_core.orders import Order, point_param
from rules_core.rulesets.tree_of_battles import losses, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import SPENT
from rules_core.state import BattleState, Leader
from rules_core.toolkit import g

ACTIONS = {
    "leader_move": "move",
    "steady": "steady",
    "control": "control",
    "new_orders": "new_orders",
}


def cost(kind: str) -> int:
    """The CPs an order kind costs."""
    value = tables.COMMAND_ACTIONS.lookup(ACTIONS[kind], "cps")
    assert isinstance(value, int)
    return value


def reach(kind: str) -> float:
    """How far from the leader an action reaches, in SF."""
    value = tables.COMMAND_ACTIONS.lookup(ACTIONS[kind], "reach")
    assert isinstance(value, int | float)
    return float(value)


def left(leader: Leader) -> int:
    """CPs the leader has left to spend this turn."""
    return leader.points - SPENT.of(leader)


def problem(state: BattleState, leader: Leader, order: Order) -> str | None:
    """Why a command action cannot be taken, or None."""
    price = cost(order.kind)
    if left(leader) < price:
        points = left(leader)
        unit = "CP" if points == 1 else "CPs"
        return f"{leader.name} has {points} {unit} left; {ACTIONS[order.kind]} costs {price}"
    if order.kind == "new_orders":
        return None
    if order.kind == "leader_move":
        return _move_problem(state, leader, order)
    target = state.unit(str(order.params["target"])) if _has_unit(state, order) else None
    if target is None:
        return f"no contingent {order.params.get('target')!r} on the table"
    if target.side != leader.side:
        return f"{target.name} is not one of {leader.name}'s contingents"
    away = losses.leader_gap(state, leader, target)
    if not within(away, reach(order.kind)):
        return f"{target.name} is {g(away)} SF away, beyond {g(reach(order.kind))} SF"
    return None


def _has_unit(state: BattleState, order: Order) -> bool:
    return any(unit.id == order.params.get("target") for unit in state.units_on_table)


def _move_problem(state: BattleState, leader: Leader, order: Order) -> str | None:
    if "target" not in order.params and "to" not in order.params:
        return "give a contingent to join (target) or a point to move to (to)"
    if "target" in order.params:
        if not _has_unit(state, order):
            return f"no contingent {order.params['target']!r} on the table"
        target = state.unit(str(order.params["target"]))
        if target.side != leader.side:
            return f"{target.name} is an enemy contingent"
        away = losses.leader_gap(state, leader, target)
    else:
        here = losses.leader_position(state, leader)
        away = math.dist((here.x, here.y), point_param(order, "to"))
    if not within(away, reach("leader_move")):
        return f"{g(away)} SF away, beyond the {g(reach('leader_move'))} SF a leader may move"
    return None


def summary(state: BattleState, leader: Leader, order: Order) -> str:
    """What a legal command action will do."""
    price = f"({cost(order.kind)} CP{'s' if cost(order.kind) > 1 else ''})"
    if order.kind == "new_orders":
        return f"{leader.name} issues new orders {price}: {order.params['text']}"
    if order.kind == "leader_move" and "target" not in order.params:
        x, y = point_param(order, "to")
        return f"{leader.name} rides to ({g(x)}, {g(y)}) {price}"
    target = state.unit(str(order.params["target"]))
    words = {
        "leader_move": f"joins {target.name}",
        "steady": f"steadies {target.name}, removing up to {tables.STEADY_DPS} DPs",
        "control": f"exerts control over {target.name} (+/-1 on its control tests)",
    }
    return f"{leader.name} {words[order.kind]} {price}"


def carry_out(ctx: Context, order: Order) -> None:
    """Pay for and carry out one command action."""
    leader = ctx.state.leader(order.actor)
    spent = leader.points - left(leader) + cost(order.kind)
    losses.set_leader(ctx, leader, f"{ACTIONS[order.kind]} command action", spent=spent)
    leader = ctx.state.leader(order.actor)
    if order.kind == "new_orders":
        losses.set_leader(
            ctx, leader, "issue or listen to new orders", orders=str(order.params["text"])
        )
        return
    if order.kind == "leader_move":
        _move(ctx, leader, order)
        return
    target = ctx.state.unit(str(order.params["target"]))
    if order.kind == "steady":
        u.add_dps(
            ctx, target.id, -min(tables.STEADY_DPS, u.dps(target)), f"steadied by {leader.name}"
        )
    else:
        u.set_flags(ctx, target.id, f"{leader.name} exerts control", controlled_by=leader.id)


def _move(ctx: Context, leader: Leader, order: Order) -> None:
    """Join a contingent, or ride to a point to influence one."""
    if "target" in order.params:
        target = ctx.state.unit(str(order.params["target"]))
        losses.set_leader(
            ctx, leader, f"joins {target.name}", attached_to=target.id, x=target.x, y=target.y
        )
        return
    x, y = point_param(order, "to")
    losses.set_leader(ctx, leader, f"rides to ({g(x)}, {g(y)})", attached_to=None, x=x, y=y)


def nearest_gap(state: BattleState, leader: Leader) -> float:
    """Distance from a leader to his nearest contingent."""
    here = losses.leader_position(state, leader)
    gaps = [
        edge_distance(here, Footprint.of(unit))
        for unit in state.units_of(leader.side, on_table=True)
    ]
    return min(gaps, default=math.inf)

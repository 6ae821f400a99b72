"""Commanders and wing orders: the Orders step, risk to commanders, Replace commanders and
Commanders move.

- Orders: each side gives each wing Attack, Hold or Withdraw (``wing_order``, a group actor);
  an order stands until changed, even when the wing's commander is lost; an army ordered to
  withdraw next turn has every wing on Withdraw. This turn's marks are cleared first.
- Risk to commanders (not on the sheet; the start of Replace commanders would be too late for
  fatigue, so it is its own step after Combat: ``risk``): each commander with, or within
  ``commander_risk_reach`` of, a unit that fought, recoiled, routed or was destroyed this turn
  rolls a D6; on ``commander_risk_score`` or less he is hit, and a second D6 on
  ``commander_hit_table`` says wounded, killed or off table. With ``commander_risk`` "gm" the GM
  rules on every hit (the roll's result the default); "roll": the roll stands; "none": no risk.
- Replace commanders: a killed commander, or one off the table whose unit will not come back,
  is replaced (``replacement``: "immediate", "gm" to ask the GM, or "never"): the replacement
  is an ordinary commander (neither heroic nor politico) at the nearest unit of his wing.
- Commanders move: up to 24" (the Movement table's Commanders row, its terrain costs); a
  commander may attach to a friendly unit, and then moves with it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Purpose
from rules_core.orders import Illegal, Order, Preview, Verdict, point_param, shorter
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot import movement_tables as mt
from rules_core.rulesets.pike_and_shot.profiles import brigades_worth
from rules_core.rulesets.pike_and_shot.status import (
    ARMY_COMMANDER,
    ARTILLERY_FIRE,
    ATTACKER,
    COHESION,
    ENGAGED_WITH,
    HITS,
    LEFT_IN_PURSUIT,
    MOVED,
    OFF_TABLE,
    RANK,
    RECOILED,
    WING_ORDER,
    WITHDRAW_NEXT_TURN,
)
from rules_core.rulesets.pike_and_shot.topics import REPLACE, REPLACE_WORDS, RISK, RISK_WORDS
from rules_core.shared_status import KILLED, PURSUING
from rules_core.state import BattleState, Leader, Unit
from rules_core.terrain import trace_path
from rules_core.toolkit import checked_orders
from rules_core.unit_questions import gm_question

SILENT = "not on the sheet (see the package README)"
HIT_TABLE: list[Json] = [[1, 2, "killed"], [3, 4, "wounded"], [5, 6, "off_table"]]
PARAMETERS = (
    Parameter(
        "commander_risk",
        "gm",
        "risk to commanders: gm (the GM rules on each hit, the "
        "roll's result by default), roll (the roll stands) or none",
        SILENT,
    ),
    Parameter(
        "commander_risk_reach",
        1.0,
        "a commander this close to a unit in trouble is at risk",
        SILENT,
    ),
    Parameter("commander_risk_score", 1, "a D6 of this or less hits a commander at risk", SILENT),
    Parameter(
        "commander_hit_table",
        HIT_TABLE,
        "second D6 for a hit commander: [low, high, result]",
        SILENT,
    ),
    Parameter(
        "replacement",
        "immediate",
        "replacing a lost commander: immediate, gm (ask the GM) or never",
        SILENT,
    ),
)
MARKS = (ATTACKER, MOVED, RECOILED, ARTILLERY_FIRE)


def can_act(leader: Leader) -> bool:
    """A commander who is neither killed nor off the table."""
    return not KILLED.of(leader) and not OFF_TABLE.of(leader)


def prepare(state: BattleState) -> BattleState:
    """Each commander stands behind the middle of his wing's units (the army commander behind
    his wing's, else the army's); each side's army commander and size in brigades noted."""
    for leader in state.leaders:
        mine = [u for u in state.units_of(leader.side) if u.group == leader.group] or list(
            state.units_of(leader.side)
        )
        if not mine or (leader.x, leader.y) != (0.0, 0.0):
            continue
        x = sum(u.x for u in mine) / len(mine)
        y = sum(u.y for u in mine) / len(mine)
        back = -1.0 if mine[0].facing % 360 < 90 or mine[0].facing % 360 > 270 else 1.0
        depth = max(u.depth for u in mine)
        offset = depth / 2 + (1.0 if RANK.of(leader) == "wing" else 3.0)
        state = state.with_leader(replace(leader, x=round(x, 3), y=round(y + back * offset, 3)))
    for side in state.sides:
        chief = next(
            (ld for ld in state.leaders if ld.side == side.id and RANK.of(ld) == "army"), None
        )
        size = sum(brigades_worth(u) for u in state.units_of(side.id))
        status = {**side.status, "brigades": size}
        if chief is not None:
            status["army_commander"] = chief.id
        state = state.with_side(replace(side, status=status))
    return state


def follow(ctx: Context) -> None:
    """Attached commanders stand with their units; one whose unit left the table is off the
    table with it (and back when it is)."""
    for leader in ctx.state.leaders:
        if not leader.attached_to or KILLED.of(leader):
            continue
        unit = next((u for u in ctx.state.units if u.id == leader.attached_to), None)
        if unit is None:
            continue
        if unit.on_table:
            if (leader.x, leader.y) != (unit.x, unit.y):
                ctx.state = ctx.state.with_leader(replace(leader, x=unit.x, y=unit.y))
            if OFF_TABLE.of(leader):
                ctx.set_leader_status(leader.id, "back on the table with his unit", off_table=False)
        elif not OFF_TABLE.of(leader):
            ctx.set_leader_status(leader.id, f"left the table with {unit.name}", off_table=True)


# -- Orders ---------------------------------------------------------------------------------


def resolve_orders(ctx: Context) -> None:
    """This turn's marks cleared; each wing's order set (Withdraw when its army must)."""
    for unit in ctx.state.units:
        marks: dict[str, Json] = {m.key: False for m in MARKS if m.of(unit)}
        if HITS.of(unit):
            marks["hits"] = 0
        if unit.on_table and PURSUING.of(unit):
            marks["pursuing"] = False
        if marks:
            ctx.set_status(unit.id, None, **marks)
    given = {o.actor: str(o.params["order"]) for o in checked_orders(ctx, ("wing_order",))}
    for wing in ctx.state.groups:
        if wing.kind != "wing":
            continue
        order = given.get(wing.id, WING_ORDER.of(wing) or "hold")
        if WITHDRAW_NEXT_TURN.of(ctx.state.side(wing.side)):
            order = "withdraw"
        if order != WING_ORDER.of(wing):
            ctx.set_group_status(wing.id, "wing order", wing_order=order)


# -- risk to commanders and replacement ---------------------------------------------------------


def _in_trouble(unit: Unit) -> bool:
    return (
        RECOILED.of(unit)
        or COHESION.of(unit) in ("routed", "destroyed")
        or bool(ENGAGED_WITH.of(unit))
        or HITS.of(unit) != 0
    )


def resolve_risk(ctx: Context) -> None:
    """Each commander at risk rolls; a hit is ruled on by the GM (``commander_risk``)."""
    mode = str(ctx.params.get("commander_risk", "gm"))
    if mode == "none":
        return
    reach = ctx.number("commander_risk_reach")
    for leader in list(ctx.state.leaders):
        if not can_act(leader):
            continue
        near = [
            u
            for u in ctx.state.units_of(leader.side)
            if (
                u.id == leader.attached_to
                or (
                    u.on_table
                    and math.dist((u.x, u.y), (leader.x, leader.y))
                    <= reach + max(u.frontage, u.depth) / 2
                )
            )
            and _in_trouble(u)  # the status read last: it costs more than the distance
        ]
        if not near:
            continue
        risk = Purpose(leader.id, "risk to commander", near[0].id)
        roll = ctx.dice.d6(f"risk to {leader.name} ({near[0].name} in trouble)", purpose=risk)
        if roll.total > ctx.number("commander_risk_score"):
            continue
        hit = Purpose(leader.id, "commander hit")
        second = ctx.dice.d6(f"{leader.name} is hit: what befalls him", purpose=hit)
        result = _hit_result(ctx.params, second.total)
        if mode == "gm":
            result = ctx.ask(
                gm_question(
                    f"risk:{leader.id}",
                    f"{leader.name} is hit (D6 {roll.total}, then {second.total}: {result}). "
                    "GM: rule what befalls him",
                    RISK_WORDS,
                    result,
                    RISK,
                    (leader,),
                )
            )
        _befall(ctx, leader, result)


def _hit_result(params: Mapping[str, Json], score: int) -> str:
    table = params.get("commander_hit_table", HIT_TABLE)
    assert isinstance(table, list)
    for row in table:
        assert isinstance(row, list) and len(row) == 3
        low, high, result = row
        if isinstance(low, int) and isinstance(high, int) and low <= score <= high:
            return str(result)
    return "wounded"


def _befall(ctx: Context, leader: Leader, result: str) -> None:
    if result == "wounded":
        ctx.set_leader_status(leader.id, "hit: wounded", wounded=True, risk="wounded")
    elif result == "killed":
        ctx.set_leader_status(leader.id, "hit: killed", killed=True, risk="killed")
    elif result == "off_table":
        ctx.set_leader_status(
            leader.id, "hit: carried off the table", off_table=True, risk="off_table"
        )
        if leader.attached_to:
            ctx.state = ctx.state.with_leader(
                replace(ctx.state.leader(leader.id), attached_to=None)
            )


def resolve_replace(ctx: Context) -> None:
    """Killed commanders, and those off the table with no unit to come back with, replaced."""
    mode = str(ctx.params.get("replacement", "immediate"))
    for leader in list(ctx.state.leaders):
        if can_act(leader) or mode == "never":
            continue
        if OFF_TABLE.of(leader) and not KILLED.of(leader) and _coming_back(ctx.state, leader):
            continue
        if mode == "gm":
            answer = ctx.ask(
                gm_question(
                    f"replace:{leader.id}",
                    f"Replace {leader.name} now?",
                    REPLACE_WORDS,
                    "replace",
                    REPLACE,
                    (leader,),
                )
            )
            if answer != "replace":
                continue
        _replace(ctx, leader)


def _coming_back(state: BattleState, leader: Leader) -> bool:
    unit = next((u for u in state.units if u.id == leader.attached_to), None)
    return unit is not None and LEFT_IN_PURSUIT.of(unit)


def _replace(ctx: Context, leader: Leader) -> None:
    turn = ctx.state.cursor.turn
    new_id = f"{leader.id.split('~')[0]}~{turn}"
    mine = [u for u in ctx.state.units_of(leader.side, on_table=True) if u.group == leader.group]
    mine = mine or list(ctx.state.units_of(leader.side, on_table=True))
    spot = (leader.x, leader.y)
    if mine:
        home = min(mine, key=lambda u: math.dist((u.x, u.y), spot))
        spot = (home.x, home.y)
    status: dict[str, Json] = {"rank": RANK.of(leader), "kind": "", "replaced": True}
    name = f"{leader.name.split(' (')[0]} (replacement)"
    new = Leader(new_id, name, leader.side, leader.group, spot[0], spot[1], status=status)
    ctx.remove_leader(leader.id, f"{leader.name} is replaced")
    ctx.add_leader(new, f"a replacement for {leader.name}")
    for group in ctx.state.groups:
        if group.leader == leader.id:
            ctx.state = ctx.state.with_group(replace(group, leader=new_id))
    side = ctx.state.side(leader.side)
    if ARMY_COMMANDER.of(side) == leader.id:
        ctx.set_side_status(side.id, "a new army commander", army_commander=new_id)


# -- Commanders move ----------------------------------------------------------------------------


def preview_move(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """A commander's move: up to 24" (terrain costs of the Commanders row)."""
    leader = state.leader(order.actor)
    if not can_act(leader):
        return Illegal(order, f"{leader.name} is {'killed' if KILLED.of(leader) else 'off table'}")
    if order.kind == "stay":
        return Preview(order, f"{leader.name} stays")
    to = point_param(order, "to")
    used = commander_cost(state, (leader.x, leader.y), to, params)
    allowance = mt.commander_rate()
    if used > allowance + 1e-9:
        why = f'{leader.name} may move {allowance:g}"; that costs {round(used, 1):g}"'
        return Illegal(order, why, (shorter(allowance),))
    attach = order.params.get("attach")
    words = f'{leader.name} moves {round(used, 1):g}" of {allowance:g}"'
    if isinstance(attach, str):
        unit = next((u for u in state.units_on_table if u.id == attach), None)
        if unit is None or unit.side != leader.side:
            return Illegal(order, f"{attach} is not a friendly unit on the table")
        if math.dist((unit.x, unit.y), to) > max(unit.frontage, unit.depth) / 2 + 1.0:
            return Illegal(order, f"{leader.name} must move to {unit.name} to attach to it")
        words += f" and attaches to {unit.name}"
    return Preview(order, words)


def commander_cost(
    state: BattleState,
    start: tuple[float, float],
    end: tuple[float, float],
    params: Mapping[str, Json],
) -> float:
    """Inches of a commander's move a straight path costs (Difficult 12", obstacles ½ move)."""
    report = trace_path([start, end], state.terrain)
    normal = mt.commander_rate()
    used = report.length
    kinds = params.get("difficult_terrain", [])
    difficult = report.length_in([str(k) for k in kinds] if isinstance(kinds, list) else [])
    slow = mt.MOVEMENT.lookup("Commanders", "difficult")
    if difficult and isinstance(slow, int | float):
        used += difficult * (normal / float(slow) - 1.0)
    obstacles = params.get("linear_obstacles", [])
    crossed = report.crossed([str(k) for k in obstacles] if isinstance(obstacles, list) else [])
    if crossed and mt.MOVEMENT.lookup("Commanders", "linear_obstacle") == mt.HALF:
        used += normal / 2 * crossed
    return round(used, 6)


def resolve_commanders_move(ctx: Context) -> None:
    """Each commander's move; attached commanders then stand with their units."""
    for order in checked_orders(ctx, ("command_move",)):
        leader = ctx.state.leader(order.actor)
        to = point_param(order, "to")
        ctx.move_leader(leader.id, [(leader.x, leader.y), to])
        attach = order.params.get("attach")
        if isinstance(attach, str):
            moved = ctx.state.leader(leader.id)
            ctx.state = ctx.state.with_leader(replace(moved, attached_to=attach))
    follow(ctx)

"""Reading the pre-battle state and orders: roles, tables, points, the loops' subjects."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.events import TestResolved
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.registry import get
from rules_core.rulesets.impetus.prebattle.declared import MOUNTED_TYPES, NO_PLAN, PARAMETERS
from rules_core.rulesets.impetus.status import (
    ARMY_CS,
    ARMY_FORTS,
    BATTLE_PLAN,
    COMMAND_STRUCTURE,
    DEPLOY_FIRST,
    EXPLORATION_POINTS,
    ROLE,
)
from rules_core.rulesets.impetus.terrain_tables import (
    FOOT,
    MOUNTED,
)
from rules_core.state import RESERVE, BattleState, Unit
from rules_core.status import hidden_of
from rules_core.steps import Subject


def params_of(state: BattleState) -> dict[str, Json]:
    """The pre-battle parameters: the defaults with the battle's values over them."""
    values: dict[str, Json] = {p.name: p.default for p in PARAMETERS}
    values.update({k: v for k, v in state.parameters.items() if k in values})
    return values


def num(params: Mapping[str, Json], name: str) -> float:
    """The parameter ``name`` as a number (a TypeError if it is not one)."""
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"parameter {name!r} is not a number")
    return float(value)


def impetus_rules() -> Rules:
    """The registered Impetus ruleset's rules."""
    rules = get("impetus").rules
    assert rules is not None
    return rules


def role_side(state: BattleState, role: str) -> str | None:
    """The side whose ``role`` (attacker or defender) step 1 set, or None before it."""
    return next((s.id for s in state.sides if ROLE.of(s) == role), None)


def other_side(state: BattleState, side: str) -> str:
    """The side that is not ``side``."""
    return next(s.id for s in state.sides if s.id != side)


def troop_type(unit: Unit) -> str:
    """The unit's troop type: its profile's ``type``, else its own."""
    return str(unit.profile.get("type") or unit.type)


def mounted_count(state: BattleState, side: str) -> int:
    """The side's mounted units, not counting EL and W."""
    return sum(1 for u in state.units if u.side == side and troop_type(u) in MOUNTED_TYPES)


def attacker_bonus(state: BattleState, side: str) -> int:
    """+1 for every 2 mounted units (not EL, W), rounding up."""
    return math.ceil(mounted_count(state, side) / 2)


def table_of(state: BattleState, side: str, params: Mapping[str, Json] | None = None) -> str:
    """The terrain table an army rolls on: Mtd when more than ``mounted_table_share`` of its
    units are mounted (not EL, W), else FOOT."""
    params = params_of(state) if params is None else params
    units = [u for u in state.units if u.side == side]
    share = mounted_count(state, side) / len(units) if units else 0.0
    return MOUNTED if share > num(params, "mounted_table_share") else FOOT


def exploration_points(state: BattleState, side: str) -> int:
    """The exploration points the side has."""
    return EXPLORATION_POINTS.of(state.side(side))


def command_structure(state: BattleState, side: str) -> str:
    """The army's command structure (good, average, poor): its side status, else a group of
    the side that carries it (the army list's field), else poor."""
    found: Json = COMMAND_STRUCTURE.of(state.side(side))
    for group in state.groups:
        if not found and group.side == side:
            found = ARMY_CS.of(group)
    return str(found or "poor").lower()


def fortification_limit(state: BattleState, side: str, params: Mapping[str, Json]) -> int:
    """The fortification pieces a side may place at step 5: its army list's
    ``fortifications`` (carried by its commands), else the ``fortification_pieces``
    parameter."""
    for group in state.groups:
        pieces = ARMY_FORTS.of(group)
        if group.side == side and isinstance(pieces, int) and not isinstance(pieces, bool):
            return pieces
    return int(num(params, "fortification_pieces"))


def subjects(name: str, state: BattleState) -> tuple[Subject, ...]:
    """The subjects of the set-up loops (see ``rules.SETUP_SUBJECTS``)."""
    defender = role_side(state, "defender")
    attacker = role_side(state, "attacker")
    if name in ("defender", "attacker"):
        side = defender if name == "defender" else attacker
        return () if side is None else (Subject(side, side),)
    if name == "defender_first":
        return tuple(Subject(s, s) for s in (defender, attacker) if s is not None)
    if name == "plans":
        if not bool(params_of(state).get("battle_plans")):
            return ()
        return (Subject("plans", state.cursor.side_order[0]),)
    first = deploys_first(state)
    if first is None:
        return ()
    second = other_side(state, first)
    if name in ("first_deployer", "second_deployer"):
        side = first if name == "first_deployer" else second
        command = biggest_command(state, side)
        if command is None or command not in commands_by_size(state, side, reserve_only=True):
            return ()
        return (Subject(command, side),)
    if name == "deploy_alternate":
        return alternate_commands(state, first)
    raise KeyError(f"no set-up subjects named {name!r}")


def deploys_first(state: BattleState) -> str | None:
    """The side that deploys first, or None while it is not known."""
    return DEPLOY_FIRST.of(state) or None


def commands_by_size(state: BattleState, side: str, *, reserve_only: bool = False) -> list[str]:
    """The side's commands, the biggest first: most units, then most VBU, then the army
    list's order (with ``reserve_only``, those with units still in reserve)."""
    sizes: dict[str, tuple[int, float]] = {}
    waiting: set[str] = set()
    for unit in state.units:
        if unit.side != side:
            continue
        count, vbu = sizes.get(unit.group, (0, 0.0))
        value = unit.profile.get("vbu", 0)
        more = float(value) if isinstance(value, int | float) else 0.0
        sizes[unit.group] = (count + 1, vbu + more)
        if unit.location == RESERVE:
            waiting.add(unit.group)
    rank = {g.id: n for n, g in enumerate(state.groups)}
    found = sorted(sizes, key=lambda g: (-sizes[g][0], -sizes[g][1], rank.get(g, 999)))
    return [g for g in found if g in waiting] if reserve_only else found


def biggest_command(state: BattleState, side: str) -> str | None:
    """The side's biggest command (steps 8 and 9), reckoned on all its units so that the
    answer is the same before and after it deploys (planning ahead looks at it early)."""
    found = commands_by_size(state, side)
    return found[0] if found else None


def commands_in_reserve(state: BattleState, side: str) -> list[str]:
    """The side's commands still to deploy at step 10: those with units in reserve, the
    biggest first, without the biggest command (deployed at step 8 or 9)."""
    biggest = biggest_command(state, side)
    return [g for g in commands_by_size(state, side, reserve_only=True) if g != biggest]


def alternate_commands(state: BattleState, first: str) -> tuple[Subject, ...]:
    """The commands for step 10, the sides alternately starting with ``first``; once a side
    has none left, the other's follow one after another."""
    second = other_side(state, first)
    queues = {first: commands_in_reserve(state, first), second: commands_in_reserve(state, second)}
    found: list[Subject] = []
    turn = first
    while queues[first] or queues[second]:
        if not queues[turn]:
            turn = other_side(state, turn)
        found.append(Subject(queues[turn].pop(0), turn))
        turn = other_side(state, turn)
    return tuple(found)


def facing_of(order: Order, default: float) -> float:
    """The order's ``facing`` parameter, else ``default``."""
    value = order.params.get("facing")
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
    )


def say(ctx: Context, event: TestResolved) -> None:
    """Log a look-up (a row, a choice, a refusal): nothing passed or failed."""
    ctx.emit(replace(event, verdict=False))


def own_order(ctx: Context, side: str, kind: str) -> Order | None:
    """The side's first order of ``kind`` that the rules accept, if any."""
    rules = ctx.rules
    for order in ctx.orders:
        if (
            order.kind == kind
            and order.actor == side
            and isinstance(rules.judge(ctx.state, order), Preview)
        ):
            return order
    return None


def plan_of(state: BattleState, side: str) -> str:
    """The side's battle plan as written at step 6 ("" if none was)."""
    plan = BATTLE_PLAN.of(hidden_of(state, side))
    return "" if plan == NO_PLAN else plan

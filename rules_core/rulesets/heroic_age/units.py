"""What every phase does to units and leaders: aggression levels, DPs (the 4-DP rule),
casualties, units lost and their knock-on effects, risk to leaders and leaders killed.

These are the calls the god pack, leadership and personal combat use too:

- ``change_aggression(ctx, unit_id, levels, reason, cause="morale")``: up or down; a level
  below Shaken costs a stand instead (read from the sheet's 4-DP rule, applied to every drop).
- ``add_dps(ctx, unit_id, n, reason, cause)``: ``cause`` one of combat, shooting, morale,
  fatigue, manoeuvre; with 4 DPs, further DPs of the first three drop a level instead.
- ``lose_lps(ctx, leader_id, n, reason)``: LPs down; at 0 LPs the leader is killed.
- ``add_wound(ctx, leader_id, reason)``: one more wound (``Leader.wounds``).
- ``kill_leader(ctx, leader_id, reason)``: removed; his contingent drops a level; a
  commander-in-chief's side gets ``cinc_killed``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from rules_core.context import Context
from rules_core.dice import Purpose
from rules_core.events import LeaderHit, StatusChanged
from rules_core.geometry import EPSILON, Footprint, boxes_apart, edge_distance
from rules_core.geometry import within as within  # the core's "within N", used as u.within
from rules_core.rulesets.heroic_age import tables
from rules_core.rulesets.heroic_age.status import (
    AGGRESSION,
    AGGRESSION_CHANGED_BY,
    AGGRESSION_ORDER,
    BATTLE_STANDARD,
    CASUALTIES,
    CINC,
    DPS,
    HEROIC_CHAMPION,
    RETIRING,
    WOUNDS,
)
from rules_core.state import BattleState, Leader, Unit
from rules_core.toolkit import enemies_in_contact

GRADE_RANK = {"A": 4, "B": 3, "C": 2, "D": 1}
BOUND_SLACK = 1e-9  # float noise allowed between a box's distance and shapely's gap


def alive(state: BattleState, unit_id: str | None) -> bool:
    """Whether a unit is still on the table."""
    # ``owner`` looks the id up in the state's index of its units (kept per frozen state).
    return unit_id is not None and state.owner("unit", unit_id) is not None


def level(unit: Unit) -> str:
    """The unit's aggression level (Present if unset)."""
    found = AGGRESSION.of(unit)
    return found if found in AGGRESSION_ORDER else "present"


def level_index(unit: Unit) -> int:
    """0 Shaken, 1 Present, 2 Ready for Battle, 3 Blood Lust."""
    return AGGRESSION_ORDER.index(level(unit))


def grade_rank(unit: Unit) -> int:
    """A 4, B 3, C 2, D 1 (C for a grade the sheet lacks)."""
    return GRADE_RANK.get(unit.quality, 2)


def lower_or_equal(unit: Unit, than: Unit) -> bool:
    """Whether ``than`` is of equal or higher grade than ``unit``."""
    return grade_rank(than) >= grade_rank(unit)


def stands_left(unit: Unit) -> int:
    """Stands not lost as casualties."""
    return max(0, unit.stands - CASUALTIES.of(unit))


def front_stands(unit: Unit) -> int:
    """Stands in the front rank (those that fight and shoot)."""
    ranks = unit.profile.get("ranks", 1)
    depth = int(ranks) if isinstance(ranks, int | float) and ranks >= 1 else 1
    left = stands_left(unit)
    return max(1, min(left, -(-left // depth))) if left else 0


def gap(state: BattleState, a: Unit, b: Unit) -> float:
    """Edge-to-edge distance between two units."""
    return edge_distance(Footprint.of(a), Footprint.of(b))


def gap_within(state: BattleState, a: Unit, b: Unit, reach: float) -> bool:
    """``within(gap(state, a, b), reach)``, with units whose boxes lie further apart than
    ``reach`` answered from their boxes alone (the gap is at least the boxes' distance)."""
    if boxes_apart(Footprint.of(a), Footprint.of(b), reach + EPSILON):
        return False
    return within(gap(state, a, b), reach)


def leaders_with(state: BattleState, unit: Unit) -> list[Leader]:
    """The leaders standing with a unit."""
    return [ld for ld in state.leaders if ld.attached_to == unit.id]


def leader_gap(state: BattleState, leader: Leader, unit: Unit) -> float:
    """Distance from a leader to a unit (0 if he is with it)."""
    if leader.attached_to == unit.id:
        return 0.0
    return edge_distance(leader_place(state, leader), Footprint.of(unit))


def leader_place(state: BattleState, leader: Leader) -> Footprint:
    """Where a leader stands: the footprint of the unit he is with, else a point's."""
    if leader.attached_to and alive(state, leader.attached_to):
        return Footprint.of(state.unit(leader.attached_to))
    return Footprint(leader.x, leader.y, 0.0, 1e-3, 1e-3)


def leader_within(state: BattleState, leader: Leader, unit: Unit, reach: float) -> bool:
    """``within(leader_gap(...), reach)``, answered from the boxes alone when they lie further
    apart than ``reach`` (as ``gap_within``)."""
    if leader.attached_to == unit.id:
        return within(0.0, reach)
    here = leader_place(state, leader)
    if boxes_apart(here, Footprint.of(unit), reach + EPSILON):
        return False
    return within(edge_distance(here, Footprint.of(unit)), reach)


def own_leader(state: BattleState, unit: Unit) -> Leader | None:
    """The leader of the unit's contingent, if he is alive."""
    group = next((g for g in state.groups if g.id == unit.group), None)
    if group is None or group.leader is None:
        return None
    return next((ld for ld in state.leaders if ld.id == group.leader), None)


def champion_or_standard(state: BattleState, unit: Unit) -> str | None:
    """What is attached to the unit for the combat's +1: a heroic champion or a battle standard."""
    for leader in leaders_with(state, unit):
        if HEROIC_CHAMPION.of(leader):
            return f"heroic champion {leader.name}"
        if BATTLE_STANDARD.of(leader):
            return f"battle standard with {leader.name}"
    return None


def standard_within(state: BattleState, unit: Unit, reach: float) -> Leader | None:
    """A friendly leader carrying the battle standard within ``reach`` of the unit."""
    for leader in state.leaders:
        mine = leader.side == unit.side and BATTLE_STANDARD.of(leader)
        if mine and leader_within(state, leader, unit, reach):
            return leader
    return None


# -- aggression levels and DPs ------------------------------------------------------------------


def change_aggression(
    ctx: Context, unit_id: str, levels: int, reason: str, *, once: str = ""
) -> None:
    """Raise or lower a unit's aggression level; every level below Shaken costs a stand.

    ``once``: a "one level only" cause (``AGGRESSION_CAUSES``): it applies at most once a turn.
    """
    if not alive(ctx.state, unit_id) or not levels:
        return
    unit = ctx.state.unit(unit_id)
    if once:
        seen = AGGRESSION_CHANGED_BY.of(unit)
        done = list(seen) if isinstance(seen, list) else []
        if once in done:
            return
        ctx.set_status(unit_id, None, aggression_changed_by=[*done, once])
        levels = max(-1, min(1, levels))
    index = level_index(unit) + levels
    top = len(AGGRESSION_ORDER) - 1
    if index > top:
        index = top
    if index < 0:
        below = -index
        if level(unit) != "shaken":
            ctx.set_status(unit_id, reason, aggression="shaken")
        casualties(ctx, unit_id, below, f"reduced below Shaken ({reason})")
        return
    ctx.set_status(unit_id, reason, aggression=AGGRESSION_ORDER[index])


def add_dps(ctx: Context, unit_id: str, n: int, reason: str, cause: str) -> None:
    """Give (or, negative, remove) DPs; the 4-DP rule turns further combat, shooting or morale
    DPs into a lost aggression level each."""
    if not alive(ctx.state, unit_id) or not n:
        return
    unit = ctx.state.unit(unit_id)
    if n < 0:
        ctx.set_status(unit_id, reason, dps=max(0, DPS.of(unit) + n))
        return
    limit = tables.FOUR_DP_LIMIT
    now = DPS.of(unit)
    counted = n
    if cause in tables.FOUR_DP_CAUSES:
        counted = max(0, min(n, limit - now))
    if counted:
        ctx.set_status(unit_id, reason, dps=now + counted)
    extra = n - counted
    if extra:
        change_aggression(ctx, unit_id, -extra, f"{reason}: {limit} DPs already")


def casualties(ctx: Context, unit_id: str, n: int, reason: str) -> None:
    """Stands lost; a unit with none left is destroyed."""
    if not alive(ctx.state, unit_id) or n <= 0:
        return
    unit = ctx.state.unit(unit_id)
    ctx.set_status(unit_id, reason, casualties=CASUALTIES.of(unit) + n)
    if stands_left(ctx.state.unit(unit_id)) <= 0:
        lose_unit(ctx, unit_id, f"no stands left ({reason})", "destroyed")


def lose_unit(ctx: Context, unit_id: str, reason: str, how: str) -> None:
    """A unit broken off the table, destroyed or surrendered: the levels its loss costs and
    gains within 2", its leaders left where it stood."""
    if not alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    knock_on_loss(ctx, unit, how)
    if not alive(ctx.state, unit_id):
        return  # the loss came back through a friend lost beside it: it is already gone
    for leader in leaders_with(ctx.state, unit):
        ctx.state = ctx.state.with_leader(replace(leader, attached_to=None, x=unit.x, y=unit.y))
    ctx.destroy(unit_id, reason)


def knock_on_loss(ctx: Context, unit: Unit, how: str) -> None:
    """-1 to friends of equal or lower grade within 2", +1 to enemies within 2" (once each)."""
    friend_row, enemy_row = "friend_lost", "enemy_lost"
    reach = tables.number(tables.AGGRESSION_CAUSES, friend_row, "within")
    for other in ctx.state.units:
        if other.id == unit.id or not gap_within(ctx.state, unit, other, reach):
            continue
        if other.side == unit.side and grade_rank(unit) >= grade_rank(other):
            levels = tables.whole(tables.AGGRESSION_CAUSES, friend_row, "levels")
            change_aggression(
                ctx, other.id, levels, f'{unit.name} {how} within {reach:g}"', once=friend_row
            )
        elif other.side != unit.side:
            levels = tables.whole(tables.AGGRESSION_CAUSES, enemy_row, "levels")
            change_aggression(
                ctx, other.id, levels, f'enemy {unit.name} {how} within {reach:g}"', once=enemy_row
            )


def knock_on_retire(ctx: Context, unit: Unit) -> None:
    """A unit retires: +1 level to enemies within 2" (once), 1 DP to friends of equal or lower
    grade within 2", and a battle standard retiring costs its contingent a level."""
    enemy_reach = tables.number(tables.AGGRESSION_CAUSES, "enemy_lost", "within")
    dp_reach = tables.number(tables.DP_CAUSES, "friend_retiring", "within")
    retire_reach = max(enemy_reach, dp_reach)
    for other in list(ctx.state.units):
        if other.id == unit.id or not gap_within(ctx.state, unit, other, retire_reach):
            continue  # neither reach: the boxes are enough to tell, most often
        apart = gap(ctx.state, unit, other)
        if other.side != unit.side and within(apart, enemy_reach):
            levels = tables.whole(tables.AGGRESSION_CAUSES, "enemy_lost", "levels")
            change_aggression(
                ctx,
                other.id,
                levels,
                f'enemy {unit.name} retiring within {enemy_reach:g}"',
                once="enemy_lost",
            )
        elif other.side == unit.side and within(apart, dp_reach) and lower_or_equal(other, unit):
            dps = tables.whole(tables.DP_CAUSES, "friend_retiring", "dps")
            add_dps(ctx, other.id, dps, f'{unit.name} retiring within {dp_reach:g}"', "morale")
    standard_leaves(ctx, unit, "retiring")


def standard_leaves(ctx: Context, unit: Unit, how: str) -> None:
    """The cause "-1 Battle Standard routing or retiring": its contingent drops a level."""
    if any(BATTLE_STANDARD.of(ld) for ld in leaders_with(ctx.state, unit)):
        levels = tables.whole(tables.AGGRESSION_CAUSES, "standard_retiring", "levels")
        for friend in list(ctx.state.units_of(unit.side)):
            if friend.group == unit.group:
                change_aggression(ctx, friend.id, levels, f"the battle standard is {how}")


def mark_retiring(ctx: Context, unit_id: str, reason: str) -> None:
    """Set a unit retiring, with what that causes around it (once a turn)."""
    if not alive(ctx.state, unit_id) or RETIRING.of(ctx.state.unit(unit_id)):
        return
    ctx.set_status(unit_id, reason, retiring=True, unformed=True)
    knock_on_retire(ctx, ctx.state.unit(unit_id))


# -- leaders ------------------------------------------------------------------------------------


def lose_lps(ctx: Context, leader_id: str, n: int, reason: str) -> None:
    """A leader loses LPs; "0 LPs = Leader killed"."""
    leader = next((ld for ld in ctx.state.leaders if ld.id == leader_id), None)
    if leader is None or n <= 0:
        return
    points = max(0, leader.points - n)
    ctx.emit(StatusChanged(leader.id, "points", leader.points, points, reason))
    ctx.state = ctx.state.with_leader(replace(leader, points=points))
    if points == 0:
        kill_leader(ctx, leader_id, f"0 LPs ({reason})")


def add_wound(ctx: Context, leader_id: str, reason: str) -> None:
    """One more wound on a leader (``Leader.wounds``, which the map shows)."""
    leader = ctx.state.leader(leader_id)
    ctx.emit(StatusChanged(leader.id, WOUNDS.key, leader.wounds, leader.wounds + 1, reason))
    ctx.state = ctx.state.with_leader(replace(leader, wounds=leader.wounds + 1))


def kill_leader(ctx: Context, leader_id: str, reason: str) -> None:
    """A leader is killed: removed; -1 level to his contingent; a CinC's side is marked."""
    leader = next((ld for ld in ctx.state.leaders if ld.id == leader_id), None)
    if leader is None:
        return
    if CINC.of(leader):
        ctx.set_side_status(leader.side, f"{leader.name} killed", cinc_killed=True)
    ctx.remove_leader(leader_id, f"killed: {reason}")
    levels = tables.whole(tables.AGGRESSION_CAUSES, "leader_killed", "levels")
    for unit in list(ctx.state.units_of(leader.side)):
        if leader.group and unit.group == leader.group:
            change_aggression(ctx, unit.id, levels, f"{leader.name} killed")


def risk_to_leaders(ctx: Context, unit: Unit, why: str) -> None:
    """Risk to Leader for every leader with a unit hit by missiles or engaged in combat."""
    for leader in leaders_with(ctx.state, unit):
        risk = Purpose(leader.id, "risk to leader", unit.id)
        first = ctx.dice.d6(f"Risk to leader: {leader.name} ({why})", purpose=risk)
        band = ctx.test(leader.id, "Risk to leader", first, tables.RISK_TO_LEADER, ("safe",))
        if band.result == "safe":
            continue
        second = ctx.dice.d6(f"Leader hit: {leader.name}", purpose=Purpose(leader.id, "leader hit"))
        hit = ctx.test(leader.id, "Leader hit", second, tables.LEADER_HIT, ())
        ctx.emit(LeaderHit(leader.id, hit.text, why))
        if hit.result == "killed":
            kill_leader(ctx, leader.id, hit.text)
            continue
        add_wound(ctx, leader.id, hit.text)
        lose_lps(ctx, leader.id, -tables.LEADER_HIT_LPS[hit.result], hit.text)


def nearest_enemy(state: BattleState, unit: Unit) -> Unit | None:
    """The nearest enemy unit, edge to edge (the first of equals, as ``min`` finds it)."""
    here = Footprint.of(unit)
    # The boxes' distance never exceeds the gap: enemies are measured nearest box first, and
    # those whose boxes lie beyond the nearest gap found (with float slack) are never measured.
    bounded = sorted(
        (box_distance(here, Footprint.of(e)), index, e)
        for index, e in enumerate(state.enemies_of(unit.side))
    )
    best: tuple[float, int, Unit] | None = None
    for low, index, enemy in bounded:
        if best is not None and low - BOUND_SLACK > best[0]:
            break
        found = (gap(state, unit, enemy), index, enemy)
        if best is None or found[:2] < best[:2]:
            best = found
    return None if best is None else best[2]


def box_distance(a: Footprint, b: Footprint) -> float:
    """The distance between two footprints' upright boxes (never more than their gap)."""
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a.bounds, b.bounds
    dx = max(0.0, bx0 - ax1, ax0 - bx1)
    dy = max(0.0, by0 - ay1, ay0 - by1)
    return math.hypot(dx, dy)


def engaged_with(state: BattleState, unit: Unit) -> list[Unit]:
    """Enemies in contact with the unit."""
    return enemies_in_contact(state, unit)

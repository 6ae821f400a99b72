"""Knock-on DPs ("Cause of DPs"), risk to leaders, and contingents leaving the field."""

from __future__ import annotations

from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Purpose
from rules_core.events import LeaderHit, StatusChanged
from rules_core.geometry import Footprint, edge_distance, within
from rules_core.rulesets.tree_of_battles import measure, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import NOBLE
from rules_core.state import BattleState, Leader, Unit

NEAR = 3.0  # "within 3 SF"
NOBLE_NEAR = 6.0  # "Noble killed/routed in 6 SF"
LEADER_FIELDS = ("points", "attached_to", "x", "y")


def _cause(key: str) -> int:
    value = tables.CAUSES_OF_DPS.lookup(key, "dps")
    assert isinstance(value, int)
    return value


def friends_near(state: BattleState, unit: Unit, reach: float) -> list[Unit]:
    """Other contingents of the same side within ``reach`` SF."""
    return [
        f
        for f in state.units_of(unit.side, on_table=True)
        if f.id != unit.id and within(measure.gap(unit, f), reach)
    ]


def retired(ctx: Context, unit: Unit) -> None:
    """1 DP to non-chivalrous friends within 3 SF when a higher grade contingent retires."""
    for friend in friends_near(ctx.state, unit, NEAR):
        if not u.chivalrous(friend) and u.grade_rank(unit.quality) > u.grade_rank(friend.quality):
            u.add_dps(
                ctx, friend.id, _cause("higher_grade_retires"), f"{unit.name} retired within 3 SF"
            )


def routed(ctx: Context, unit: Unit, what: str) -> None:
    """DPs to friends within 3 SF when an equal or higher grade contingent routs or is destroyed."""
    for friend in friends_near(ctx.state, unit, NEAR):
        if u.grade_rank(unit.quality) < u.grade_rank(friend.quality):
            continue
        key = "routs_or_destroyed_chivalrous" if u.chivalrous(friend) else "routs_or_destroyed"
        u.add_dps(ctx, friend.id, _cause(key), f"{unit.name} {what} within 3 SF")
    for leader in u.leaders_with(ctx.state, unit):
        if NOBLE.of(leader):
            noble_lost(ctx, unit, f"{leader.name} routed with {unit.name}")


def noble_lost(ctx: Context, where: Unit, why: str, with_own: bool = False) -> None:
    """2 DPs to friends within 6 SF of a noble killed or routed (and his own, if killed)."""
    near = friends_near(ctx.state, where, NOBLE_NEAR)
    for friend in [where, *near] if with_own else near:
        u.add_dps(ctx, friend.id, _cause("noble_lost"), why)


def destroy(ctx: Context, unit: Unit, reason: str) -> None:
    """Remove a contingent, with the DPs its loss causes; its leaders are left on foot."""
    if not u.alive(ctx.state, unit.id):
        return
    routed(ctx, unit, "destroyed")
    for leader in u.leaders_with(ctx.state, unit):
        moved = replace(leader, attached_to=None, x=unit.x, y=unit.y)
        ctx.state = ctx.state.with_leader(moved)
    ctx.destroy(unit.id, reason)


def casualties(ctx: Context, unit: Unit, count: int, reason: str) -> None:
    """Give casualties; a contingent with no stands left is destroyed."""
    now = ctx.state.unit(unit.id)
    if u.stands_left(now) <= count:
        ctx.set_status(unit.id, reason, casualties=u.casualties(now) + count)
        destroy(ctx, ctx.state.unit(unit.id), f"no stands left ({reason})")
        return
    u.add_casualties(ctx, unit.id, count, reason)


def leader_position(state: BattleState, leader: Leader) -> Footprint:
    """Where a leader is: his contingent's footprint if attached, else a point-sized stand."""
    if leader.attached_to and u.alive(state, leader.attached_to):
        return Footprint.of(state.unit(leader.attached_to))
    return Footprint(leader.x, leader.y, 0.0, 1e-3, 1e-3)


def leader_gap(state: BattleState, leader: Leader, unit: Unit) -> float:
    """Distance from a leader to a contingent (0 if he is with it)."""
    if leader.attached_to == unit.id:
        return 0.0
    return edge_distance(leader_position(state, leader), Footprint.of(unit))


def _with_field(leader: Leader, name: str, value: Json) -> Leader:
    """The leader with one of ``LEADER_FIELDS`` changed, the value checked against its type."""
    if name == "attached_to":
        assert value is None or isinstance(value, str), (name, value)
        return replace(leader, attached_to=value)
    assert isinstance(value, int | float) and not isinstance(value, bool), (name, value)
    if name == "points":
        assert isinstance(value, int), (name, value)
        return replace(leader, points=value)
    return replace(leader, x=value) if name == "x" else replace(leader, y=value)


def set_leader(ctx: Context, leader: Leader, reason: str, **changes: Json) -> None:
    """Change a leader's points, attachment or status entries, logging each change."""
    for name, value in changes.items():
        if name not in LEADER_FIELDS:
            ctx.set_leader_status(leader.id, reason, **{name: value})
            continue
        fresh = ctx.state.leader(leader.id)
        old = getattr(fresh, name)
        if old != value:
            ctx.emit(StatusChanged(leader.id, name, old, value, reason))
        ctx.state = ctx.state.with_leader(_with_field(fresh, name, value))


def risk_to_leaders(ctx: Context, unit: Unit, why: str) -> None:
    """Risk to Leader for every leader with a contingent: D6 1 = hit, then the second roll."""
    for leader in u.leaders_with(ctx.state, unit):
        risk = Purpose(leader.id, "risk to leader", row=why)
        first = ctx.dice.d6(f"Risk to leader: {leader.name} ({why})", purpose=risk)
        if (
            ctx.test(leader.id, "Risk to leader", first, tables.RISK_TO_LEADER, ("safe",)).result
            == "safe"
        ):
            continue
        second = ctx.dice.d6(f"Leader hit: {leader.name}", purpose=Purpose(leader.id, "leader hit"))
        band = ctx.test(leader.id, "Leader hit", second, tables.LEADER_HIT, ("no_effect",))
        ctx.emit(LeaderHit(leader.id, band.text, why))
        if band.result == "killed":
            _killed(ctx, leader, unit)
        elif band.result != "no_effect":
            points = max(0, leader.points + tables.LEADER_HIT_CPS[band.result])
            set_leader(ctx, leader, band.text, points=points)


def _killed(ctx: Context, leader: Leader, unit: Unit) -> None:
    """A leader is killed: removed, and nobles cost nearby friends 2 DPs."""
    ctx.state = replace(
        ctx.state, leaders=tuple(ld for ld in ctx.state.leaders if ld.id != leader.id)
    )
    if NOBLE.of(leader) and u.alive(ctx.state, unit.id):
        noble_lost(ctx, ctx.state.unit(unit.id), f"{leader.name} killed", with_own=True)

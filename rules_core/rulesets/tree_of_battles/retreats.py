"""Moving back: fall back, retire and break (rout), each as "Movement after Combat" defines it."""

from __future__ import annotations

from rules_core import paths, profile
from rules_core.context import Context
from rules_core.geometry import Footprint, Point
from rules_core.rulesets.tree_of_battles import losses, measure, movement, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import BROKEN
from rules_core.state import Unit


def threat_of(ctx: Context, unit: Unit) -> Point:
    """Where danger lies: the nearest enemy's centre (or straight ahead if none)."""
    enemy = measure.nearest(ctx.state.enemies_of(unit.side, on_table=True), unit)
    if enemy is None:
        ahead = Footprint.of(unit).at(1.0, 0.0)
        return ahead
    return (enemy.x, enemy.y)


def fall_back(ctx: Context, unit: Unit, threat: Point) -> None:
    """Move back base depth facing the enemy; if unable to, 1 DP and remain in place.

    Only the contingent's own rear rank may be passed ("Front rank can fall back through the
    rear"), so friends, enemies, ground it may not enter and the table edge all stop it.
    """
    value = profile.value(unit, "stand_depth")
    stand = float(value) if isinstance(value, int | float) else unit.depth / u.ranks(unit)
    heading = movement.away_from(unit, threat)
    move = paths.sweep(ctx.state, unit, heading, stand, impassable=movement.impassable(unit))
    if not move.clear:
        way = movement.in_the_way(ctx.state, move.blocker)
        u.add_dps(ctx, unit.id, tables.BLOCKED_RETIRE_DPS, f"unable to fall back ({way})")
        return
    end = move.end
    path = [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))]
    ctx.move(unit.id, path, unit.facing, ["falls back base depth facing the enemy"])
    u.mark(ctx, unit.id, stationary=False)


# A retire "may stop short if separated from the chargers by friendly troops or terrain";
# anything else in the way means it is unable to retire.
MAY_STOP_SHORT = frozenset({paths.FRIEND, paths.TERRAIN})


def retire(ctx: Context, unit: Unit, threat: Point, why: str) -> None:
    """A full fast move back in disarray; unable to (enemy or table edge in the way), 1 DP.

    The sheet gives a blocked retire 1 DP in place, so a retire never leaves the table. Friends
    within 3 SF take their DPs from where the contingent began to retire.
    """
    length, _ = movement.roll_distance(ctx, unit, "Fast move (retire)", movement.fast_dice(unit))
    u.set_array(ctx, unit.id, "disarray", f"retires ({why})")
    u.mark(ctx, unit.id, stationary=False, retiring=True)
    began = ctx.state.unit(unit.id)
    move = movement.flight(ctx.state, began, threat, length, leaves_table=False)
    stopped = move.blocker is not None and move.blocker.kind not in MAY_STOP_SHORT
    if stopped or move.reached <= 1e-6:
        way = movement.in_the_way(ctx.state, move.blocker)
        u.add_dps(ctx, unit.id, tables.BLOCKED_RETIRE_DPS, f"unable to retire ({way})")
    else:
        movement.carry(ctx, began, move, "retires")
    losses.retired(ctx, began)


def rout(ctx: Context, unit: Unit, threat: Point, why: str) -> bool:
    """Break: a full fast rout move in disarray; unable to move, 1 casualty. False if gone.

    It routs "until destroyed or off table", so the edge does not stop it; an enemy or ground
    it may not enter in its path does, and it stays in place.
    """
    first = not BROKEN.of(unit)
    if first:
        u.set_array(ctx, unit.id, "disarray", f"breaks ({why})")
        u.set_flags(ctx, unit.id, f"breaks ({why})", broken=True, pursuing=False)
        u.mark(ctx, unit.id, stationary=False)
        losses.routed(ctx, ctx.state.unit(unit.id), "routs")
    unit = ctx.state.unit(unit.id)
    length, _ = movement.roll_distance(ctx, unit, "Fast move (rout)", movement.fast_dice(unit))
    move = movement.flight(ctx.state, unit, threat, length, leaves_table=True)
    stopped = move.blocker is not None and move.blocker.kind != paths.FRIEND
    if stopped or move.reached <= 1e-6:
        way = movement.in_the_way(ctx.state, move.blocker)
        losses.casualties(ctx, unit, tables.BLOCKED_ROUT_CASUALTIES, f"unable to rout away ({way})")
    elif not measure.on_table(ctx.state, move.end):
        ctx.destroy(unit.id, "routs off the table")
        return False
    else:
        movement.carry(ctx, unit, move, "routs")
    return u.alive(ctx.state, unit.id)


def keep_routing(ctx: Context, unit: Unit) -> None:
    """A broken contingent routs on, taking one casualty for each turn of rout after the first."""
    losses.casualties(ctx, unit, 1, "another turn of rout")
    if u.alive(ctx.state, unit.id):
        rout(ctx, ctx.state.unit(unit.id), threat_of(ctx, unit), "still routing")

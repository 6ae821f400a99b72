"""Moving back: fall back, retire and break (rout), each as "Movement after Combat" defines it."""

from __future__ import annotations

from rules_core import profile
from rules_core.context import Context
from rules_core.geometry import Footprint, Point
from rules_core.rulesets.tree_of_battles import losses, measure, movement, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import BROKEN
from rules_core.state import Unit


def threat_of(ctx: Context, unit: Unit) -> Point:
    """Where danger lies: the nearest enemy's centre (or straight ahead if none)."""
    enemy = measure.nearest(ctx.state.enemies_of(unit.side), unit)
    if enemy is None:
        ahead = Footprint.of(unit).at(1.0, 0.0)
        return ahead
    return (enemy.x, enemy.y)


def fall_back(ctx: Context, unit: Unit, threat: Point) -> None:
    """Move back base depth facing the enemy; if unable to, 1 DP and remain in place."""
    value = profile.value(unit, "stand_depth")
    stand = float(value) if isinstance(value, int | float) else unit.depth / u.ranks(unit)
    start = Footprint.of(unit)
    heading = movement.away_from(unit, threat)
    others = [o for o in ctx.state.units if o.id != unit.id]

    def free(pose: Footprint) -> bool:
        turned = pose.moved_to((pose.x, pose.y), unit.facing)
        clear = all(
            turned.polygon.intersection(Footprint.of(o).polygon).area <= 1e-6 for o in others
        )
        return clear and measure.on_table(ctx.state, turned)

    moved = measure.farthest(start, heading, stand, free)
    if moved + 1e-6 < stand:
        u.add_dps(ctx, unit.id, tables.BLOCKED_RETIRE_DPS, "unable to fall back")
        return
    end = start.moved_to((unit.x, unit.y), heading).advanced(moved)
    path = [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))]
    ctx.move(unit.id, path, unit.facing, ["falls back base depth facing the enemy"])
    u.mark(ctx, unit.id, stationary=False)


def retire(ctx: Context, unit: Unit, threat: Point, why: str) -> bool:
    """A full fast move back in disarray; unable to, 1 DP in place. False if it left the table."""
    length, _ = movement.roll_distance(ctx, unit, "Fast move (retire)", movement.fast_dice(unit))
    u.set_array(ctx, unit.id, "disarray", f"retires ({why})")
    u.mark(ctx, unit.id, stationary=False, retiring=True)
    moved, gone = movement.flee(ctx, ctx.state.unit(unit.id), threat, length, "retires")
    if gone:
        return False
    if moved <= 1e-6:
        u.add_dps(ctx, unit.id, tables.BLOCKED_RETIRE_DPS, "unable to retire")
    losses.retired(ctx, ctx.state.unit(unit.id))
    return True


def rout(ctx: Context, unit: Unit, threat: Point, why: str) -> bool:
    """Break: a full fast rout move in disarray; unable to move, 1 casualty. False if gone."""
    first = not BROKEN.of(unit)
    if first:
        u.set_array(ctx, unit.id, "disarray", f"breaks ({why})")
        u.set_flags(ctx, unit.id, f"breaks ({why})", broken=True, pursuing=False)
        u.mark(ctx, unit.id, stationary=False)
        losses.routed(ctx, ctx.state.unit(unit.id), "routs")
    unit = ctx.state.unit(unit.id)
    length, _ = movement.roll_distance(ctx, unit, "Fast move (rout)", movement.fast_dice(unit))
    moved, gone = movement.flee(ctx, unit, threat, length, "routs")
    if gone:
        return False
    if moved <= 1e-6:
        losses.casualties(ctx, unit, tables.BLOCKED_ROUT_CASUALTIES, "unable to rout away")
    return u.alive(ctx.state, unit.id)


def keep_routing(ctx: Context, unit: Unit) -> None:
    """A broken contingent routs on, taking one casualty for each turn of rout after the first."""
    losses.casualties(ctx, unit, 1, "another turn of rout")
    if u.alive(ctx.state, unit.id):
        rout(ctx, ctx.state.unit(unit.id), threat_of(ctx, unit), "still routing")
